"""Measuring and fitting the calibration of the win chances on bot self-play.

Positions come from games between a mix of bots (:data:`SELFPLAY_BOTS`, one drawn per
seat); each sampled position is evaluated from the view of the player to move, and the
game's real winner is the outcome.  :func:`reliability` bins the predicted chances of
the player to move and compares them with how often that player won; :func:`brier`
scores them, next to the naive ``1/N`` forecast.  :func:`fit_temperature` fits the
constant of :data:`ra.bots.advisor.SEARCH_TEMPERATURE` (the advisor's search, ``source``
``"search"``) or :data:`ra.bots.evaluate.TEMPERATURE` (the flat evaluator, ``"flat"``) with
``benchmarks/calibration.py --fit``.
"""

from __future__ import annotations

import math
import random
from dataclasses import asdict, dataclass
from typing import Any

from ra import bots
from ra.bots.advisor import SEARCH_TEMPERATURE, Advisor
from ra.bots.evaluate import TEMPERATURE, GreedyPlayouts, calibrate, log_loss, position_wins
from ra.engine import Game

SELFPLAY_BOTS = ("greedy", "greedy:epsilon=0.1", "easy", "mcts:iterations=40")
"""The bots of the self-play games (one drawn per seat): the greedy bot, noisier greedy
bots, and a small search."""


@dataclass(frozen=True)
class Sample:
    """One evaluated position of a self-play game and how the game ended."""

    players: int
    game_seed: int
    decision: int
    epoch: int
    mover: int
    wins: tuple[float, ...]
    """Raw playout wins of each player, or the search's iterations ended ahead (uncalibrated)."""
    playouts: int
    winner: int
    source: str = "flat"
    """``"flat"`` (greedy playouts) or ``"search"`` (the advisor's search, its best action)."""

    def chances(self, temperature: float | None = None) -> tuple[float, ...]:
        """The calibrated chances of this position (the source's map, or ``temperature``)."""
        table = SEARCH_TEMPERATURE if self.source == "search" else TEMPERATURE
        t = table[self.players] if temperature is None else temperature
        return calibrate(self.wins, self.playouts, t)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Sample:
        return cls(**{**data, "wins": tuple(data["wins"])})


def selfplay_game(players: int, seed: int) -> Game:
    """A full game between bots drawn from :data:`SELFPLAY_BOTS` (fixed by ``seed``)."""
    rng = random.Random(seed)
    seats = [bots.from_spec(rng.choice(SELFPLAY_BOTS), seed=seed * 10 + i) for i in range(players)]
    game = Game(players=players, seed=seed)
    while not game.is_over():
        seat = game.to_move
        assert seat is not None
        game.apply(seats[seat].choose(game.view(seat)))
    return game


def game_samples(
    players: int, seed: int, per_game: int, playouts: int | str, source: str = "flat"
) -> list[Sample]:
    """Play one self-play game and evaluate up to ``per_game`` of its decisions (those with a
    choice), drawn at random; each with ``playouts`` raw playouts (``source`` ``"flat"``) or the
    advisor's search at that budget (``"search"``: iterations or a level)."""
    game = selfplay_game(players, seed)
    winner = game.winner
    assert winner is not None
    replay = Game.from_setup(game.setup)
    choices = []
    for i, action in enumerate(game.decisions):
        if len(replay.legal_actions()) > 1:
            choices.append(i)
        replay.apply(action)
    rng = random.Random(seed + 1)
    picked = sorted(rng.sample(choices, min(per_game, len(choices))))
    backend = GreedyPlayouts()
    out = []
    replay = Game.from_setup(game.setup)
    done = 0
    for i in picked:
        while done < i:
            replay.apply(game.decisions[done])
            done += 1
        mover = replay.to_move
        assert mover is not None
        view = replay.view(mover)
        if source == "search":
            best = Advisor(playouts, seed=seed).evaluate(view).best
            out.append(
                Sample(players, seed, i, replay.epoch, mover, best.wins, best.playouts, winner, source)
            )
            continue
        assert isinstance(playouts, int)
        wins, _ = position_wins(view, playouts, random.Random(f"{seed}/{i}"), backend)
        out.append(Sample(players, seed, i, replay.epoch, mover, tuple(wins), playouts, winner))
    return out


@dataclass(frozen=True)
class Bin:
    """One row of a reliability table: predictions in ``[low, high)``."""

    low: float
    high: float
    count: int
    predicted: float
    """Mean predicted chance in the bin."""
    observed: float
    """Share of those positions the player won."""


Prediction = tuple[float, bool]
"""The mover's predicted chance of a position and whether the mover won."""


