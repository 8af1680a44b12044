"""The stored results of an event: finished tables and byes, the only input standings need.

The site stores these rows; :mod:`ra.tournament.standings` and :mod:`ra.tournament.pairing`
derive everything else from them, so nothing lives only in a worker's memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ra.tournament.kinds import MAX_TABLE, MIN_TABLE, TournamentError


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player in the event: the site's id for them and their rating (orders equal points)."""

    player: str
    rating: float = 1500.0


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of a finished table, in seat order: who sat there (``None`` for a bot), the Ra
    points they ended with (R8) and whether they forfeited or did not come (scores last)."""

    player: str | None
    score: int = 0
    forfeit: bool = False


@dataclass(frozen=True, slots=True)
class FinishedTable:
    """A table that has played its game: the round (an arena counts its games in the order they
    started), its seats in seat order (seat 0 played first)."""

    round: int
    seats: tuple[Seat, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.seats, tuple) or not all(isinstance(s, Seat) for s in self.seats):
            raise TournamentError(f"seats must be a tuple of Seat, not {self.seats!r}", "seats")
        if not MIN_TABLE <= len(self.seats) <= MAX_TABLE:
            raise TournamentError(
                f"a table has {MIN_TABLE} to {MAX_TABLE} seats, not {len(self.seats)}", "seats"
            )
        players = [s.player for s in self.seats if s.player is not None]
        if len(set(players)) != len(players):
            raise TournamentError(f"a player sits twice at one table: {players}", "seats")
        if not players:
            raise TournamentError("a table of bots only is not an event's table", "seats")

    @property
    def players(self) -> tuple[str, ...]:
        """The players at the table (not the bots), in seat order."""
        return tuple(s.player for s in self.seats if s.player is not None)


@dataclass(frozen=True, slots=True)
class Bye:
    """A round a player sat out because the tables were full: it scores as a first place."""

    round: int
    player: str


Result = FinishedTable | Bye
"""One stored row of an event."""


def match_points(table: FinishedTable) -> dict[str, Fraction]:
    """Each player's match points at ``table``: the share of the other seats they finished
    ahead of, a tie counting half — 1 for first, 0 for last, whatever the table's size, so
    tables of 2 and of 5 weigh alike.  A forfeit is behind everyone who played."""
    others = len(table.seats) - 1
    points: dict[str, Fraction] = {}
    for seat in table.seats:
        if seat.player is None:
            continue
        halves = sum(half_points(seat, other) for other in table.seats if other is not seat)
        points[seat.player] = Fraction(halves, 2 * others)
    return points


def versus(seat: Seat, other: Seat) -> Fraction:
    """1 if ``seat`` finished ahead of ``other``, ½ if level, 0 if behind (a forfeit is behind)."""
    return Fraction(half_points(seat, other), 2)


def half_points(seat: Seat, other: Seat) -> int:
    """:func:`versus` in halves (2, 1 or 0): whole numbers add up quicker than fractions."""
    if seat.forfeit or other.forfeit:
        return int(other.forfeit) - int(seat.forfeit) + 1
    return (seat.score > other.score) - (seat.score < other.score) + 1


def places(table: FinishedTable) -> dict[str, Fraction]:
    """Each player's place at ``table`` (1 first), a tie sharing the mean of its places."""
    ahead = {
        s.player: sum((versus(o, s) for o in table.seats if o is not s), Fraction(0)) for s in table.seats
    }
    return {p: 1 + a for p, a in ahead.items() if p is not None}


def check(results: Sequence[Result], entrants: Sequence[Entrant]) -> None:
    """A :class:`TournamentError` naming an entrant listed twice, a player in ``results`` who is
    not an entrant, a player with two results in one round, or a round that is not 1 or more."""
    known = {e.player for e in entrants}
    if len(known) != len(entrants):
        names = [e.player for e in entrants]
        twice = sorted({n for n in names if names.count(n) > 1})
        raise TournamentError(f"entrants listed twice: {twice}", "entrants")
    seen: set[tuple[int, str]] = set()
    for result in results:
        if not isinstance(result.round, int) or result.round < 1:
            raise TournamentError(f"a round is a whole number from 1, not {result.round!r}", "round")
        players = result.players if isinstance(result, FinishedTable) else (result.player,)
        for player in players:
            if player not in known:
                raise TournamentError(f"{player!r} in round {result.round} is not an entrant", "player")
            if (result.round, player) in seen:
                raise TournamentError(f"{player!r} has two results in round {result.round}", "round")
            seen.add((result.round, player))
