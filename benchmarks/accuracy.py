"""Does the analysis rank players right?  Accuracy and chance lost per bot level.

Run:  python benchmarks/accuracy.py [--games 6] [--players 3] [--budget 5000] [--jobs 2] [--fit]

Each level (``random``, ``greedy``, ``easy``, ``medium``, ``hard``, ``expert``) plays ``--games``
games against two ``medium`` bots, its seat rotated game by game (the deals are the same for
every level: game k of every level has seed ``--seed + k``).  The analysis (``ra.analysis.game``,
the advisor's search at ``--budget``) judges that seat's decisions.  Printed per level: the mean
chance lost a decision and the accuracy (lichess's, from the chance lost at each decision:
``GameAnalysis.accuracy``, :mod:`ra.analysis.accuracy`) with 95% intervals over games, the
share of inaccuracies / mistakes / blunders, and whether the levels come out in the order of
their strength (expert >= hard >= ... >= random).

``--fit`` re-fits the labels' thresholds on these decisions: the smallest losses (on a grid of
whole per cent) that the strong levels' decisions (the first two of ``--levels``) reach at most
1.5%, 0.25% and 0% of the time — an inaccuracy, a mistake, a blunder: what a strong player still
does now and then, a weak one often.  It prints the share each level would get.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import ra
from ra import bots, processes
from ra.analysis.analyse import analyse_game
from ra.analysis.game import BLUNDER, INACCURACY, MISTAKE

LEVELS = ("expert", "hard", "medium", "easy", "greedy", "random")
"""Strongest first: the order the analysis should reproduce."""


def one_game(level: str, k: int, players: int, budget: str, seed: int) -> dict[str, Any]:
    """Play game ``k`` of ``level`` against ``medium`` bots and judge the level's decisions."""
    seat = k % players
    specs = ["medium"] * players
    specs[seat] = level
    seated = [bots.from_spec(s, seed=seed * 100 + k * 10 + i) for i, s in enumerate(specs)]
    game = ra.Game(players=players, seed=seed + k)
    while not game.is_over():
        mover = game.to_move
        assert mover is not None
        game.apply(seated[mover].choose(game.view(mover)))
    analysis = analyse_game(game, seats=[seat], budget=budget, seed=seed)
    return {
        "level": level,
        "game": k,
        "won": game.winner == seat,
        "losses": [d.loss for d in analysis.decisions],
        "accuracy": analysis.accuracy(seat),
    }


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval (normal approximation over games)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.nan
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def share_at(losses: list[float], threshold: float) -> float:
    """The share of decisions that lost ``threshold`` or more."""
    return sum(x >= threshold for x in losses) / len(losses) if losses else 0.0


def fit(results: list[dict[str, Any]], levels: list[str]) -> None:
    """Print the thresholds the strong levels almost never reach (see the module doc)."""
    strong = [x for r in results if r["level"] in levels[:2] for x in r["losses"]]
    grid = [k / 100 for k in range(1, 51)]
    fitted = [next(t for t in grid if share_at(strong, t) <= most) for most in (0.015, 0.0025, 0.0)]
    names = ("INACCURACY", "MISTAKE", "BLUNDER")
    print("fitted: " + ", ".join(f"{n} {t}" for n, t in zip(names, fitted, strict=True)))
    for lv in levels:
        losses = [x for r in results if r["level"] == lv for x in r["losses"]]
        shares = ", ".join(f"{100 * share_at(losses, t):.1f}%" for t in fitted)
        print(f"  {lv:<8} decisions at or above them: {shares}")


def play(levels: list[str], args: argparse.Namespace) -> list[dict[str, Any]]:
    """Every level's games, played and analysed in ``args.jobs`` processes."""
    tasks = [(lv, k, args.players, args.budget, args.seed) for lv in levels for k in range(args.games)]
    results = []
    with ProcessPoolExecutor(args.jobs, mp_context=processes.context()) as pool:  # fresh, not forked
        for done, result in enumerate(pool.map(one_game, *zip(*tasks, strict=True)), 1):
            results.append(result)
            print(
                f"  {done}/{len(tasks)}: {result['level']} game {result['game']}", file=sys.stderr, flush=True
            )
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per level")
    parser.add_argument("--players", type=int, default=3, choices=range(2, 6))
    parser.add_argument("--budget", default="5000", help="the analysis' budget per decision")
    parser.add_argument("--levels", default=",".join(LEVELS), help="comma-separated, strongest first")
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--fit", action="store_true", help="re-fit the labels' thresholds")
    parser.add_argument("--json", metavar="PATH", help="also write every decision's loss as JSON")
    parser.add_argument("--from-json", metavar="PATH", help="the tables of a --json file, without playing")
    args = parser.parse_args(argv)
    levels = [x.strip() for x in args.levels.split(",") if x.strip()]
    start = time.perf_counter()
    if args.from_json:
        with open(args.from_json, encoding="utf-8") as f:
            saved = json.load(f)
        results: list[dict[str, Any]] = saved["results"]
        for key in ("players", "games", "budget"):
            setattr(args, key, saved["args"][key])
    else:
        results = play(levels, args)
    print(
        f"{args.players} players, {args.games} games a level against 2 medium, "
        f"analysis budget {args.budget}, {(time.perf_counter() - start) / 60:.1f} min"
    )
    print("level    wins  decisions  chance lost/decision   accuracy            inacc  mistake  blunder")
    means = {}
    for lv in levels:
        games = [r for r in results if r["level"] == lv]
        losses = [x for r in games for x in r["losses"]]
        lost, lost_ci = interval([statistics.fmean(r["losses"]) for r in games if r["losses"]])
        acc, acc_ci = interval([r["accuracy"] for r in games if r["accuracy"] is not None])
        means[lv] = (lost, acc)
        share = [sum(lo <= x < hi for x in losses) / len(losses) for lo, hi in
                 ((INACCURACY, MISTAKE), (MISTAKE, BLUNDER), (BLUNDER, 2.0))]  # fmt: skip
        print(
            f"{lv:<8} {sum(r['won'] for r in games):>2}/{len(games):<3} {len(losses):>7}  "
            f"{100 * lost:5.2f}% ± {100 * lost_ci:4.2f}        {100 * acc:5.1f}% ± {100 * acc_ci:4.1f}   "
            f"{100 * share[0]:5.1f}%  {100 * share[1]:5.1f}%  {100 * share[2]:5.1f}%"
        )
    lost_order = all(means[a][0] <= means[b][0] for a, b in itertools.pairwise(levels))
    acc_order = all(means[a][1] >= means[b][1] for a, b in itertools.pairwise(levels))
    verdict = f"chance lost {'yes' if lost_order else 'NO'}, accuracy {'yes' if acc_order else 'NO'}"
    print(f"ordered as their strength: {verdict}")
    if args.fit:
        fit(results, levels)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"args": vars(args), "results": results}, f)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
