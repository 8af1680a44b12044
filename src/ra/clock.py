"""A table's clock: the one place that says how long a person has for a decision, what their
clock holds after it, when their time is up, and what a time-out brings (a stand-in, or a
forfeit).

Every rule here is pure: the moment it is asked about (``now``) and the moment the decision
became due (``since``) are given, never read from the wall, so the master's tests run it with
a fake clock in microseconds.  The rule that says which decision is out of time is written once,
over :class:`Terms`: :data:`PLAIN` evaluates it on numbers here, and the web's store builds its
SQL from the very same functions (:func:`seconds_for`, :func:`out_of_time`), so a sweep of the
database and a room's own clock can never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Final, Protocol, TypeVar

ON_TIMEOUT: Final = ("stand_in", "second", "forfeit")
"""What a time-out brings: a stand-in bot decides until the person is back; the same the first
time and a forfeit the second; a forfeit at once (a bot plays the seat to the end)."""

MOVE_DEADLINE: Final = 3 * 86400.0
"""The site's deadline per decision at a table without a clock (seconds): past it, the seat
forfeits (a server may set another)."""

T = TypeVar("T")


class Terms(Protocol[T]):
    """The few operations the clock's rules are written in: on numbers (:data:`PLAIN`), or on
    SQL expressions (the web's store), so that one rule serves both."""

    def first(self, *terms: T) -> T:
        """The first term that is set (SQL's ``COALESCE``)."""

    def if_set(self, test: T, then: T) -> T:
        """``then`` where ``test`` is set, else unset."""

    def plus(self, a: T, b: T) -> T: ...

    def at_most(self, a: T, b: T) -> T:
        """Whether ``a <= b``."""

    def either(self, a: T, b: T) -> T:
        """Whether ``a`` or ``b`` holds."""


Number = float | None
"""A term on numbers: seconds, a moment in seconds since 1970, or a truth (unset: None)."""


class _Plain:
    """:class:`Terms` on numbers (None: unset)."""

    def first(self, *terms: Number) -> Number:
        return next((t for t in terms if t is not None), None)

    def if_set(self, test: Number, then: Number) -> Number:
        return None if test is None else then

    def plus(self, a: Number, b: Number) -> Number:
        return None if a is None or b is None else a + b

    def at_most(self, a: Number, b: Number) -> Number:
        return None if a is None or b is None else float(a <= b)

    def either(self, a: Number, b: Number) -> Number:
        return float(bool(a) or bool(b))


PLAIN: Final[Terms[Number]] = _Plain()


def seconds_for(t: Terms[T], move_seconds: T, game_seconds: T, bank: T, deadline: T) -> T:
    """The seconds a decision has: the clock's per decision; else what the seat's game clock
    holds (the whole game's while it was never charged); else the site's ``deadline``."""
    return t.first(move_seconds, t.if_set(game_seconds, t.first(bank, game_seconds)), deadline)


def out_of_time(t: Terms[T], away: T, since: T, seconds: T, now: T) -> T:
    """Whether the person to move must be decided for at ``now``: they are away (a stand-in
    decides at the table's pace), or ``seconds`` have passed ``since`` the decision became due
    (unknown ``since``: it became due now)."""
    return t.either(away, t.at_most(t.plus(t.first(since, now), seconds), now))


def _elapsed(since: datetime | None, now: datetime) -> float:
    """Seconds from ``since`` to ``now`` (none before ``since``, none when it is unknown)."""
    return 0.0 if since is None else max(0.0, (now - since).total_seconds())


@dataclass(frozen=True)
class Clock:
    """A table's clock as it was agreed: seconds per decision, or per game with an increment,
    or none (then the site's :attr:`deadline` per decision); and its time-out rule."""

    move_seconds: int | None = None
    game_seconds: int | None = None
    increment: int = 0
    on_timeout: str = "stand_in"
    """One of :data:`ON_TIMEOUT`."""
    deadline: float = MOVE_DEADLINE

    def __post_init__(self) -> None:
        if self.on_timeout not in ON_TIMEOUT:
            rules = ", ".join(ON_TIMEOUT)
            raise ValueError(f"unknown timeout rule {self.on_timeout!r}; the rules are {rules}")
        if self.move_seconds is not None and self.game_seconds is not None:
            raise ValueError("a clock runs per decision or per game, not both")

    @property
    def clocked(self) -> bool:
        """Whether the table has a clock (per decision or per game)."""
        return self.move_seconds is not None or self.game_seconds is not None

    @property
    def per_game(self) -> bool:
        return self.game_seconds is not None

    def allowed(self, bank: float | None) -> float | None:
        """The seconds the decision now due had on the clock (None: no clock); ``bank``: the
        seat's game clock when it became due (None: never charged)."""
        if not self.clocked:
            return None
        return self.time_for(bank)

    def time_for(self, bank: float | None) -> float:
        """The seconds the decision now due has: the clock's, or the site's deadline."""
        seconds = seconds_for(PLAIN, _num(self.move_seconds), _num(self.game_seconds), bank, self.deadline)
        assert seconds is not None  # the deadline is always set
        return seconds

    def time_left(self, bank: float | None, since: datetime | None, now: datetime) -> float:
        """The seconds the person to move has left at ``now`` (the decision became due ``since``)."""
        return max(0.0, self.time_for(bank) - _elapsed(since, now))

    def left(self, bank: float | None, since: datetime | None, now: datetime) -> float | None:
        """What the person to move sees on the clock at ``now`` (None: no clock, or not known
        when the decision became due)."""
        if not self.clocked or since is None:
            return None
        return self.time_left(bank, since, now)

    def is_out(self, bank: float | None, away: bool, since: datetime | None, now: datetime) -> bool:
        """Whether the person to move must be decided for at ``now`` (:func:`out_of_time`)."""
        seconds = self.time_for(bank)
        due = out_of_time(PLAIN, float(away), _moment(since), seconds, now.timestamp())
        return bool(due)

    def charged(self, bank: float | None, since: datetime | None, now: datetime) -> float | None:
        """Under a game clock, the seat's clock after its decision at ``now``: what it had, less
        the time taken, plus the increment (None: no game clock, nothing to charge)."""
        if not self.per_game:
            return None
        return round(self.time_left(bank, since, now) + self.increment, 3)

    def back(self, bank: float | None) -> float | None:
        """Under a game clock, the seat's clock when its person comes back: what it had plus
        the increment, never more (a clock that ran out stays run out)."""
        if not self.per_game:
            return None
        return self.time_for(bank) + self.increment

    def shown(self, bank: float | None, running: bool, since: datetime | None, now: datetime) -> float | None:
        """A seat's game clock as the lobby and the table show it at ``now`` (``running``: it
        is the seat to move and present, so its clock runs down); None without a game clock."""
        if not self.per_game:
            return None
        seconds = self.time_left(bank, since, now) if running else self.time_for(bank)
        return round(seconds, 1)

    def forfeits(self, stood_in_before: bool) -> bool:
        """Whether a seat out of time now forfeits: at a forfeit table; at a "second" table once
        a stand-in has already decided for it; at a table without a clock (the site's
        deadline) always.  Otherwise a stand-in decides for it until it is back."""
        if self.on_timeout == "forfeit" or not self.clocked:
            return True
        return self.on_timeout == "second" and stood_in_before


def _num(seconds: int | None) -> float | None:
    return None if seconds is None else float(seconds)


def _moment(t: datetime | None) -> float | None:
    return None if t is None else t.timestamp()


__all__ = ["MOVE_DEADLINE", "ON_TIMEOUT", "PLAIN", "Clock", "Terms", "out_of_time", "seconds_for"]
