"""Fit the learned evaluation (:mod:`ra.bots.value_model`) from self-play.

Two steps, each reproducible from its seed:

``generate``
    plays games of the native search against itself (``--iterations`` a decision, the
    heuristic evaluation) at 2 to 5 players and writes one JSON line per player at each start
    of epoch 2 and 3 — the positions where the search cuts its rollouts — with the player's
    features (the last: the heuristic's projected gain), its score then and its final score.
``fit``
    fits, per player count and epoch, a ridge regression (scikit-learn, the ``[train]`` extra)
    of the points still to come on the features, cross-validated by game against the
    heuristic, and writes ``src/ra/data/value_model.json``.

    python -m tools.value_model generate --games 400,240,160,120 --jobs 2 --out value.jsonl
    python -m tools.value_model fit value.jsonl --out src/ra/data/value_model.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from ra.bots.value_model import EPOCHS, FEATURES, PLAYER_COUNTS, VERSION

Row = dict[str, Any]


def play(players: int, seed: int, iterations: int) -> list[Row]:
    """One self-play game's rows (needs the native core)."""
    from ra import _core

    state = _core.State(players=players, seed=seed)
    rows: list[Row] = []
    epoch = 1
    decision = 0
    while not state.is_over():
        if state.epoch != epoch:
            epoch = state.epoch
            for seat in range(players):
                rows.append(
                    {
                        "game": seed,
                        "players": players,
                        "epoch": epoch,
                        "seat": seat,
                        "features": state.value_features(seat),
                        "score": state.scores[seat],
                    }
                )
        action, _ = state.mcts(iterations=iterations, seed=seed * 1000 + decision)
        state.apply(action)
        decision += 1
    for row in rows:
        row["final"] = state.scores[row["seat"]]
    return rows


def _play(job: tuple[int, int, int]) -> list[Row]:
    return play(*job)


def generate(games: list[int], iterations: int, seed: int, jobs: int, out: Path) -> None:
    """Play the games (``games[i]`` at ``i + 2`` players) and write their rows to ``out``."""
    work = [
        (n, seed * 100_000 + n * 10_000 + g, iterations)
        for n, count in zip(PLAYER_COUNTS, games, strict=True)
        for g in range(count)
    ]
    start = time.monotonic()
    with out.open("w", encoding="utf-8") as f, ProcessPoolExecutor(jobs) as pool:
        for done, rows in enumerate(pool.map(_play, work, chunksize=2), 1):
            for row in rows:
                f.write(json.dumps(row) + "\n")
            if done % 20 == 0 or done == len(work):
                print(
                    f"{done}/{len(work)} games, {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True
                )


