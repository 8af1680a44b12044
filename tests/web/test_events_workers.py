"""Two workers on one PostgreSQL database form an event's round exactly once (issue 55): each
is the site's services over its own connections (as ``ra serve --workers 2`` runs them), both
try to form the same round at the same moment, and the round's row in the database — the claim —
lets one of them."""

from __future__ import annotations

import asyncio
from pathlib import Path

import sqlalchemy as sa

from ra.web import db
from ra.web.events import JoinEvent, NewEvent
from ra.web.services import Services, build_services
from ra.web.settings import Settings

STATIC = Path(db.__file__).with_name("static")


def worker(url: str, name: str) -> Services:
    """One worker's services over ``url`` (its own engine and worker id)."""
    return build_services(Settings(db_url=url, worker_id=name), STATIC)


async def six_accounts(services: Services) -> list[tuple[str, str]]:
    """Six accounts, made straight in the database (signing up is tested elsewhere)."""
    people = [(f"acc{i}", f"Player{i}") for i in range(6)]
    async with services.store.engine.begin() as conn:
        await conn.execute(
            sa.insert(db.accounts),
            [
                {"id": a, "name": n, "name_key": n.casefold(), "password_hash": "-", "created_at": db.now()}
                for a, n in people
            ],
        )
    return people


def test_two_workers_on_postgresql_form_a_round_exactly_once(pg_url: str) -> None:
    db.upgrade(pg_url)

    async def main() -> None:
        one, two = worker(pg_url, "one"), worker(pg_url, "two")
        try:
            people = await six_accounts(one)
            made = await one.events.create(NewEvent(name="Race Cup", table_size=3, rounds=2), people[0])
            eid = made["event"]["id"]
            for p in people:
                await two.events.join(eid, JoinEvent(), p)
            assert await one.events.store.move(eid, ("open",), "running")
            formed = await asyncio.gather(*(w.events.form_round(eid) for w in (one, two, one, two)))
            assert sorted(formed) == [False, False, False, True]
            view = await two.events.view(eid)
            assert [(t["round"], len(t["players"])) for t in view["tables"]] == [(1, 3), (1, 3)]
            async with one.store.engine.connect() as conn:
                made_games = await conn.scalar(
                    sa.select(sa.func.count()).where(db.games.c.creator_addr == f"event:{eid}")
                )
            assert made_games == 2  # one game a table, made by the worker that won the claim
            assert not await two.events.form_round(eid)  # round 1 is still being played
        finally:
            for w in (one, two):
                await w.stop()

    asyncio.run(main())


def test_an_event_whose_start_time_has_come_is_started_once_by_the_sweeps_of_two_workers(pg_url: str) -> None:
    db.upgrade(pg_url)

    async def main() -> None:
        one, two = worker(pg_url, "one"), worker(pg_url, "two")
        try:
            people = await six_accounts(one)
            now = (await one.events.create(NewEvent(name="Now Cup", start_in=0), people[0]))["event"]["id"]
            later = (await one.events.create(NewEvent(name="Later Cup", start_in=3600), people[0]))["event"][
                "id"
            ]
            for p in people:
                for eid in (now, later):
                    await two.events.join(eid, JoinEvent(), p)
            await asyncio.gather(one.events.sweep(), two.events.sweep(), one.events.sweep())
            started = await one.events.view(now)
            assert started["status"] == "running" and [t["round"] for t in started["tables"]] == [1, 1]
            assert (await two.events.view(later))["status"] == "open"  # its time has not come
        finally:
            for w in (one, two):
                await w.stop()

    asyncio.run(main())
