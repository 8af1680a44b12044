"""Load on the game server: many bot-only games at once, each watched by spectators.

Starts ``ra serve`` (SQLite by default, or ``--db postgresql+psycopg://...`` with ``--workers``),
creates N games of random bots with no delay, connects M spectators to each over real
WebSockets on loopback, and measures until every game is over:

- decisions per second over the whole run;
- latency from a decision's submission (the ``t`` of each state) to its arrival at the last of
  the game's spectators: p50 / p95 / p99;
- errors, and the server's peak resident memory;
- lost decisions: every game's stored record is compared with every spectator's log;
- the load generator's own delays (:class:`LoopWatch`): its event loop's lag and its garbage
  collections' pauses while it measured — the clients run on the same cores as the server, and
  a latency they add is theirs, not the server's. Their heap is frozen once the spectators are
  in, as the server's is once started (:mod:`ra.web.heap`), and their cyclic collector is off
  while the games run; a message is timed as it is read, before it is parsed.

    python benchmarks/web_load.py --games 200 --spectators 2
    python benchmarks/web_load.py --db postgresql+psycopg://ra:ra@127.0.0.1/ra_load --workers 2

Two more scenarios (``--scenario``):

- ``abuse``: a person plays a ``medium`` bot, first alone, then while one address floods the
  server with every bot-only table its limits allow (``--flood-level`` bots, five a table); the
  person's bot reply time (their move sent → their turn again) p50/p95, unloaded and loaded;
- ``person-flood``: the same person's bot replies, alone, then while ``--flood-addresses``
  addresses each fill their limits with tables "with a person": an attacker's seat on a 10 s game
  clock that never connects (its stand-in, of ``--flood-level``, plays it) and four such bots;
- ``lobby``: ``--stored`` finished games in the database, then the lobby list
  (``GET /api/games``) timed over HTTP, and its query timed in-process without the cache.

    python benchmarks/web_load.py --scenario abuse --replies 15
    python benchmarks/web_load.py --scenario person-flood --replies 15 --flood-level expert
    python benchmarks/web_load.py --scenario lobby --stored 1000
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import httpx
import websockets

import ra
from ra.web.heap import settle
from ra.web.protocol import seat_payload
from ra.web.testing import Server


def family(pid: int) -> list[int]:
    """A process and all its descendants (the server's workers and bot processes)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in Path(f"/proc/{p}/task").iterdir():
                todo.extend(int(c) for c in (task / "children").read_text().split())
        except OSError:
            pass
    return out


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of the server's processes so far (steadier than wall time)."""
    return cpu_of(family(pid))


def cpu_of(pids: Iterable[int]) -> float:
    """User + system CPU time of these processes so far (those gone count nothing)."""
    total = 0
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    """Resident memory of the server's processes, in MiB (from /proc)."""
    total = 0
    for p in family(pid):
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


async def spectate(
    url: str,
    game_id: str,
    arrivals: dict[tuple[str, int], list[float]],
    logs: list[list[str]],
    errors: list[str],
    ready: asyncio.Event,
    started: asyncio.Event,
) -> None:
    log: list[str] = []
    seen_n: int | None = None
    async with websockets.connect(f"{url}/ws/games/{game_id}", max_size=2**22, open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        ready.set()
        while True:
            text = await asyncio.wait_for(ws.recv(), 300)
            now = time.time()  # before parsing it: the client's own work is not the server's
            m = json.loads(text)
            if m["type"] == "error":
                errors.append(m["code"])
                continue
            if m["type"] != "state" or m["view"] is None:
                continue
            del log[m["events_from"] :]
            log.extend(json.dumps(e["msg"], sort_keys=True) for e in m["events"])
            first, seen_n = seen_n is None, m["n"]
            # The answer to hello is a resync, not a broadcast: it carries an old decision's time.
            if not first and m["t"] is not None and started.is_set():
                arrivals.setdefault((game_id, m["n"]), []).append(now - m["t"])
            if m["view"]["phase"] == "over":
                break
    logs.append(log)


class LoopWatch:
    """The load generator's own delays, so a latency can be told the server's or its own: how
    late its event loop wakes from a short sleep (messages waiting on its queue, not the
    server's), and how long its garbage collections paused it."""

    TICK = 0.01

    def __init__(self) -> None:
        self.lags: list[float] = []
        self.gc_seconds = 0.0
        self.gc_longest = 0.0
        self._gc_started = 0.0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> LoopWatch:
        gc.callbacks.append(self._gc)
        self._task = asyncio.create_task(self._tick())
        return self

    def stop(self) -> dict[str, float]:
        gc.callbacks.remove(self._gc)
        if self._task is not None:
            self._task.cancel()
        return {
            "client_loop_lag_ms_p99": round(1000 * pct(self.lags, 0.99), 1),
            "client_loop_lag_ms_max": round(1000 * max(self.lags, default=0.0), 1),
            "client_gc_pause_ms_total": round(1000 * self.gc_seconds, 1),
            "client_gc_pause_ms_max": round(1000 * self.gc_longest, 1),
        }

    async def _tick(self) -> None:
        while True:
            t = time.perf_counter()
            await asyncio.sleep(self.TICK)
            self.lags.append(time.perf_counter() - t - self.TICK)

    def _gc(self, phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
            return
        pause = time.perf_counter() - self._gc_started
        self.gc_seconds += pause
        self.gc_longest = max(self.gc_longest, pause)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="ra-load-"))
    db = args.db or f"sqlite:///{tmp / 'load.db'}"
    server = Server(db, tmp / "server.log", workers=args.workers, env=UNLIMITED).start()
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            # Every game starts at one moment, once its spectators are in (a scheduled start).
            lead = 5.0 + 0.03 * args.games * (1 + args.spectators)
            start_at = time.time() + lead
            game_ids = []
            for _ in range(args.games):
                r = await http.post(
                    "/api/games",
                    json={
                        "seats": [{"kind": "bot", "level": "random"}] * args.players,
                        "join": False,
                        "bot_delay": args.bot_delay,
                        "hidden_scores": False,
                        "start_in": max(0.0, start_at - time.time()),
                    },
                )
                r.raise_for_status()
                game_ids.append(r.json()["game"]["id"])
            arrivals: dict[tuple[str, int], list[float]] = {}
            logs: dict[str, list[list[str]]] = {g: [] for g in game_ids}
            errors: list[str] = []
            started = asyncio.Event()
            readies = []
            tasks = []
            for g in game_ids:
                for _ in range(args.spectators):
                    ready = asyncio.Event()
                    readies.append(ready)
                    tasks.append(
                        asyncio.create_task(spectate(server.ws, g, arrivals, logs[g], errors, ready, started))
                    )
            await asyncio.gather(*(r.wait() for r in readies))
            if time.time() > start_at:
                sys.exit(f"setup took longer than the {lead:.0f} s lead: the games started early")
            # The load generator's own heap (2,000 sockets, every spectator's log) must not pause
            # it mid-measure: settled as the server's is (frozen, a larger young generation), and
            # its cyclic collector off until the games are over. Frozen, it still walked what the
            # run itself kept (every arrival, every log): at 1,000 games some 2 s of pauses, up to
            # 0.2 s each — a p99 of its own (2026-12-03); reference counting frees the rest.
            settle()
            gc.disable()
            await asyncio.sleep(start_at - time.time())
            started.set()
            watch = LoopWatch().start()
            t0 = time.monotonic()
            assert server.proc is not None
            cpu0 = cpu_seconds(server.proc.pid)
            peak = 0.0
            assert server.proc is not None
            done = asyncio.gather(*tasks, return_exceptions=True)
            while not done.done():
                peak = max(peak, rss_mb(server.proc.pid))
                await asyncio.wait([done], timeout=0.5)
            elapsed = time.monotonic() - t0
            cpu = cpu_seconds(server.proc.pid) - cpu0
            own = watch.stop()
            gc.enable()
            failures = [r for r in done.result() if isinstance(r, BaseException)]
            errors.extend(type(f).__name__ for f in failures)
            lost = 0
            total_decisions = 0
            for g in game_ids:
                record = (await http.get(f"/api/games/{g}/record")).json()
                game = ra.Game.from_record(record)
                total_decisions += game.num_decisions
                expected = [
                    json.dumps(e["msg"], sort_keys=True)
                    for e in seat_payload(game, None, "original")["events"]
                ]
                lost += sum(1 for log in logs[g] if log != expected)
    finally:
        server.stop()
    latencies = sorted(max(v) * 1000 for (g, n), v in arrivals.items() if len(v) == args.spectators)

    def pct(q: float) -> float:
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] if latencies else float("nan")

    return {
        "db": "postgresql" if db.startswith("postgresql") else "sqlite",
        "workers": args.workers,
        "games": args.games,
        "spectators_per_game": args.spectators,
        "decisions": total_decisions,
        "seconds": round(elapsed, 2),
        "decisions_per_s": round(total_decisions / elapsed, 1),
        "latency_ms_p50": round(pct(0.50), 1),
        "latency_ms_p95": round(pct(0.95), 1),
        "latency_ms_p99": round(pct(0.99), 1),
        "latency_ms_mean": round(statistics.fmean(latencies), 1) if latencies else None,
        "server_cpu_ms_per_decision": round(1000 * cpu / max(1, total_decisions), 3),
        "errors": len(errors),
        "spectator_logs_differing_from_the_record": lost,
        "server_peak_rss_mb": round(peak, 1),
        **own,
    }


