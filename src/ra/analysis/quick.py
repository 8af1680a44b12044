"""The default analysis: the model's judgement where a search is not needed, the search where
it is (issue 53: a whole game in seconds, not minutes).

Every decision with a choice is first judged by the model of win chances
(:mod:`ra.analysis.chances`, all seats at the search's strength, so "with best play"): the
mover's chance after each legal action, from the mover's view (R9: hidden scores stay hidden; a
draw is judged as the mean over the tiles left in the bag, R3.3, never the bag's real order).
Then the decisions where the model says the most chance was lost (from :data:`SEARCH_FROM`,
at most ``searches`` of them) are judged again by the advisor's search, whose numbers replace
the model's there; each report says which judged it (``searched``).  ``searches=None`` in
:func:`ra.analysis.game.analyse_game` keeps the old analysis, every decision searched.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from ra.actions import Action
from ra.analysis.chances import LEVEL_STRENGTH, ChancesModel
from ra.analysis.chances import default_model as default_chances_model
from ra.analysis.game import (
    DEFAULT_SEARCHES,
    INACCURACY,
    DecisionReport,
    GameAnalysis,
    decision_report,
    given_curve,
    judge_decision,
    new_analysis,
)
from ra.bots.evaluate import ActionValue, Budget, Evaluation, rank_key
from ra.engine import Game
from ra.processes import running
from ra.views import PlayerView

SEARCH_FROM: Final = INACCURACY / 2
"""The model's judged loss from which a decision is worth a search (the closest calls under it
are left to the model: the search would not change a label there)."""

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
    """The decisions worth a search: the ``searches`` the model judged costliest (from
    :data:`SEARCH_FROM`), in game order."""
    ranked = sorted((r for r in reports if r.loss >= SEARCH_FROM), key=lambda r: (-r.loss, r.index))
    return sorted(r.index for r in ranked[:searches])


def quick_analysis(
    game: Game,
    seats: Sequence[int] | None,
    budget: Budget | str | int,
    seed: int,
    searches: int,
    progress: Progress | None = None,
    edition: str = "original",
    jobs: int = 1,
) -> GameAnalysis:
    """``game``'s decisions by ``seats`` judged by the model, the costliest ``searches`` of them
    by the search too (in ``jobs`` processes); ``progress(done, total)`` counts the decisions
    judged by the model, then the searches.  Interrupted (Ctrl-C) during the searches, the
    analysis keeps the model's judgement of the rest and says it is not complete."""
    if isinstance(searches, bool) or not isinstance(searches, int) or searches < 0:
        raise ValueError(f"searches must be a whole number of 0 or more, got {searches!r}")
    analysis, chosen = new_analysis(game, seats, budget, seed)
    budget = budget if isinstance(budget, Budget) else Budget.parse(budget)
    by_model: list[DecisionReport] = []
    try:
        _model_reports(game, chosen, edition, progress, by_model)
    except KeyboardInterrupt:  # the decisions judged so far, their own points on the chart
        analysis.decisions, analysis.complete = by_model, False
        analysis.curve = [(r.index + 1, r.chances) for r in by_model]
        return analysis
    picked = to_search(by_model, searches)
    total = game.num_decisions + len(picked)
    tick = None if progress is None else (lambda done: progress(game.num_decisions + done, total))
    searched = _search(game, picked, budget, seed, edition, jobs, tick)
    if len(searched) < len(picked):
        analysis.complete = False
    reports = {r.index: r for r in by_model} | searched
    analysis.decisions = [reports[i] for i in sorted(reports)]
    curve = dict(given_curve(game, best_play_strengths(game.num_players))[1:])
    curve |= {i + 1: r.chances for i, r in searched.items()}
    analysis.curve = sorted(curve.items())
    return analysis


def _model_reports(
    game: Game, chosen: set[int], edition: str, progress: Progress | None, out: list[DecisionReport]
) -> None:
    """The model's report of each ``chosen`` decision, into ``out`` (kept if interrupted)."""
    probe = Game.from_setup(game.setup)
    for index, action in enumerate(game.decisions):
        if index in chosen:
            out.append(decision_report(probe, action, model_evaluation(probe), index, edition))
        probe.apply(action)
        if progress is not None:
            progress(index + 1, game.num_decisions)


def _search(
    game: Game,
    picked: Sequence[int],
    budget: Budget,
    seed: int,
    edition: str,
    jobs: int,
    tick: Callable[[int], None] | None,
) -> dict[int, DecisionReport]:
    """The search's reports of the ``picked`` decisions (those done, if interrupted)."""
    record = game.to_record()
    tasks = [(record, index, True, budget, seed, edition) for index in picked]
    out: dict[int, DecisionReport] = {}
    try:
        if jobs == 1 or len(tasks) < 2:
            results = map(_task, tasks)
            for done, (index, report) in enumerate(results, 1):
                out[index] = report
                if tick is not None:
                    tick(done)
        else:
            with running(min(jobs, len(tasks))) as pool:
                for done, (index, report) in enumerate(pool.imap_unordered(_task, tasks), 1):
                    out[index] = report
                    if tick is not None:
                        tick(done)
    except KeyboardInterrupt:
        pass  # the searches done are kept; the rest keep the model's judgement
    return out


def _task(task: tuple[dict[str, Any], int, bool, Budget, int, str]) -> tuple[int, DecisionReport]:
    index, report, _ = judge_decision(*task)
    assert report is not None
    return index, report


__all__ = [
    "DEFAULT_SEARCHES",
    "MODEL_LEVEL",
    "SEARCH_FROM",
    "after_chances",
    "best_play_strengths",
    "model_evaluation",
    "model_hint",
    "quick_analysis",
    "to_search",
]