def predictions(samples: list[Sample], temperature: float | None = None) -> list[Prediction]:
    """Each sample's calibrated chance of the mover (the evaluator's map, or ``temperature``)."""
    return [(s.chances(temperature)[s.mover], s.winner == s.mover) for s in samples]


def cross_validated(samples: list[Sample], folds: int = 2) -> tuple[list[Prediction], list[float]]:
    """Out-of-fold predictions: the games are split into ``folds`` by seed, and each game's
    positions are predicted with the constant fitted on the other folds' games (so no
    position is judged by a map fitted on its own game).  Also returns the folds' constants."""
    out: list[Prediction] = []
    fitted = []
    for k in range(folds):
        held = [s for s in samples if s.game_seed % folds == k]
        rest = [s for s in samples if s.game_seed % folds != k]
        if not held or not rest:
            continue
        t = fit_temperature(rest)
        fitted.append(t)
        out += predictions(held, t)
    return out, fitted


def reliability_of(preds: list[Prediction], bins: int = 10) -> list[Bin]:
    """The reliability table of predictions (empty bins included, count 0)."""
    rows: list[list[Prediction]] = [[] for _ in range(bins)]
    for p, won in preds:
        rows[min(bins - 1, int(p * bins))].append((p, won))
    out = []
    for k, row in enumerate(rows):
        count = len(row)
        predicted = sum(p for p, _ in row) / count if count else math.nan
        observed = sum(w for _, w in row) / count if count else math.nan
        out.append(Bin(k / bins, (k + 1) / bins, count, predicted, observed))
    return out


def brier_of(preds: list[Prediction]) -> float:
    """Mean squared error of predictions against the outcomes (0 is perfect)."""
    if not preds:
        return math.nan
    return sum((p - won) ** 2 for p, won in preds) / len(preds)


def ece_of(preds: list[Prediction], bins: int = 10) -> float:
    """Expected calibration error: the mean, weighted by count, of each bin's distance between
    the chance shown and the share won (0 is perfect)."""
    if not preds:
        return math.nan
    table = reliability_of(preds, bins)
    return sum(b.count * abs(b.predicted - b.observed) for b in table if b.count) / len(preds)


def extremes_of(preds: list[Prediction], edge: float = 0.05) -> tuple[int, float, int, float]:
    """How many positions were shown at ``edge`` or less and the share of them won, and how
    many at ``1 - edge`` or more and the share won (``nan`` for none)."""
    low = [won for p, won in preds if p <= edge]
    high = [won for p, won in preds if p >= 1 - edge]
    low_won = sum(low) / len(low) if low else math.nan
    return len(low), low_won, len(high), sum(high) / len(high) if high else math.nan


def reliability(samples: list[Sample], bins: int = 10, temperature: float | None = None) -> list[Bin]:
    """The reliability table of the mover's predicted chance (empty bins included, count 0)."""
    return reliability_of(predictions(samples, temperature), bins)


def brier(samples: list[Sample], temperature: float | None = None) -> float:
    """Mean squared error of the mover's predicted chance against the outcome (0 is perfect)."""
    return brier_of(predictions(samples, temperature))


def naive_brier(samples: list[Sample]) -> float:
    """The Brier score of always predicting ``1/N`` (the reference to beat)."""
    if not samples:
        return math.nan
    return sum((1 / s.players - (s.winner == s.mover)) ** 2 for s in samples) / len(samples)


def mean_log_loss(samples: list[Sample], temperature: float | None = None) -> float:
    """Mean negative log chance given to the real winner (all players' chances)."""
    return sum(log_loss(s.chances(temperature), s.winner) for s in samples) / len(samples)


def fit_temperature(samples: list[Sample], low: float = 0.1, high: float = 3.0, step: float = 0.01) -> float:
    """The power of the calibration map that minimises the log loss on ``samples``
    (a grid search: the loss is smooth in one variable)."""
    if not samples:
        raise ValueError("no positions to fit on")
    best_t, best = low, math.inf
    steps = round((high - low) / step)
    for k in range(steps + 1):
        t = low + k * step
        loss = mean_log_loss(samples, t)
        if loss < best:
            best_t, best = t, loss
    return round(best_t, 2)


def summary(samples: list[Sample], bins: int = 10, preds: list[Prediction] | None = None) -> dict[str, Any]:
    """Table, Brier score and the naive Brier, as JSON-able data (of ``preds`` if given,
    e.g. :func:`cross_validated` ones, else of the evaluator's map)."""
    preds = predictions(samples) if preds is None else preds
    return {
        "positions": len(preds),
        "brier": brier_of(preds),
        "naive_brier": naive_brier(samples),
        "log_loss": mean_log_loss(samples) if samples else math.nan,
        "table": [asdict(b) for b in reliability_of(preds, bins)],
    }
