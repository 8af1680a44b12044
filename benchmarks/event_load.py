"""Load of a running arena on the game server (issue 55): many people in one arena at once.

Starts ``ra serve`` (SQLite by default, or ``--db postgresql+psycopg://...`` with ``--workers``),
signs up ``--players`` scripted people (each from an address of its own, through a trusted
proxy's ``X-Forwarded-For``), puts them in an arena at tables of ``--table-size`` for
``--minutes`` and lets them play: each opens the seat the arena gives it ("Play on this device"),
plays random legal actions with a person's pause (``--think``) and asks the event's page every
``--poll`` seconds for its next table, until the arena is over.  Measures, as ``web_load.py``:

- decisions per second over the arena;
- the person latency: a player's decision sent → its new state back, p50 / p95 / p99 (ms);
- the seating latency, from the database: a player's game ended → their next table formed
  (the server's own reaction, whatever the polling), p50 / p95 (ms);
- the event's page (``GET /api/events/{id}``, standings included) as the players ask it: p50 / p95;
- errors, the server's CPU per decision and peak resident memory.

    python benchmarks/event_load.py --players 200 --minutes 2
    python benchmarks/event_load.py --db postgresql+psycopg://ra:ra@127.0.0.1/ra_events --workers 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' scripted client
from tests.web.client import Player

from ra.web.db import event_tables, games
from ra.web.testing import Server
from web_load import cpu_seconds, pct, rss_mb  # a sibling: benchmarks/ is the script's own folder

ENV = {
    "RA_MESSAGE_RATE": "1000",
    "RA_MAX_SOCKETS": "1000000",
    "RA_MAX_OPEN_GAMES": "10000",
    "RA_MAX_BOT_SEATS": "10000",
    "RA_MAX_GAMES_PER_DAY": "1000000",
}
"""Every player connects from loopback and the arena makes every table: lift the per-address
limits (the scripted people's requests come through the proxy from addresses of their own)."""
PASSWORD = "arena-load-password"


class Tally:
    """What the players measured."""

    def __init__(self) -> None:
        self.moves: list[float] = []
        self.pages: list[float] = []
        self.errors: list[str] = []
        self.games = 0


async def sign_up(url: str, i: int) -> httpx.AsyncClient:
    """Player ``i`` signed up from an address (and /24) of its own, with its CSRF token."""
    http = httpx.AsyncClient(
        base_url=url, timeout=120, headers={"X-Forwarded-For": f"10.{i // 250}.{i % 250}.7"}
    )
    r = await http.post("/api/account/signup", json={"name": f"Load{i}", "password": PASSWORD})
    r.raise_for_status()
    http.headers["X-CSRF-Token"] = r.json()["csrf"]
    return http


def shown(m: dict[str, Any]) -> bool:
    return m["type"] == "state" and m["view"] is not None


async def play_game(p: Player, think: float, tally: Tally) -> None:
    """Random legal decisions, each after a person's pause, until the game is over (a state
    without the game once it has started is counted as an error, and the next one awaited)."""
    state = await p.until(shown, 120)
    while state["view"]["phase"] != "over":
        if not state["legal"]:
            state = await p.until(
                lambda m: (
                    m["type"] == "state"
                    and (m["view"] is None or bool(m["legal"]) or m["view"]["phase"] == "over")
                ),
                600,
            )
            if state["view"] is None:
                tally.errors.append("state_without_game")
                state = await p.until(shown, 120)
            continue
        await asyncio.sleep(think * random.uniform(0.5, 1.5))
        n, t0 = state["n"], time.monotonic()
        await p.play_random()
        state = await p.until(
            lambda m, n=n: m["type"] == "error" or (m["type"] == "state" and m["n"] > n), 600
        )
        if state["type"] == "error":
            tally.errors.append(state["code"])
            state = await p.state_now()
            continue
        tally.moves.append(time.monotonic() - t0)


async def person(
    http: httpx.AsyncClient, account: str, ws: str, eid: str, args: argparse.Namespace, tally: Tally
) -> None:
    """One player: poll the event for a table of theirs not played yet, play it, until the end."""
    done: set[str] = set()
    await asyncio.sleep(random.uniform(0, args.poll))
    while True:
        try:
            if not await turn(http, account, ws, eid, args, tally, done):
                return
        except (httpx.HTTPError, OSError, TimeoutError, websockets.WebSocketException) as err:
            tally.errors.append(type(err).__name__)  # named in the results; the person tries again
            await asyncio.sleep(args.poll)
        except Exception as err:  # anything else too: a person who stopped would hold the arena open
            tally.errors.append(f"{type(err).__name__}: {err}"[:120])
            await asyncio.sleep(args.poll)


async def turn(
    http: httpx.AsyncClient,
    account: str,
    ws: str,
    eid: str,
    args: argparse.Namespace,
    tally: Tally,
    done: set[str],
) -> bool:
    """Ask the page once and play the player's next table if there is one; False once the event is over."""
    t0 = time.monotonic()
    r = await http.get(f"/api/events/{eid}")
    tally.pages.append(time.monotonic() - t0)
    event = r.raise_for_status().json()
    mine = [t for t in event["tables"] if account in t["players"] and t["game"] and t["game"] not in done]
    if not mine:
        if event["status"] in ("finished", "cancelled"):
            return False  # not "open": a worker's page data may be a moment old
        await asyncio.sleep(args.poll)
        return True
    table = mine[0]
    seat = table["players"].index(account)
    r = await http.post(f"/api/account/seats/{table['game']}/{seat}/here")
    r.raise_for_status()
    p = Player(ws, table["game"], r.json()["token"], seed=random.randrange(2**32))
    await p.connect()
    try:
        await play_game(p, args.think, tally)
    finally:
        await p.close()
    done.add(table["game"])
    tally.games += 1
    return True


def seating_ms(db: str, eid: str) -> list[float]:
    """For each player and each of their games after the first: ms from their previous game's
    end to the making of their next game (seated again; from the stored rows: a round's claim
    time is renewed with each table it makes, so it is not the moment of each seating)."""
    engine = sa.create_engine(db)
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(event_tables.c.players, games.c.created_at, games.c.updated_at, games.c.status)
            .select_from(event_tables.join(games, games.c.id == event_tables.c.game_id))
            .where(event_tables.c.event_id == eid)
            .order_by(games.c.created_at)
        ).all()
    engine.dispose()
    last_end: dict[str, Any] = {}
    waits: list[float] = []
    for players, made, ended, status in rows:
        for p in players:
            if p is not None and p in last_end:
                waits.append(max(0.0, (made - last_end[p]).total_seconds() * 1000))
            if p is not None and status == "finished":
                last_end[p] = ended
    return waits


