"""Load on the game server: many bot-only games at once, each watched by spectators.

Starts ``ra serve`` (SQLite by default, or ``--db postgresql+psycopg://...`` with ``--workers``),
creates N games of random bots with no delay, connects M spectators to each over real
WebSockets on loopback, and measures until every game is over:

- decisions per second over the whole run;
- latency from a decision's submission (the ``t`` of each state) to its arrival at the last of
  the game's spectators: p50 / p95 / p99;
- errors, and the server's peak resident memory;
- lost decisions: every game's stored record is compared with every spectator's log.

    python benchmarks/web_load.py --games 200 --spectators 2
    python benchmarks/web_load.py --db postgresql+psycopg://ra:ra@127.0.0.1/ra_load --workers 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

import ra
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
    total = 0
    for p in family(pid):
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
            m = json.loads(await asyncio.wait_for(ws.recv(), 300))
            now = time.time()
            if m["type"] == "error":
                errors.append(m["code"])
                continue
            if m["type"] != "state" or m["view"] is None:
                continue
            del log[m["events_from"] :]
            log.extend(e["text"] for e in m["events"])
            first, seen_n = seen_n is None, m["n"]
            # The answer to hello is a resync, not a broadcast: it carries an old decision's time.
            if not first and m["t"] is not None and started.is_set():
                arrivals.setdefault((game_id, m["n"]), []).append(now - m["t"])
            if m["view"]["phase"] == "over":
                break
    logs.append(log)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="ra-load-"))
    db = args.db or f"sqlite:///{tmp / 'load.db'}"
    server = Server(db, tmp / "server.log", workers=args.workers).start()
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
            await asyncio.sleep(start_at - time.time())
            started.set()
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
            failures = [r for r in done.result() if isinstance(r, BaseException)]
            errors.extend(type(f).__name__ for f in failures)
            lost = 0
            total_decisions = 0
            for g in game_ids:
                record = (await http.get(f"/api/games/{g}/record")).json()
                game = ra.Game.from_record(record)
                total_decisions += game.num_decisions
                expected = [e["text"] for e in seat_payload(game, None, "original")["events"]]
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
    }


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
    args = parser.parse_args()
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:>42}: {v}")
    sys.exit(0 if result["errors"] == 0 and result["spectator_logs_differing_from_the_record"] == 0 else 1)


if __name__ == "__main__":
    main()
