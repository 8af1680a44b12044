"""One advisor: hints, the analysis and the win chances from the search our bots play with.

The hints of the terminal game and the browser, ``ra analyze`` and the win chances all come
from :class:`Advisor`.  With the native core it runs the bots' search (the native
information-set MCTS of :mod:`ra.bots.native_mcts`, the same settings; by default at the
``expert`` level's budget) and reads its root: the search's choice (the move the bot plays for
the same seed and budget), each legal action's visits and mean reward (the search's own value),
the mover's mean score margin at the end of the search's horizon (projected, the end of the
epoch), and how often each player ended the search's iterations ahead (at the end of the
game, R8.1, or on the projected scores at the end of the epoch).  Those shares are mapped to
win chances by the fitted power of :data:`SEARCH_TEMPERATURE` (``benchmarks/calibration.py
--source search --fit``).  Every iteration redeals the unseen tiles (R9.1, R9.3): the bag's
real order is never read.

Without the native core the advisor falls back to the flat Monte-Carlo evaluator of
:mod:`ra.bots.evaluate` (greedy playouts; much weaker), and its :class:`Evaluation` says so
(``source == "flat"``) so the front ends can tell people.

The same position (by its decision history), budget and seed give the same numbers in every
front end: the search's seed is derived from them (:data:`ADVICE_SEED` everywhere).

The actions are ordered by the chance shown beside each (the calibrated share of its iterations
the mover ended ahead in, in whole per cent), then by the margin shown, so the star is on the
top row and "against N% to … instead" names the second row: a hint can be trusted at a glance.
Two actions shown with the same chance and margin are a tie: no star
(:attr:`~ra.bots.evaluate.Evaluation.starred`).  The search's own choice (which maximises
its value, a blend of the projected margin and the win) breaks ties; where it differs, the
advice and the hint follower play the top row, not the search's choice.
"""

from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys
import threading
from collections.abc import Sequence

from ra.actions import ALL_ACTIONS, Action
from ra.bots.base import SeededBot, refuse
from ra.bots.evaluate import (
    ActionValue,
    Budget,
    Evaluation,
    EvaluationCancelledError,
    Evaluator,
    ProgressCallback,
    calibrate,
    history_key,
    rank_key,
)
from ra.bots.mcts import MCTSConfig
from ra.bots.native_mcts import native_weights, search_settings
from ra.bots.valuation import SEARCH_WEIGHTS, Weights
from ra.native import core
from ra.views import PlayerView

ADVICE_SEED = 0
"""The advisor's seed in every front end (hints, ``ra analyze``), so that they agree; the search
mixes it with the position's decision history (never the bag)."""

MIN_VISITS = 8
"""Iterations per legal action the search makes at least (a tiny budget still judges them all)."""

DEFAULT_BUDGET = "expert"
"""The analysis' budget unless a front end says otherwise: the ``expert`` level's search (about
1-2 s of one core), for the decisions an analysis judges in full (:mod:`ra.analysis.quick`)."""

HINT_BUDGET = "hard"
"""The hints' budget unless a front end says otherwise: the ``hard`` level's search, within a
second of one core at every player count (``benchmarks/analysis_speed.py``; issue 53), so a
player who follows the hints plays as ``hard`` does."""

QUICK_ITERATIONS: dict[int, int] = {2: 20_000, 3: 15_000, 4: 10_000, 5: 6_000}
"""A quick hint's search iterations by player count: within a second of one (loaded) core
(``benchmarks/analysis_speed.py``; the default budget, ``expert``, is 3-6 times as many)."""

SEARCH_TEMPERATURE: dict[int, float] = {2: 0.52, 3: 0.49, 4: 0.53, 5: 0.38}
"""Power applied to the search's smoothed shares of iterations ended ahead, per player count
(fitted by ``benchmarks/calibration.py --source search --fit``; docs/benchmarks.md has the
reliability tables)."""


