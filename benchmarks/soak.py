"""A soak of the game server: many games between scripted people and bots, with crashes, that
fails on any turn that reaches the mover's page late (issue 40, finding 7: "a game that silently
stops").

Starts ``ra serve`` (SQLite, or ``--db postgresql+psycopg://...`` with ``--workers 2``), plays
``--games`` tables ``--parallel`` at a time — two people, a person and a bot, two people and a
bot, two people by turns — each person a real WebSocket client that moves as soon as its page
shows it a turn.  Every ``--kill-every`` seconds the server is killed with SIGKILL and started
again on the same database; the clients reconnect as a page does.  A client that waited
``--stall`` seconds with nothing new while the game is not over asks for the state again (a
reconnect, as the page does) and the wait is counted as a stall, unless a crash explains it.

Prints the games finished, the decisions, the gaps between one decision and the next as the
tables' pages saw them (p50 / p99 / max, crashes left out), and every stall with its table, its
decision and whose turn it was.  Exit status 1 if any stall or unfinished game.

    python benchmarks/soak.py --games 200 --parallel 12
    python benchmarks/soak.py --db postgresql+psycopg://ra:ra@127.0.0.1/ra_soak --workers 2 \\
        --games 200 --kill-every 20
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import httpx
import websockets

from ra.web.driver import BOT_CLAIM_STALE
from ra.web.hub import SWEEP_EVERY
from ra.web.testing import Server


class Target(Protocol):
    """Where the tables are played: a server (``ra.web.testing.Server``) or several behind a
    proxy (``benchmarks/two_hosts.py``); ``kill9`` is the crash, ``start`` the way back."""

    @property
    def url(self) -> str: ...

    @property
    def ws(self) -> str: ...

    def kill9(self) -> None: ...

    def start(self) -> object: ...


TABLES: tuple[tuple[str, list[dict[str, str]], dict[str, Any]], ...] = (
    ("two people", [{"kind": "human"}, {"kind": "human"}], {}),
    ("a person and a bot", [{"kind": "human"}, {"kind": "bot", "level": "random"}], {}),
    ("two people and a bot", [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}], {}),
    ("two people by turns", [{"kind": "human"}, {"kind": "human"}], {"move_seconds": 86400}),
)
"""The kinds of table, played in turn."""


@dataclass
class Table:
    """One table's progress as its pages saw it: when each decision number first arrived."""

    id: str
    kind: str
    seen: dict[int, float] = field(default_factory=dict)
    over: bool = False
    lost: bool = False
    """Its set-up was cut by a crash (a join's answer lost): not played."""
    stalls: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Crashes:
    """When the server was down (and a few seconds after, for the pages to reconnect)."""

    windows: list[tuple[float, float]] = field(default_factory=list)
    grace: float = BOT_CLAIM_STALE + SWEEP_EVERY + 5.0
    """A crash explains a wait that ends this long after the server is back: a bot's turn that
    a dead worker had in hand is taken over once its claim is stale, found by the next sweep."""

    def explain(self, start: float, end: float) -> bool:
        return any(start < b + self.grace and end > a for a, b in self.windows)


async def person(
    server: Target, table: Table, token: str, seed: int, args: argparse.Namespace, crashes: Crashes
) -> None:
    """A scripted person: moves at once whenever its page shows a turn; reconnects like a page."""
    rng = random.Random(seed)
    url = f"{server.ws}/ws/games/{table.id}"
    deadline = time.monotonic() + args.game_timeout
    while not table.over and time.monotonic() < deadline:
        try:
            async with websockets.connect(url, max_size=2**22, open_timeout=5) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                await play_on(ws, table, rng, args, crashes)
        except (OSError, websockets.WebSocketException, TimeoutError):
            await asyncio.sleep(0.3 + rng.random() * 0.5)


