"""Win chances you can trust: each player's chance to win a position, and each legal action's.

How the numbers are made:

1. **Raw estimate.**  For a player's view, sample bag orders from the unseen tiles
   (:meth:`ra.PlayerView.determinize`, R9.3: never the real order) and play each sample
   to the end of the game with a rollout policy (by default the greedy bot with a little
   randomness, ``epsilon``).  The share of playouts each player wins (R8.1: highest
   score, then highest sun) is the raw estimate; the mean final score margin (own score
   minus the best rival's) comes along.
2. **Calibration.**  Greedy-versus-greedy playouts are more decisive than real games, so
   the raw shares are mapped by a fitted monotone map (:func:`calibrate`): smoothed
   shares raised to a power ``T`` fitted per player count, renormalised to sum to 1.  The
   constants in :data:`TEMPERATURE` were fitted on bot self-play positions by
   ``benchmarks/calibration.py --fit`` and are measured on held-out positions there
   (reliability table and Brier score; the README has the numbers).

Actions are compared on *common random numbers*: each sampled bag is played through
every legal action with the same playout seed, so differences between actions are not
drowned by the luck of the draw.  The playouts come from a :class:`PlayoutBackend`: the
native core's (:class:`NativeGreedyPlayouts`, about 80 times faster) when it is available,
else :class:`GreedyPlayouts` — the same policy, so the same calibration.

The budget is a number of playouts (``iterations``, deterministic for a seed) or a time
(``seconds``, depends on the machine's speed).
"""

from __future__ import annotations

import math
import random
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ra.actions import Action
from ra.bots.greedy import greedy_action
from ra.bots.native_mcts import native_weights
from ra.bots.valuation import DEFAULT_WEIGHTS, Weights
from ra.engine import Game
from ra.native import core
from ra.setup import MAX_PLAYERS, MIN_PLAYERS
from ra.views import PlayerView

# --- calibration constants ------------------------------------------------------------

SMOOTHING = 1.0
"""Pseudo-playouts (spread evenly over the players) added to the raw win counts, so no
player gets exactly 0 or 1 from a finite sample."""

TEMPERATURE: dict[int, float] = {2: 0.84, 3: 0.84, 4: 1.16, 5: 0.95}
"""Power applied to the smoothed raw shares, per player count (below 1: less sure, above 1:
surer).  Fitted (log loss) on 2,000 self-play positions per player count::

    nice python benchmarks/calibration.py --players 2 --positions 2000 --budget 100 --seed 1 \
        --json test2.json
    nice python benchmarks/calibration.py --players N --positions 2000 --budget 50 --per-game 20 \
        --seed 1 --json testN.json    # N = 3, 4, 5
    python benchmarks/calibration.py --from-json test2.json test3.json test4.json test5.json \
        --fit --cross-validate --markdown

and measured out of fold there (each half of the games judged by the constant fitted on the
other half) and on 400 positions per player count of other games (``--seed 500000``); the
README has the table."""

DEFAULT_EPSILON = 0.1
"""Chance of a random legal move in the playouts (real players are not the greedy bot)."""


class EvaluationCancelledError(Exception):
    """Raised by :meth:`Evaluator.evaluate` when its ``cancel`` event is set."""


# --- budgets --------------------------------------------------------------------------


