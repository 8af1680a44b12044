"""A hint flood against the bots' scheduler (issue 52, "hints starve everyone's bots").

Starts ``ra serve`` (SQLite, ``--bot-processes`` bot processes) and measures, on loopback:

1. unloaded: Bob, a person at his own table, against an ``expert`` bot: the seconds from each
   of his moves to his next turn (the bot's reply), and the share of its budget it searched;
2. flooded: Mallory's table, where her seat is out of time (a 5 s clock; nobody present: her
   stand-in and a bot play it, at a pace of ``--pace`` s), is playing; then Ann, at a third table against a
   ``random`` bot, asks a hint at every decision and moves at once, for ``--flood`` seconds,
   while Bob plays on; Bob's replies again, and the longest Mallory's table went without a
   decision from the flood's start until it has moved again after it;
3. Ann leaves: the seconds until the bots' queue (``/metrics``) is empty.  Then she comes back
   and floods again (``--rounds``), while Bob plays on and Mallory's table is watched.

``--before PATH`` runs the same against another checkout's sources first (e.g. ``/work/main/src``)
and prints both, side by side.  Targets (issue 52): Bob's flooded p50 within 1.5x of his
unloaded p50, at full budget; Mallory's stand-in moving within 10 s; the queue empty at once.

    python benchmarks/hint_flood.py --before /work/main/src
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the tests' scripted client

from tests.web.client import Player  # noqa: E402

from ra.web.testing import Server  # noqa: E402

GAVE_UP = 120.0
"""Seconds after which a wait is reported as "more than this" (old code: over 90 s)."""


class Site:
    """The server under test, and where each person's requests come from."""

    def __init__(self, server: Server) -> None:
        self.server = server

    async def table(
        self, name: str, seats: list[dict[str, Any]], address: str, **options: Any
    ) -> tuple[Player, str]:
        """A new table with ``name`` in its first seat (from ``address``), and its id."""
        transport = httpx.AsyncHTTPTransport(local_address=address)
        async with httpx.AsyncClient(base_url=self.server.url, timeout=30, transport=transport) as http:
            r = await http.post("/api/games", json={"seats": seats, "name": name, "bot_delay": 0, **options})
            r.raise_for_status()
            made = r.json()
        game_id = made["game"]["id"]
        return Player(self.server.ws, game_id, made["token"], seed=len(name)), game_id

    async def decisions(self, game_id: str) -> int:
        async with httpx.AsyncClient(base_url=self.server.url, timeout=30) as http:
            return int((await http.get(f"/api/games/{game_id}")).json()["decisions"])

    async def queue(self) -> tuple[float, float]:
        """The bots' queue: searches waiting, searches running (from ``/metrics``)."""
        async with httpx.AsyncClient(base_url=self.server.url, timeout=30) as http:
            text = (await http.get("/metrics")).text
        values = {
            line.split()[0]: float(line.split()[1])
            for line in text.splitlines()
            if line.startswith("ra_bot_")
        }
        return values.get("ra_bot_queue_length", 0.0), values.get("ra_bot_searches_running", 0.0)


async def bob_plays(bob: Player, until: asyncio.Event, replies: int) -> list[tuple[float, float]]:
    """Bob moves at once at every turn; each bot reply's seconds and budget share, until
    ``until`` is set and he has ``replies`` of them."""
    out: list[tuple[float, float]] = []
    state = bob.state  # his turn, from before
    if state is None or not state["legal"]:
        state = await bob.until(lambda m: m["type"] == "state" and bool(m["legal"]), 120)
    while not (until.is_set() and len(out) >= replies) and state["view"]["phase"] != "over":
        n, t0 = state["n"], time.monotonic()
        await bob.send({"type": "action", "action": bob.rng.choice(state["legal"]), "n": n})
        try:
            state = await bob.until(
                lambda m, n=n: (
                    m["type"] == "state" and m["n"] > n and (bool(m["legal"]) or m["view"]["phase"] == "over")
                ),
                GAVE_UP,
            )
        except TimeoutError:  # no reply within GAVE_UP: counted as that long
            out.append((GAVE_UP, float("nan")))
            break
        if state["n"] > n + 1:
            out.append((time.monotonic() - t0, float(state.get("bot_budget", 1.0))))
    return out


async def ann_floods(site: Site, seconds: float) -> tuple[int, Player]:
    """Ann asks a hint at every decision and moves at once, table after table, for ``seconds``."""
    ann: Player | None = None
    state: dict[str, Any] = {"view": {"phase": "over"}}
    asked, end = 0, time.monotonic() + seconds
    while time.monotonic() < end:
        if ann is None or state["view"]["phase"] == "over":
            ann, _ = await site.table(
                "Ann", [{"kind": "human"}, {"kind": "bot", "level": "random"}], "127.0.0.21"
            )
            await ann.connect()
            state = await ann.until(lambda m: m["type"] == "state" and bool(m["legal"]), 60)
        await ann.send({"type": "hint", "n": state["n"]})
        asked += 1
        await asyncio.sleep(0.1)  # a quick reader: about the 44 asks in 5 s of the report
        n = state["n"]
        await ann.send({"type": "action", "action": ann.rng.choice(state["legal"]), "n": n})
        state = await ann.until(
            lambda m, n=n: (
                m["type"] == "state" and m["n"] > n and (bool(m["legal"]) or m["view"]["phase"] == "over")
            ),
            60,
        )
    assert ann is not None
    return asked, ann


