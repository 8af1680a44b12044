"""An event's rounds on the site when the players do not fill its tables or do not come (issue 55),
in-process over a real database: bots fill empty seats only if the organiser allowed it and never
score; byes (one a player at most) when chosen; a forfeit scores last and a player who missed twice
is seated no more.  A game's end is stored as the site stores it."""

from __future__ import annotations

import asyncio
from typing import Any

import sqlalchemy as sa

from ra.web import db
from ra.web.events import JoinEvent, NewEvent
from ra.web.services import Services
from tests.web.test_events_arena import finish
from tests.web.test_events_workers import six_accounts, worker


async def swiss(site: Services, people: list[tuple[str, str]], **fields: Any) -> str:
    made = await site.events.create(NewEvent(name="Nile Cup", kind="swiss", **fields), people[0])
    eid: str = made["event"]["id"]
    for p in people:
        await site.events.join(eid, JoinEvent(), p)
    await site.events.begin(eid)
    return eid


async def play_round(site: Services, eid: str, forfeits: frozenset[str] = frozenset()) -> None:
    """Finish the last round's games: seat order scores (the first seat best), ``forfeits`` lost."""
    view = await site.events.view(eid)
    last = max(t["round"] for t in view["tables"])
    for t in [t for t in view["tables"] if t["round"] == last and len(t["players"]) > 1]:
        gone = [i for i, p in enumerate(t["players"]) if p in forfeits]
        if gone:
            async with site.store.engine.begin() as conn:
                await conn.execute(
                    sa.update(db.seats)
                    .where(db.seats.c.game_id == t["game"], db.seats.c.seat.in_(gone))
                    .values(forfeited=True)
                )
        await finish(site, t["game"], [10 * (len(t["players"]) - i) for i in range(len(t["players"]))])


async def seat_kinds(site: Services, game_id: str) -> list[str]:
    async with site.store.engine.connect() as conn:
        rows = await conn.execute(
            sa.select(db.seats.c.kind).where(db.seats.c.game_id == game_id).order_by(db.seats.c.seat)
        )
        return [str(k) for k in rows.scalars()]


def test_bots_fill_empty_seats_only_when_the_organiser_allows_it_and_never_score(sqlite_url: str) -> None:
    async def main() -> None:
        site = worker(sqlite_url, "one")
        try:
            people = (await six_accounts(site))[:5]
            plain = await swiss(site, people, table_size=3, rounds=1)
            sizes = [len(t["players"]) for t in (await site.events.view(plain))["tables"]]
            assert sorted(sizes) == [2, 3]  # no bots: a table of another size
            eid = await swiss(site, people, table_size=3, rounds=1, bots=True)
            tables = (await site.events.view(eid))["tables"]
            assert [len(t["players"]) for t in tables] == [3, 3]
            filled = [t for t in tables if None in t["players"]]
            assert len(filled) == 1 and (await seat_kinds(site, filled[0]["game"])).count("bot") == 1
            await play_round(site, eid)
            view = await site.events.view(eid)
            assert view["status"] == "finished" and view["bots"] is True
            assert len(view["standings"]) == 5 and all(s["player"] for s in view["standings"])
        finally:
            await site.stop()

    asyncio.run(main())


def test_byes_go_to_different_players_and_score_a_first_place(sqlite_url: str) -> None:
    async def main() -> None:
        site = worker(sqlite_url, "one")
        try:
            eid = await swiss(site, (await six_accounts(site))[:4], table_size=3, rounds=3, byes=True)
            for _ in range(3):
                await play_round(site, eid)
            view = await site.events.view(eid)
            byes = [t["players"][0] for t in view["tables"] if len(t["players"]) == 1]
            assert len(byes) == 3 and len(set(byes)) == 3  # one a round, never twice to one player
            assert all(s["byes"] <= 1 for s in view["standings"])
            assert view["status"] == "finished"
        finally:
            await site.stop()

    asyncio.run(main())


def test_a_player_who_forfeits_twice_scores_last_and_leaves_the_event(sqlite_url: str) -> None:
    async def main() -> None:
        site = worker(sqlite_url, "one")
        try:
            people = (await six_accounts(site))[:4]
            eid = await swiss(site, people, table_size=2, rounds=4)
            gone = people[0][0]
            await play_round(site, eid, forfeits=frozenset({gone}))
            lines = {s["player"]: s for s in (await site.events.view(eid))["standings"]}
            assert lines[gone]["points"] == "0" and lines[gone]["missed"] == 1 and not lines[gone]["left"]
            await play_round(site, eid, forfeits=frozenset({gone}))
            view = await site.events.view(eid)
            lines = {s["player"]: s for s in view["standings"]}
            assert lines[gone]["left"] and view["standings"][-1]["player"] == gone
            third = [t for t in view["tables"] if t["round"] == 3]
            assert third and all(gone not in t["players"] for t in third)
        finally:
            await site.stop()

    asyncio.run(main())


def test_many_pages_asking_at_once_share_one_working_out_of_the_event(sqlite_url: str) -> None:
    """The standings are worked out once for a burst of pages, and again after a change here."""

    async def main() -> None:
        site = worker(sqlite_url, "one")
        try:
            people = (await six_accounts(site))[:4]
            eid = await swiss(site, people, table_size=2, rounds=2)
            pages = await asyncio.gather(*(site.events.view(eid) for _ in range(50)))
            assert all(p is pages[0] for p in pages)  # one working out, shared
            assert await site.events.view(eid) is pages[0]  # and kept a moment
            await play_round(site, eid)  # a game's end here: the next page sees the new round
            view = await site.events.view(eid)
            assert view is not pages[0] and {t["round"] for t in view["tables"]} == {1, 2}
            assert await site.events.view(eid, fresh=True) is not view  # a change's answer: worked out
        finally:
            await site.stop()

    asyncio.run(main())
