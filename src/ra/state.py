"""The game state: flat fields for speed, read-only accessors for people.

Layout (chosen for fast ``clone()``, see ``shared/ENGINE-NOTES.md``):

* displays are one list of 23 tile counts per player, indexed by :class:`Tile`;
* a player's face-up and face-down suns are bitmasks (bit ``s`` = sun ``s``), so
  "highest sun" and "can beat the bid" are single integer operations;
* the event log and the decision list are persistent linked tuples
  ``(previous, entry)``: appending is one small tuple and a clone shares the
  whole history for free; ``events`` and ``decisions`` flatten them once and
  cache the result (pickling and deep copies store them flat).

:class:`State` holds the fields, the read API and the legality rules shared by
:class:`ra.Game` and :class:`ra.PlayerView` (``legal_actions``, ``is_legal``,
``why_illegal`` and the predicates ``apply`` checks); what happens when a
decision is applied lives in :mod:`ra.engine`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Final, Literal, cast, get_args

from ra.actions import (
    BID_BY_SUN,
    DISCARD_BY_TILE,
    DONE_ACTION,
    DRAW_ACTION,
    GOD_BY_TILE,
    INVOKE_ACTION,
    NUM_ACTIONS,
    PASS_ACTION,
    Action,
)
from ra.errors import EventLogOffError, IllegalActionError, SeatError
from ra.events import AUCTION_KINDS, AuctionKind, Event, materialize, you_seat
from ra.position import BreakdownRow, Position
from ra.scoring import ScoreBreakdown
from ra.setup import AUCTION_TRACK_SIZE, EPOCHS, Bag, Setup
from ra.tiles import MAX_SUN, T_CIVS, T_GOD, T_MONUMENTS, TILE_IDS, TILES, Tile
from ra.words import Msg, Seat, msg, words

Phase = Literal["action", "bid", "god", "discard", "over"]
"""What the player to move decides: a turn action, a bid, a God-tile take, a disaster discard."""
PHASES: Final[tuple[str, ...]] = get_args(Phase)

# The engine's integer phase codes (``PHASE_NAMES[code]`` is the name).  Whether the
# player may draw (R3.2) is decided once, when the turn begins: PHASE_ACTION allows
# it, PHASE_ACTION_NO_DRAW does not (both are the "action" phase).
PHASE_ACTION: Final = 0
PHASE_BID: Final = 1
PHASE_GOD: Final = 2
PHASE_DISCARD: Final = 3
PHASE_OVER: Final = 4
PHASE_ACTION_NO_DRAW: Final = 5
PHASE_NAMES: Final[tuple[str, ...]] = (*PHASES, "action")

# The engine's integer auction codes (``AUCTION_KINDS[code]`` is the name, R3.3, R3.4).
DRAWN: Final = 0
VOLUNTARY: Final = 1
FORCED: Final = 2

__all__ = [
    "AUCTION_KINDS",
    "AUCTION_TRACK_SIZE",
    "EPOCHS",
    "PHASES",
    "AuctionState",
    "Phase",
    "PlayerState",
    "State",
]


def sun_list(mask: int) -> tuple[int, ...]:
    """The sun numbers in a bitmask, lowest first.

    >>> sun_list(0b10100)
    (2, 4)
    """
    out = []
    s = 0
    while mask:
        if mask & 1:
            out.append(s)
        mask >>= 1
        s += 1
    return tuple(out)


def sun_mask(suns: tuple[int, ...] | list[int]) -> int:
    """The bitmask of some sun numbers."""
    m = 0
    for s in suns:
        m |= 1 << s
    return m


def sun_total(mask: int) -> int:
    """The sum of the sun numbers in a bitmask (R7.3 sun scoring)."""
    return sum(sun_list(mask))


def history(chain: tuple[Any, Any] | None) -> list[Any]:
    """The entries of a linked ``(previous, entry)`` chain, oldest first."""
    out = []
    while chain is not None:
        chain, entry = chain
        out.append(entry)
    out.reverse()
    return out


def _extend(
    chain: tuple[Any, Any] | None, cache: tuple[Any, tuple[Any, ...]] | None, events: bool = False
) -> tuple[Any, ...]:
    """The entries of ``chain``, reusing ``cache`` (an earlier ``(chain, entries)``) when it is
    a prefix; ``events`` materializes log entries (:func:`ra.events.materialize`)."""
    stop = cache[0] if cache is not None else None
    new = []
    node = chain
    while node is not None and node is not stop:
        node, entry = node
        new.append(entry)
    new.reverse()
    if events:
        new = [materialize(e) for e in new]
    if node is None or cache is None:
        return tuple(new)
    return cache[1] + tuple(new)


_copy_list: Final = list.copy

ABOVE: Final[tuple[int, ...]] = tuple(~((2 << high) - 1) for high in range(MAX_SUN + 1))
"""R4.2: ``ABOVE[high]`` is the bitmask of the suns a bid must come from when the
current bid is ``high`` (0 before any bid): every sun strictly higher."""

# Cached bid lists, keyed by the bitmask of the bidder's suns above the current bid.
_BIDS_AND_PASS: dict[int, tuple[Action, ...]] = {}
_BIDS_ONLY: dict[int, tuple[Action, ...]] = {}


def _bid_actions(mask: int, with_pass: bool) -> tuple[Action, ...]:
    bids = tuple(BID_BY_SUN[s] for s in sun_list(mask))
    out = (*bids, PASS_ACTION) if with_pass else bids
    (_BIDS_AND_PASS if with_pass else _BIDS_ONLY)[mask] = out
    return out


@dataclass(frozen=True, slots=True)
class PlayerState:
    """A snapshot of one player: suns, display and score.

    ``score`` is ``None`` when it is hidden from the viewer (R9.1, hidden scores).
    """

    seat: int
    name: str
    suns: tuple[int, ...]
    """Face-up suns, lowest first (usable for bids, R4.2)."""
    used_suns: tuple[int, ...]
    """Face-down suns won this epoch (usable from the next epoch, R4.4)."""
    tiles: Counter[str]
    """Tile identifier -> count in the display (missing kinds count 0)."""
    score: int | None

    @property
    def all_suns(self) -> tuple[int, ...]:
        return tuple(sorted(self.suns + self.used_suns))


@dataclass(frozen=True, slots=True)
class AuctionState:
    """The auction under way (R4)."""

    kind: AuctionKind
    """"drawn", "voluntary" or "forced" (R3.3, R3.4)."""
    ra_player: int
    high_bid: int | None
    high_bidder: int | None
    bidder: int
    """The seat whose bid it is."""
    must_bid: bool
    """True when the bidder invoked Ra and everyone else passed (R4.3)."""


class State:
    """Fields, legality and read-only accessors of a game position (see the module doc).

    The rules that say what may be done now (``legal_actions``, ``is_legal``,
    ``why_illegal`` and the predicates they share) live here, once: the engine's
    ``apply`` checks the same predicates, and a :class:`ra.PlayerView` answers
    the same questions.
    """

    __slots__ = (
        "_setup",
        "_bag",
        "_n",
        "_ra_end",
        "_displays",
        "_suns",
        "_used",
        "_scores",
        "_center",
        "_ra",
        "_track",
        "_drawn",
        "_bag_size",
        "_unseen",
        "_box",
        "_epoch",
        "_phase",
        "_to_move",
        "_ra_player",
        "_auction_kind",
        "_high",
        "_high_bidder",
        "_must_bid",
        "_unrest_left",
        "_quake_left",
        "_after_discard",
        "_pending",
        "_log",
        "_logging",
        "_decisions",
        "_num_decisions",
        "_breakdowns",
        "_marks",
        "_log_cache",
        "_decisions_cache",
    )

    _setup: Setup
    _bag: Bag | None
    _n: int
    _ra_end: int
    _displays: list[list[int]]
    _suns: list[int]
    _used: list[int]
    _scores: list[int]
    _center: int
    _ra: int
    _track: list[int]
    _drawn: int
    _bag_size: int
    _unseen: list[int]
    _box: list[int]
    _epoch: int
    _phase: int
    _to_move: int
    _ra_player: int
    _auction_kind: int
    _high: int
    _high_bidder: int
    _must_bid: bool
    _unrest_left: int
    _quake_left: int
    _after_discard: int
    _pending: tuple[int, ...]
    """R3.5, "2008 disaster timing": the Disasters taken with God tiles this turn and not yet
    resolved, in the order taken (always empty with the default timing)."""
    _log: tuple[Any, Any] | None
    _logging: bool
    """Whether decisions add to ``_log`` (False: no event log, see ``Game.stop_events``)."""
    _decisions: tuple[Any, Any] | None
    _num_decisions: int
    _breakdowns: tuple[tuple[tuple[int, int, tuple[int, ...], int, int] | None, ...], ...]
    """Per finished epoch, per seat: (epoch, seat, points by category, before, after)."""
    _marks: tuple[Any, ...] | None
    _log_cache: tuple[Any, tuple[Event, ...]] | None  # may be unset (see events)
    _decisions_cache: tuple[Any, tuple[Action, ...]] | None  # may be unset

    def _copy_to(self, new: State) -> None:
        """Copy every field into ``new`` (lists copied, history shared)."""
        new._setup = self._setup
        new._bag = self._bag
        new._n = self._n
        new._ra_end = self._ra_end
        new._displays = [*map(_copy_list, self._displays)]
        new._suns = self._suns[:]
        new._used = self._used[:]
        new._scores = self._scores[:]
        new._center = self._center
        new._ra = self._ra
        new._track = self._track[:]
        new._drawn = self._drawn
        new._bag_size = self._bag_size
        new._unseen = self._unseen[:]
        new._box = self._box[:]
        new._epoch = self._epoch
        new._phase = self._phase
        new._to_move = self._to_move
        new._ra_player = self._ra_player
        new._auction_kind = self._auction_kind
        new._high = self._high
        new._high_bidder = self._high_bidder
        new._must_bid = self._must_bid
        new._unrest_left = self._unrest_left
        new._quake_left = self._quake_left
        new._after_discard = self._after_discard
        new._pending = self._pending
        new._log = self._log
        new._logging = self._logging
        new._decisions = self._decisions
        new._num_decisions = self._num_decisions
        new._breakdowns = self._breakdowns
        new._marks = self._marks
        # The history caches are not copied (a clone rebuilds them on first read).

    # --- pickling and deep copies (the linked histories would recurse) -------------

    def __getstate__(self) -> dict[str, Any]:
        state = {}
        for cls in type(self).__mro__:
            for name in getattr(cls, "__slots__", ()):
                if hasattr(self, name):
                    state[name] = getattr(self, name)
        state["_log"] = list(self.events) if self._logging else []
        state["_decisions"] = history(self._decisions)
        state["_marks"] = None  # undo checkpoints are a cache, rebuilt on demand
        state["_log_cache"] = None
        state["_decisions_cache"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        object.__setattr__(self, "_logging", True)  # pickles made before the flag existed
        object.__setattr__(self, "_pending", ())  # pickles made before the 2008 timing (R3.5)
        for name, value in state.items():
            if name in ("_log", "_decisions"):
                chain: tuple[Any, Any] | None = None
                for entry in value:
                    chain = (chain, entry)
                value = chain
            object.__setattr__(self, name, value)

    # --- setup -----------------------------------------------------------------

    @property
    def setup(self) -> Setup:
        """What fixed the game before its first decision (R9.2)."""
        return self._setup

    @property
    def num_players(self) -> int:
        return self._n

    @property
    def names(self) -> tuple[str, ...]:
        return self._setup.names

    @property
    def hidden_scores(self) -> bool:
        return self._setup.hidden_scores

    @property
    def disaster_timing(self) -> str:
        """R3.5: ``"immediate"`` (the default) or ``"2008"`` (the "2008 disaster timing" variant)."""
        return self._setup.disaster_timing

    # --- where the game stands -------------------------------------------------

    @property
    def epoch(self) -> int:
        """1, 2 or 3."""
        return self._epoch

    @property
    def phase(self) -> Phase:
        """ "action", "bid", "god", "discard" or "over" (see :data:`Phase`)."""
        return cast("Phase", PHASE_NAMES[self._phase])

    @property
    def to_move(self) -> int | None:
        """The seat that must decide now; ``None`` once the game is over."""
        return None if self._phase == PHASE_OVER else self._to_move

    def is_over(self) -> bool:
        return self._phase == PHASE_OVER

    @property
    def center_sun(self) -> int:
        """The sun in the centre, won with the next auction (R4.4)."""
        return self._center

    @property
    def ra_count(self) -> int:
        """How many Ra tiles are on the Ra track (an int; see :attr:`ra_track_length`)."""
        return self._ra

    @property
    def ra_track(self) -> int:
        """Deprecated alias of :attr:`ra_count` (the Ra track's tile count)."""
        return self._ra

    @property
    def ra_track_length(self) -> int:
        """How many Ra tiles end the epoch (R2.2)."""
        return self._ra_end

    @property
    def auction_track(self) -> list[str]:
        """The identifiers of the tiles on the auction track, oldest first."""
        return [TILE_IDS[t] for t in self._track]

    @property
    def auction_tiles(self) -> tuple[Tile, ...]:
        """The tiles on the auction track as :class:`Tile` values, oldest first."""
        return tuple([TILES[t] for t in self._track])

    @property
    def tiles_in_bag(self) -> int:
        """How many tiles are left in the bag (public; their order is not)."""
        return self._bag_size - self._drawn

    @property
    def auction(self) -> AuctionState | None:
        """The auction under way, or ``None``."""
        if self._phase != PHASE_BID:
            return None
        return AuctionState(
            kind=cast("AuctionKind", AUCTION_KINDS[self._auction_kind]),
            ra_player=self._ra_player,
            high_bid=self._high or None,
            high_bidder=self._high_bidder if self._high_bidder >= 0 else None,
            bidder=self._to_move,
            must_bid=self._must_bid,
        )

    @property
    def pending_disaster(self) -> str | None:
        """In the discard phase: ``"unrest"`` or ``"earthquake"``, the disaster being resolved."""
        if self._phase != PHASE_DISCARD:
            return None
        return "unrest" if self._unrest_left else "earthquake"

    @property
    def pending_disasters(self) -> tuple[str, ...]:
        """R3.5, "2008 disaster timing": the Disasters taken with God tiles this turn that are
        still to be resolved, in the order taken (identifiers; empty with the default timing).
        They lie with the player's display but are not part of it (not in ``player().tiles``)."""
        return tuple([TILE_IDS[t] for t in self._pending])

    @property
    def discards_left(self) -> int:
        """In the discard phase: tiles still to lose to the disaster being resolved."""
        if self._phase != PHASE_DISCARD:
            return 0
        return self._unrest_left or self._quake_left

    # --- legality: the one definition of what may be done now ---------------------

    def _can_draw(self) -> bool:
        """R3.2: the auction track holds fewer than 8 tiles and the bag is not empty."""
        return len(self._track) < AUCTION_TRACK_SIZE and self._drawn < self._bag_size

    def _can_use_god(self, p: int) -> bool:
        """R3.2: ``p`` holds a God tile and the track holds a tile that is not a God."""
        if self._displays[p][T_GOD]:
            for t in self._track:
                if t != T_GOD:
                    return True
        return False

    def _can_take(self, p: int, tile: int) -> bool:
        """R3.5: ``p`` holds a God tile and ``tile`` (never a God) lies on the auction track."""
        return tile != T_GOD and bool(self._displays[p][T_GOD]) and tile in self._track

    def _bid_mask(self, p: int) -> int:
        """R4.2: the face-up suns of ``p`` strictly higher than the current bid, as a bitmask."""
        return self._suns[p] & ABOVE[self._high]

    def _discard_kinds(self) -> tuple[int, ...]:
        """R5.2: the kinds the disaster being resolved destroys (Unrest before Earthquake)."""
        return T_CIVS if self._unrest_left else T_MONUMENTS

    def _god_takes(self) -> list[Action]:
        # R3.5: one God tile takes any non-God tile of the auction track.
        return [GOD_BY_TILE[t] for t in sorted(set(self._track)) if t != T_GOD]

    def legal_actions(self) -> list[Action]:
        """Every action the player to move may take now (empty once the game is over)."""
        phase = self._phase
        if phase == PHASE_BID:
            mask = self._suns[self._to_move] & ABOVE[self._high]  # _bid_mask, inlined
            if self._must_bid:
                return list(_BIDS_ONLY.get(mask) or _bid_actions(mask, False))
            return list(_BIDS_AND_PASS.get(mask) or _bid_actions(mask, True))
        # R3.2: whether the player may draw (_can_draw) was settled when the turn began.
        if phase == PHASE_ACTION:
            out = [DRAW_ACTION, INVOKE_ACTION]
        elif phase == PHASE_ACTION_NO_DRAW:
            out = [INVOKE_ACTION]
        elif phase == PHASE_GOD:
            out = self._god_takes()
            out.append(DONE_ACTION)
            return out
        elif phase == PHASE_DISCARD:
            d = self._displays[self._to_move]
            return [DISCARD_BY_TILE[t] for t in self._discard_kinds() if d[t]]
        else:
            return []
        if self._displays[self._to_move][T_GOD]:
            out += self._god_takes()
        return out

    def is_legal(self, action: Action | str) -> bool:
        """Whether ``action`` (an :class:`Action` or its notation) may be applied now."""
        try:
            action = Action.coerce(action)
        except ValueError:
            return False
        return self._why_illegal(action) is None

    def why_illegal(self, action: Action | str) -> str | None:
        """A sentence citing the rule that forbids ``action`` now, or ``None`` if it is legal.

        Raises :class:`ra.NotationError` for text that is not an action.
        """
        return self._why_illegal(Action.coerce(action))

    def _name(self, seat: int) -> str:
        return self._setup.names[seat]

    def _why_illegal(self, action: Action) -> str | None:
        why = self._why_illegal_msg(action)
        return None if why is None else self.say(why)

    def say(self, message: Msg, lang: str = "en") -> str:
        """A message about this game in words: players by name, "you" for a player named so."""
        names = self._setup.names
        return words(lang).render(message, names, you_seat(names))

    def why_illegal_message(self, action: Action | str) -> Msg | None:
        """Why ``action`` is not allowed now, as a message any language renders (or ``None``)."""
        return self._why_illegal_msg(Action.coerce(action))

    def _why_illegal_msg(self, action: Action) -> Msg | None:
        phase = self._phase
        if phase == PHASE_OVER:
            return msg("illegal.over", action=str(action))
        if phase in (PHASE_ACTION, PHASE_ACTION_NO_DRAW):
            return self._why_not_turn_action(action)
        p = Seat(self._to_move)
        if phase == PHASE_GOD:
            if action.kind == "god":
                return self._why_not_god(action)
            return None if action.kind == "done" else msg("illegal.using_gods", action=str(action), p=p)
        if phase == PHASE_BID:
            return self._why_not_bid(action)
        return self._why_not_discard(action)

    def _why_not_turn_action(self, action: Action) -> Msg | None:
        """R3.2: draw (room on the track, tiles in the bag), invoke Ra, or use God tiles."""
        kind = action.kind
        if kind == "draw":
            if len(self._track) >= AUCTION_TRACK_SIZE:
                return msg("illegal.track_full")
            return None if self._can_draw() else msg("illegal.bag_empty")
        if kind == "ra":
            return None
        if kind == "god":
            return self._why_not_god(action)
        return msg("illegal.turn_action", action=str(action), p=Seat(self._to_move))

    def _why_not_bid(self, action: Action) -> Msg | None:
        """R4.1-R4.4: one face-up sun higher than the bid, or a pass unless one must bid."""
        p = self._to_move
        if action.kind == "bid":
            sun = action.arg
            if (self._bid_mask(p) >> sun) & 1:
                return None
            if (self._used[p] >> sun) & 1:
                return msg("illegal.face_down", p=Seat(p), sun=sun)
            if not (self._suns[p] >> sun) & 1:
                return msg("illegal.no_sun", p=Seat(p), sun=sun)
            return msg("illegal.not_higher", sun=sun, high=self._high)
        if action.kind == "pass":
            return msg("illegal.must_bid", p=Seat(p)) if self._must_bid else None
        return msg("illegal.bid_turn", action=str(action), p=Seat(p))

    def _why_not_discard(self, action: Action) -> Msg | None:
        """R5.2, R5.4: the player struck by Unrest or Earthquake chooses what to lose."""
        p = Seat(self._to_move)
        what = msg("illegal.what_civ" if self._unrest_left else "illegal.what_monument")
        if action.kind != "discard":
            return msg("illegal.discard_now", action=str(action), p=p, what=what)
        t = action.arg
        if t not in self._discard_kinds():
            return msg("illegal.discard_kind", p=p, what=what, tile=msg(f"tile.{action.tile}"))
        if not self._displays[p.seat][t]:
            return msg("illegal.discard_none", p=p, tile=msg(f"tile.{action.tile}"))
        return None

    def _why_not_god(self, action: Action) -> Msg | None:
        p = self._to_move
        if not self._displays[p][T_GOD]:
            return msg("illegal.no_god", p=Seat(p))
        if not self._can_take(p, action.arg):
            return msg("illegal.not_on_track", tile=msg(f"tile.{action.tile}"))
        return None

    def _illegal(self, action: Action) -> IllegalActionError:
        why = self._why_illegal_msg(action) or msg("illegal.generic", action=str(action))
        return IllegalActionError(self.say(why), why)

    # --- players ---------------------------------------------------------------

    def _visible_score(self, seat: int) -> int | None:
        return self._scores[seat]

    def check_seat(self, seat: object) -> int:
        """``seat`` if it is one of this game's seats (:class:`ra.SeatError`, a ``ValueError``,
        naming what was wrong, if not)."""
        return self._check_seat(seat)

    def _check_seat(self, seat: object) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise SeatError(f"a seat is an integer 0-{self._n - 1}, got {str(seat)[:20]!r}")
        if not 0 <= seat < self._n:
            raise SeatError(f"no seat {seat}: seats are 0-{self._n - 1}")
        return seat

    @property
    def scores(self) -> list[int | None]:
        """Each seat's score (``None`` where hidden from a viewer, R9.1)."""
        return [self._visible_score(i) for i in range(self._n)]

    def player(self, seat: int) -> PlayerState:
        """A snapshot of one seat (:class:`ra.SeatError`, a ``ValueError``, for a seat that is not one)."""
        seat = self._check_seat(seat)
        d = self._displays[seat]
        return PlayerState(
            seat=seat,
            name=self._setup.names[seat],
            suns=sun_list(self._suns[seat]),
            used_suns=sun_list(self._used[seat]),
            tiles=Counter({TILE_IDS[t]: c for t, c in enumerate(d) if c}),
            score=self._visible_score(seat),
        )

    @property
    def players(self) -> tuple[PlayerState, ...]:
        """Snapshots of all seats, in seating order."""
        return tuple(self.player(i) for i in range(self._n))

    def tile_counts(self, seat: int) -> tuple[int, ...]:
        """Fast access: the seat's display as counts indexed by :class:`Tile`."""
        return tuple(self._displays[seat])

    def sun_mask(self, seat: int) -> int:
        """Fast access: the seat's face-up suns as a bitmask (bit ``s`` is sun ``s``)."""
        return self._suns[seat]

    def used_sun_mask(self, seat: int) -> int:
        """Fast access: the seat's face-down suns as a bitmask."""
        return self._used[seat]

    def track_tiles(self) -> tuple[int, ...]:
        """Fast access: the auction track as :class:`Tile` values."""
        return tuple(self._track)

    def unseen_counts(self) -> tuple[int, ...]:
        """Counts by :class:`Tile` of the tiles still in the bag (public, R9.1)."""
        return tuple(self._unseen)

    def removed_counts(self) -> tuple[int, ...]:
        """Counts by :class:`Tile` of the tiles removed from the game (the box)."""
        return tuple(self._box)

    @property
    def phase_code(self) -> int:
        """Fast access: the phase as the engine's integer code (``PHASE_ACTION`` …)."""
        return self._phase

    def auction_codes(self) -> tuple[int, int, int, int, bool]:
        """Fast access, in an auction: its kind's code (``DRAWN`` …), the Ra player, the high bid
        (0: none yet), its bidder (-1: none yet) and whether the bidder must bid (R4.3)."""
        return self._auction_kind, self._ra_player, self._high, self._high_bidder, self._must_bid

    def visible_score(self, seat: int) -> int | None:
        """Fast access: ``seat``'s score as shown (``None`` where hidden from a viewer, R9.1)."""
        return self._visible_score(seat)

    def sun_masks(self) -> tuple[int, ...]:
        """Fast access: every seat's face-up suns as a bitmask, in seating order."""
        return tuple(self._suns)

    def used_sun_masks(self) -> tuple[int, ...]:
        """Fast access: every seat's face-down suns as a bitmask, in seating order."""
        return tuple(self._used)

    def highest_suns(self) -> tuple[int, ...]:
        """Every seat's highest sun, face up or down (0 with none): R8.1's tie-break."""
        return tuple(
            max(0, (up | down).bit_length() - 1) for up, down in zip(self._suns, self._used, strict=True)
        )

    def displays(self) -> tuple[tuple[int, ...], ...]:
        """Fast access: every seat's display as counts indexed by :class:`Tile`."""
        return tuple(map(tuple, self._displays))

    @property
    def decision_chain(self) -> tuple[Any, Any] | None:
        """The decisions as a linked ``(previous, action)`` tuple, newest outermost (shared by
        clones: the same object means the same history; see :attr:`decisions` for a list)."""
        return self._decisions

    def known_scores(self) -> tuple[int, ...]:
        """Every seat's score as its player can know it: the real scores, which follow from
        public tiles (R7) even where a view shows them hidden (R9.1)."""
        return self._known_scoring()[0]

    def position(self) -> Position:
        """This position as typed numbers (:class:`ra.position.Position`): the engine's read
        API for searches and encoders; a view gives what its player knows (R9)."""
        scores, breakdowns = self._known_scoring()
        return Position(
            players=self._n,
            ra_end=self._ra_end,
            epoch=self._epoch,
            phase=self._phase,
            to_move=self._to_move,
            ra_player=self._ra_player,
            auction_kind=self._auction_kind,
            high=self._high,
            high_bidder=self._high_bidder,
            must_bid=bool(self._must_bid),
            unrest_left=self._unrest_left,
            quake_left=self._quake_left,
            after_discard=self._after_discard,
            center=self._center,
            ra=self._ra,
            drawn=self._drawn,
            bag_size=self._bag_size,
            num_decisions=self._num_decisions,
            suns=tuple(self._suns),
            used=tuple(self._used),
            scores=scores,
            track=tuple(self._track),
            late_disasters=self._setup.disaster_timing == "2008",
            pending=tuple(self._pending),
            displays=self.displays(),
            unseen=tuple(self._unseen),
            box=tuple(self._box),
            breakdowns=breakdowns,
        )

    def pack(self) -> bytes:
        """This position in the packed layout (:data:`ra.position.LAYOUT`) that the native core
        reads (``ra._core.State.from_bytes``).  A game's bag goes whole (its order is a function
        of the seed, R9.2); a view has none: the drawn tiles, then the unseen ones by kind (a
        search redeals them, R9.3)."""
        return self.position().pack(self._bag_tiles())

    def _known_scoring(self) -> tuple[tuple[int, ...], tuple[tuple[BreakdownRow, ...], ...]]:
        """The scores and epoch breakdowns as a player can know them (a view overrides it)."""
        rows = tuple(
            tuple((r[0], r[1], tuple(r[2]), r[3], r[4]) for r in epoch if r is not None)
            for epoch in self._breakdowns
        )
        return tuple(self._scores), rows

    def _bag_tiles(self) -> bytes:
        """The bag as packed: its whole order (a view overrides it)."""
        bag = self._bag
        assert bag is not None
        if self._bag_size:
            bag.tile(self._bag_size - 1)  # the order is revealed lazily: reveal all of it
        return bytes(bag.order[: self._bag_size])

    # --- history ---------------------------------------------------------------

    @property
    def keeps_events(self) -> bool:
        """Whether this game keeps an event log (see :meth:`ra.Game.stop_events`)."""
        return self._logging

    @property
    def events(self) -> tuple[Event, ...]:
        """Everything that happened, in order (see :mod:`ra.events`).

        Cached: reading it again after a few more decisions costs only the new events.
        Raises :class:`ra.EventLogOffError` on a game that keeps no log
        (``Game(events=False)``, :meth:`ra.Game.stop_events`): an empty log would
        look like a game where nothing happened.
        """
        if not self._logging:
            raise EventLogOffError(
                "this game keeps no event log (made with events=False or stop_events()); "
                "its decisions are in .decisions"
            )
        log = self._log
        cache: tuple[Any, tuple[Event, ...]] | None = getattr(self, "_log_cache", None)
        if cache is not None and cache[0] is log:
            return cache[1]
        out = _extend(log, cache, events=True)
        self._log_cache = (log, out)
        return out

    @property
    def decisions(self) -> tuple[Action, ...]:
        """The decisions taken so far, in order (the ``move_stack``; cached like :attr:`events`)."""
        chain = self._decisions
        cache: tuple[Any, tuple[Action, ...]] | None = getattr(self, "_decisions_cache", None)
        if cache is not None and cache[0] is chain:
            return cache[1]
        out = _extend(chain, cache)
        self._decisions_cache = (chain, out)
        return out

    @property
    def num_decisions(self) -> int:
        return self._num_decisions

    @property
    def epoch_scores(self) -> list[list[ScoreBreakdown | None]]:
        """Per finished epoch, per seat: the scoring breakdown by category (R7)."""
        return [
            [ScoreBreakdown.from_points(*b) if b is not None else None for b in epoch]
            for epoch in self._breakdowns
        ]

    @property
    def winner(self) -> int | None:
        """The winning seat once the game is over: highest score, then highest sun (R8.1)."""
        if self._phase != PHASE_OVER:
            return None
        scores = self._scores
        suns = self._suns
        used = self._used
        return max(range(self._n), key=lambda i: (scores[i], (suns[i] | used[i]).bit_length()))

    def __repr__(self) -> str:
        who = "over" if self._phase == PHASE_OVER else f"seat {self._to_move} to {PHASE_NAMES[self._phase]}"
        return (
            f"<{type(self).__name__} {self._n}p epoch {self._epoch}, {who}, "
            f"ra {self._ra}/{self._ra_end}, track {self.auction_track}, "
            f"{self._num_decisions} decisions>"
        )

    def position_key(self) -> tuple[Any, ...]:
        """A hashable key of the position alone (not how it was reached): equal keys mean
        the same decisions are possible with the same consequences, whatever the history.
        For transposition tables; the bag's order is not part of it."""
        return (
            self._ra_end,
            tuple([tuple(d) for d in self._displays]),
            tuple(self._suns),
            tuple(self._used),
            tuple(self._scores),
            self._center,
            self._ra,
            tuple(sorted(self._track)),
            self._drawn,
            tuple(self._unseen),
            self._epoch,
            self._phase,
            self._to_move,
            self._ra_player,
            self._auction_kind,
            self._high,
            self._high_bidder,
            self._must_bid,
            self._unrest_left,
            self._quake_left,
            self._after_discard,
            self._pending,
            self._setup.disaster_timing,
        )

    def _key(self) -> tuple[Any, ...]:
        """Everything that defines the position and its history, for equality tests."""
        return (
            self._n,
            self.position_key(),
            tuple(self._track),
            self._bag_size,
            tuple(self._box),
            self.events if self._logging else None,
            self.decisions,
            self._breakdowns,
        )

    # --- for learning agents and search (see ra.encode and ra.envs) -----------------

    def legal_action_mask(self) -> list[int]:
        """1 at ``a.index`` for every legal action ``a``, else 0 (``NUM_ACTIONS`` long; all 0 once over)."""
        mask = [0] * NUM_ACTIONS
        for a in self.legal_actions():
            mask[a.index] = 1
        return mask

    def returns(self) -> list[float]:
        """Each seat's outcome: +1 for the winner, ``-1/(n-1)`` for every other seat; all 0 until the end.

        Win/lose rather than ranks or score margins because winning (R8.1, ties broken by the
        highest sun, so there is always exactly one winner) is the game's only goal; the
        returns sum to 0, so two-player zero-sum methods apply unchanged (+1/-1).
        """
        n = self._n
        if self._phase != PHASE_OVER:
            return [0.0] * n
        loss = -1.0 / (n - 1)
        w = self.winner
        return [1.0 if i == w else loss for i in range(n)]

    def chance_outcomes(self) -> list[tuple[Tile, float]]:
        """The chance node of a draw: each tile kind still in the bag and its probability
        (unseen count / tiles in the bag, R3.3), in :class:`Tile` order; ``[]`` when the player
        to move may not draw.  Public information (R9.1): a view answers the same."""
        if self._phase != PHASE_ACTION:
            return []
        left = self._bag_size - self._drawn
        return [(TILES[t], c / left) for t, c in enumerate(self._unseen) if c]
