"""Issue 52, "hints starve everyone's bots": the fair scheduler of every search, in-process.

At most one hint in flight per seat (a newer one replaces it), a search nobody wants is dropped
from its queue or stopped in its worker, a table's lane and a search's budget share are decided
when it starts, and a table where nobody is present gets every other turn once it has waited.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

import ra
from ra.table import HintJob, SearchCancelledError
from ra.web import scheduler as scheduling
from ra.web.bot_work import hint_for
from ra.web.scheduler import FairScheduler, Start
from ra.web.switches import install
from ra.web.testing import Server
from tests.web.client import Player, create


def _held(gate: threading.Event, started: list[str]) -> Callable[..., str]:
    """A job that says it started and waits for ``gate`` (a search that takes its time)."""

    def work(name: str) -> str:
        started.append(name)
        gate.wait(5)
        return name

    return work


def test_a_newer_hint_for_the_same_seat_replaces_the_queued_one() -> None:
    gate, started = threading.Event(), list[str]()
    work = _held(gate, started)

    async def main() -> None:
        pool = ThreadPoolExecutor(1)
        s = FairScheduler(lambda _: pool, slots=1)
        busy = asyncio.ensure_future(s.run("other", True, work, "busy"))
        await asyncio.sleep(0.05)
        first = asyncio.ensure_future(s.run("t", True, work, "hint-n", seat=("t", 0)))
        await asyncio.sleep(0.05)
        second = asyncio.ensure_future(s.run("t", True, work, "hint-n+2", seat=("t", 0)))
        with pytest.raises(SearchCancelledError):
            await asyncio.wait_for(first, 1)  # told at once, not after the busy search
        assert s.waiting == 1
        gate.set()
        assert await second == "hint-n+2" and await busy == "busy"
        pool.shutdown()

    asyncio.run(main())
    assert started == ["busy", "hint-n+2"]  # the replaced hint never ran


def test_a_running_hint_nobody_wants_is_stopped_and_its_worker_freed() -> None:
    """The switch reaches a real search (the advisor's, in a thread here, as in a worker):
    a hint of a budget of ten minutes ends within a second of its decision being past."""
    game = ra.Game(3, seed=5)
    past = threading.Event()

    async def main() -> float:
        pool = ThreadPoolExecutor(1)
        s = FairScheduler(lambda _: pool, slots=1)
        install(s.switches.flags)
        view = game.view(game.to_move)
        hint = asyncio.ensure_future(
            s.run(
                "t",
                True,
                hint_for,
                HintJob(view, "600s", 0),
                "original",
                wanted=lambda: not past.is_set(),
                switched=True,
            )
        )
        await asyncio.sleep(0.3)
        assert s.running == 1
        t0 = time.monotonic()
        past.set()  # the seat moved on
        with pytest.raises(SearchCancelledError):
            await asyncio.wait_for(hint, 5)
        after = await asyncio.wait_for(s.run("t", True, str, 7), 5)  # the worker is free again
        assert after == "7" and s.running == 0
        pool.shutdown()
        return time.monotonic() - t0

    assert asyncio.run(main()) < 2.0


def test_a_hint_unwanted_before_it_starts_never_runs() -> None:
    gate, started = threading.Event(), list[str]()
    work = _held(gate, started)
    gone = threading.Event()

    async def main() -> None:
        pool = ThreadPoolExecutor(1)
        s = FairScheduler(lambda _: pool, slots=1)
        busy = asyncio.ensure_future(s.run("other", True, work, "busy"))
        await asyncio.sleep(0.05)
        hint = asyncio.ensure_future(s.run("t", True, work, "hint", wanted=lambda: not gone.is_set()))
        await asyncio.sleep(0.05)
        gone.set()  # the page closed while it waited
        gate.set()
        with pytest.raises(SearchCancelledError):
            await hint
        await busy
        pool.shutdown()

    asyncio.run(main())
    assert started == ["busy"]


def test_a_tables_hints_and_bots_share_its_turn() -> None:
    """A table's hint and its bot's move wait in one queue: one turn for the table, and the
    other table's bot goes between them (a hint used to join the people's lane whatever the
    table's, so a table whose stand-in played held a turn in each lane)."""
    gate, started = threading.Event(), list[str]()
    work = _held(gate, started)

    async def main() -> None:
        pool = ThreadPoolExecutor(1)
        s = FairScheduler(lambda _: pool, slots=1)
        jobs = [asyncio.ensure_future(s.run("x", True, work, "busy"))]
        await asyncio.sleep(0.05)
        jobs.append(asyncio.ensure_future(s.run("ann", True, work, "ann-hint", seat=("ann", 0))))
        jobs.append(asyncio.ensure_future(s.run("ann", True, work, "ann-bot")))
        jobs.append(asyncio.ensure_future(s.run("bob", True, work, "bob-bot")))
        await asyncio.sleep(0.05)
        gate.set()
        await asyncio.gather(*jobs)
        pool.shutdown()

    asyncio.run(main())
    assert started == ["busy", "ann-hint", "bob-bot", "ann-bot"]


def test_a_tables_lane_is_decided_when_its_search_starts() -> None:
    """A person who leaves while their table's search waits no longer goes first; their
    search's lane and budget share are those of the moment it starts."""
    gate, started = threading.Event(), list[str]()
    work = _held(gate, started)
    here = {"ann": True}
    lanes: dict[str, Start] = {}

    def at_start(name: str) -> Callable[[Start], tuple[str]]:
        def prepare(start: Start) -> tuple[str]:
            lanes[name] = start
            return (name,)

        return prepare

    async def main() -> None:
        pool = ThreadPoolExecutor(2)
        s = FairScheduler(lambda _: pool, slots=1)
        jobs = [asyncio.ensure_future(s.run("x", False, work, "busy"))]
        await asyncio.sleep(0.05)
        jobs.append(asyncio.ensure_future(s.run("b", False, work, prepare=at_start("bots"))))
        jobs.append(asyncio.ensure_future(s.run("a", lambda: here["ann"], work, prepare=at_start("ann"))))
        await asyncio.sleep(0.05)
        here["ann"] = False  # Ann left: her table waits its turn among the others
        gate.set()
        await asyncio.gather(*jobs)
        pool.shutdown()

    asyncio.run(main())
    assert started == ["busy", "bots", "ann"]
    assert lanes["ann"].person is False


def test_a_present_persons_search_is_not_shrunk_by_tables_nobody_watches() -> None:
    gate, started = threading.Event(), list[str]()
    work = _held(gate, started)
    scales: list[float] = []

    def prepare(start: Start) -> tuple[str]:
        scales.append(start.scale)
        return ("person",)

    async def main() -> None:
        pool = ThreadPoolExecutor(2)
        s = FairScheduler(lambda _: pool, slots=2)
        flood = [asyncio.ensure_future(s.run(f"f{i}", False, work, f"flood-{i}")) for i in range(6)]
        await asyncio.sleep(0.05)
        person = asyncio.ensure_future(s.run("p", True, work, prepare=prepare))
        await asyncio.sleep(0.05)
        gate.set()
        await asyncio.gather(person, *flood)
        pool.shutdown()

    asyncio.run(main())
    assert scales == [1.0]


def test_a_table_nobody_watches_gets_every_other_turn_once_it_waited(monkeypatch: pytest.MonkeyPatch) -> None:
    """A person asking hints without end (people go first) cannot hold an absent person's
    stand-in for ever: after :data:`PATIENCE` the lanes take turns."""
    monkeypatch.setattr(scheduling, "PATIENCE", 0.2)
    order: list[str] = []

    def work(name: str) -> str:
        time.sleep(0.05)
        order.append(name)
        return name

    async def main() -> int:
        pool = ThreadPoolExecutor(1)
        s = FairScheduler(lambda _: pool, slots=1)
        hints = [asyncio.ensure_future(s.run("ann", True, work, "hint-0", seat=("ann", 0)))]
        stand_in = asyncio.ensure_future(s.run("away", False, work, "stand-in"))
        flooded = 1
        while not stand_in.done() and flooded < 100:  # a hint at every decision, each the last's heir
            hints.append(asyncio.ensure_future(s.run("ann", True, work, f"hint-{flooded}", seat=("ann", 0))))
            flooded += 1
            await asyncio.sleep(0.02)
        await asyncio.gather(*hints, return_exceptions=True)
        pool.shutdown()
        return flooded

    flooded = asyncio.run(main())
    assert "stand-in" in order and flooded < 40, (flooded, order)  # about 0.2 s in, not after the flood


# --- against a real server: one bot process, hints of ten minutes' budget -----------------

LONG_HINTS = {"RA_HINT_BUDGET": "600s"}
"""A hint that would hold the server's one bot process for ten minutes if it ran to the end."""
REPLY_WITHIN = 30.0
"""Seconds a bot's reply may take here (a few without the hint in the way)."""


async def _my_turn(p: Player) -> dict[str, Any]:
    return await p.until(lambda m: m["type"] == "state" and bool(m["legal"]), timeout=REPLY_WITHIN)


async def _move_and_wait_for_the_bot(p: Player, state: dict[str, Any]) -> dict[str, Any]:
    n = state["n"]
    await p.send({"type": "action", "action": state["legal"][0], "n": n})
    return await p.until(
        lambda m: m["type"] == "state" and m["n"] > n + 1 and bool(m["legal"]), timeout=REPLY_WITHIN
    )


def test_a_hint_whose_decision_is_past_is_stopped_and_the_bot_replies(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path
) -> None:
    """Old code: the hint of a decision already played ran on for its whole budget, and the
    table's bot waited behind it (issue 52)."""
    s = server_factory(sqlite_url, tmp_path / "s.log", env=LONG_HINTS, args=("--bot-processes", "1")).start()
    made = create(s.url, [{"kind": "human"}, {"kind": "bot", "level": "medium"}])

    async def main() -> None:
        ann = Player(s.ws, made["game"]["id"], made["token"], seed=1)
        await ann.connect()
        state = await _my_turn(ann)
        await ann.send({"type": "hint", "n": state["n"]})
        await asyncio.sleep(0.5)  # the hint's search is under way
        await _move_and_wait_for_the_bot(ann, state)
        assert not [m for m in ann.messages if m["type"] in ("hint", "error")]  # nothing stale sent
        await ann.close()

    asyncio.run(main())


def test_a_hint_whose_page_is_gone_frees_the_worker_for_another_table(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path
) -> None:
    s = server_factory(sqlite_url, tmp_path / "s.log", env=LONG_HINTS, args=("--bot-processes", "1")).start()
    seats = [{"kind": "human"}, {"kind": "bot", "level": "medium"}]
    ann_made, bob_made = create(s.url, seats, name="Ann"), create(s.url, seats, name="Bob")

    async def main() -> None:
        ann = Player(s.ws, ann_made["game"]["id"], ann_made["token"])
        bob = Player(s.ws, bob_made["game"]["id"], bob_made["token"])
        await ann.connect()
        await bob.connect()
        state = await _my_turn(ann)
        await ann.send({"type": "hint", "n": state["n"]})
        await asyncio.sleep(0.5)
        await ann.close()  # she asked and left
        await _move_and_wait_for_the_bot(bob, await _my_turn(bob))
        await bob.close()

    asyncio.run(main())


def test_a_hint_at_every_decision_leaves_an_absent_seats_stand_in_moving(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path
) -> None:
    """Old code: every hint went to the people's lane, served before every table where nobody
    is present, and a stale one ran on: a player asking at every decision kept an absent
    person's stand-in from moving for over 90 s (issue 52)."""
    env = {**LONG_HINTS, "RA_MOVE_DEADLINE": "2"}  # Mallory, who never comes, is out at once
    s = server_factory(sqlite_url, tmp_path / "s.log", env=env, args=("--bot-processes", "1")).start()
    away = create(s.url, [{"kind": "human"}, {"kind": "bot", "level": "medium"}], name="Mallory")["game"][
        "id"
    ]

    def decisions() -> int:
        return int(httpx.get(f"{s.url}/api/games/{away}", timeout=10).json()["decisions"])

    async def main() -> None:
        # Ann asks a hint at every decision (each would hold the one bot process for ten
        # minutes) and moves well within her time, table after table; Mallory is out after 2 s.
        t0, ann = time.monotonic(), None
        state: dict[str, Any] = {"view": {"phase": "over"}}
        while decisions() < 4 and time.monotonic() - t0 < REPLY_WITHIN:
            if ann is None or state["view"]["phase"] == "over":  # a table of her own, another
                made = create(s.url, [{"kind": "human"}, {"kind": "bot", "level": "random"}])
                ann = Player(s.ws, made["game"]["id"], made["token"], seed=2)
                await ann.connect()
                state = await _my_turn(ann)
            await ann.send({"type": "hint", "n": state["n"]})
            await asyncio.sleep(0.3)
            n = state["n"]
            await ann.send({"type": "action", "action": ann.rng.choice(state["legal"]), "n": n})
            state = await ann.until(
                lambda m, n=n: (
                    m["type"] == "state" and m["n"] > n and (bool(m["legal"]) or m["view"]["phase"] == "over")
                )
            )
        assert decisions() >= 4, "Mallory's stand-in and bot did not move while Ann asked hints"

    asyncio.run(main())
