"""The arena kind on the site (issue 55), in-process over a real database: players who come free
are seated again by ra.tournament's arena seating, win points (2 a first place, doubled on a
streak), pause by withdrawing and come back by joining; at its time the arena starts no game, the
games then running still count, and it finishes when they end.  Time is moved by moving the
stored start back, never waited for; a game's end is stored as the site stores it."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import sqlalchemy as sa

from ra.tournament import Settings, standings
from ra.tournament.kinds import Kind
from ra.web import db
from ra.web.events import JoinEvent, NewEvent, entrants_of, results_of
from ra.web.services import Services
from tests.web.test_events_workers import six_accounts, worker


async def finish(services: Services, game_id: str, scores: list[int]) -> None:
    """Store the game's end with these final scores (R8), then tell the events, as the site does."""
    async with services.store.engine.begin() as conn:
        await conn.execute(
            sa.update(db.games).where(db.games.c.id == game_id).values(status="finished", scores=scores)
        )
    await services.events.game_finished(game_id)


async def time_passes(services: Services, eid: str, minutes: int) -> None:
    """Move the event's stored start back by ``minutes``: as if they had passed."""
    row = await services.events.row(eid)
    async with services.store.engine.begin() as conn:
        await conn.execute(
            sa.update(db.events)
            .where(db.events.c.id == eid)
            .values(started_at=row["started_at"] - timedelta(minutes=minutes))
        )


def running(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The tables whose games have not been finished by the test (the last ones formed)."""
    return [t for t in view["tables"] if t["round"] == max(x["round"] for x in view["tables"])]


async def arena(site: Services, people: list[tuple[str, str]], **fields: Any) -> str:
    made = await site.events.create(
        NewEvent(name="Sun Arena", kind="arena", table_size=2, **fields), people[0]
    )
    eid: str = made["event"]["id"]
    for p in people:
        await site.events.join(eid, JoinEvent(), p)
    await site.events.begin(eid)
    return eid


def test_an_arena_seats_players_again_as_they_come_free_and_scores_a_win_two(sqlite_url: str) -> None:
    async def main() -> None:
        site = worker(sqlite_url, "one")
        try:
            people = (await six_accounts(site))[:5]
            eid = await arena(site, people, minutes=30)
            first = await site.events.view(eid)
            assert first["ends_at"] is not None and first["minutes"] == 30
            tables = first["tables"]
            assert [len(t["players"]) for t in tables] == [2, 2]  # 5 players: 4 seated, 1 waits
            waiting = ({p for p, _ in people} - {p for t in tables for p in t["players"]}).pop()
            done = tables[0]
            await finish(site, done["game"], [20, 10])
            view = await site.events.view(eid)
            new = [t for t in view["tables"] if t["round"] == 2]
            assert len(new) == 1 and waiting in new[0]["players"]  # the one who waited longest
            assert set(new[0]["players"]) - {waiting} <= set(done["players"])
            points = {s["player"]: s["points"] for s in view["standings"]}
            assert points[done["players"][0]] == "2" and points[done["players"][1]] == "0"
            assert view["status"] == "running"
        finally:
            await site.stop()

    asyncio.run(main())


def test_a_player_who_pauses_is_not_seated_until_they_come_back(sqlite_url: str) -> None:
    async def main() -> None:
        site = worker(sqlite_url, "one")
        try:
            people = (await six_accounts(site))[:4]
            eid = await arena(site, people)
            table = (await site.events.view(eid))["tables"][0]
            away = next(p for p in people if p[0] == table["players"][1])
            await site.events.withdraw(eid, away)  # pause
            await finish(site, table["game"], [15, 15])
            assert len((await site.events.view(eid))["tables"]) == 2  # one free player: nobody seated
            await site.events.join(eid, JoinEvent(), away)  # back: seated at once
            tables = (await site.events.view(eid))["tables"]
            assert len(tables) == 3 and set(tables[2]["players"]) == set(table["players"])
        finally:
            await site.stop()

    asyncio.run(main())


def test_at_its_time_an_arena_starts_no_game_and_finishes_when_the_last_one_ends(sqlite_url: str) -> None:
    async def main() -> None:
        site = worker(sqlite_url, "one")
        try:
            people = (await six_accounts(site))[:4]
            eid = await arena(site, people, minutes=10)
            one, two = (await site.events.view(eid))["tables"]
            await time_passes(site, eid, minutes=10)
            await finish(site, one["game"], [30, 5])  # its players are free, but the time is up
            await site.events.sweep()
            assert (await site.events.view(eid))["status"] == "running"  # a game is still on
            await finish(site, two["game"], [3, 40])  # ends after the time: still counts
            view = await site.events.view(eid)
            assert view["status"] == "finished" and len(view["tables"]) == 2
            points = {s["player"]: s["points"] for s in view["standings"]}
            assert points[two["players"][1]] == "2" and points[one["players"][0]] == "2"
            stored = standings(
                entrants_of(await site.events.store.players(eid)),
                results_of(await site.events.store.played(eid)),
                Settings(kind=Kind.ARENA, table_size=2, minutes=10),
            )
            assert [(s.player, str(s.points)) for s in stored] == [
                (s["player"], s["points"]) for s in view["standings"]
            ]
        finally:
            await site.stop()

    asyncio.run(main())


def test_a_streak_of_two_first_places_doubles_the_next_win(sqlite_url: str) -> None:
    """Two players, three games won by the same one: 2, 2, then 4 (ra.tournament's streak)."""

    async def main() -> None:
        site = worker(sqlite_url, "one")
        try:
            people = (await six_accounts(site))[:2]
            eid = await arena(site, people)
            for _ in range(3):
                table = running(await site.events.view(eid))[0]
                scores = [20 if p == people[0][0] else 10 for p in table["players"]]
                await finish(site, table["game"], scores)
            view = await site.events.view(eid)
            assert len(view["tables"]) == 4  # seated again after each game
            points = {s["player"]: s["points"] for s in view["standings"]}
            assert points == {people[0][0]: "8", people[1][0]: "0"}
        finally:
            await site.stop()

    asyncio.run(main())


def test_an_arena_seats_its_free_players_while_another_batch_is_still_being_made(sqlite_url: str) -> None:
    """Tables claimed by a worker still making them hold up only their own players."""

    async def main() -> None:
        site = worker(sqlite_url, "one")
        try:
            people = (await six_accounts(site))[:4]
            eid = await arena(site, people)
            first, second = (await site.events.view(eid))["tables"]
            async with site.store.engine.begin() as conn:  # first's game ends, its round not formed yet
                await conn.execute(
                    sa.update(db.games)
                    .where(db.games.c.id == first["game"])
                    .values(status="finished", scores=[9, 8])
                )
            again = [tuple(first["players"])]
            assert await site.events.store.claim_round(eid, 2, 7, "busy-worker", again)  # being made
            await finish(site, second["game"], [5, 6])
            tables = (await site.events.view(eid))["tables"]
            assert [(t["round"], t["game"] is None) for t in tables[2:]] == [(2, True), (3, False)]
            assert set(tables[3]["players"]) == set(second["players"])
        finally:
            await site.stop()

    asyncio.run(main())
