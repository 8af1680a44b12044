"""Standings: a pure function of the entrants and the stored results (:mod:`ra.tournament.results`).

Players are ordered by points (match points; arena points in an arena), then by four tie-breaks
in turn: the Ra points they scored, their opponents' match points (Buchholz's idea for tables),
the head-to-head between the players still level, and last their id (for a stable list only:
players level on everything share a rank).  docs/tournaments.md gives the reasoning.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import groupby

from ra.tournament.kinds import Kind, Settings
from ra.tournament.results import Bye, Entrant, FinishedTable, Result, check, match_points, versus

MISSES_TO_LEAVE = 2
"""A player who forfeits or does not come this many times leaves the event."""
ARENA_WIN = 2
"""Arena points for a first place alone (lichess's two for a win); a place between scores its share."""


@dataclass(slots=True)
class Standing:
    """One player's line: ``points`` decide the order, then ``ra_points``, ``opponents`` and
    ``head_to_head``; ``rank`` is shared by players level on all four."""

    player: str
    rating: float
    rank: int = 0
    points: Fraction = Fraction(0)
    match_points: Fraction = Fraction(0)
    ra_points: int = 0
    opponents: Fraction = Fraction(0)
    head_to_head: Fraction = Fraction(0)
    games: int = 0
    byes: int = 0
    missed: int = 0
    firsts: int = 0
    late: Fraction = Fraction(0)
    streak: int = 0
    tables: list[FinishedTable] = field(default_factory=list, repr=False)

    @property
    def left(self) -> bool:
        """Whether the player has missed :data:`MISSES_TO_LEAVE` games and is out of the event."""
        return self.missed >= MISSES_TO_LEAVE

    def key(self) -> tuple[Fraction, int, Fraction, Fraction]:
        """What orders the standings, best first when sorted in reverse."""
        return (self.points, self.ra_points, self.opponents, self.head_to_head)


def standings(entrants: Sequence[Entrant], results: Iterable[Result], settings: Settings) -> list[Standing]:
    """Every entrant's line, best first (bots never have one)."""
    settings.check()
    results = list(results)
    check(results, entrants)
    results.sort(key=lambda r: r.round)
    lines = {e.player: Standing(e.player, e.rating) for e in entrants}
    for result in results:
        if isinstance(result, Bye):
            _bye(lines[result.player])
        else:
            _table(lines, result, settings)
    for line in lines.values():
        line.opponents = _opponents(line, lines)
    ordered = sorted(lines.values(), key=lambda s: s.key()[:3], reverse=True)
    for _, group in groupby(ordered, key=lambda s: s.key()[:3]):
        _head_to_head(list(group))
    ordered.sort(key=lambda s: s.player)
    ordered.sort(key=Standing.key, reverse=True)
    for index, line in enumerate(ordered):
        before = ordered[index - 1] if index else None
        line.rank = before.rank if before is not None and before.key() == line.key() else index + 1
    return ordered


def _bye(line: Standing) -> None:
    line.byes += 1
    line.match_points += 1
    line.points += 1


def _table(lines: dict[str, Standing], table: FinishedTable, settings: Settings) -> None:
    points = match_points(table)
    for seat_index, seat in enumerate(table.seats):
        if seat.player is None:
            continue
        line = lines[seat.player]
        earned = points[seat.player]
        line.games += 1
        line.tables.append(table)
        line.match_points += earned
        line.firsts += seat_index == 0
        line.late += Fraction(seat_index, len(table.seats) - 1)
        if seat.forfeit:
            line.missed += 1
        else:
            line.ra_points += seat.score
        if settings.kind is Kind.ARENA:
            double = settings.streak and line.streak >= 2
            line.points += earned * ARENA_WIN * (2 if double else 1)
            line.streak = line.streak + 1 if earned == 1 else 0
        else:
            line.points += earned


def _opponents(line: Standing, lines: dict[str, Standing]) -> Fraction:
    """The sum, over the player's tables, of the mean match points of the other players there."""
    total = Fraction(0)
    for table in line.tables:
        others = [lines[p].match_points for p in table.players if p != line.player]
        if others:
            total += sum(others, Fraction(0)) / len(others)
    return total


def _head_to_head(group: list[Standing]) -> None:
    """Among players level on the first three keys: each one's results against the others of the
    group at the tables they shared (1 ahead, ½ level, 0 behind)."""
    if len(group) < 2:
        return
    level = {s.player for s in group}
    shared: dict[str, Fraction] = defaultdict(Fraction)
    for line in group:
        for table in line.tables:
            mine = next(s for s in table.seats if s.player == line.player)
            for seat in table.seats:
                if seat is not mine and seat.player in level:
                    shared[line.player] += versus(mine, seat)
    for line in group:
        line.head_to_head = shared[line.player]


def active(lines: Iterable[Standing]) -> list[str]:
    """The players still in the event (those who have not missed twice)."""
    return [line.player for line in lines if not line.left]