UNLIMITED = {
    "RA_MAX_OPEN_GAMES": "1000000",
    "RA_MAX_BOT_SEATS": "1000000",
    "RA_MESSAGE_RATE": "1000",
    "RA_MAX_SOCKETS": "1000000",
}
"""The load scenario plays every game from one address: lift the per-address limits."""


PERSON_THINKS = 0.1
"""Seconds the scripted person waits before each move, as a person would (a move every few
milliseconds would meet the server's limit of messages a second, which refuses it)."""
PERSON_ADDRESS = "127.0.0.9"
"""Where the measured person's requests come from (loopback's other addresses are the flood's)."""


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def replies(url: str, ws_url: str, count: int, seed: int) -> list[float]:
    """A person against a medium bot: seconds from each of their moves to their next turn."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' scripted client
    from tests.web.client import Player

    # The person comes from an address of their own: the flood's address has used its limits.
    person = httpx.AsyncHTTPTransport(local_address=PERSON_ADDRESS)
    async with httpx.AsyncClient(base_url=url, timeout=60, transport=person) as http:
        r = await http.post(
            "/api/games",
            json={
                "seats": [{"kind": "human"}, {"kind": "bot", "level": "medium"}],
                "name": "Ann",
                "bot_delay": 0,
            },
        )
        r.raise_for_status()
        made = r.json()
    p = Player(ws_url, made["game"]["id"], made["token"], seed=seed)
    await p.connect()
    state = await p.until(lambda m: m["type"] == "state" and m["view"] is not None)
    out: list[float] = []
    while len(out) < count and state["view"]["phase"] != "over":
        if not state["legal"]:
            state = await p.until(
                lambda m: m["type"] == "state" and (bool(m["legal"]) or m["view"]["phase"] == "over"), 300
            )
            continue
        await asyncio.sleep(PERSON_THINKS)
        n, t0 = state["n"], time.monotonic()
        await p.send({"type": "action", "action": p.rng.choice(state["legal"]), "n": n})
        state = await p.until(
            lambda m, n=n: (
                m["type"] == "error"
                or (
                    m["type"] == "state" and m["n"] > n and (bool(m["legal"]) or m["view"]["phase"] == "over")
                )
            ),
            300,
        )
        if state["type"] == "error":
            raise RuntimeError(f"the server refused the person's move: {state['code']}: {state['message']}")
        if state["n"] > n + 1:  # the bot moved in between: a reply
            out.append(time.monotonic() - t0)
    await p.close()
    return out


def reply_numbers(quiet: list[float], loaded: list[float]) -> dict[str, Any]:
    """The person's bot replies alone and under the flood: p50, p95 and the p95 ratio."""
    return {
        "replies": len(loaded),
        "reply_s_p50_unloaded": round(pct(quiet, 0.5), 3),
        "reply_s_p95_unloaded": round(pct(quiet, 0.95), 3),
        "reply_s_p50_flooded": round(pct(loaded, 0.5), 3),
        "reply_s_p95_flooded": round(pct(loaded, 0.95), 3),
        "p95_ratio": round(pct(loaded, 0.95) / max(1e-9, pct(quiet, 0.95)), 2),
    }


