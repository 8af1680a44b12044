"""Are the win chances right in games between different levels?  Before (the search's chances,
"with best play from here") and after (the model that knows who is playing).

Run:  PYTHONPATH=src:. python benchmarks/chances.py chances.npz [--search 600] [--budget 2000]

``chances.npz`` is written by ``python -m tools.chances_model games`` (the same ``--seed``).
Its held-out games (numbers divisible by ``HELD_OUT_EVERY``: the model was neither fitted nor
tempered on them) are measured: the model's chance of the player to move at every kept position,
and, on ``--search`` of those positions spread evenly, the advisor's (``ra.bots.advisor``, the
analysis curve's estimate at ``--budget`` iterations) — the games are played again from their
numbers to get the positions.  Printed for each: the reliability table in ten bins (positions,
chance shown, share won), the expected calibration error, the Brier score (and the naive 1/N
forecast's) and the extremes (positions shown at 5% or less / 95% or more, and how often won).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from tools.chances_model import HELD_OUT_EVERY, play

from ra.analysis import calibration as cal
from ra.analysis.chances import default_model
from ra.bots.advisor import Advisor
from ra.train.chances import predict


def report(title: str, preds: list[cal.Prediction], players: list[int]) -> None:
    """Print one forecast's table and numbers."""
    naive = sum((1 / n - won) ** 2 for n, (_, won) in zip(players, preds, strict=True)) / len(preds)
    low, low_won, high, high_won = cal.extremes_of(preds)
    print(f"\n{title}: {len(preds)} positions")
    print("  chance shown   positions  mean shown  share won")
    for b in cal.reliability_of(preds):
        if b.count:
            print(f"  {b.low:4.0%}-{b.high:4.0%}   {b.count:9}  {b.predicted:10.3f}  {b.observed:9.3f}")
    print(f"  ECE {cal.ece_of(preds):.3f}   Brier {cal.brier_of(preds):.4f} (naive 1/N {naive:.4f})")
    print(f"  shown <= 5%: {low} positions, won {low_won:.1%};  shown >= 95%: {high}, won {high_won:.1%}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--search", type=int, default=600, help="positions judged by the search too")
    parser.add_argument("--budget", type=int, default=2000, help="the search's iterations a position")
    parser.add_argument("--seed", type=int, default=53, help="the games' seed (as tools.chances_model)")
    args = parser.parse_args(argv)
    d = np.load(args.data)
    held = d["game"] % HELD_OUT_EVERY == 0
    obs, strengths, winner = d["obs"][held], d["strengths"][held], d["winner"][held]
    model = predict(default_model(), obs, strengths)[:, 0]
    players = [int(n) for n in obs[:, 0]]
    after = [(float(p), bool(w == 0)) for p, w in zip(model, winner, strict=True)]
    report("after: the model, given who is playing (all held-out positions)", after, players)
    if args.search <= 0:
        return 0
    games = sorted(set(d["game"][held].tolist()))
    picked = set(np.linspace(0, len(after) - 1, args.search).round().astype(int).tolist())
    advisor = Advisor(args.budget, seed=0)
    before: list[cal.Prediction] = []
    same: list[cal.Prediction] = []
    start, k = time.monotonic(), 0
    for number in games:
        for position in play(number, args.seed):
            if k in picked:
                chances, _, _ = advisor.position(position.view)
                before.append((chances[position.seat], position.winner == position.seat))
                same.append(after[k])
            k += 1
    print(f"\n(the search judged {len(before)} positions in {time.monotonic() - start:.0f} s)")
    sub = [players[i] for i in sorted(picked)]
    report(f"before: the search's chances at {args.budget} iterations", before, sub)
    report("after, on the same positions", same, sub)
    return 0


if __name__ == "__main__":
    sys.exit(main())
