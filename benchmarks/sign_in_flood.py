"""Sign-ins under a flood (issue 40, findings 4 and 5): the owner's sign-in time alone, then while
wrong passwords for the same name arrive from many addresses at the rate each address is allowed.

Starts ``ra serve`` (SQLite) on loopback, signs "Ann" up from her own address, measures her
sign-in alone (``--alone`` times), then has ``--addresses`` clients, each from its own 127.0.x.y
address, send wrong passwords for Ann (``--tries`` each, ``--spacing`` seconds apart) while Ann
signs in every ``--every`` seconds (within her own address's limit: 5 a minute).  Prints the
owner's status codes and times (median, worst) and the guessers' answers by status.
``--server-path OTHER/src`` runs the server of another checkout: a before and after.

    python benchmarks/sign_in_flood.py
    python benchmarks/sign_in_flood.py --addresses 30 --tries 5 --spacing 1
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from ra.web.testing import Server

PASSWORD = "sun-and-nile-8"
HOME = "127.0.99.99"
"""The owner's address: she signs up and in from it, as from her own machine."""


def client(base: str, source: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=base, transport=httpx.AsyncHTTPTransport(local_address=source), timeout=120
    )


async def sign_in(base: str, source: str, password: str) -> tuple[int, float]:
    async with client(base, source) as c:
        t = time.monotonic()
        r = await c.post("/api/account/login", json={"name": "Ann", "password": password})
        return r.status_code, time.monotonic() - t


async def flood(
    base: str, args: argparse.Namespace
) -> tuple[list[tuple[int, float]], collections.Counter[int]]:
    answers: collections.Counter[int] = collections.Counter()
    stop = asyncio.Event()

    async def guesser(i: int) -> None:
        for _ in range(args.tries):
            code, _ = await sign_in(base, f"127.0.{7 + i // 250}.{i % 250 + 1}", "not-her-password")
            answers[code] += 1
            await asyncio.sleep(args.spacing)

    async def owner(out: list[tuple[int, float]]) -> None:
        await asyncio.sleep(args.every)
        while not stop.is_set():
            out.append(await sign_in(base, HOME, PASSWORD))
            await asyncio.sleep(args.every)

    mine: list[tuple[int, float]] = []
    watcher = asyncio.create_task(owner(mine))
    await asyncio.gather(*(guesser(i) for i in range(args.addresses)))
    stop.set()
    await watcher
    return mine, answers


def summary(label: str, times: list[tuple[int, float]]) -> str:
    codes = collections.Counter(code for code, _ in times)
    seconds = [t for _, t in times]
    return (
        f"{label}: {len(times)} sign-ins {dict(codes)}; median {statistics.median(seconds):.2f} s, "
        f"worst {max(seconds):.2f} s"
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--addresses", type=int, default=30, help="guessing addresses (default 30)")
    parser.add_argument(
        "--tries", type=int, default=5, help="wrong passwords from each (default 5: the burst)"
    )
    parser.add_argument("--spacing", type=float, default=1.0, help="seconds between one address's tries")
    parser.add_argument("--every", type=float, default=4.0, help="seconds between the owner's sign-ins")
    parser.add_argument("--alone", type=int, default=2, help="owner's sign-ins before the flood")
    parser.add_argument("--server-path", default=None, help="run the server from this src/ (a before/after)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {"PYTHONPATH": args.server_path} if args.server_path else None
        server = Server(f"sqlite:///{tmp}/flood.db", Path(tmp) / "server.log", env=env).start()
        try:
            base = server.url
            home = httpx.Client(base_url=base, transport=httpx.HTTPTransport(local_address=HOME))
            r = home.post("/api/account/signup", json={"name": "Ann", "password": PASSWORD})
            if r.status_code != 200:
                print(f"sign-up failed: {r.status_code} {r.text}", file=sys.stderr)
                return 1
            alone = [asyncio.run(sign_in(base, HOME, PASSWORD)) for _ in range(args.alone)]
            print(summary("owner alone", alone))
            t = time.monotonic()
            during, answers = asyncio.run(flood(base, args))
            took = time.monotonic() - t
            print(f"flood: {args.addresses} addresses x {args.tries} wrong passwords in {took:.1f} s")
            print(summary("owner during the flood", during))
            print(f"guessers' answers by status: {dict(sorted(answers.items()))}")
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