async def abuse(args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="ra-abuse-"))
    server = Server(f"sqlite:///{tmp / 'abuse.db'}", tmp / "server.log").start()
    try:
        quiet = await replies(server.url, server.ws, args.replies, seed=1)
        flood = 0
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            while True:  # as many bot-only tables as one address may have
                r = await http.post(
                    "/api/games",
                    json={
                        "seats": [{"kind": "bot", "level": args.flood_level}] * 5,
                        "join": False,
                        "bot_delay": 0,
                    },
                )
                if r.status_code != 200:
                    break
                flood += 1
        loaded = await replies(server.url, server.ws, args.replies, seed=2)
    finally:
        server.stop()
    return {
        "scenario": "abuse",
        "flood_tables": flood,
        "flood_level": args.flood_level,
        **reply_numbers(quiet, loaded),
    }


async def lobby(args: argparse.Namespace) -> dict[str, Any]:
    from ra.web import db as database
    from ra.web.store import Store

    tmp = Path(tempfile.mkdtemp(prefix="ra-lobby-"))
    url = f"sqlite:///{tmp / 'lobby.db'}"
    database.upgrade(url)
    store = Store(url)
    for i in range(args.stored):
        await store.create_game(
            {
                "status": "finished",
                "players": 3,
                "variant": "standard",
                "suns_per_player": None,
                "hidden_scores": False,
                "edition": "original",
                "bot_delay": 0.0,
                "seed": i,
                "epoch": 3,
                "winner": 0,
                "scores": [30, 20, 10],
                "num_decisions": 200,
            },
            [
                {"seat": s, "kind": "bot", "level": "random", "name": f"Bot {s}", "token_hash": None}
                for s in range(3)
            ],
        )
    query = []
    for _ in range(100):
        t0 = time.perf_counter()
        await store.list_games("finished")
        query.append(1000 * (time.perf_counter() - t0))
    await store.close()
    server = Server(url, tmp / "server.log").start()
    http_ms = []
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            for i in range(200):
                t0 = time.perf_counter()
                r = await http.get("/api/games", params={"status": "finished"})
                http_ms.append(1000 * (time.perf_counter() - t0))
                r.raise_for_status()
                await asyncio.sleep(0.21 if i % 10 else 1.05)  # within the rate limit; some past the cache
    finally:
        server.stop()
    return {
        "scenario": "lobby",
        "stored_games": args.stored,
        "query_ms_p50": round(pct(query, 0.5), 2),
        "query_ms_p95": round(pct(query, 0.95), 2),
        "http_ms_p50": round(pct(http_ms, 0.5), 2),
        "http_ms_p95": round(pct(http_ms, 0.95), 2),
    }


