"""Calibration of the win-chance evaluator: reliability table and Brier score on self-play.

Run:  python benchmarks/calibration.py [--players 2,3,4,5] [--positions 2000] [--budget 100]
                                       [--jobs 1] [--json out.json]
      python benchmarks/calibration.py --from-json out.json [more.json ...] [--fit] [--cross-validate]

Plays games between a mix of bots (``ra.analysis.calibration.SELFPLAY_BOTS``), evaluates
``--per-game`` random decisions of each (``--budget`` playouts from the view of the player
to move) and compares the evaluator's calibrated chance of that player with the real
winner: per player count, a reliability table (bins of predicted chance -> share won,
counts), the Brier score and the Brier score of the naive 1/N forecast.

``--json`` keeps every position's raw playout wins, so ``--from-json`` recomputes the
table with the calibration map of the code as it is now, and ``--fit`` fits the map's
constant per player count (``TEMPERATURE`` in ``ra/bots/evaluate.py``) on those positions.
``--cross-validate`` measures without judging any game by a constant fitted on it: the
games are split in two by seed and each half is predicted with the constant fitted on the
other half (the README's table is made so).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ra import processes
from ra.analysis import calibration as cal
from ra.bots import evaluate
from ra.bots.advisor import SEARCH_TEMPERATURE
from ra.records import atomic_write


def run(
    players: int,
    positions: int,
    budget: int | str,
    per_game: int,
    seed: int,
    jobs: int,
    progress: Progress,
    source: str = "flat",
) -> list[cal.Sample]:
    """``positions`` samples of ``players``-player self-play (games seeded from ``seed``)."""
    games = math.ceil(positions / per_game)
    task = progress.add_task(f"{players} players", total=positions)
    samples: list[cal.Sample] = []
    seeds = [seed + players * 100_000 + g for g in range(games)]
    if jobs <= 1:
        for s in seeds:
            got = cal.game_samples(players, s, per_game, budget, source)
            samples += got
            progress.advance(task, len(got))
    else:
        with ProcessPoolExecutor(jobs, mp_context=processes.context()) as pool:  # fresh, not forked
            pending: set[Future[list[cal.Sample]]] = set()
            todo = list(seeds)
            while todo or pending:
                while todo and len(pending) < jobs * 2:
                    pending.add(pool.submit(cal.game_samples, players, todo.pop(0), per_game, budget, source))
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in finished:
                    got = f.result()
                    samples += got
                    progress.advance(task, len(got))
    samples.sort(key=lambda x: (x.game_seed, x.decision))
    return samples[:positions]


def print_table(players: int, samples: list[cal.Sample], preds: list[cal.Prediction], how: str) -> None:
    s = cal.summary(samples, preds=preds)
    print(
        f"\n{players} players: {s['positions']} positions, Brier {s['brier']:.4f} "
        f"(naive 1/{players}: {s['naive_brier']:.4f}), {how}"
    )
    print("  predicted     count  mean predicted  observed")
    for b in s["table"]:
        if b["count"]:
            print(
                f"  {100 * b['low']:3.0f}-{100 * b['high']:3.0f}%  {b['count']:>8}  "
                f"{100 * b['predicted']:13.1f}%  {100 * b['observed']:7.1f}%"
            )
        else:
            print(f"  {100 * b['low']:3.0f}-{100 * b['high']:3.0f}%  {0:>8}")


def markdown(by_count: dict[int, list[cal.Sample]], preds: dict[int, list[cal.Prediction]]) -> str:
    """One table for every player count: per bin of predicted chance, the mean prediction, the
    share won and the count; then the Brier scores."""
    counts = sorted(by_count)
    tables = {n: cal.reliability_of(preds[n]) for n in counts}
    head = "| predicted | " + " | ".join(f"{n} players: mean → won (count)" for n in counts) + " |"
    lines = [head, "|---|" + "---|" * len(counts)]
    for k, first in enumerate(tables[counts[0]]):
        cells = []
        for n in counts:
            b = tables[n][k]
            cells.append(
                f"{100 * b.predicted:.0f}% → {100 * b.observed:.0f}% ({b.count:,})" if b.count else "– (0)"
            )
        lines.append(f"| {100 * first.low:.0f}–{100 * first.high:.0f}% | " + " | ".join(cells) + " |")
    lines.append(
        "| **Brier** (naive 1/N) | "
        + " | ".join(f"**{cal.brier_of(preds[n]):.3f}** ({cal.naive_brier(by_count[n]):.3f})" for n in counts)
        + " |"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", default="2,3,4,5", help="player counts, comma-separated")
    parser.add_argument("--positions", type=int, default=2000, help="positions per player count")
    parser.add_argument(
        "--budget", default="100", help="per position: playouts (flat), or iterations or a level (search)"
    )
    parser.add_argument(
        "--source",
        choices=("flat", "search"),
        default="flat",
        help="the flat evaluator's playouts, or the advisor's search (ra.bots.advisor)",
    )
    parser.add_argument("--per-game", type=int, default=10, help="positions drawn from each game")
    parser.add_argument(
        "--seed", type=int, default=1, help="first game seed (fit and test on different ones)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="parallel processes")
    parser.add_argument("--json", metavar="PATH", help="write the positions and tables as JSON")
    parser.add_argument(
        "--from-json", metavar="PATH", nargs="+", help="recompute from --json files instead of playing"
    )
    parser.add_argument("--fit", action="store_true", help="fit the calibration constant per player count")
    parser.add_argument("--markdown", action="store_true", help="also print the README's table")
    parser.add_argument(
        "--cross-validate",
        action="store_true",
        help="judge each game with the constant fitted on the other half of the games (2 folds by seed)",
    )
    args = parser.parse_args(argv)

    try:
        counts = sorted({int(p) for p in args.players.split(",")})
    except ValueError:
        parser.error(f"--players: comma-separated numbers, got {args.players!r}")
    if any(not 2 <= n <= 5 for n in counts):
        parser.error("--players: counts from 2 to 5")
    if args.positions < 1 or args.per_game < 1 or args.jobs < 1:
        parser.error("--positions, --per-game and --jobs must be 1 or more")
    try:
        budget: int | str = (
            int(args.budget) if args.budget.isdigit() else evaluate.Budget.parse(args.budget).level or ""
        )
        if not budget or (args.source == "flat" and not isinstance(budget, int)):
            raise ValueError(f"bad budget {args.budget!r}")
    except ValueError as err:
        parser.error(f"--budget: {err} (playouts for flat; iterations or a level for search)")

    by_count: dict[int, list[cal.Sample]] = {}
    meta: dict[str, Any] = {}
    if args.from_json:
        for path in args.from_json:
            try:
                with open(path, encoding="utf-8") as f:
                    data = json.load(f)
                for item in data["samples"]:
                    sample = cal.Sample.from_dict(item)
                    by_count.setdefault(sample.players, []).append(sample)
            except (OSError, ValueError, KeyError, TypeError) as err:
                parser.error(f"--from-json {path!r}: {err}")
            meta = {k: v for k, v in data.items() if k not in ("samples", "results")}
            print(f"{path}: {meta}")
    else:
        meta = {
            "budget": budget,
            "source": args.source,
            "per_game": args.per_game,
            "seed": args.seed,
            "bots": list(cal.SELFPLAY_BOTS),
            "epsilon": evaluate.DEFAULT_EPSILON,
            "python": sys.version.split()[0],
        }
        start = time.process_time()
        columns = (
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
        )
        try:
            with Progress(*columns, transient=False) as progress:
                for n in counts:
                    by_count[n] = run(
                        n, args.positions, budget, args.per_game, args.seed, args.jobs, progress, args.source
                    )
        except KeyboardInterrupt:
            print("interrupted: nothing written", file=sys.stderr)
            return 130
        meta["cpu_seconds"] = round(time.process_time() - start, 1)

    results = {}
    preds = {}
    for n in sorted(by_count):
        if args.cross_validate:
            preds[n], folds = cal.cross_validated(by_count[n])
            how = f"out of fold (2 folds by game, fitted T = {folds})"
        else:
            preds[n] = cal.predictions(by_count[n])
            search = by_count[n][0].source == "search"
            how = f"T = {(SEARCH_TEMPERATURE if search else evaluate.TEMPERATURE)[n]}"
        print_table(n, by_count[n], preds[n], how)
        results[str(n)] = cal.summary(by_count[n], preds=preds[n])
    if args.markdown:
        print("\n" + markdown(by_count, preds))
    if args.fit:
        fitted = {n: cal.fit_temperature(by_count[n]) for n in sorted(by_count)}
        name = "SEARCH_TEMPERATURE" if next(iter(by_count.values()))[0].source == "search" else "TEMPERATURE"
        print(f"\nfitted {name} = {fitted}")
        for n, t in fitted.items():
            s = by_count[n]
            print(
                f"  {n} players: log loss {cal.mean_log_loss(s, t):.4f} (now {cal.mean_log_loss(s):.4f}), "
                f"Brier {cal.brier(s, t):.4f} (now {cal.brier(s):.4f})"
            )
    if args.json and not args.from_json:
        samples = [s.to_dict() for n in sorted(by_count) for s in by_count[n]]
        atomic_write(args.json, json.dumps({**meta, "results": results, "samples": samples}) + "\n")
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
