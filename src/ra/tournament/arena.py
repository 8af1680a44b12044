"""An arena event (lichess's kind): for a fixed time, players who come free are seated again.

Not :mod:`ra.arena` (games between bots): this seats people.  The site calls
:func:`seat_free` whenever a table finishes or a player comes back; it passes the time, so the
function reads no clock.  Points per result and the streak bonus are the standings' (arena
points, :mod:`ra.tournament.standings`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from ra.tournament.kinds import Kind, Settings, TournamentError
from ra.tournament.pairing import Contender, pair
from ra.tournament.results import Entrant, FinishedTable, Result
from ra.tournament.standings import standings


@dataclass(frozen=True, slots=True)
class Seating:
    """New tables (seat order; ``None`` a bot's seat) and the free players left waiting."""

    tables: tuple[tuple[str | None, ...], ...]
    waiting: tuple[str, ...]


def is_open(settings: Settings, started: datetime, now: datetime) -> bool:
    """Whether new games may still start: the arena runs ``settings.minutes`` from ``started``.
    Both times must say their time zone (aware datetimes), so workers in any zone agree."""
    for name, moment in (("started", started), ("now", now)):
        if not isinstance(moment, datetime) or moment.utcoffset() is None:
            raise TournamentError(f"{name} must be a datetime with its time zone, not {moment!r}", name)
    return started <= now < started + timedelta(minutes=settings.check().minutes)


def seat_free(
    entrants: Sequence[Entrant],
    results: Sequence[Result],
    settings: Settings,
    free: Sequence[str],
    seed: int,
    started: datetime,
    now: datetime,
) -> Seating:
    """Tables for the ``free`` players (in the order they came free) while the arena is open:
    the first to come free are seated as soon as they fill tables, grouped by points and rating,
    not with their last table's mates while others are free; the rest wait (with bots allowed,
    bots fill the last table instead).  Players who missed twice are not seated."""
    if settings.check().kind is not Kind.ARENA:
        raise TournamentError("only an arena seats players as they come free", "kind")
    if len(set(free)) != len(free):
        raise TournamentError(f"a player is listed twice as free: {list(free)}", "free")
    lines = {line.player: line for line in standings(entrants, results, settings)}
    unknown = [p for p in free if p not in lines]
    if unknown:
        raise TournamentError(f"not entrants: {unknown}", "free")
    ready = [p for p in free if not lines[p].left]
    if not is_open(settings, started, now):
        return Seating((), tuple(ready))
    count = len(ready) if settings.bots else len(ready) - len(ready) % settings.table_size
    seated, waiting = ready[:count], ready[count:]
    field = [
        Contender(p, lines[p].points, lines[p].rating, lines[p].firsts, late=lines[p].late) for p in seated
    ]
    round_ = pair(field, last_mates(results), settings, seed)
    return Seating(round_.tables, tuple(waiting))


def last_mates(results: Sequence[Result]) -> dict[str, set[str]]:
    """For each player, the players at their latest table (an arena avoids only those)."""
    latest: dict[str, FinishedTable] = {}
    for result in sorted(results, key=lambda r: r.round):
        if isinstance(result, FinishedTable):
            for player in result.players:
                latest[player] = result
    return {p: {q for q in t.players if q != p} for p, t in latest.items()}