def read_rows(path: Path) -> Iterator[Row]:
    with path.open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def fit(path: Path, out: Path | None, alpha: float, folds: int) -> dict[str, Any]:
    """Fit every (player count, epoch) model; print the cross-validated errors against the
    heuristic's; return (and write to ``out``) the model file."""
    import numpy as np
    from sklearn.linear_model import Ridge
    from sklearn.model_selection import GroupKFold

    rows = list(read_rows(path))
    coefficients: dict[str, dict[str, list[float]]] = {}
    report: list[dict[str, Any]] = []
    for n in PLAYER_COUNTS:
        coefficients[str(n)] = {}
        for epoch in EPOCHS:
            part = [r for r in rows if r["players"] == n and r["epoch"] == epoch]
            if len(part) < 2 * len(FEATURES):
                raise SystemExit(f"too few rows for {n} players, epoch {epoch}: {len(part)}")
            x = np.array([r["features"] for r in part])
            y = np.array([r["final"] - r["score"] for r in part], dtype=float)
            h = x[:, -1]  # the heuristic's projected gain: the model is it plus a correction
            groups = np.array([r["game"] for r in part])
            pred = np.zeros_like(y)
            for train, test in GroupKFold(folds).split(x, y, groups):
                model = Ridge(alpha=alpha, fit_intercept=False).fit(x[train], y[train] - h[train])
                pred[test] = h[test] + model.predict(x[test])
            correction = Ridge(alpha=alpha, fit_intercept=False).fit(x, y - h).coef_
            correction[-1] += 1.0
            coefficients[str(n)][str(epoch)] = [round(float(c), 6) for c in correction]
            report.append(
                {
                    "players": n,
                    "epoch": epoch,
                    "rows": len(part),
                    "games": len(set(groups.tolist())),
                    "rmse_learned": _relative_rmse(part, pred, y),
                    "rmse_heuristic": _relative_rmse(part, h, y),
                    "winner_learned": _winner_agreement(part, pred),
                    "winner_heuristic": _winner_agreement(part, h),
                }
            )
    for r in report:
        print(
            f"{r['players']}p epoch {r['epoch']}: {r['rows']} rows of {r['games']} games; "
            f"relative RMSE learned {r['rmse_learned']:.2f} vs heuristic {r['rmse_heuristic']:.2f} points; "
            f"winner picked {r['winner_learned']:.1%} vs {r['winner_heuristic']:.1%}"
        )
    model_file = {
        "version": VERSION,
        "features": list(FEATURES),
        "coefficients": coefficients,
        "trained": {"rows": len(rows), "alpha": alpha, "folds": folds, "report": report},
    }
    if out is not None:
        out.write_text(json.dumps(model_file, indent=1) + "\n", encoding="utf-8")
    return model_file


def _relative_rmse(part: list[Row], predicted: Any, actual: Any) -> float:
    """Root mean square error of each player's gain relative to the table's mean gain (what
    the search's margins see: a shift common to all players does not matter)."""
    import numpy as np

    err: dict[tuple[int, int], list[float]] = {}
    for r, p, a in zip(part, predicted, actual, strict=True):
        err.setdefault((r["game"], r["epoch"]), []).append(float(p) - float(a))
    dev = [e - sum(es) / len(es) for es in err.values() for e in es]
    return float(np.sqrt(np.mean(np.square(dev))))


def _winner_agreement(part: list[Row], predicted: Any) -> float:
    """Share of positions whose predicted final leader (score + predicted gain) won."""
    games: dict[tuple[int, int], list[tuple[float, int]]] = {}
    for r, p in zip(part, predicted, strict=True):
        games.setdefault((r["game"], r["epoch"]), []).append((r["score"] + float(p), r["final"]))
    right = 0
    for seats in games.values():
        top_final = max(f for _, f in seats)
        right += max(seats)[1] == top_final
    return right / len(games)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.value_model", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="play self-play games and write the rows")
    gen.add_argument("--games", default="400,240,160,120", help="games at 2,3,4,5 players")
    gen.add_argument("--iterations", type=int, default=1000, help="search iterations a decision")
    gen.add_argument("--seed", type=int, default=1)
    gen.add_argument("--jobs", type=int, default=1)
    gen.add_argument("--out", type=Path, required=True)
    fitp = sub.add_parser("fit", help="fit the model from the rows")
    fitp.add_argument("rows", type=Path)
    fitp.add_argument("--alpha", type=float, default=30.0, help="ridge penalty (toward the heuristic)")
    fitp.add_argument("--folds", type=int, default=5)
    fitp.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    if args.command == "generate":
        try:
            games = [int(x) for x in args.games.split(",")]
        except ValueError:
            parser.error(f"--games must be four counts like 400,240,160,120, got {args.games!r}")
        if len(games) != 4 or min(games) < 1:
            parser.error(f"--games must be four positive counts (2, 3, 4, 5 players), got {args.games!r}")
        generate(games, args.iterations, args.seed, args.jobs, args.out)
    else:
        if not args.rows.is_file():
            parser.error(f"no such rows file: {args.rows}")
        try:
            fit(args.rows, args.out, args.alpha, args.folds)
        except (json.JSONDecodeError, UnicodeDecodeError, KeyError, TypeError, ValueError) as err:
            parser.error(f"{args.rows} is not a rows file of generate ({type(err).__name__}: {err})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