@dataclass(frozen=True)
class Budget:
    """How much work an evaluation may do: ``iterations`` (the advisor's search iterations, or
    the flat evaluator's playouts), ``seconds``, or a bot ``level``'s search budget (by player
    count, :data:`ra.bots.NATIVE_MCTS_ITERATIONS`)."""

    iterations: int | None = 600
    seconds: float | None = None
    level: str | None = None

    def __post_init__(self) -> None:
        if sum(x is not None for x in (self.iterations, self.seconds, self.level)) != 1:
            raise ValueError("a budget is a number of iterations, of seconds, or a level: one of them")
        if self.iterations is not None and (
            isinstance(self.iterations, bool) or not isinstance(self.iterations, int) or self.iterations < 1
        ):
            raise ValueError(
                f"a budget's iterations must be a whole number of 1 or more, got {self.iterations!r}"
            )
        if self.seconds is not None and (
            not isinstance(self.seconds, int | float) or not 0.001 <= self.seconds <= 3600
        ):
            raise ValueError(f"a budget's time must be from 0.001 to 3600 seconds, got {self.seconds!r}")
        if self.level is not None and self.level not in BUDGET_LEVELS:
            raise ValueError(f"a budget's level is one of {', '.join(BUDGET_LEVELS)}, got {self.level!r}")

    @classmethod
    def parse(cls, text: str | int | float) -> Budget:
        """``"500"`` (iterations), ``"2s"`` or ``"1.5s"`` (seconds), ``"hard"`` or ``"expert"``
        (that level's search budget); ``ValueError`` says what is wrong.

        >>> Budget.parse("2s")
        Budget(iterations=None, seconds=2.0, level=None)
        >>> Budget.parse("500")
        Budget(iterations=500, seconds=None, level=None)
        >>> Budget.parse("expert")
        Budget(iterations=None, seconds=None, level='expert')
        """
        levels = ", ".join(BUDGET_LEVELS)
        bad = f"bad budget {text!r}: give iterations (500), seconds (2s) or a level ({levels})"
        if isinstance(text, bool):
            raise ValueError(bad)
        if isinstance(text, int):
            return cls(iterations=text)
        if isinstance(text, float):
            return cls(iterations=None, seconds=text)
        raw = text.strip().lower()
        if raw in BUDGET_LEVELS:
            return cls(iterations=None, level=raw)
        match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(s|sec|seconds?)?", raw)
        if match is None:
            raise ValueError(bad)
        number, unit = match.groups()
        if unit:
            return cls(iterations=None, seconds=float(number))
        if "." in number:
            raise ValueError(f"bad budget {text!r}: iterations are a whole number (or add s for seconds)")
        return cls(iterations=int(number))

    def search_iterations(self, players: int) -> int | None:
        """Iterations of the advisor's search in a game of ``players`` (None: a time budget)."""
        if self.level is not None:
            from ra.bots import NATIVE_MCTS_ITERATIONS

            return NATIVE_MCTS_ITERATIONS[self.level][players - 2]
        return self.iterations

    def flat(self) -> Budget:
        """The budget the flat evaluator (the advice without the native core) uses for this one:
        a level's budget is a native search's, so the Python advice gets :data:`FLAT_LEVEL_PLAYOUTS`
        (a count, so its numbers stay the same for a seed)."""
        return Budget(iterations=FLAT_LEVEL_PLAYOUTS) if self.level is not None else self

    def __str__(self) -> str:
        if self.level is not None:
            return f"the {self.level} level's search"
        return f"{self.seconds:g}s" if self.seconds is not None else f"{self.iterations} iterations"


BUDGET_LEVELS = ("medium", "hard", "expert")
"""Levels whose search budget an advice budget may name."""

FLAT_LEVEL_PLAYOUTS = 600
"""Playouts of the flat (Python) evaluator for a level's budget when the native core is missing
(about 2 s of pure Python at 3 players)."""


# --- playouts -------------------------------------------------------------------------


@dataclass(frozen=True)
class Playout:
    """The end of one playout: the final scores and the winner (R8.1)."""

    scores: tuple[int, ...]
    winner: int


class PlayoutBackend(Protocol):
    """Plays a (determinized) game to its end; a native core can implement the same."""

    def playout(self, game: Game, seed: int) -> Playout:
        """Play ``game`` (which it may change) to the end with the playout seed ``seed``."""
        ...


class GreedyPlayouts:
    """Playouts with the greedy bot's policy, a random legal move with chance ``epsilon``."""

    def __init__(self, epsilon: float = DEFAULT_EPSILON, weights: Weights = DEFAULT_WEIGHTS) -> None:
        if isinstance(epsilon, bool) or not isinstance(epsilon, int | float) or not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be a number from 0 to 1, got {epsilon!r}")
        self.epsilon = float(epsilon)
        self.weights = weights

    def playout(self, game: Game, seed: int) -> Playout:
        rng = random.Random(seed)
        eps = self.epsilon
        weights = self.weights
        while not game.is_over():
            if eps and rng.random() < eps:
                game.apply(rng.choice(game.legal_actions()))
            else:
                game.apply(greedy_action(game, weights))
        winner = game.winner
        assert winner is not None
        return Playout(tuple(s or 0 for s in game.scores), winner)


class NativeGreedyPlayouts(GreedyPlayouts):
    """The same playouts played by the native core (``ra._core``): the same policy (the greedy
    bot's choices are the Python greedy's exactly, a uniformly random legal move with chance
    ``epsilon``), its own random numbers, about 80 times faster."""

    def __init__(self, epsilon: float = DEFAULT_EPSILON, weights: Weights = DEFAULT_WEIGHTS) -> None:
        super().__init__(epsilon, weights)
        if core is None:
            raise ValueError("the native core is not available (not built, or RA_NATIVE=0)")
        self._weights = native_weights(weights)

    def playout(self, game: Game, seed: int) -> Playout:
        assert core is not None
        state = core.State.from_game(game)
        state.greedy_playout(seed & 0xFFFF_FFFF_FFFF_FFFF, self.epsilon, self._weights)
        winner = state.winner
        assert winner is not None
        return Playout(tuple(state.scores), winner)


