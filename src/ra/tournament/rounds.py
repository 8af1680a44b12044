"""The next round of a Swiss event, from the stored results alone."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence

from ra.tournament.kinds import Kind, Settings, TournamentError
from ra.tournament.pairing import Contender, Round, pair
from ra.tournament.results import Entrant, FinishedTable, Result
from ra.tournament.standings import standings


def mates(results: Sequence[Result]) -> dict[str, set[str]]:
    """For each player, everyone they have shared a table with."""
    met: dict[str, set[str]] = defaultdict(set)
    for result in results:
        if isinstance(result, FinishedTable):
            for player in result.players:
                met[player].update(p for p in result.players if p != player)
    return met


def pair_round(
    entrants: Sequence[Entrant],
    results: Sequence[Result],
    settings: Settings,
    seed: int,
    absent: Collection[str] = (),
) -> Round:
    """The next round's tables: everyone still in the event (not twice missed) and not
    ``absent`` (withdrawn or away), by their points, avoiding earlier table-mates.  The site
    stores the seed with the round, so a second worker forms the same tables.  A Swiss event
    that has played all its rounds has no next one (a :class:`TournamentError`)."""
    if settings.check().kind is Kind.ARENA:
        raise TournamentError("an arena seats players as they come free, not by rounds", "kind")
    played = max((r.round for r in results), default=0)
    if settings.kind is Kind.SWISS and played >= settings.rounds:
        raise TournamentError(f"the event has played all its {settings.rounds} rounds", "rounds")
    lines = standings(entrants, results, settings)
    contenders = [
        Contender(line.player, line.points, line.rating, line.firsts, line.byes, line.late)
        for line in lines
        if not line.left and line.player not in absent
    ]
    return pair(contenders, mates(results), settings, seed)
