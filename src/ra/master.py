"""The game master's language: what may happen at a table (*intents*) and what a front end must
do about it (*effects*) — boardgame.io's ``Master`` made pure.

:meth:`ra.table.Table.step` takes an intent and the moment it happens and returns the table after
it (a new one: the old stays as it was, so a front end that cannot store the decision keeps
playing on the old) and the effects, in the order a front end carries them out: first what must
be stored (:class:`StoreDecision`, :class:`TakeBackStored`, :class:`ChargeClock`,
:class:`StoreForfeit`), then what everyone must be told (:class:`Broadcast`, :class:`Undone`,
:class:`GameOver`, :class:`TurnOf`), then what comes next (:class:`NextTurn`: a bot's search, a
stand-in's clock).  A refused intent raises :class:`RefusedError` with a code and the reason, and
changes nothing.  The web's :class:`ra.web.hub.Room` is an interpreter of these effects over its
sockets and database.

Hints are intents too (:class:`AskHint`, :class:`HintAnswered`, :class:`HintFailed`,
:class:`PageGone`), with their effects (:class:`StartHint`, :class:`CancelHint`,
:class:`SendHint`, :class:`HintFailedFor`): the table keeps at most one hint in flight per seat,
and a step that makes it stale (its decision past, its seat away or forfeited, nobody left
waiting) cancels it.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from datetime import datetime
from typing import Generic, Literal, TypeVar

from ra.errors import RaError
from ra.words import Msg

HintT = TypeVar("HintT")

HintKey = tuple[int, tuple[str, ...]]
"""A hint's position: the seat and the whole decision history (:meth:`ra.table.Table.hint_key`)."""

By = Literal["person", "bot", "stand_in"]
"""Who took a decision: the seat's person, the seat's bot, or a stand-in bot for the absent person."""


# --- intents ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Decide:
    """``seat`` takes ``action`` as decision ``n`` (``by``: who decided it)."""

    seat: int
    action: str
    n: int
    by: By = "person"


@dataclass(frozen=True)
class TakeBack:
    """``seat``'s person asks to take back their last decision (the game is at decision ``n``)."""

    seat: int
    n: int


@dataclass(frozen=True)
class Forfeit:
    """``seat``'s time ran out for good: a bot plays it to the end, it ranks last."""

    seat: int


@dataclass(frozen=True)
class TimeOut:
    """The clock of ``seat`` ran out on decision ``n`` (for a seat away: its stand-in's pace)."""

    seat: int
    n: int


@dataclass(frozen=True)
class Leave:
    """``seat``'s person is away: a stand-in decides for it (at the table's pace) until it is back."""

    seat: int


@dataclass(frozen=True)
class Back:
    """``seat``'s person is back (``bank``: its game clock as stored, None if never charged)."""

    seat: int
    bank: float | None = None


@dataclass(frozen=True)
class AskHint:
    """``asker`` (a page, a panel: anything hashable) asks for the hint of ``seat``, to move at
    decision ``n``."""

    seat: int
    n: int
    asker: Hashable


@dataclass(frozen=True)
class HintAnswered(Generic[HintT]):
    """The search for the hint of ``key`` found ``answer``."""

    key: HintKey
    answer: HintT


@dataclass(frozen=True)
class HintFailed:
    """The search for the hint of ``key`` ended without an answer (``error``: it failed; else it
    was stopped, and nobody is told)."""

    key: HintKey
    error: bool = False


@dataclass(frozen=True)
class PageGone:
    """``asker`` is gone (its page closed): the hints it waited for may not be wanted any more."""

    asker: Hashable


@dataclass(frozen=True)
class HintAsk:
    """The hint in flight for one seat: its position and who waits for it (the table's fact)."""

    key: HintKey
    askers: frozenset[Hashable]


HintIntent = AskHint | HintFailed | PageGone
"""The hint intents that carry no answer (:class:`HintAnswered` carries the table's hint type)."""
Intent = Decide | TakeBack | Forfeit | TimeOut | Leave | Back | HintIntent


# --- effects ---------------------------------------------------------------------------


@dataclass(frozen=True)
class StoreDecision:
    """Store decision ``n`` (``stand_in``: a stand-in took it) before anyone is told of it."""

    n: int
    seat: int
    action: str
    stand_in: bool


@dataclass(frozen=True)
class TakeBackStored:
    """Take the stored decisions back from ``n`` to ``keep`` (the game was at ``n``)."""

    n: int
    keep: int


