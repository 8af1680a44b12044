"""A table: one game with its seats, its options and the policies every front end shares.

The engine knows the rules; a *table* knows who sits where (a person, or a bot with
its level), what the table agreed on (hints, the bots' pace, the edition's names),
who may take a decision back (:data:`UNDO_RULE`), whose view a shared screen may
show (hot seat hand-over), where each epoch began, and which bot seed answers
which decision.  The terminal game (:mod:`ra.tui`) and the web server
(:mod:`ra.web`) both play through a :class:`Table`; they keep only their widgets
and keys, or their transport, persistence and locks.
"""

from __future__ import annotations

import hashlib
import random
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from ra import bots
from ra.actions import Action
from ra.bots.base import Bot
from ra.engine import Game
from ra.errors import RaError, SetupError
from ra.events import DECISION_EVENTS, Event, decision_seats, epoch_starts
from ra.setup import MAX_PLAYERS, MIN_PLAYERS
from ra.views import PlayerView
from ra.words import msg, words

HintT = TypeVar("HintT")

UNDO_POLICY = "own-last-unrevealed"
"""The one undo policy, by name (docs, tests and front ends refer to it)."""

UNDO_RULE = "only your own last decision, before any draw, scoring or other player's move"
"""The undo policy in words (every front end's refusal says it, after the reason)."""

HINT_CACHE_SIZE = 64
"""Hints kept per table (one per seat and position; an undo makes an old position current again)."""


class UndoError(RaError):
    """A decision that may not be taken back; the message says why (:data:`UNDO_RULE`)."""


def undo_refusal(reason: str) -> str:
    """A refused undo in one sentence: the reason, then the rule."""
    return f"Cannot take it back: {reason} (undo: {UNDO_RULE})."


@dataclass(frozen=True)
class Seat:
    """A seat at the table: a person (``bot is None``) or a bot spec such as ``"hard"``."""

    name: str
    bot: str | None = None

    @property
    def human(self) -> bool:
        return self.bot is None


@dataclass(frozen=True)
class TableOptions:
    """What the table agreed on when it was set up."""

    hints: bool = False
    """The people may ask for win-chance hints."""
    pace: float = 0.0
    """Seconds a bot waits before it moves, so people can follow."""
    edition: str = "original"
    """Whose tile names to show (``ra.tiles.EDITIONS``)."""
    undo: bool = True
    """Whether decisions may be taken back at all (not for imported records)."""


def check_players(n: int) -> None:
    """Raise ``ValueError`` unless Ra can be played by ``n`` players (R2.1)."""
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        why = msg("setup.players_count", low=MIN_PLAYERS, high=MAX_PLAYERS, value=str(n))
        raise SetupError(words("en").render(why), "players", why)


def default_hints(seats: Sequence[Seat]) -> bool:
    """Hints are on by default for one person against bots, off when several people play
    (then they must agree to them)."""
    return sum(s.human for s in seats) == 1


def bot_name(spec: str, taken: set[str]) -> str:
    """A bot's display name from its spec (``"hard"`` → ``"Hard bot"``, then ``"Hard bot 2"`` …)."""
    label = f"{spec.split(':', maxsplit=1)[0].capitalize()} bot"
    candidate, k = label, 1
    while candidate in taken:
        k += 1
        candidate = f"{label} {k}"
    return candidate


def bot_seed(game_seed: int, n: int) -> int:
    """The seed of the bot that takes decision ``n``: the same after a restart or a reload,
    so a game replays exactly, and a search abandoned by undo shares nothing with the next.

    Drawn from the game's seed by a hash: the bot still sees only its seat's view (R9.3).
    """
    return int.from_bytes(hashlib.sha256(f"{game_seed}:{n}".encode()).digest()[:8], "big") >> 1


class SearchCancelledError(Exception):
    """Raised inside a bot's search when the position it was asked about is gone."""


class CancellableView(PlayerView):
    """A player's view whose :meth:`determinize` stops a searching bot once ``cancel`` is set.

    Searching bots sample a game from the view for every iteration, so setting the
    event ends the search within one iteration (undo, quit).
    """

    __slots__ = ("_cancel",)

    def __init__(self, game: Game, seat: int, cancel: threading.Event) -> None:
        super().__init__(game, seat)
        self._cancel = cancel

    def determinize(self, seed: int | None = None, rng: random.Random | None = None) -> Game:
        if self._cancel.is_set():
            raise SearchCancelledError
        return super().determinize(seed=seed, rng=rng)


class HintCache(Generic[HintT]):
    """Hints by seat and the whole decision history (after an undo, decision *n* may be
    another position, which must not get the old hint); the oldest go first."""

    def __init__(self, size: int = HINT_CACHE_SIZE) -> None:
        self._size = size
        self._items: OrderedDict[tuple[int, tuple[str, ...]], HintT] = OrderedDict()

    def get(self, key: tuple[int, tuple[str, ...]]) -> HintT | None:
        return self._items.get(key)

    def put(self, key: tuple[int, tuple[str, ...]], value: HintT) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self._size:
            self._items.popitem(last=False)

    def discard(self, key: tuple[int, tuple[str, ...]]) -> None:
        self._items.pop(key, None)

    def __len__(self) -> int:
        return len(self._items)