async def person_flood(args: argparse.Namespace) -> dict[str, Any]:
    """Issue 40, finding 1: tables "with a person" from several addresses — each an attacker's
    seat on the shortest game clock, never connected, so its stand-in plays, and four bots —
    then a present person's ``medium`` bot replies, timed, as in ``abuse``."""
    tmp = Path(tempfile.mkdtemp(prefix="ra-person-flood-"))
    server = Server(f"sqlite:///{tmp / 'flood.db'}", tmp / "server.log", env=SERVER_ENV).start()
    try:
        quiet = await replies(server.url, server.ws, args.replies, seed=1)
        seats = [{"kind": "human"}] + [{"kind": "bot", "level": args.flood_level}] * 4
        body = {
            "seats": seats,
            "name": "Mallory",
            "bot_delay": 0,
            "game_seconds": 10,
            "stand_in": args.flood_level,
        }
        flood = 0
        for a in range(args.flood_addresses):
            transport = httpx.AsyncHTTPTransport(local_address=f"127.0.8.{a + 1}")
            async with httpx.AsyncClient(base_url=server.url, timeout=60, transport=transport) as http:
                while (
                    await http.post("/api/games", json={**body, "name": f"Mallory{a}-{flood}"})
                ).status_code == 200:
                    flood += 1
        await asyncio.sleep(12)  # the attackers' clocks run out: their stand-ins play
        loaded = await replies(server.url, server.ws, args.replies, seed=2)
    finally:
        server.stop()
    return {
        "scenario": "person-flood",
        "flood_tables": flood,
        "flood_addresses": args.flood_addresses,
        "flood_level": args.flood_level,
        **reply_numbers(quiet, loaded),
    }


SERVER_ENV: dict[str, str] = {}
"""Extra environment for the server (``--server-path``: another checkout's ``src`` to compare)."""


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--spectators", type=int, default=2)
    parser.add_argument("--players", type=int, default=3, choices=range(2, 6))
    parser.add_argument("--bot-delay", type=float, default=0.0)
    parser.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--scenario", choices=("load", "abuse", "person-flood", "lobby"), default="load")
    parser.add_argument("--flood-addresses", type=int, default=5, help="person-flood: attacking addresses")
    parser.add_argument("--server-path", default=None, help="run the server from this src/ (a before/after)")
    parser.add_argument("--replies", type=int, default=15, help="abuse: bot replies timed per phase")
    parser.add_argument("--flood-level", default="hard", help="abuse: the flood's bot level")
    parser.add_argument("--stored", type=int, default=1000, help="lobby: finished games in the database")
    args = parser.parse_args()
    if args.server_path:
        SERVER_ENV["PYTHONPATH"] = args.server_path
        os.environ["RA_TEST_FORK"] = "0"  # forked from this process, the server would run our code
    scenarios = {"abuse": abuse, "person-flood": person_flood, "lobby": lobby}
    if args.scenario != "load":
        outcome = asyncio.run(scenarios[args.scenario](args))
        print(json.dumps(outcome) if args.json else "\n".join(f"{k:>24}: {v}" for k, v in outcome.items()))
        return
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:>42}: {v}")
    sys.exit(0 if result["errors"] == 0 and result["spectator_logs_differing_from_the_record"] == 0 else 1)


if __name__ == "__main__":
    main()
