"""A game's analysis, its front door: by default a short search judges every decision and the
search at the full budget the costliest (:mod:`ra.analysis.quick`); ``searches=None`` judges every
decision at the full budget (:func:`ra.analysis.game.full_analysis`, ``ra analyze --deep``).
Either way the winner is the table's (:func:`ra.table.game_result`: a seat that forfeited is last)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from ra.analysis.game import DEFAULT_SEARCHES, GameAnalysis, add_given, full_analysis
from ra.analysis.quick import quick_analysis
from ra.bots.advisor import DEFAULT_BUDGET
from ra.bots.evaluate import Budget
from ra.engine import Game

__all__ = ["analyse_game", "settled"]


def analyse_game(
    game: Game,
    seats: Sequence[int] | None = None,
    budget: Budget | str | int = DEFAULT_BUDGET,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    edition: str = "original",
    jobs: int = 1,
    strengths: Sequence[float] | None = None,
    searches: int | None = DEFAULT_SEARCHES,
    forfeited: Collection[int] = (),
) -> GameAnalysis:
    """Analyse ``game``'s decisions by ``seats`` (default: all), in ``jobs`` processes.

    By default every decision is judged by a short search and at most ``searches`` of them (the
    costliest by the short search) by the search at ``budget`` too
    (:func:`ra.analysis.quick.quick_analysis`); ``searches=None`` searches every decision at
    ``budget`` (the full analysis, ``ra analyze --deep``), as below.

    Every other decision gets a cheaper plain estimate of the position after it (the curve).
    Given each seat's ``strengths`` (ratings, :data:`ra.analysis.chances.LEVEL_STRENGTH`), the
    analysis also holds the chances given who is playing (:func:`given_curve`).
    ``progress(done, total)`` is called after each decision of the game.  The numbers do not
    depend on ``jobs``.  On ``KeyboardInterrupt`` the analysis so far is returned with
    ``complete=False`` (nothing is lost, nothing is half).  The winner is the table's
    (:func:`ra.table.game_result` with the seats that ``forfeited``: last, whatever their score).
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a whole number of 1 or more, got {jobs!r}")
    if searches is not None:
        analysis = quick_analysis(game, seats, budget, seed, searches, progress, edition, jobs, forfeited)
    else:
        analysis = full_analysis(game, seats, budget, seed, progress, edition, jobs, forfeited)
    add_given(analysis, game, strengths)
    return settled(analysis, game)


def settled(analysis: GameAnalysis, game: Game) -> GameAnalysis:
    """``analysis`` whose charts end certain for its winner where that is the table's, not the
    engine's (a seat that forfeited ranks last, :func:`ra.table.game_result`); else unchanged."""
    winner, end = analysis.winner, game.num_decisions
    if winner is None or winner == game.winner:
        return analysis
    certain = tuple(float(s == winner) for s in range(game.num_players))
    for points in (analysis.curve, analysis.given):
        if points and points[-1][0] == end:
            points[-1] = (end, certain)
    return analysis
