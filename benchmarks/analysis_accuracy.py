"""Does the default analysis' accuracy order players by strength?  (Issue 53: a random player's
accuracy far below medium's, medium's below hard's.)

Run:  PYTHONPATH=src:. python benchmarks/analysis_accuracy.py [--games 6] [--budget expert]
                                                            [--hard hard] [--jobs 2] [--deep]

Plays ``--games`` three-player games of random, medium and ``--hard`` (hidden scores; seats
rotated, a new deal each game), analyses each (the default analysis at ``--budget``; with
``--deep`` the full one too, every decision at the budget) and prints each level's mean accuracy
with a 95 % interval (normal, over the games) and its range, and the gaps between the levels
with their intervals (paired by game).  Games are played and analysed in ``--jobs`` processes,
one game each.
"""

from __future__ import annotations

import argparse
import itertools
import math
import statistics
import sys
import time
from collections.abc import Sequence

import ra
from ra import bots
from ra.analysis.analyse import analyse_game
from ra.processes import running

LEVELS = ("random", "medium")


def play(order: Sequence[str], deal: int) -> ra.Game:
    """One game of the bots ``order`` (by seat) on deal ``deal``."""
    seated = [bots.from_spec(spec, seed=10 * deal + i) for i, spec in enumerate(order)]
    game = ra.Game(players=len(order), seed=100 + deal, hidden_scores=True)
    while not game.is_over():
        mover = game.to_move
        assert mover is not None
        game.apply(seated[mover].choose(game.view(mover)))
    return game


def one_game(task: tuple[tuple[str, ...], int, str, bool]) -> dict[str, dict[str, float]]:
    """Each spec's accuracy (per cent) in one game, by mode (``default``, ``deep``)."""
    specs, deal, budget, deep = task
    order = specs[deal % 3 :] + specs[: deal % 3]
    game = play(order, deal)
    modes = {"default": analyse_game(game, budget=budget)}
    if deep:
        modes["deep"] = analyse_game(game, budget=budget, searches=None)
    out: dict[str, dict[str, float]] = {}
    for mode, analysis in modes.items():
        out[mode] = {spec: 100 * (analysis.accuracy(seat) or 0.0) for seat, spec in enumerate(order)}
    return out


def interval(values: Sequence[float]) -> str:
    """``mean ± half-width`` (95 %, normal) of ``values``."""
    mean = statistics.mean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.nan
    return f"{mean:5.1f} ± {half:3.1f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--budget", default="expert")
    parser.add_argument("--hard", default="hard", help="the strong player's bot spec")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--deep", action="store_true", help="the full analysis too (slow)")
    args = parser.parse_args(argv)
    specs = (*LEVELS, args.hard)
    tasks = [(specs, deal, args.budget, args.deep) for deal in range(args.games)]
    start = time.perf_counter()
    with running(args.jobs) as pool:
        games = pool.map(one_game, tasks)
    print(f"{args.games} three-player games ({', '.join(specs)}; seats rotated), analysis at {args.budget!r}")
    for mode in games[0]:
        print(f"{mode} analysis: accuracy, mean ± 95 % interval [lowest, highest game]")
        for spec in specs:
            values = [g[mode][spec] for g in games]
            print(f"  {spec:>24}: {interval(values)}  [{min(values):.1f}, {max(values):.1f}]")
        for low, high in itertools.pairwise(specs):
            gaps = [g[mode][high] - g[mode][low] for g in games]
            print(f"  {high} - {low}: {interval(gaps)} points")
    print(f"{time.perf_counter() - start:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
