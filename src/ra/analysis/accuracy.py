"""Accuracy from the chance lost at each decision, as lichess computes it from win percentages.

A decision's accuracy falls smoothly with the win chance it gave up; a player's accuracy in a
game is the mean of two means of their decisions' accuracies: one weighted by how volatile the
game was around each decision (a loss where the chances swing anyway weighs more), and the
harmonic mean (a few bad decisions pull it down hard, which a plain share of "good" decisions
hides).  The formulas and constants are lichess's, read in its source (lila,
``modules/analyse/src/main/AccuracyPercent.scala`` and ``modules/common/src/main/Maths.scala``;
explained at https://lichess.org/page/accuracy):

- per decision, with the win chance before (with the best action) and after (with the chosen
  one) in per cent: 100 when nothing was lost, else
  ``103.1668100711649 * exp(-0.04354415386753951 * (before - after)) - 3.166924740191411``,
  plus lila's uncertainty bonus of 1, clamped to 0..100;
- the weights: the population standard deviation of the win percentages in a sliding window
  (``len / 10`` positions, at least 2, at most 8; the first ``window - 2`` decisions use the
  first window), clamped to 0.5..12;
- the harmonic mean counts an accuracy below 1 as 1.

Ra has more than two players, so where lichess takes one side's series of win percentages, a
seat's series here is its own chance before its first analysed decision and after each of its
analysed decisions.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

SCALE = 103.1668100711649
DECAY = 0.04354415386753951
OFFSET = -3.166924740191411
UNCERTAINTY_BONUS = 1.0
"""lila's constants: ``SCALE * exp(-DECAY * loss) + OFFSET + UNCERTAINTY_BONUS``."""

MIN_WEIGHT, MAX_WEIGHT = 0.5, 12.0
"""The volatility weights' bounds (standard deviations of win percentages)."""


def decision_accuracy(before: float, after: float) -> float:
    """The accuracy (0..100) of a decision that took the mover's win chance from ``before``
    (the best action's) to ``after`` (the chosen action's); chances in 0..1."""
    lost = 100 * (before - after)
    if lost <= 0:
        return 100.0
    raw = SCALE * math.exp(-DECAY * lost) + OFFSET + UNCERTAINTY_BONUS
    return min(100.0, max(0.0, raw))


def _stdev(values: Sequence[float]) -> float:
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


def volatility_weights(percents: Sequence[float]) -> list[float]:
    """One weight per step of ``percents`` (win percentages, one more than the decisions): the
    standard deviation of the window it falls in, as lila's ``gameAccuracy``."""
    steps = len(percents) - 1
    size = min(8, max(2, steps // 10))
    first = list(percents[:size])
    windows = [first] * (min(size, len(percents)) - 2)
    windows += [list(percents[i : i + size]) for i in range(max(1, len(percents) - size + 1))]
    return [min(MAX_WEIGHT, max(MIN_WEIGHT, _stdev(w))) for w in windows[:steps]]


def game_accuracy(befores: Sequence[float], afters: Sequence[float]) -> float | None:
    """A player's accuracy (0..100) over their decisions in game order, each given by the
    mover's win chance with the best action (``befores``) and with the chosen one (``afters``),
    chances in 0..1; ``None`` without decisions."""
    if len(befores) != len(afters):
        raise ValueError(f"{len(befores)} chances before but {len(afters)} after")
    if not befores:
        return None
    accuracies = [decision_accuracy(b, a) for b, a in zip(befores, afters, strict=True)]
    weights = volatility_weights([100 * befores[0]] + [100 * a for a in afters])
    weighted = sum(a * w for a, w in zip(accuracies, weights, strict=True)) / sum(weights)
    harmonic = len(accuracies) / sum(1 / max(1.0, a) for a in accuracies)
    return (weighted + harmonic) / 2


__all__ = ["decision_accuracy", "game_accuracy", "volatility_weights"]