class Advisor:
    """Win chances and the best action for a player's view, from the bots' search (with the
    strong levels' tuned weights, :data:`~ra.bots.valuation.SEARCH_WEIGHTS`).

    ``budget``: search iterations, seconds or a level (:class:`Budget`); ``seed`` fixes the
    search for a position, so an iteration or level budget gives the same numbers every time.
    """

    def __init__(
        self,
        budget: Budget | str | int = DEFAULT_BUDGET,
        seed: int | None = 0,
        calibrated: bool = True,
        weights: Weights = SEARCH_WEIGHTS,
        native: bool | None = None,
    ) -> None:
        self.budget = budget if isinstance(budget, Budget) else Budget.parse(budget)
        self.seed = seed
        self.calibrated = calibrated
        self.native = core is not None if native is None else native
        if self.native and core is None:
            raise ValueError("native=True needs the native core (not built, or RA_NATIVE=0)")
        self.weights = weights
        self._weights = native_weights(weights)
        self._config = MCTSConfig()
        self._flat = None if self.native else Evaluator(self.budget, seed=seed, calibrated=calibrated)

    @property
    def source(self) -> str:
        """``"search"`` (the native search) or ``"flat"`` (the weaker Python evaluator)."""
        return "search" if self.native else "flat"

    def _seed(self, view: PlayerView) -> int:
        # The same position (by its history) gets the same search for a given seed.
        if self.seed is None:
            return random.getrandbits(63)
        return random.Random(f"advisor/{self.seed}/{view.num_players}/{history_key(view)}").getrandbits(63)

    def evaluate(
        self,
        view: PlayerView,
        cancel: threading.Event | None = None,
        progress: ProgressCallback | None = None,
        actions: Sequence[Action] | None = None,
    ) -> Evaluation:
        """Every legal action of the player to move (or just ``actions``), best first: by the
        mover's win chance as shown (ties: the search's choice, then the search's value).

        ``cancel`` stops the search (raises :class:`EvaluationCancelledError`);
        ``progress(done, total)`` is called every 256 iterations.
        """
        if self._flat is not None:
            return self._flat.evaluate(view, cancel, progress, actions)
        mover = view.to_move
        if mover is None:
            raise ValueError("the game is over: there is no decision to evaluate")
        n = view.num_players
        iterations = self.budget.search_iterations(n)
        done = [0]

        def check() -> None:
            if cancel is not None and cancel.is_set():
                raise EvaluationCancelledError
            done[0] += 256
            if progress is not None:
                progress(done[0], iterations or 0)

        assert core is not None
        legal = view.legal_actions()
        chosen, made, stats = core.State.from_game(view).mcts_stats(
            # At least a few iterations per action, so that every action has numbers.
            iterations=max(iterations or 1, MIN_VISITS * len(legal)),
            seconds=self.budget.seconds or 0.0,
            seed=self._seed(view),
            weights=self._weights,
            check=check if cancel is not None or progress is not None else None,
            **search_settings(self._config),
        )
        values = [self._value(ALL_ACTIONS[a], v, total, gap, leads) for a, v, total, gap, leads in stats]
        reward_of = {ALL_ACTIONS[a]: reward / visits for a, visits, reward, _, _ in stats if visits}
        unvisited = [a for a in legal if a not in reward_of]  # only under a very short time budget
        values += [self._value(a, 0, 0.0, 0.0, (0.0,) * n) for a in unvisited]
        # Best first, by the chance shown beside each action (what a player reads), then the
        # margin shown (rank_key), so the star is on the top row and the runner-up is the second;
        # ties go to the search's own choice, then to the search's value; unvisited actions last.
        searched = ALL_ACTIONS[chosen]
        values.sort(
            key=lambda v: (
                v.playouts == 0,
                rank_key(v, mover),
                v.action is not searched,
                -reward_of.get(v.action, 0.0),
            )
        )
        best = values[0].action
        if actions is not None:  # the best stays first: it is what the others are judged against
            wanted = set(actions)
            values = [v for v in values if v.action in wanted or v.action is best]
        return Evaluation(mover=mover, actions=tuple(values), playouts=int(made), source="search")

    def _value(
        self, action: Action, visits: int, reward: float, margin: float, leads: Sequence[float]
    ) -> ActionValue:
        n = len(leads)
        if self.calibrated:
            chances = calibrate(leads, visits, SEARCH_TEMPERATURE[n])
        else:
            chances = tuple(x / visits for x in leads) if visits else (1 / n,) * n
        return ActionValue(
            action=action,
            chances=chances,
            margin=margin / visits if visits else 0.0,
            wins=tuple(leads),
            playouts=visits,
        )

    def position(
        self, view: PlayerView, iterations: int | None = None
    ) -> tuple[tuple[float, ...], float, int]:
        """Each player's chance to win from here (the chances of the search's best action),
        the mover's expected margin and the iterations made; ``iterations`` overrides the budget
        (the analysis' curve between judged decisions is cheaper)."""
        if self._flat is not None:  # a level's or a time budget: the flat evaluator's own default
            return self._flat.position(view, iterations if self.budget.iterations is not None else None)
        advisor = (
            self if iterations is None else Advisor(iterations, self.seed, self.calibrated, self.weights)
        )
        ev = advisor.evaluate(view)
        return ev.chances, ev.best.margin, ev.playouts