async def run(args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="ra-event-load-"))
    db = args.db or f"sqlite:///{tmp / 'events.db'}"
    proxied = ("--forwarded-allow-ips", "127.0.0.1")
    server = Server(db, tmp / "server.log", workers=args.workers, env=ENV, args=proxied).start()
    tally = Tally()
    clients: list[httpx.AsyncClient] = []
    try:
        for i in range(args.players):
            clients.append(await sign_up(server.url, i))
        organiser = clients[0]
        r = await organiser.post(
            "/api/events",
            json={
                "name": "Load Arena",
                "kind": "arena",
                "table_size": args.table_size,
                "minutes": args.minutes,
                "rated": False,
            },
        )
        r.raise_for_status()
        eid = r.json()["event"]["id"]
        accounts = []
        for c in clients:
            view = (await c.post(f"/api/events/{eid}/join", json={})).raise_for_status().json()
            accounts.append(view["players"][-1]["account"])
        (await organiser.post(f"/api/events/{eid}/start")).raise_for_status()
        assert server.proc is not None
        t0, cpu0, peak = time.monotonic(), cpu_seconds(server.proc.pid), 0.0
        tasks = asyncio.gather(
            *(person(c, a, server.ws, eid, args, tally) for c, a in zip(clients, accounts, strict=True)),
            return_exceptions=True,
        )
        while not tasks.done():
            peak = max(peak, rss_mb(server.proc.pid))
            await asyncio.wait([tasks], timeout=0.5)
        elapsed, cpu = time.monotonic() - t0, cpu_seconds(server.proc.pid) - cpu0
        tally.errors.extend(type(f).__name__ for f in tasks.result() if isinstance(f, BaseException))
        final = (await organiser.get(f"/api/events/{eid}")).json()
    finally:
        for c in clients:
            await c.aclose()
        server.stop()
    seated = seating_ms(db, eid)
    moves = [m * 1000 for m in tally.moves]
    pages = [m * 1000 for m in tally.pages]
    return {
        "db": "postgresql" if db.startswith("postgresql") else "sqlite",
        "workers": args.workers,
        "players": args.players,
        "table_size": args.table_size,
        "minutes": args.minutes,
        "event_status": final["status"],
        "games": len(final["tables"]),
        "seconds": round(elapsed, 1),
        "decisions": len(moves),
        "decisions_per_s": round(len(moves) / elapsed, 1),
        "person_latency_ms_p50": round(pct(moves, 0.50), 1),
        "person_latency_ms_p95": round(pct(moves, 0.95), 1),
        "person_latency_ms_p99": round(pct(moves, 0.99), 1),
        "person_latency_ms_mean": round(statistics.fmean(moves), 1) if moves else None,
        "seated_again_ms_p50": round(pct(seated, 0.50), 1),
        "seated_again_ms_p95": round(pct(seated, 0.95), 1),
        "event_page_ms_p50": round(pct(pages, 0.50), 1),
        "event_page_ms_p95": round(pct(pages, 0.95), 1),
        "event_page_requests": len(pages),
        "server_cpu_ms_per_decision": round(1000 * cpu / max(1, len(moves)), 3),
        "errors": len(tally.errors),
        "error_kinds": dict(Counter(tally.errors)),
        "server_peak_rss_mb": round(peak, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--minutes", type=int, default=2, help="the arena's length")
    parser.add_argument("--table-size", type=int, default=2, choices=range(2, 6))
    parser.add_argument("--think", type=float, default=0.5, help="seconds a person waits before a decision")
    parser.add_argument(
        "--poll", type=float, default=2.0, help="seconds between a free player's page requests"
    )
    parser.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:>32}: {v}")
    sys.exit(0 if result["errors"] == 0 else 1)


if __name__ == "__main__":
    main()
