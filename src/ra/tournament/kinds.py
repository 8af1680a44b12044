"""The kinds of event and an event's settings, as data: what the organiser chooses.

A *Swiss* event plays a fixed number of rounds, each round's tables formed from players with
equal or near points; an *arena* runs for a fixed time and seats a player again as soon as enough
players are free; a *round robin* seats a small group until everyone has shared a table with
everyone.  The table size (2 to 5, R2.1) is the organiser's; when the number of players does not
divide by it, :func:`layout` says which tables to make.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from itertools import combinations_with_replacement

from ra.errors import RaError

MIN_TABLE = 2
"""The fewest seats at a table of Ra (R2.1)."""
MAX_TABLE = 5
"""The most seats at a table of Ra (R2.1)."""
MAX_ROUNDS = 100
"""The most rounds a Swiss event may have."""
ROUND_ROBIN_MAX = 10
"""The most players a round robin takes: everyone meets everyone, so the event grows as n², and
up to ten players each round's grouping is searched exhaustively."""


class TournamentError(RaError, ValueError):
    """Settings or results that do not make an event.  ``option`` names the setting or the field
    at fault (``"table_size"``, ``"rounds"``, ``"seats"`` …) so a front end can point at it."""

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


class Kind(enum.Enum):
    """How an event forms its tables."""

    SWISS = "swiss"
    ARENA = "arena"
    ROUND_ROBIN = "round-robin"


@dataclass(frozen=True, slots=True)
class Settings:
    """An event's rules as the organiser set them; :meth:`check` says what is wrong, if anything.

    ``rounds`` is for a Swiss event, ``minutes`` for an arena (how long new games may start);
    ``bots`` lets bots fill empty seats (they never score); ``byes`` gives the players left over
    a bye instead of seating them at a table of another size; ``streak`` doubles an arena
    player's points after two first places in a row (lichess's streak)."""

    kind: Kind = Kind.SWISS
    table_size: int = 3
    rounds: int = 4
    minutes: int = 60
    bots: bool = False
    byes: bool = False
    streak: bool = True

    def check(self) -> Settings:
        """These settings, if they make an event; otherwise a :class:`TournamentError`."""
        if not isinstance(self.kind, Kind):
            raise TournamentError(f"kind must be one of {[k.value for k in Kind]}", "kind")
        for name in ("table_size", "rounds", "minutes"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise TournamentError(f"{name} must be a whole number, not {value!r}", name)
        for name in ("bots", "byes", "streak"):
            if not isinstance(getattr(self, name), bool):
                raise TournamentError(f"{name} must be true or false, not {getattr(self, name)!r}", name)
        if not MIN_TABLE <= self.table_size <= MAX_TABLE:
            raise TournamentError(
                f"table_size must be {MIN_TABLE} to {MAX_TABLE} (R2.1), not {self.table_size}", "table_size"
            )
        if self.kind is Kind.SWISS and not 1 <= self.rounds <= MAX_ROUNDS:
            raise TournamentError(f"rounds must be 1 to {MAX_ROUNDS}, not {self.rounds}", "rounds")
        if self.kind is Kind.ARENA and not 1 <= self.minutes <= 7 * 24 * 60:
            raise TournamentError(f"minutes must be 1 to {7 * 24 * 60}, not {self.minutes}", "minutes")
        return self


@dataclass(frozen=True, slots=True)
class Layout:
    """The tables of one round: their sizes (largest first), how many bot seats fill them and how
    many players sit out with a bye."""

    tables: tuple[int, ...]
    bots: int = 0
    byes: int = 0

    @property
    def seats(self) -> int:
        """The players seated (bots not counted)."""
        return sum(self.tables) - self.bots


def layout(players: int, settings: Settings) -> Layout:
    """The tables for ``players`` at ``settings.table_size``: all of that size when the count
    divides; otherwise, as the organiser allowed, bots in the empty seats (at most one a table
    where there are tables enough), byes for the players left over, or the fewest tables of
    another size (2 to 5), among as few the sizes nearest ``settings.table_size``.  One player
    alone gets a bye."""
    size = settings.check().table_size
    if players < 0:
        raise TournamentError(f"players must be 0 or more, not {players}", "players")
    full, left = divmod(players, size)
    if left == 0:
        return Layout((size,) * full)
    if settings.bots:
        return Layout((size,) * (full + 1), bots=size - left)
    if settings.byes and full > 0:
        return Layout((size,) * full, byes=left)
    return _mixed(players, size)


def _mixed(players: int, size: int) -> Layout:
    """Tables of ``size`` and the fewest tables of other sizes (2 to 5) that seat ``players``;
    among as few, the sizes nearest ``size``, then the most seats at tables of ``size``."""
    if players < MIN_TABLE:
        return Layout((), byes=players)
    others = [s for s in range(MIN_TABLE, MAX_TABLE + 1) if s != size]
    for count in range(1, players // MIN_TABLE + 1):
        best: tuple[int, tuple[int, ...]] | None = None
        for full in range(players // size, -1, -1):
            for extra in combinations_with_replacement(others, count):
                if sum(extra) == players - full * size:
                    cost = sum(abs(s - size) for s in extra)
                    if best is None or cost < best[0]:
                        best = (cost, tuple(sorted((size,) * full + extra, reverse=True)))
        if best is not None:
            return Layout(best[1])
    raise AssertionError(f"no tables of 2 to 5 seat {players}")  # pragma: no cover