def default_backend() -> PlayoutBackend:
    """The native playouts when the core is available, else the Python ones."""
    return NativeGreedyPlayouts() if core is not None else GreedyPlayouts()


# --- results --------------------------------------------------------------------------


@dataclass(frozen=True)
class ActionValue:
    """What one legal action is worth to the player to move."""

    action: Action
    chances: tuple[float, ...]
    """Each player's calibrated chance to win after the action (sums to 1)."""
    margin: float
    """Expected score margin of the mover, own score minus the best rival's (points): at the end
    of the game for the flat evaluator, projected at the end of the search's horizon (the epoch)
    for the advisor's search."""
    wins: tuple[float, ...]
    """Raw: playouts won by each player (flat), or the search's iterations each player ended
    ahead in (ties shared)."""
    playouts: int

    def chance(self, seat: int) -> float:
        return self.chances[seat]

    def shown(self, seat: int) -> tuple[int, int]:
        """The action as a hint shows it to ``seat``: its win chance in whole per cent and its
        margin in whole points (what "tied" and "better" mean to a player reading them)."""
        return round(100 * self.chances[seat]), round(self.margin)


def rank_key(value: ActionValue, mover: int) -> tuple[int, int]:
    """Best first, as a hint lists the actions: the higher chance as shown, then (shown chances
    equal) the better margin as shown — the star never goes to the worse margin of a tie."""
    chance, margin = value.shown(mover)
    return -chance, -margin


@dataclass(frozen=True)
class Evaluation:
    """The legal actions of a position, best first for the player to move (``mover``)."""

    mover: int
    actions: tuple[ActionValue, ...]
    playouts: int
    source: str = "flat"
    """What made the numbers: ``"search"`` (the bots' native search, :mod:`ra.bots.advisor`) or
    ``"flat"`` (flat Monte Carlo with greedy playouts, the weaker Python advice)."""

    @property
    def best(self) -> ActionValue:
        return self.actions[0]

    @property
    def starred(self) -> ActionValue | None:
        """The action a hint stars: the best, unless the runner-up shows the same chance and
        margin (a tie, where a star would favour one of two equals: then none)."""
        if len(self.actions) > 1 and self.actions[0].shown(self.mover) == self.actions[1].shown(self.mover):
            return None
        return self.best

    @property
    def chances(self) -> tuple[float, ...]:
        """Each player's chance to win if the mover plays the best action."""
        return self.best.chances

    def value(self, action: Action) -> ActionValue:
        """The value of ``action`` (one of the legal actions evaluated)."""
        for v in self.actions:
            if v.action is action:
                return v
        raise ValueError(f"{action} was not one of the evaluated actions")

    def loss(self, action: Action) -> float:
        """Win chance the mover gives up by playing ``action`` rather than the best (0 or more)."""
        return max(0.0, self.best.chances[self.mover] - self.value(action).chances[self.mover])


def history_key(state: PlayerView | Game) -> str:
    """A position by its decision history (never the bag): what seeds an evaluation, so the same
    position gets the same numbers in every front end."""
    return ",".join(str(a.index) for a in state.decisions)


# --- calibration ------------------------------------------------------------------------


def calibrate(wins: Sequence[float], playouts: int, temperature: float | None = None) -> tuple[float, ...]:
    """Calibrated win chances from raw playout wins (see the module doc).

    Monotone: more raw wins never mean a smaller chance.

    >>> calibrate([30, 10], 40, temperature=1.0)
    (0.743..., 0.256...)
    """
    n = len(wins)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise ValueError(f"win counts for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {n}")
    t = TEMPERATURE[n] if temperature is None else temperature
    prior = SMOOTHING / n
    denom = playouts + SMOOTHING
    powered = [((w + prior) / denom) ** t for w in wins]
    total = sum(powered)
    return tuple(p / total for p in powered)


# --- the evaluator ----------------------------------------------------------------------


ProgressCallback = Callable[[int, int], None]