class Table(Generic[HintT]):
    """A game in progress with its seats and options; the policies above the rules."""

    def __init__(self, game: Game, seats: Sequence[Seat], options: TableOptions | None = None) -> None:
        if len(seats) != game.num_players:
            raise ValueError(f"{len(seats)} seats for a {game.num_players}-player game")
        self.game = game
        self.seats = list(seats)
        self.options = options or TableOptions(hints=default_hints(self.seats))
        self.hint_cache: HintCache[HintT] = HintCache()
        self._shown: int | None = None  # the seat whose view a shared screen last showed

    # --- who sits where ------------------------------------------------------------

    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.human]

    def is_human(self, seat: int | None) -> bool:
        return seat is not None and self.seats[seat].human

    def human_to_move(self) -> bool:
        return self.is_human(self.game.to_move)

    def bot_to_move(self) -> int | None:
        """The bot's seat if a bot is to move (and the game goes on), else None."""
        seat = self.game.to_move
        return None if seat is None or self.is_human(seat) else seat

    @property
    def movers(self) -> list[int]:
        """The seat that took each decision, in order."""
        return decision_seats(self.game.events)

    def perspective(self) -> int:
        """The seat whose view a shared screen shows: the person to move, else the last person
        who moved, else the first person (or seat 0 at a table of bots)."""
        if self.human_to_move():
            assert self.game.to_move is not None
            return self.game.to_move
        for seat in reversed(self.movers):
            if self.seats[seat].human:
                return seat
        return self.humans[0] if self.humans else 0

    # --- hot seat --------------------------------------------------------------------

    def handover(self) -> int | None:
        """The person who must take the screen before it may show their view, or None.

        At a table where several people share one screen, the view of the person to move
        must not appear while the previous person still looks (R9.1 under hidden scores,
        and their plans in any case): the front end shows a hand-over screen until
        :meth:`hand_over` is called.
        """
        if len(self.humans) < 2 or not self.human_to_move() or self.game.is_over():
            return None
        seat = self.game.to_move
        return seat if seat != self._shown else None

    def hand_over(self) -> None:
        """The person to move has the screen now (see :meth:`handover`)."""
        self._shown = self.perspective()

    def showing(self, seat: int) -> None:
        """Note that a shared screen shows ``seat``'s view (after a hand-over, or at the start)."""
        self._shown = seat

    # --- decisions -------------------------------------------------------------------

    def check(self, seat: int, action: Action | str) -> Action:
        """``action`` parsed and checked for ``seat`` to take now (raises the engine's errors)."""
        game = self.game
        if game.to_move != seat:
            who = game.names[game.to_move] if game.to_move is not None else "nobody"
            raise ValueError(f"it is {who}'s turn, not {game.names[seat]}'s")
        parsed = action if isinstance(action, Action) else Action.parse(action)
        why = game.why_illegal_message(parsed)
        if why is not None:
            from ra.errors import IllegalActionError

            raise IllegalActionError(game.say(why), why)
        return parsed

    def apply(self, action: Action | str) -> None:
        """Apply the decision of the player to move (raises the engine's errors unchanged)."""
        self.game.apply(action)

    # --- undo (one policy: UNDO_RULE) ---------------------------------------------

    def why_no_undo(self, seat: int | None) -> str | None:
        """Why ``seat`` may not take a decision back now, in a few words (None: it may)."""
        game = self.game
        if seat is None:
            return "spectators cannot take decisions back"
        if not self.options.undo:
            return "decisions cannot be taken back at this table"
        if game.is_over():
            return "the game is over"
        events = game.events
        last = _last_decision(events)
        if last is None:
            return "there is no decision to take back"
        decision = events[last]
        if decision.seat != seat:
            return f"{game.names[decision.seat or 0]} decided last"
        if decision.kind == "draw":
            return "a tile was drawn"
        if any(e.kind == "epoch_end" for e in events[last:]):
            return "an epoch was scored"
        return None

    def can_undo(self, seat: int | None) -> bool:
        return self.why_no_undo(seat) is None

    def undo(self, seat: int | None) -> Action:
        """Take back ``seat``'s last decision; :class:`UndoError` with the reason if it may not."""
        reason = self.why_no_undo(seat)
        if reason is not None:
            raise UndoError(undo_refusal(reason))
        return self.game.undo()

    # --- bots ----------------------------------------------------------------------------

    def bot_seed(self, n: int | None = None) -> int:
        """The seed of the bot that takes decision ``n`` (default: the next one)."""
        return bot_seed(self.game.setup.seed, self.game.num_decisions if n is None else n)

    def bot(self, seat: int) -> Bot:
        """A fresh bot for ``seat``'s next decision (:func:`bot_seed`): the same position
        always gets the same answer."""
        spec = self.seats[seat].bot
        if spec is None:
            raise ValueError(f"seat {seat} is a person, not a bot")
        return bots.from_spec(spec, seed=self.bot_seed())

    def bot_view(self, seat: int, cancel: threading.Event) -> CancellableView:
        """What the bot in ``seat`` sees, with a switch that stops its search."""
        return CancellableView(self.game, seat, cancel)

    # --- hints, epochs, records ------------------------------------------------------

    def hint_key(self, seat: int) -> tuple[int, tuple[str, ...]]:
        """The hint cache's key for ``seat`` at the current position."""
        return (seat, tuple(str(a) for a in self.game.decisions))

    def epoch_starts(self) -> list[tuple[int, int]]:
        """``(epoch, decisions before it)`` for each epoch reached (from the engine's log)."""
        return epoch_starts(self.game.events)

    def view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may see (``None``: a spectator) — the engine's R9 gate."""
        return self.game.view(seat)


def _last_decision(events: Sequence[Event]) -> int | None:
    """The index in ``events`` of the last decision's event."""
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if e.kind in DECISION_EVENTS and not e.auto:
            return i
    return None
