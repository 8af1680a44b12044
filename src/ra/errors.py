"""Exceptions raised by the library."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ra.words import Msg


class RaError(Exception):
    """Base class of the library's own errors."""


class IllegalActionError(RaError, ValueError):
    """An action that the rules do not allow now.  The message cites the rule; the game is unchanged.

    ``why`` is the same reason as a message (:class:`ra.words.Msg`) that any front end renders
    in its own language."""

    def __init__(self, message: str, why: Msg | None = None) -> None:
        super().__init__(message)
        self.why = why


class SetupError(RaError, ValueError):
    """Arguments that do not make a game of Ra (R2).  ``option`` names the argument at fault
    (``"variant"``, ``"suns_per_player"`` …) so each front end can name it in its own terms
    (``--suns-per-player`` on the command line, a form field in the browser)."""

    def __init__(self, message: str, option: str | None = None, why: Msg | None = None) -> None:
        super().__init__(message)
        self.option = option
        self.why = why


class NotationError(RaError, ValueError):
    """Text that is not an action in the notation (``draw``, ``ra``, ``god <tile>``, ``bid <sun>`` …)."""


class SeatError(RaError, ValueError, IndexError):
    """A seat that is not an integer from 0 to the number of players - 1 (``view``, ``player``).

    A ``ValueError``; also an ``IndexError`` for code written against earlier versions.
    """


class NothingToUndoError(RaError, IndexError):
    """``undo()`` on a game with no decision to take back (an ``IndexError``, like python-chess's ``pop``)."""


class RecordError(RaError, ValueError):
    """A game record that cannot be loaded.

    ``index`` is the 1-based number of the offending decision, or ``None`` when
    the record's setup (not a decision) is at fault.
    """

    def __init__(self, message: str, index: int | None = None, why: Msg | None = None) -> None:
        super().__init__(message)
        self.index = index
        self.why = why


class EventLogOffError(RaError, RuntimeError):
    """Reading ``events`` of a game that keeps no event log (``Game(events=False)``,
    ``stop_events()``: search and training games)."""
