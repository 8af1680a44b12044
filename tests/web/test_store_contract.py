"""The storage contracts (:mod:`ra.web.store`): each aggregate's in-memory twin and its SQL store
pass the same tests, in-process: the twin always, the SQL store on SQLite (every migration
applied) and on PostgreSQL when one is reachable.  So a service tested on a twin behaves the
same over the database, and a twin cannot drift from what the database does."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import sqlalchemy as sa

from ra.web import db
from ra.web.store import Store
from ra.web.store.chat import ChatStorage, MemoryChat
from ra.web.store.limits import Holds, Levels, MemoryHolds, MemoryLevels

BACKENDS = ("memory", "sqlite", "postgresql")

WRITTEN = ("chat_reports", "chat", "limit_levels", "limit_holds", "seats", "games")
"""The tables these tests write, cleared after each test on the module's PostgreSQL database."""


@dataclass
class Stores:
    """One backend's aggregates, as the services get them."""

    chat: ChatStorage
    levels: Levels
    holds: Holds
    store: Store | None = None
    """The SQL store behind them (None: the in-memory twins)."""
    games: int = 0

    async def new_game(self) -> str:
        """A table to chat at (the database's chat lines belong to a stored game)."""
        if self.store is None:
            self.games += 1
            return f"g{self.games}"
        values = {"status": "open", "players": 2, "variant": "standard", "hidden_scores": True}
        values |= {"edition": "original", "bot_delay": 0.0, "seed": 1}
        seats = [
            {"seat": i, "kind": "human", "level": None, "name": None, "token_hash": None} for i in (0, 1)
        ]
        return await self.store.create_game(values, seats)


Scenario = Callable[[Stores], Awaitable[None]]


@pytest.fixture(params=BACKENDS)
def run(
    request: pytest.FixtureRequest, tmp_path: Path, migrated_sqlite: Path
) -> Iterator[Callable[[Scenario], None]]:
    """Run a scenario on one backend: each its own event loop and its own store."""
    url: str | None = None
    if request.param == "sqlite":
        shutil.copyfile(migrated_sqlite, tmp_path / "ra.db")
        url = f"sqlite:///{tmp_path / 'ra.db'}"
    elif request.param == "postgresql":
        url = request.getfixturevalue("pg_module_url")
        db.upgrade(url)  # once: the later tests find it up to date

    def go(scenario: Scenario) -> None:
        asyncio.run(_on(url, scenario))

    yield go
    if request.param == "postgresql":
        asyncio.run(_clear(url))


async def _on(url: str | None, scenario: Scenario) -> None:
    if url is None:
        await scenario(Stores(MemoryChat(), MemoryLevels(), MemoryHolds()))
        return
    store = Store(url, worker_id="w1")
    try:
        await scenario(Stores(store.chat, store.levels, store.holds, store))
    finally:
        await store.close()


async def _clear(url: str | None) -> None:
    assert url is not None
    store = Store(url)
    async with store.engine.begin() as conn:
        for table in WRITTEN:
            await conn.execute(sa.text(f"DELETE FROM {table}"))
    await store.close()


# --- chat ------------------------------------------------------------------------------