class Evaluator:
    """Estimates win chances for a player's view (see the module doc).

    ``budget``: playouts per evaluation (``Budget(iterations=…)``, split over the legal
    actions) or a time; ``seed`` fixes the sampled bags and playouts, so an iteration
    budget gives the same numbers every time; ``backend`` plays the playouts.
    """

    def __init__(
        self,
        budget: Budget | str | int = 600,
        seed: int | None = 0,
        backend: PlayoutBackend | None = None,
        calibrated: bool = True,
    ) -> None:
        self.budget = (budget if isinstance(budget, Budget) else Budget.parse(budget)).flat()
        self.seed = seed
        self.backend: PlayoutBackend = backend or default_backend()
        self.calibrated = calibrated

    def _chances(self, wins: Sequence[int], playouts: int) -> tuple[float, ...]:
        if self.calibrated:
            return calibrate(wins, playouts)
        return tuple(w / playouts for w in wins)

    def _rng(self, state: PlayerView | Game) -> random.Random:
        # The same position (by its history) gets the same samples for a given seed.
        if self.seed is None:
            return random.Random()
        return random.Random(f"{self.seed}/{state.num_players}/{history_key(state)}")

    def evaluate(
        self,
        view: PlayerView,
        cancel: threading.Event | None = None,
        progress: ProgressCallback | None = None,
        actions: Sequence[Action] | None = None,
    ) -> Evaluation:
        """Every legal action of the player to move (or just ``actions``), best first.

        ``cancel`` stops the work (raises :class:`EvaluationCancelledError`);
        ``progress(done, total)`` is called after each round of playouts.
        """
        mover = view.to_move
        if mover is None:
            raise ValueError("the game is over: there is no decision to evaluate")
        legal = list(actions) if actions is not None else view.legal_actions()
        if not legal:
            raise ValueError("no actions to evaluate")
        n = view.num_players
        rng = self._rng(view)
        budget = self.budget
        if budget.iterations is not None:
            rounds = max(1, budget.iterations // len(legal))
            deadline = None
        else:
            rounds = 1 << 60
            assert budget.seconds is not None
            deadline = time.perf_counter() + budget.seconds
        wins = [[0] * n for _ in legal]
        margins = [0.0] * len(legal)
        done = 0
        backend = self.backend
        while done < rounds:
            if cancel is not None and cancel.is_set():
                raise EvaluationCancelledError
            seed = rng.getrandbits(63)
            base = view.determinize(seed=seed)
            for k, action in enumerate(legal):
                game = base.clone()
                game.apply(action)
                result = backend.playout(game, seed)
                wins[k][result.winner] += 1
                margins[k] += _margin(result.scores, mover)
            done += 1
            if progress is not None:
                progress(done, rounds if deadline is None else 0)
            if deadline is not None and done >= 2 and time.perf_counter() >= deadline:
                break
        values = [
            ActionValue(
                action=action,
                chances=self._chances(wins[k], done),
                margin=margins[k] / done,
                wins=tuple(wins[k]),
                playouts=done,
            )
            for k, action in enumerate(legal)
        ]
        # Best first: the mover's chance, then the margin (a lost cause still has better moves);
        # compared as shown (rank_key), then exactly.
        values.sort(key=lambda v: (rank_key(v, mover), -v.chances[mover], -v.margin))
        return Evaluation(mover=mover, actions=tuple(values), playouts=done * len(legal))

    def position(self, view: PlayerView, playouts: int | None = None) -> tuple[tuple[float, ...], float, int]:
        """Each player's chance to win from here, when everyone plays like the playout policy;
        also the mover's expected margin and the playouts made.  (The calibration benchmark
        measures this estimate; an action's value is the same estimate of the position after it.)"""
        count = playouts if playouts is not None else (self.budget.iterations or 100)
        wins, margin = position_wins(view, count, self._rng(view), self.backend)
        return self._chances(wins, count), margin, count


def position_wins(
    view: PlayerView, playouts: int, rng: random.Random, backend: PlayoutBackend | None = None
) -> tuple[list[int], float]:
    """Raw playout wins of each player from ``view`` (what the calibration map is fitted on),
    and the mean final margin of the player to move; the samples come from ``rng``."""
    backend = backend or default_backend()
    wins = [0] * view.num_players
    margin = 0.0
    seat = view.to_move if view.to_move is not None else view.seat
    for _ in range(playouts):
        seed = rng.getrandbits(63)
        result = backend.playout(view.determinize(seed=seed), seed)
        wins[result.winner] += 1
        margin += _margin(result.scores, seat)
    return wins, margin / playouts


def _margin(scores: Sequence[int], seat: int) -> float:
    best_other = max(s for i, s in enumerate(scores) if i != seat)
    return float(scores[seat] - best_other)


def log_loss(chances: Sequence[float], winner: int) -> float:
    """Negative log of the chance given to the actual winner (for fitting)."""
    return -math.log(max(chances[winner], 1e-12))


__all__ = [
    "DEFAULT_EPSILON",
    "SMOOTHING",
    "TEMPERATURE",
    "ActionValue",
    "Budget",
    "Evaluation",
    "EvaluationCancelledError",
    "Evaluator",
    "GreedyPlayouts",
    "NativeGreedyPlayouts",
    "Playout",
    "PlayoutBackend",
    "calibrate",
    "default_backend",
    "history_key",
    "log_loss",
    "position_wins",
    "rank_key",
]
