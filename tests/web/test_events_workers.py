"""Two workers on one PostgreSQL database form an event's round exactly once (issue 55): each
is the site's services over its own connections (as ``ra serve --workers 2`` runs them), both
try to form the same round at the same moment, and the round's row in the database — the claim —
lets one of them."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from ra.web import db
from ra.web.events import FORM_LEASE_SECONDS, JoinEvent, NewEvent
from ra.web.lobby import ApiError, NewGame, Seated
from ra.web.services import Services, build_services
from ra.web.settings import Settings
from ra.web.store.limits import lock_key

STATIC = Path(db.__file__).with_name("static")
Linker = Callable[[AsyncConnection, str], Awaitable[None]]


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
            view = await two.events.view(eid, fresh=True)
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
            started = await one.events.view(now, fresh=True)
            assert started["status"] == "running" and [t["round"] for t in started["tables"]] == [1, 1]
            assert (await two.events.view(later, fresh=True))["status"] == "open"  # its time has not come
        finally:
            for w in (one, two):
                await w.stop()

    asyncio.run(main())


def test_a_worker_killed_between_claiming_a_round_and_making_its_games_holds_it_up_seconds_only(
    pg_url: str,
) -> None:
    """Worker one claims round 1 and dies making its second game (inside that game's own
    transaction, as a killed process leaves it); while its claim is fresh nobody else forms the
    round; once the claim has gone unrenewed for the lease (the claim's time moved back, no
    waiting) two workers at once finish it: one game a table, none made twice or left over."""
    db.upgrade(pg_url)

    async def main() -> None:
        one, two, three = worker(pg_url, "one"), worker(pg_url, "two"), worker(pg_url, "three")
        try:
            people = await six_accounts(one)
            eid = (await one.events.create(NewEvent(name="Crash Cup", table_size=2, rounds=2), people[0]))[
                "event"
            ]["id"]
            for p in people:
                await two.events.join(eid, JoinEvent(), p)
            assert await one.events.store.move(eid, ("open",), "running")
            dying = asyncio.Event()
            real_create, made, hung = one.lobby.create, [], []

            async def create(
                body: NewGame, addr: str, then: Linker | None = None, capped: bool = True
            ) -> Seated:
                made.append(addr)
                if len(made) == 2 and then is not None:
                    link = then

                    async def then(conn: AsyncConnection, game_id: str) -> None:
                        await link(conn, game_id)
                        hung.append(game_id)
                        dying.set()
                        await asyncio.Event().wait()  # killed here: the transaction never commits

                return await real_create(body, addr, then=then, capped=capped)

            one.lobby.create = create  # type: ignore[method-assign]
            forming = asyncio.create_task(one.events.form_round(eid))
            await asyncio.wait_for(dying.wait(), 30)
            forming.cancel()
            await one.stop()  # the worker is gone; its claim stays in the database
            left = await games_of(two, eid)  # its tables are made at once: some may have their games
            assert len(left) < 3 and hung[0] not in left  # the second game was undone
            assert not await two.events.form_round(eid)  # its claim is fresh: nobody takes it yet
            async with two.store.engine.begin() as conn:
                await conn.execute(
                    sa.update(db.event_rounds).values(
                        formed_at=db.event_rounds.c.formed_at - timedelta(seconds=FORM_LEASE_SECONDS + 1)
                    )
                )
            formed = await asyncio.gather(two.events.form_round(eid), three.events.form_round(eid))
            assert sorted(formed) == [False, True]  # one took the claim over
            view = await two.events.view(eid, fresh=True)
            tables = [t for t in view["tables"] if t["round"] == 1]
            assert len(tables) == 3 and all(t["game"] is not None for t in tables)
            games = await games_of(two, eid)
            assert sorted(games) == sorted(t["game"] for t in tables)  # one game a table, no orphan
            assert set(games.values()) == {"running"}
            async with two.store.engine.connect() as conn:
                seated = set(await conn.execute(sa.select(db.seats.c.game_id, db.seats.c.account_id)))
                holder = await conn.scalar(sa.select(db.event_rounds.c.worker))
            assert seated == {(t["game"], p) for t in tables for p in t["players"]}
            assert holder in ("two", "three")
        finally:
            for w in (two, three):
                await w.stop()

    asyncio.run(main())


async def games_of(services: Services, eid: str) -> dict[str, str]:
    """The games made for the event's tables (id: status)."""
    async with services.store.engine.connect() as conn:
        rows = await conn.execute(
            sa.select(db.games.c.id, db.games.c.status).where(db.games.c.creator_addr == f"event:{eid}")
        )
        return {g: s for g, s in rows}