async def play_on(
    ws: Any, table: Table, rng: random.Random, args: argparse.Namespace, crashes: Crashes
) -> None:
    """Read states and answer turns until the game ends or the page has waited too long."""
    waited_from = time.monotonic()
    last_n = -1
    while not table.over:
        try:
            text = await asyncio.wait_for(ws.recv(), args.stall)
        except TimeoutError:
            now = time.monotonic()
            if not table.over and not crashes.explain(waited_from, now):
                table.stalls.append(
                    {
                        "table": table.id,
                        "kind": table.kind,
                        "decision": last_n,
                        "waited": round(now - waited_from, 1),
                    }
                )
            return  # ask for the state again: reconnect
        msg = json.loads(text)
        if msg.get("type") != "state" or msg.get("view") is None:
            continue
        n = int(msg["n"])
        waited_from = time.monotonic()
        table.seen.setdefault(n, waited_from)
        if msg["view"]["phase"] == "over":
            table.over = True
            return
        if msg["legal"] and n != last_n:
            last_n = n
            await asyncio.sleep(rng.random() * args.think)
            await ws.send(json.dumps({"type": "action", "action": rng.choice(msg["legal"]), "n": n}))


async def one_table(server: Target, index: int, args: argparse.Namespace, crashes: Crashes) -> Table:
    kind, seats, options = TABLES[index % len(TABLES)]
    body = {"seats": seats, "name": f"P{index}a", "bot_delay": 0, **options}
    async with httpx.AsyncClient(timeout=10) as http:
        created = await retry(lambda: http.post(server.url + "/api/games", json=body))
        assert created is not None
        made = created.json()
        gid = made["game"]["id"]
        tokens = [made["token"]]
        for k in range(1, sum(s["kind"] == "human" for s in seats)):
            joined = await retry(
                lambda k=k: http.post(f"{server.url}/api/games/{gid}/join", json={"name": f"P{index}{k}"}),
                give_up=409,
            )
            if joined is None:  # the join was made, its answer lost in a crash: a seat nobody holds
                return Table(gid, kind, lost=True)
            tokens.append(joined.json()["token"])
    table = Table(gid, kind)
    await asyncio.gather(
        *(person(server, table, t, index * 10 + i, args, crashes) for i, t in enumerate(tokens))
    )
    return table


async def retry(call: Any, give_up: int | None = None) -> httpx.Response | None:
    """An HTTP call, again while the server is down (or asks to slow down); None if it answers
    ``give_up`` (a request the server did, whose answer a crash lost)."""
    last = "no answer"
    for _ in range(200):
        try:
            r = await call()
            if r.status_code == 200:
                return r  # type: ignore[no-any-return]
            if r.status_code == give_up:
                return None
            last = f"{r.status_code} {r.text[:200]}"
        except httpx.HTTPError as err:
            last = repr(err)
        await asyncio.sleep(0.25)
    raise RuntimeError(f"the server did not answer for 50 s (last: {last})")


async def killer(server: Target, every: float, crashes: Crashes, done: asyncio.Event) -> None:
    while every > 0:
        try:
            await asyncio.wait_for(done.wait(), every)
            return
        except TimeoutError:
            pass
        down = time.monotonic()
        server.kill9()
        await asyncio.to_thread(server.start)
        crashes.windows.append((down, time.monotonic()))


async def soak(args: argparse.Namespace, target: Target | None = None) -> dict[str, Any]:
    """Play the tables on ``target`` (None: a server of its own, on ``args.db``)."""
    work = Path(tempfile.mkdtemp(prefix="ra-soak-"))
    if target is not None:
        return await play_all(target, args, work)
    db = args.db or f"sqlite:///{work / 'ra.db'}"
    server = Server(db, work / "server.log", workers=args.workers, env=SOAK_ENV).start()
    try:
        return await play_all(server, args, work)
    finally:
        server.stop()


SOAK_ENV = {
    "RA_MESSAGE_RATE": "1000",
    "RA_MAX_OPEN_GAMES": "100000",
    "RA_MAX_GAMES_PER_DAY": "100000",
    "RA_MAX_SOCKETS": "100000",
}
"""The server's limits lifted: every table of the soak comes from one address."""