async def longest_gap(site: Site, game_id: str, start: float, flood_over: asyncio.Event) -> float:
    """The longest Mallory's table went without a decision, from ``start`` until it has moved
    after the flood (at most :data:`GAVE_UP`)."""
    last, seen, gap = start, await site.decisions(game_id), 0.0
    while time.monotonic() - start < GAVE_UP:
        await asyncio.sleep(0.1)
        now, n = time.monotonic(), await site.decisions(game_id)
        if n > seen:
            gap, last, seen = max(gap, now - last), now, n
            if flood_over.is_set():
                return gap
    return max(gap, time.monotonic() - last)


async def drained(site: Site) -> float:
    """Seconds until nothing waits in the bots' queue."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < GAVE_UP:
        waiting, _ = await site.queue()
        if waiting == 0:
            return time.monotonic() - t0
        await asyncio.sleep(0.05)
    return GAVE_UP


async def scenario(args: argparse.Namespace, src: Path) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="ra-hint-flood-"))
    env = {"PYTHONPATH": str(src)}
    server = Server(f"sqlite:///{tmp / 'flood.db'}", tmp / "server.log", env=env)
    server.args = ("--bot-processes", str(args.bot_processes))
    site = Site(server.start())
    expert = [{"kind": "human"}, {"kind": "bot", "level": "expert"}]
    try:
        bob, _ = await site.table("Bob", expert, "127.0.0.9")
        await bob.connect()
        done = asyncio.Event()
        done.set()
        quiet = await bob_plays(bob, done, args.replies)
        seats = [{"kind": "human"}, {"kind": "bot", "level": "medium"}]
        # Mallory never comes: after her 5 s, a stand-in plays her seat, at the table's pace.
        _, mallory = await site.table("Mallory", seats, "127.0.0.31", bot_delay=args.pace, move_seconds=5)
        while await site.decisions(mallory) < 2:
            await asyncio.sleep(0.2)
        flood_over = asyncio.Event()
        start = time.monotonic()
        gap = asyncio.create_task(longest_gap(site, mallory, start, flood_over))
        bob_task = asyncio.create_task(bob_plays(bob, flood_over, 1))
        asked, drains = 0, []
        for _ in range(args.rounds):  # Ann floods, leaves; the queue drains; again
            n, ann = await ann_floods(site, args.flood)
            asked += n
            await ann.close()
            drains.append(await drained(site))
        flood_over.set()
        loaded, stand_in = await bob_task, await gap
    finally:
        server.stop()
    return summary(quiet, loaded, asked, stand_in, max(drains))


def summary(
    quiet: list[tuple[float, float]], loaded: list[tuple[float, float]], asked: int, gap: float, drain: float
) -> dict[str, Any]:
    def p50(xs: list[tuple[float, float]]) -> float:
        return round(statistics.median(x for x, _ in xs), 2) if xs else float("nan")

    return {
        "bob_reply_s_unloaded_p50": p50(quiet),
        "bob_reply_s_flooded_p50": p50(loaded),
        "bob_reply_s_flooded_max": round(max((x for x, _ in loaded), default=float("nan")), 2),
        "flooded_over_unloaded": round(p50(loaded) / p50(quiet), 2),
        "bob_budget_share_flooded_min": round(
            min((b for _, b in loaded if not math.isnan(b)), default=float("nan")), 2
        ),
        "bob_replies_flooded": len(loaded),
        "ann_hints_asked": asked,
        "stand_in_longest_gap_s": round(gap, 1) if gap < GAVE_UP else f">{GAVE_UP:.0f}",
        "queue_drained_s_after_ann_left_max": round(drain, 2) if drain < GAVE_UP else f">{GAVE_UP:.0f}",
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--before", type=Path, default=None, help="another checkout's src/ to run first")
    parser.add_argument("--bot-processes", type=int, default=2)
    parser.add_argument("--flood", type=float, default=5.0, help="seconds Ann asks hints, a round")
    parser.add_argument("--rounds", type=int, default=2, help="Ann's floods, one after another")
    parser.add_argument("--replies", type=int, default=4, help="Bob's unloaded replies timed")
    parser.add_argument("--pace", type=float, default=1.0, help="Mallory's table's pace (s)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    # Each server its own process started from its own sources (the tests' forker would fork
    # every one from this process's imports: "before" would run this checkout's code).
    os.environ["RA_TEST_FORK"] = "0"
    runs = {"before": args.before, "after": ROOT / "src"}
    results = {name: asyncio.run(scenario(args, src)) for name, src in runs.items() if src is not None}
    if args.json:
        print(json.dumps(results))
        return
    names = list(results)
    print(f"{'':>34}" + "".join(f"{n:>10}" for n in names))
    for key in results[names[-1]]:
        print(f"{key:>34}" + "".join(f"{results[n][key]!s:>10}" for n in names))


if __name__ == "__main__":
    main()
