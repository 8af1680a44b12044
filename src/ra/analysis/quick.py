"""The default analysis: a short search on every decision, the analysis' full search on the
costliest (issue 53: a whole game in seconds, not minutes, and an accuracy that orders players).

Every decision with a choice is first judged by the advisor's search at a small budget
(:data:`SCREEN_ITERATIONS`, never more than the analysis' own): the mover's chance after each
legal action, from the mover's view (R9: hidden scores stay hidden; every iteration redeals the
unseen tiles, R9.3).  Then the decisions where that short search says the most chance was lost
(from :data:`SEARCH_FROM`, at most ``searches`` of them) are judged again at the analysis'
budget, whose numbers replace the short search's there; each report says which judged it
(``searched``: the full budget).  ``searches=None`` in :func:`ra.analysis.analyse.analyse_game`
keeps the old analysis, every decision at the full budget.

Why not the model of win chances (:mod:`ra.analysis.chances`) for the first judgement, as
before: it judges a position by its tiles and scores, so the chance after each legal action
barely varies by action, and on arena games it put a random player's accuracy above ``hard``'s
(docs/bots.md, Speed).  The model still gives the chart between judged decisions and the
instant hint (:func:`model_hint`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import Any, Final

from ra.actions import Action
from ra.analysis.chances import LEVEL_STRENGTH, ChancesModel
from ra.analysis.chances import default_model as default_chances_model
from ra.analysis.game import (
    DEFAULT_SEARCHES,
    INACCURACY,
    DecisionReport,
    GameAnalysis,
    analyse_decision,
    given_curve,
    new_analysis,
)
from ra.bots.advisor import Advisor
from ra.bots.evaluate import ActionValue, Budget, Evaluation, rank_key
from ra.engine import Game
from ra.processes import running
from ra.views import PlayerView

SEARCH_FROM: Final = INACCURACY / 2
"""The short search's judged loss from which a decision is worth the full search (the closest
calls under it are left to the short search: the full one would not change a label there)."""

SCREEN_ITERATIONS: Final[dict[int, int]] = {2: 1500, 3: 1000, 4: 800, 5: 600}
"""The short search's iterations on every decision, by player count: about 15 ms of one core
at three players, a game's 150-250 decisions in a few seconds of two cores
(``benchmarks/analysis_speed.py``).  On arena games it orders the players as searches of 2 and 10
times as many iterations do (``benchmarks/analysis_accuracy.py``; docs/bots.md, Speed)."""

MODEL_LEVEL: Final = "expert"
"""Every seat's strength for the model's judgement: the level whose search the advice runs."""

Progress = Callable[[int, int], None]


def best_play_strengths(players: int) -> list[float]:
    """Every seat at :data:`MODEL_LEVEL`'s strength (the model's "with best play")."""
    return [LEVEL_STRENGTH[MODEL_LEVEL]] * players


def after_chances(
    game: Game, action: Action, seat: int, model: ChancesModel, strengths: Sequence[float]
) -> tuple[float, ...]:
    """Every seat's chance after ``action`` in ``game``, seen from ``seat``; a draw is the mean
    over the tiles the bag may give, weighted by their count (R3.3)."""
    if action.kind == "draw":
        total = [0.0] * game.num_players
        for tile, p in game.chance_outcomes():
            after = game.clone()
            after.apply_draw(tile)
            for k, c in enumerate(_chances(after, seat, model, strengths)):
                total[k] += p * c
        return tuple(total)
    after = game.clone()
    after.apply(action)
    return _chances(after, seat, model, strengths)


def _chances(game: Game, seat: int, model: ChancesModel, strengths: Sequence[float]) -> tuple[float, ...]:
    if game.is_over():
        return tuple(float(i == game.winner) for i in range(game.num_players))
    return model.chances(game.view(seat), strengths)


def model_evaluation(game: Game, strengths: Sequence[float] | None = None) -> Evaluation:
    """Every legal action of the player to move in ``game``, judged by the model alone, best
    first (``source="model"``, no margins: 0); in milliseconds.  Only the mover's view and the
    bag's contents are read, never its order."""
    seat = game.to_move
    if seat is None:
        raise ValueError("the game is over: there is no decision to evaluate")
    model = default_chances_model()
    rated = best_play_strengths(game.num_players) if strengths is None else strengths
    values = []
    for action in game.legal_actions():
        chances = after_chances(game, action, seat, model, rated)
        values.append(ActionValue(action=action, chances=chances, margin=0.0, wins=chances, playouts=0))
    values.sort(key=lambda v: (rank_key(v, seat), -v.chances[seat]))
    return Evaluation(mover=seat, actions=tuple(values), playouts=0, source="model")


def model_hint(view: PlayerView) -> Evaluation:
    """A hint from the model alone (a quick first answer, before or instead of a search): the
    view's game with the unseen tiles in some order (:meth:`PlayerView.determinize`; only their
    counts are read)."""
    return model_evaluation(view.determinize(seed=0))


def to_search(reports: Sequence[DecisionReport], searches: int) -> list[int]:
    """The decisions worth the full search: the ``searches`` the short search judged costliest
    (from :data:`SEARCH_FROM`), in game order."""
    ranked = sorted((r for r in reports if r.loss >= SEARCH_FROM), key=lambda r: (-r.loss, r.index))
    return sorted(r.index for r in ranked[:searches])


