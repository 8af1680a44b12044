"""Pairing speed: how long one Swiss round takes to pair, for 50, 500 and 5,000 players.

Run:  python benchmarks/pairing.py [--players 50,500,5000] [--sizes 2,3,4,5] [--rounds 7] [--json out.json]

For each table size and player count it plays a Swiss event of ``--rounds`` rounds: each round is
paired by :func:`ra.tournament.pair` from the players' points, their earlier table-mates and
their first seats, then every table's places are drawn at random (seeded) and scored as match
points.  It prints the slowest and the median round's pairing time and the repeated pairs of
table-mates over the event.  Target (issue 55): a round of 5,000 players paired in under 1 s.
networkx is imported before timing (its import is printed apart); ``--no-networkx`` pairs
two-player tables by the library's own greedy and swap path instead.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from fractions import Fraction
from itertools import combinations

from ra.tournament import Contender, Settings, pair
from ra.tournament import pairing as pairing_module


def event(players: int, size: int, rounds: int, seed: int) -> tuple[list[float], int]:
    """The pairing time of each round of one seeded event and the repeated pairs in it."""
    rng = random.Random(seed)
    field = {f"p{i}": Contender(f"p{i}", Fraction(0), rng.gauss(1500, 200)) for i in range(players)}
    mates: dict[str, set[str]] = {p: set() for p in field}
    times, repeats = [], 0
    for r in range(rounds):
        start = time.perf_counter()
        round_ = pair(list(field.values()), mates, Settings(table_size=size), seed + r)
        times.append(time.perf_counter() - start)
        for table in round_.tables:
            seated = [p for p in table if p is not None]
            for a, b in combinations(seated, 2):
                repeats += b in mates[a]
                mates[a].add(b)
                mates[b].add(a)
            rng.shuffle(seated)
            for place, p in enumerate(seated):
                c = field[p]
                won = Fraction(len(seated) - 1 - place, len(seated) - 1)
                field[p] = Contender(p, c.points + won, c.rating, c.firsts + (table[0] == p), c.byes)
    return times, repeats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python benchmarks/pairing.py", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--players", default="50,500,5000", help="player counts, comma-separated")
    parser.add_argument("--sizes", default="2,3,4,5", help="table sizes, comma-separated")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-networkx", action="store_true", help="pair two-player tables without networkx")
    parser.add_argument("--json", help="write the rows to this file")
    args = parser.parse_args(argv)
    if args.no_networkx:
        pairing_module.MATCHING = False
    else:
        start = time.perf_counter()
        import networkx  # noqa: F401

        print(f"networkx import: {time.perf_counter() - start:.3f} s (once per process, not timed below)")
    rows = []
    print(f"{'size':>4} {'players':>7} {'rounds':>6} {'median s':>9} {'slowest s':>9} {'repeats':>7}")
    for size in map(int, args.sizes.split(",")):
        for players in map(int, args.players.split(",")):
            times, repeats = event(players, size, args.rounds, args.seed)
            row = {
                "size": size,
                "players": players,
                "rounds": args.rounds,
                "median": statistics.median(times),
            }
            row |= {"slowest": max(times), "repeats": repeats}
            rows.append(row)
            median, slowest = row["median"], row["slowest"]
            print(f"{size:>4} {players:>7} {args.rounds:>6} {median:>9.3f} {slowest:>9.3f} {repeats:>7}")
            sys.stdout.flush()
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(rows, out, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