def test_chat_lines_read_back_in_order_per_table_and_channel(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        g, other = await s.new_game(), await s.new_game()
        a = await s.chat.add(g, "players", 0, "Ann", "10.0.0.1", "hello", account=True)
        b = await s.chat.add(g, "players", 1, "Bob", "10.0.0.2", "hi")
        await s.chat.add(g, "spectators", None, "Cy", "10.0.0.3", "watching")
        await s.chat.add(other, "players", 0, "Di", "10.0.0.4", "elsewhere")
        lobby = await s.chat.add(None, "lobby", None, "Ed", "10.0.0.5", "anyone?")
        assert b.id > a.id
        assert (a.game_id, a.channel, a.seat, a.name, a.text, a.addr, a.account) == (
            g,
            "players",
            0,
            "Ann",
            "hello",
            "10.0.0.1",
            True,
        )
        assert await s.chat.line(a.id) == a
        assert await s.chat.line(10**6) is None
        assert [r.text for r in await s.chat.history(g, "players", 10)] == ["hello", "hi"]
        assert [r.text for r in await s.chat.history(g, "players", 1)] == ["hi"]
        assert [r.text for r in await s.chat.history(g, "spectators", 10)] == ["watching"]
        assert await s.chat.history(None, "lobby", 10) == [lobby]

    run(scenario)


def test_a_report_counts_once_per_address_and_only_for_a_line_that_exists(
    run: Callable[[Scenario], None],
) -> None:
    async def scenario(s: Stores) -> None:
        g = await s.new_game()
        first = await s.chat.add(g, "players", 0, "Ann", "10.0.0.1", "rude")
        second = await s.chat.add(g, "players", 1, "Bob", "10.0.0.2", "also rude")
        assert await s.chat.report(first.id, "10.0.0.9")
        assert not await s.chat.report(first.id, "10.0.0.9")  # once per address
        assert await s.chat.report(second.id, "10.0.0.9")
        assert await s.chat.report(first.id, "10.0.0.8")
        assert not await s.chat.report(10**6, "10.0.0.9")
        reports = await s.chat.open_reports()
        assert [(r.line.id, r.reporter, r.reports) for r in reports] == [
            (first.id, "10.0.0.9", 2),
            (second.id, "10.0.0.9", 1),
        ]

    run(scenario)


def test_resolving_a_report_hides_the_line_or_dismisses_it(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        g = await s.new_game()
        rude = await s.chat.add(g, "players", 0, "Ann", "10.0.0.1", "rude")
        fine = await s.chat.add(g, "players", 1, "Bob", "10.0.0.2", "fine")
        for line in (rude, fine):
            await s.chat.report(line.id, "10.0.0.9")
        assert await s.chat.resolve(rude.id, hide=True)
        assert await s.chat.resolve(fine.id, hide=False)
        assert not await s.chat.resolve(10**6, hide=True)
        assert await s.chat.open_reports() == []
        assert [r.text for r in await s.chat.history(g, "players", 10)] == ["fine"]
        hidden = await s.chat.line(rude.id)
        assert hidden is not None and hidden.hidden
        assert await s.chat.report(fine.id, "10.0.0.8")  # a new report on a dismissed line counts
        assert [r.line.id for r in await s.chat.open_reports()] == [fine.id]

    run(scenario)


# --- limits ----------------------------------------------------------------------------

SLOW = 1e-6
"""A rate so slow that nothing drains during a test (no test waits for a clock)."""
FAST = 1e9
"""A rate so fast that a level has drained by the next statement."""


def test_a_level_takes_up_to_its_cap_per_key(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        assert [await s.levels.take("k", SLOW, 3) for _ in range(4)] == [True, True, True, False]
        assert await s.levels.take("other", SLOW, 3)
        assert await s.levels.level("k", SLOW) == pytest.approx(3, abs=0.01)
        await s.levels.add("k", SLOW)  # add counts past the cap (a tally of failures)
        assert await s.levels.level("k", SLOW) == pytest.approx(4, abs=0.01)
        assert await s.levels.level("unknown", SLOW) == 0.0

    run(scenario)


def test_a_level_drains_at_its_rate(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        for _ in range(3):
            await s.levels.add("k", FAST)
        assert await s.levels.level("k", FAST) == 0.0
        assert all([await s.levels.take("k", FAST, 1) for _ in range(3)])

    run(scenario)


def test_holds_count_up_to_the_cap_and_give_back(run: Callable[[Scenario], None]) -> None:
    async def scenario(s: Stores) -> None:
        assert [await s.holds.take("k", 2) for _ in range(3)] == [True, True, False]
        assert await s.holds.take("other", 2)
        await s.holds.give_back("k")
        assert await s.holds.take("k", 2)
        assert not await s.holds.take("k", 2)

    run(scenario)