def screen_budget(budget: Budget, players: int) -> Budget:
    """The short search's budget: :data:`SCREEN_ITERATIONS`, never more than ``budget``'s."""
    if players not in SCREEN_ITERATIONS:
        raise ValueError(f"a game has 2 to 5 players, not {players!r}")
    own = budget.search_iterations(players)
    short = SCREEN_ITERATIONS[players]
    return Budget(iterations=short if own is None else min(short, own))


def quick_analysis(
    game: Game,
    seats: Sequence[int] | None,
    budget: Budget | str | int,
    seed: int,
    searches: int,
    progress: Progress | None = None,
    edition: str = "original",
    jobs: int = 1,
    forfeited: Collection[int] = (),
) -> GameAnalysis:
    """``game``'s decisions by ``seats`` judged by the short search, the costliest ``searches``
    of them by the full one too (in ``jobs`` processes); ``progress(done, total)`` counts the
    short searches, then the full ones.  Interrupted (Ctrl-C), the analysis keeps every decision
    judged so far and says it is not complete."""
    if isinstance(searches, bool) or not isinstance(searches, int) or searches < 0:
        raise ValueError(f"searches must be a whole number of 0 or more, got {searches!r}")
    analysis, chosen = new_analysis(game, seats, budget, seed, forfeited)
    budget = budget if isinstance(budget, Budget) else Budget.parse(budget)
    short = screen_budget(budget, game.num_players)
    order = sorted(chosen)
    guess = len(order) + min(searches, len(order))
    screened = _search(game, order, short, seed, edition, jobs, _ticks(progress, 0, guess))
    full = short == budget  # a budget as small as the short search's: nothing to search again
    reports = {i: r if full else dataclasses.replace(r, searched=False) for i, r in screened.items()}
    picked = [] if full or len(screened) < len(order) else to_search(list(reports.values()), searches)
    tick = _ticks(progress, len(order), len(order) + len(picked))
    searched = _search(game, picked, budget, seed, edition, jobs, tick)
    analysis.complete = len(screened) == len(order) and len(searched) == len(picked)
    reports |= searched
    analysis.decisions = [reports[i] for i in sorted(reports)]
    curve = dict(given_curve(game, best_play_strengths(game.num_players))[1:])
    curve |= {i + 1: r.chances for i, r in reports.items()}
    analysis.curve = sorted(curve.items())
    return analysis


def _ticks(progress: Progress | None, before: int, total: int) -> Callable[[int], None] | None:
    """``progress`` told ``before + done`` of ``total`` as a batch of searches goes on."""
    if progress is None:
        return None
    return lambda done: progress(before + done, total)


SPANS_PER_JOB: Final = 8
"""Spans of decisions each process judges in a pool: one replay of the game a span (not one a
decision), and the progress still moves often."""


def _search(
    game: Game,
    picked: Sequence[int],
    budget: Budget,
    seed: int,
    edition: str,
    jobs: int,
    tick: Callable[[int], None] | None,
) -> dict[int, DecisionReport]:
    """The search's reports of the ``picked`` decisions at ``budget`` (those done, if
    interrupted: Ctrl-C here is not raised further)."""
    out: dict[int, DecisionReport] = {}
    try:
        if jobs == 1 or len(picked) < 2:
            for index, report in judge_span(game, picked, budget, seed, edition):
                out[index] = report
                if tick is not None:
                    tick(len(out))
        else:
            record = game.to_record()
            size = -(-len(picked) // (jobs * SPANS_PER_JOB))
            tasks = [
                (record, picked[k : k + size], budget, seed, edition) for k in range(0, len(picked), size)
            ]
            with running(min(jobs, len(tasks))) as pool:
                for span in pool.imap_unordered(_span_task, tasks):
                    out.update(span)
                    if tick is not None:
                        tick(len(out))
    except KeyboardInterrupt:
        pass  # the searches done are kept; the rest keep the short search's judgement (or none)
    return out


def judge_span(
    game: Game, picked: Sequence[int], budget: Budget, seed: int, edition: str
) -> Iterator[tuple[int, DecisionReport]]:
    """Each of the ``picked`` decisions (in game order) judged by the advisor at ``budget``, as
    the game is replayed once."""
    wanted, advisor = set(picked), Advisor(budget, seed=seed)
    probe = Game.from_setup(game.setup)
    for index, action in enumerate(game.decisions[: max(picked, default=-1) + 1]):
        if index in wanted:
            yield index, analyse_decision(probe, action, advisor, index, edition)
        probe.apply(action)


def _span_task(
    task: tuple[dict[str, Any], Sequence[int], Budget, int, str],
) -> list[tuple[int, DecisionReport]]:
    record, picked, budget, seed, edition = task
    return list(judge_span(Game.from_record(record), picked, budget, seed, edition))


__all__ = [
    "DEFAULT_SEARCHES",
    "MODEL_LEVEL",
    "SCREEN_ITERATIONS",
    "SEARCH_FROM",
    "after_chances",
    "best_play_strengths",
    "judge_span",
    "model_evaluation",
    "model_hint",
    "quick_analysis",
    "screen_budget",
    "to_search",
]