def quick_budget(players: int) -> Budget:
    """The budget of a hint within a second (:data:`QUICK_ITERATIONS`) in a game of ``players``."""
    if players not in QUICK_ITERATIONS:
        raise ValueError(f"a game has 2 to 5 players, not {players!r}")
    return Budget(iterations=QUICK_ITERATIONS[players])


def quick_hint(view: PlayerView, seed: int | None = ADVICE_SEED) -> Evaluation:
    """A hint within a second: the advisor's search at :func:`quick_budget` (same position, same
    numbers).  Front ends may show :func:`ra.analysis.quick.model_hint` first (milliseconds)."""
    return Advisor(quick_budget(view.num_players), seed=seed).evaluate(view)


class FollowerBot(SeededBot):
    """A player who always plays the advisor's best action (the hint follower of
    ``benchmarks/strength.py``): ``budget`` as for :class:`Advisor` (default: the hints'),
    ``flat=True`` follows the flat evaluator instead (the advice before the search was used).
    It sees only its view, as every bot (R9.3)."""

    name = "advisor"

    def __init__(
        self, seed: int | None = None, budget: str | int = DEFAULT_BUDGET, flat: bool = False
    ) -> None:
        super().__init__(seed)
        if not isinstance(flat, bool):
            raise refuse("bots.err.flat", value=repr(flat))
        self.budget = budget
        self.flat = flat
        self._advisor: Advisor | Evaluator = (
            Evaluator(budget, seed=seed or 0) if flat else Advisor(budget, seed=seed or 0)
        )

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return self._advisor.evaluate(view).best.action

    def settings(self) -> dict[str, object]:
        return {"budget": self.budget, "flat": self.flat}


def advise_in_process(
    view: PlayerView, budget: Budget | str | int, seed: int | None, cancel: threading.Event
) -> Evaluation:
    """:meth:`Advisor.evaluate` in a separate, lower-priority process, waited for here.

    For user interfaces: a thread would hold Python's interpreter lock and make the screen
    stall, a process does not.  Setting ``cancel`` ends the process at once and raises
    :class:`EvaluationCancelledError`.  Only the view goes to the process (R9.3).
    """
    budget = budget if isinstance(budget, Budget) else Budget.parse(budget)
    payload: bytes | None = pickle.dumps((view, budget, seed))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    process = subprocess.Popen(
        [sys.executable, "-m", "ra.bots.advisor"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        while True:
            if cancel.is_set():
                raise EvaluationCancelledError
            try:
                out, err = process.communicate(payload, timeout=0.05)
                break
            except subprocess.TimeoutExpired:
                payload = None  # sent; later calls only collect the output
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    if process.returncode != 0 or not out:
        last = err.decode(errors="replace").strip().splitlines()[-1:] or [f"exit code {process.returncode}"]
        raise RuntimeError(f"the evaluation process failed: {last[0]}")
    result: Evaluation = pickle.loads(out)
    return result


def _child_main() -> None:
    """``python -m ra.bots.advisor``: read (view, budget, seed) pickled on stdin, write the
    evaluation pickled on stdout (the other side of :func:`advise_in_process`)."""
    from ra.bots.advisor import Advisor as ModuleAdvisor  # the module's classes, not __main__'s

    if hasattr(os, "nice"):
        os.nice(5)  # the screen and the bots come first
    view, budget, seed = pickle.loads(sys.stdin.buffer.read())
    sys.stdout.buffer.write(pickle.dumps(ModuleAdvisor(budget, seed=seed).evaluate(view)))
    sys.stdout.buffer.flush()


__all__ = [
    "ADVICE_SEED",
    "DEFAULT_BUDGET",
    "HINT_BUDGET",
    "MIN_VISITS",
    "QUICK_ITERATIONS",
    "SEARCH_TEMPERATURE",
    "Advisor",
    "FollowerBot",
    "advise_in_process",
    "quick_budget",
    "quick_hint",
]


if __name__ == "__main__":
    _child_main()