def test_an_events_tables_of_people_are_made_without_waiting_on_the_caps_lock(pg_url: str) -> None:
    """The caps' advisory lock of the event's tables is held elsewhere (another creation counting):
    a round of people alone is made all the same — its tables are not counted against the caps
    (the event bounds them: ra.web.events.capped), so a big arena's tables are not made one at
    a time across the workers; a table with bot seats still waits for the lock and its count."""
    db.upgrade(pg_url)

    async def main() -> None:
        one = worker(pg_url, "one")
        try:
            people = await six_accounts(one)
            cup = await one.events.create(NewEvent(name="Busy Cup", table_size=3, bots=True), people[0])
            eid = cup["event"]["id"]
            for p in people[:5]:  # a table of three people, and one of two with a bot
                await one.events.join(eid, JoinEvent(), p)
            assert await one.events.store.move(eid, ("open",), "running")
            async with one.store.engine.begin() as conn:
                await lock_key(conn, f"tables\nevent:{eid}")  # held until this block ends
                forming = asyncio.create_task(one.events.form_round(eid))
                async with asyncio.timeout(10):
                    while len(await games_of(one, eid)) < 1:
                        await asyncio.sleep(0.05)
                await until_waiting_for_a_lock(one)  # the table with a bot: its count waits
                assert not forming.done() and len(await games_of(one, eid)) == 1
            assert await asyncio.wait_for(forming, 10)
            view = await one.events.view(eid, fresh=True)
            assert sorted(len([p for p in t["players"] if p]) for t in view["tables"]) == [2, 3]
            assert len(await games_of(one, eid)) == 2
        finally:
            await one.stop()

    asyncio.run(main())


def test_an_events_table_with_bots_is_still_refused_past_the_cap_on_bot_seats(pg_url: str) -> None:
    """Bots cost the site's CPU: an event's table with bot seats counts against the cap on them
    (here none allowed) and is refused; the round's table of people alone is made all the same."""
    db.upgrade(pg_url)

    async def main() -> None:
        settings = Settings(db_url=pg_url, worker_id="one", max_bot_seats_per_addr=0)
        one = build_services(settings, STATIC)
        try:
            people = await six_accounts(one)
            cup = await one.events.create(NewEvent(name="Bot Cup", table_size=3, bots=True), people[0])
            eid = cup["event"]["id"]
            for p in people[:5]:
                await one.events.join(eid, JoinEvent(), p)
            assert await one.events.store.move(eid, ("open",), "running")
            with pytest.raises(ApiError) as refused:
                await one.events.form_round(eid)
            assert refused.value.code == "too_many_bots"
            games = await games_of(one, eid)
            async with one.store.engine.connect() as conn:
                bots = await conn.scalar(
                    sa.select(sa.func.count()).where(db.seats.c.kind == "bot", db.seats.c.game_id.in_(games))
                )
            assert len(games) == 1 and bots == 0  # the people's table; none with a bot
        finally:
            await one.stop()

    asyncio.run(main())


async def until_waiting_for_a_lock(services: Services) -> None:
    """Wait until a connection to this database waits for an advisory lock (seconds at most)."""
    waiting = sa.text(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
        " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
    )
    async with asyncio.timeout(10):
        while True:
            async with services.store.engine.connect() as conn:
                if await conn.scalar(waiting):
                    return
            await asyncio.sleep(0.05)
