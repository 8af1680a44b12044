"""Fair to people under load (issue 26): the bots' thinking is scheduled per table, people's
tables first, and one address cannot take the server's bots for itself."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from ra.web.scheduler import FairScheduler
from ra.web.testing import Server
from tests.web.client import Player, create


def test_scheduler_serves_tables_in_turn_and_people_first() -> None:
    order: list[str] = []
    gate = threading.Event()

    def work(name: str) -> str:
        if name == "flood-0":
            gate.wait(5)  # the first search is still running when the others queue up
        order.append(name)
        return name

    async def main() -> list[str]:
        pool = ThreadPoolExecutor(1)
        s = FairScheduler(lambda _: pool, slots=1)
        jobs = [asyncio.ensure_future(s.run("flood", False, work, f"flood-{i}")) for i in range(5)]
        jobs += [asyncio.ensure_future(s.run("other", False, work, f"other-{i}")) for i in range(2)]
        await asyncio.sleep(0.05)
        person = asyncio.ensure_future(s.run("person", True, work, "person-0"))
        await asyncio.sleep(0.05)
        assert s.waiting == 7 and s.running == 1
        gate.set()
        results = await asyncio.gather(*jobs, person)
        pool.shutdown()
        return list(results)

    results = asyncio.run(main())
    assert sorted(results) == sorted(order)
    assert order[0] == "flood-0" and order[1] == "person-0"  # the person goes first
    assert order[2:6] == ["flood-1", "other-0", "flood-2", "other-1"]  # the tables take turns


def test_one_owners_many_tables_share_one_turn() -> None:
    """Issue 40, finding 1: fifty tables of one address, each "with a person" whose stand-in
    plays, once pushed a present person's bot 47 searches back; one owner's tables now take
    one turn among the owners, and a present person's table still goes first."""
    order: list[str] = []
    gate = threading.Event()

    def work(name: str) -> str:
        if name == "first":
            gate.wait(5)
        order.append(name)
        return name

    async def main() -> None:
        pool = ThreadPoolExecutor(1)
        s = FairScheduler(lambda _: pool, slots=1)
        jobs = [asyncio.ensure_future(s.run("t0", False, work, "first", owner="10.0.0.1"))]
        await asyncio.sleep(0.05)
        for i in range(50):  # the flood: many tables, one owner, nobody present
            jobs.append(asyncio.ensure_future(s.run(f"f{i}", False, work, f"flood-{i}", owner="10.0.0.1")))
        jobs.append(asyncio.ensure_future(s.run("b", False, work, "bob", owner="10.0.0.2")))
        jobs.append(asyncio.ensure_future(s.run("c", False, work, "cy", owner="10.0.0.3")))
        await asyncio.sleep(0.05)
        assert s.waiting == 52
        gate.set()
        await asyncio.gather(*jobs)
        pool.shutdown()

    asyncio.run(main())
    assert order[:4] == ["first", "flood-0", "bob", "cy"]  # one turn each, not fifty for the flood
    assert order[4:7] == ["flood-1", "flood-2", "flood-3"]  # then the owner's tables in turn


def test_a_failing_job_does_not_stop_the_scheduler() -> None:
    def boom() -> None:
        raise ValueError("bad position")

    async def main() -> str:
        pool = ThreadPoolExecutor(1)
        s = FairScheduler(lambda _: pool, slots=1)
        try:
            await s.run("t", True, boom)
        except ValueError as err:
            assert "bad position" in str(err)
        result = await s.run("t", True, str, 7)
        pool.shutdown()
        return result

    assert asyncio.run(main()) == "7"


def test_one_address_cannot_flood_the_bots(server: Server) -> None:
    bots = [{"kind": "bot", "level": "random"}] * 5
    made = [httpx.post(server.url + "/api/games", json={"seats": bots, "join": False}) for _ in range(9)]
    codes = [r.status_code for r in made]
    assert codes[:8] == [200] * 8 and codes[8] == 429, codes  # 8 tables x 5 bots = 40 bot seats
    assert made[8].json()["error"] == "too_many_bots"


def test_a_persons_bot_answers_while_a_flood_of_bot_games_runs(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path
) -> None:
    s = server_factory(sqlite_url, tmp_path / "s.log", args=("--bot-processes", "1")).start()
    flood = [{"kind": "bot", "level": "medium"}] * 4
    for _ in range(9):
        r = httpx.post(s.url + "/api/games", json={"seats": flood, "join": False, "bot_delay": 0})
        assert r.status_code == 200, r.text
    made = create(s.url, [{"kind": "human"}, {"kind": "bot", "level": "medium"}], bot_delay=0)
    gid = made["game"]["id"]

    async def main() -> float:
        p = Player(s.ws, gid, made["token"], seed=3)
        await p.connect()
        state = await p.until(lambda m: m["type"] == "state" and m["view"] is not None)
        # Play until the bot has answered a few times.
        answered = 0
        t0 = time.monotonic()
        while answered < 3:
            if not state["legal"]:
                state = await p.until(lambda m: m["type"] == "state" and bool(m["legal"]), timeout=120)
                answered += 1
                continue
            n = state["n"]
            await p.send({"type": "action", "action": state["legal"][0], "n": n})
            state = await p.until(lambda m, n=n: m["type"] == "state" and m["n"] > n, timeout=120)
        await p.close()
        return time.monotonic() - t0

    asyncio.run(main())
    running = httpx.get(s.url + "/api/games", params={"status": "running"}).json()["games"]
    flood_running = [g for g in running if all(seat["kind"] == "bot" for seat in g["seats"])]
    assert flood_running, "the flood finished first: the check proves nothing"


def test_with_two_slots_one_is_kept_for_people() -> None:
    started: list[str] = []
    gate = threading.Event()

    def work(name: str) -> str:
        started.append(name)
        if name.startswith("flood"):
            gate.wait(5)
        return name

    async def main() -> None:
        pool = ThreadPoolExecutor(2)
        s = FairScheduler(lambda _: pool, slots=2)
        flood = [asyncio.ensure_future(s.run(f"f{i}", False, work, f"flood-{i}")) for i in range(3)]
        await asyncio.sleep(0.1)
        assert started == ["flood-0"] and s.running == 1  # bots only: one slot of two
        person = await asyncio.wait_for(s.run("p", True, work, "person"), 5)  # served at once
        assert person == "person"
        gate.set()
        await asyncio.gather(*flood)
        pool.shutdown()

    asyncio.run(main())


def test_under_load_searches_shrink_to_a_floor() -> None:
    from ra.table import BotJob, decide
    from ra.web.scheduler import BUDGET_FLOOR, budget_scale

    assert budget_scale(0, 1, 2) == 1.0 and budget_scale(0, 2, 2) == 1.0  # everyone has a slot
    assert budget_scale(2, 2, 2) == 0.5
    assert budget_scale(100, 2, 2) == BUDGET_FLOOR
    import ra

    game = ra.Game(3, seed=4)
    # A shrunk search still answers legally (and the same way for the same seed and scale).
    first = decide(BotJob(game.view(0), "hard", 7, 0.01))
    assert first == decide(BotJob(game.view(0), "hard", 7, 0.01))
    assert first in game.legal_actions()