async def play_all(target: Target, args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """Every table, ``args.parallel`` at a time, with a crash every ``args.kill_every`` seconds."""
    crashes, done = Crashes(), asyncio.Event()
    started = time.monotonic()
    kill = asyncio.create_task(killer(target, args.kill_every, crashes, done))
    limit = asyncio.Semaphore(args.parallel)

    async def limited(i: int) -> Table:
        async with limit:
            return await one_table(target, i, args, crashes)

    try:
        tables = await asyncio.gather(*(limited(i) for i in range(args.games)))
    finally:
        done.set()
        await kill
    return report(tables, crashes, time.monotonic() - started, work)


def report(tables: list[Table], crashes: Crashes, seconds: float, work: Path) -> dict[str, Any]:
    gaps = []
    for t in tables:
        times = [t.seen[n] for n in sorted(t.seen)]
        gaps += [b - a for a, b in itertools.pairwise(times) if not crashes.explain(a, b)]
    gaps.sort()

    def pct(q: float) -> float:
        return round(gaps[min(len(gaps) - 1, int(q * len(gaps)))], 3) if gaps else 0.0

    return {
        "games": sum(not t.lost for t in tables),
        "finished": sum(t.over for t in tables),
        "lost_in_set_up": sum(t.lost for t in tables),
        "decisions": sum(len(t.seen) for t in tables),
        "crashes": len(crashes.windows),
        "seconds": round(seconds, 1),
        "gap_p50": pct(0.5),
        "gap_p99": pct(0.99),
        "gap_max": round(max(gaps), 3) if gaps else 0.0,
        "gap_mean": round(statistics.fmean(gaps), 3) if gaps else 0.0,
        "stalls": [s for t in tables for s in t.stalls],
        "log": str(work / "server.log"),
    }


def options(description: str) -> argparse.ArgumentParser:
    """The soak's options (``benchmarks/two_hosts.py`` takes the same)."""
    p = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=40, help="tables to play to the end (default 40)")
    p.add_argument("--parallel", type=int, default=8, help="tables at once (default 8)")
    p.add_argument("--db", help="a database URL (default: a new SQLite file)")
    p.add_argument(
        "--workers", type=int, default=1, help="server worker processes (PostgreSQL for more than 1)"
    )
    p.add_argument(
        "--kill-every", type=float, default=0.0, help="kill -9 the server every so many seconds (0: never)"
    )
    p.add_argument(
        "--stall",
        type=float,
        default=5.0,
        help="seconds a page waits with nothing new before it asks again (a stall)",
    )
    p.add_argument("--think", type=float, default=0.05, help="a person's longest thought, in seconds")
    p.add_argument(
        "--game-timeout", type=float, default=600.0, help="seconds a table may take before it is given up"
    )
    p.add_argument("--json", action="store_true", help="print the numbers as JSON")
    return p


def show(result: dict[str, Any], args: argparse.Namespace) -> int:
    """Print the numbers; the exit status: 0, or 1 for a stall or a table not finished."""
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(
            f"{result['finished']}/{result['games']} games finished "
            f"({result['lost_in_set_up']} set-ups cut by a crash), {result['decisions']} decisions, "
            f"{result['crashes']} crashes, {result['seconds']} s"
        )
        print(
            f"gap between decisions as the pages saw them: p50 {result['gap_p50']} s, "
            f"p99 {result['gap_p99']} s, "
            f"max {result['gap_max']} s (crashes left out)"
        )
        print(f"stalls (a page waited {args.stall:g} s for nothing): {len(result['stalls'])}")
        for s in result["stalls"]:
            print(
                f"  table {s['table']} ({s['kind']}), after decision {s['decision']}: waited {s['waited']} s"
            )
    return 0 if not result["stalls"] and result["finished"] == result["games"] else 1


def main(argv: list[str] | None = None) -> int:
    args = options(__doc__.split("\n\n")[0]).parse_args(argv)
    try:
        result = asyncio.run(soak(args))
    except RuntimeError as err:  # the server would not start (its log says why)
        print(f"soak: {err}", file=sys.stderr)
        return 2
    return show(result, args)


if __name__ == "__main__":
    sys.exit(main())