@dataclass(frozen=True)
class ChargeClock:
    """Charge ``seat``'s clock for the decision it took ``at`` (under a game clock)."""

    seat: int
    at: datetime


@dataclass(frozen=True)
class StoreForfeit:
    """Store that ``seat`` forfeited (it is played by a bot to the end and ranks last)."""

    seat: int


@dataclass(frozen=True)
class SpendClock:
    """``seat``'s game clock ran out: store it spent (coming back gives only the increment)."""

    seat: int


@dataclass(frozen=True)
class StoreAway:
    """Store ``seat`` away or back; ``restart_turn``: its decision now due starts its clock again;
    ``bank``: its game clock now (None: unchanged)."""

    seat: int
    away: bool
    restart_turn: bool = False
    bank: float | None = None


@dataclass(frozen=True)
class Broadcast:
    """Send everyone at the table their view (``floor``: from that log entry on, after an undo)."""

    floor: int | None = None


@dataclass(frozen=True)
class Undone:
    """Tell everyone that ``seat`` took ``action`` back (the game is at decision ``n`` again)."""

    seat: int
    action: str
    n: int


@dataclass(frozen=True)
class GameOver:
    """The game is over: its result may be recorded and rated."""


@dataclass(frozen=True)
class TurnOf:
    """It is ``seat``'s turn now (a person by turns may be mailed)."""

    seat: int


@dataclass(frozen=True)
class NextTurn:
    """Start whatever the next decision needs: a bot's search, or a person's clock."""


@dataclass(frozen=True)
class StandIn:
    """Let a stand-in bot of ``level`` take decision ``n`` for the absent person in ``seat``."""

    seat: int
    n: int
    level: str


@dataclass(frozen=True)
class MarkAway:
    """Mark ``seat`` away once its stand-in has decided (a bot decides for it until it is back)."""

    seat: int


@dataclass(frozen=True)
class StartHint:
    """Start the search for the hint of ``key`` (:meth:`ra.table.Table.hint_job` for its seat);
    its end is an intent: :class:`HintAnswered` or :class:`HintFailed`."""

    key: HintKey


@dataclass(frozen=True)
class CancelHint:
    """Stop the search for the hint of ``key``: its decision is past, its seat away, a newer
    one replaces it, or nobody waits for it."""

    key: HintKey


@dataclass(frozen=True)
class SendHint:
    """Send ``asker`` the hint of ``key`` (in the table's hint cache)."""

    asker: Hashable
    key: HintKey


@dataclass(frozen=True)
class HintFailedFor:
    """Tell ``asker`` that its hint failed (it may ask again)."""

    asker: Hashable


Hinted = StartHint | CancelHint | SendHint | HintFailedFor
"""The effects of the hint lifecycle (carried out in their order, after what is stored)."""
Stored = StoreDecision | TakeBackStored | ChargeClock | SpendClock | StoreForfeit | StoreAway
"""The effects a front end carries out before it plays on with the new table."""
Told = Broadcast | Undone | GameOver | TurnOf | NextTurn
"""The effects it carries out then, in their order."""
Later = StandIn | MarkAway
"""The effects that come after the table has played on: a stand-in's decision is an intent of
its own (:class:`Decide`), and only then is its seat marked away."""
Effect = Stored | Told | Later | Hinted


class RefusedError(RaError):
    """An intent the master refuses: ``code`` says which rule (``over``, ``stale``,
    ``not_your_turn``, ``forfeited``, ``illegal``, ``not_allowed``, ``no_hints``), the text why, and ``why``
    the reason as a catalogue message when there is one."""

    def __init__(self, code: str, text: str, why: Msg | None = None) -> None:
        super().__init__(text)
        self.code = code
        self.why = why


__all__ = [
    "AskHint",
    "Back",
    "Broadcast",
    "By",
    "CancelHint",
    "ChargeClock",
    "Decide",
    "Effect",
    "Forfeit",
    "GameOver",
    "HintAnswered",
    "HintAsk",
    "HintFailed",
    "HintFailedFor",
    "HintIntent",
    "HintKey",
    "Hinted",
    "Intent",
    "Later",
    "Leave",
    "MarkAway",
    "NextTurn",
    "PageGone",
    "RefusedError",
    "SendHint",
    "SpendClock",
    "StandIn",
    "StartHint",
    "StoreAway",
    "StoreDecision",
    "StoreForfeit",
    "Stored",
    "TakeBack",
    "TakeBackStored",
    "TimeOut",
    "Told",
    "TurnOf",
    "Undone",
]
