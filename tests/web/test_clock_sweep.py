"""The sweep's query of games out of time is the table's clock rule (:mod:`ra.clock`) written in
SQL: on SQLite and on PostgreSQL it picks exactly the games the rule picks in Python (a room's
own clock), across every kind of clock, the site's deadline, a seat away, and the games it must
leave alone (a bot to move, a finished game, an imported one)."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import sqlalchemy as sa

from ra.web import db
from ra.web.db import games, now
from ra.web.store import Store

DEADLINE = 1000.0
"""The site's deadline per decision in these tests (seconds)."""

# name: (games columns, the mover's seat columns, seconds since the decision became due)
CASES: dict[str, tuple[dict[str, Any], dict[str, Any], float]] = {
    "per decision, out": ({"move_seconds": 60}, {}, 100),
    "per decision, in time": ({"move_seconds": 60}, {}, 10),
    "game clock never charged, out": ({"game_seconds": 600}, {}, 700),
    "game clock never charged, in time": ({"game_seconds": 600}, {}, 500),
    "game clock charged, out": ({"game_seconds": 600}, {"bank": 30.0}, 100),
    "game clock charged, in time": ({"game_seconds": 600}, {"bank": 300.0}, 100),
    "no clock, past the deadline": ({}, {}, 2000),
    "no clock, before the deadline": ({}, {}, 500),
    "away, just now": ({"move_seconds": 3600}, {"away": True}, 0),
    "a bot to move": ({"to_move_bot": True}, {"kind": "bot", "level": "easy"}, 5000),
    "finished": ({"status": "finished", "to_move": None}, {}, 5000),
    "imported": ({"record": {"players": ["A", "B"]}}, {}, 5000),
}
OUT = {name for name in CASES if name.endswith(("out", "past the deadline", "just now"))}


async def sweep(url: str) -> tuple[set[str], set[str]]:
    """The games the store's query finds out of time, and those the rule finds in Python."""
    store = Store(url)
    names: dict[str, str] = {}
    try:
        for name, (columns, mover, ago) in CASES.items():
            values = {"status": "running", "players": 2, "variant": "standard", "hidden_scores": True}
            values |= {"edition": "original", "bot_delay": 0.0, "seed": 1, "to_move": 0, "to_move_bot": False}
            seat = {"kind": "human", "level": None, "token_hash": None, "away": False, "bank": None}
            seat0 = {**seat, "seat": 0, "name": "A", **mover}
            seat1 = {**seat, "seat": 1, "name": "B"}
            gid = await store.create_game({**values, **columns}, [seat0, seat1])
            async with store.engine.begin() as conn:
                due = now() - timedelta(seconds=ago)
                await conn.execute(sa.update(games).where(games.c.id == gid).values(updated_at=due))
            names[gid] = name
        found = {names[g] for g in await store.seat_clocks.games_past_their_clock(DEADLINE) if g in names}
        t = now()
        by_rule = set()
        for gid, name in names.items():
            row = await store.game(gid)
            assert row is not None
            mover_row = row.seats[0]
            if row.status == "running" and row.record is None and mover_row.kind == "human":
                if row.clock(DEADLINE).is_out(mover_row.bank, mover_row.away, row.updated_at, t):
                    by_rule.add(name)
        return found, by_rule
    finally:
        await store.close()


def test_the_sweep_on_sqlite_is_the_clock_rule(sqlite_url: str) -> None:
    found, by_rule = asyncio.run(sweep(sqlite_url))
    assert found == OUT
    assert by_rule == OUT


def test_the_sweep_on_postgresql_is_the_clock_rule(pg_url: str) -> None:
    db.upgrade(pg_url)
    found, by_rule = asyncio.run(sweep(pg_url))
    assert found == OUT
    assert by_rule == OUT
