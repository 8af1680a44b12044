"""The game state: flat fields for speed, read-only accessors for people.

Layout (chosen for fast ``clone()``, see ``shared/ENGINE-NOTES.md``):

* displays are one list of 23 tile counts per player, indexed by :class:`Tile`;
* a player's face-up and face-down suns are bitmasks (bit ``s`` = sun ``s``), so
  "highest sun" and "can beat the bid" are single integer operations;
* the event log and the decision list are persistent linked tuples
  ``(previous, entry)``: appending is one small tuple and a clone shares the
  whole history for free.

:class:`State` holds the fields and the read API shared by :class:`ra.Game`
and :class:`ra.PlayerView`; the rules live in :mod:`ra.engine`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Final

from ra.actions import Action
from ra.events import Event, event_from_entry
from ra.scoring import ScoreBreakdown
from ra.setup import Bag, Setup
from ra.tiles import TILE_IDS

# Phases (``State.phase`` gives the names).
ACTION: Final = 0
BIDDING: Final = 1
GODS: Final = 2
DISCARDING: Final = 3
OVER: Final = 4
PHASES: Final[tuple[str, ...]] = ("action", "bid", "god", "discard", "over")

# Auction kinds (R3.3, R3.4).
DRAWN: Final = 0
VOLUNTARY: Final = 1
FORCED: Final = 2
AUCTION_KINDS: Final[tuple[str, ...]] = ("drawn", "voluntary", "forced")

AUCTION_TRACK_SIZE: Final = 8  # R3.2
EPOCHS: Final = 3  # R8.1


def sun_list(mask: int) -> tuple[int, ...]:
    """The sun numbers in a bitmask, lowest first."""
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


def history(chain: tuple[Any, Any] | None) -> list[Any]:
    """The entries of a linked ``(previous, entry)`` chain, oldest first."""
    out = []
    while chain is not None:
        chain, entry = chain
        out.append(entry)
    out.reverse()
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

    kind: str
    """"drawn", "voluntary" or "forced" (R3.3, R3.4)."""
    ra_player: int
    high_bid: int | None
    high_bidder: int | None
    bidder: int
    """The seat whose bid it is."""
    must_bid: bool
    """True when the bidder invoked Ra and everyone else passed (R4.3)."""


class State:
    """Fields and read-only accessors of a game position (see the module doc)."""

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
        "_log",
        "_decisions",
        "_num_decisions",
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
    _log: tuple[Any, Any] | None
    _decisions: tuple[Any, Any] | None
    _num_decisions: int

    def _copy_to(self, new: State) -> None:
        """Copy every field into ``new`` (lists copied, history shared)."""
        new._setup = self._setup
        new._bag = self._bag
        new._n = self._n
        new._ra_end = self._ra_end
        new._displays = [d[:] for d in self._displays]
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
        new._log = self._log
        new._decisions = self._decisions
        new._num_decisions = self._num_decisions

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

    # --- where the game stands -------------------------------------------------

    @property
    def epoch(self) -> int:
        """1, 2 or 3."""
        return self._epoch

    @property
    def phase(self) -> str:
        """ "action", "bid", "god", "discard" or "over"."""
        return PHASES[self._phase]

    @property
    def to_move(self) -> int | None:
        """The seat that must decide now; ``None`` once the game is over."""
        return None if self._phase == OVER else self._to_move

    def is_over(self) -> bool:
        return self._phase == OVER

    @property
    def center_sun(self) -> int:
        """The sun in the centre, won with the next auction (R4.4)."""
        return self._center

    @property
    def ra_track(self) -> int:
        """How many Ra tiles are on the Ra track."""
        return self._ra

    @property
    def ra_track_length(self) -> int:
        """How many Ra tiles end the epoch (R2.2)."""
        return self._ra_end

    @property
    def auction_track(self) -> list[str]:
        """The tiles on the auction track, oldest first."""
        return [TILE_IDS[t] for t in self._track]

    @property
    def tiles_in_bag(self) -> int:
        """How many tiles are left in the bag (public; their order is not)."""
        return self._bag_size - self._drawn

    @property
    def auction(self) -> AuctionState | None:
        """The auction under way, or ``None``."""
        if self._phase != BIDDING:
            return None
        return AuctionState(
            kind=AUCTION_KINDS[self._auction_kind],
            ra_player=self._ra_player,
            high_bid=self._high or None,
            high_bidder=self._high_bidder if self._high_bidder >= 0 else None,
            bidder=self._to_move,
            must_bid=self._must_bid,
        )

    @property
    def pending_disaster(self) -> str | None:
        """In the discard phase: ``"unrest"`` or ``"earthquake"``, the disaster being resolved."""
        if self._phase != DISCARDING:
            return None
        return "unrest" if self._unrest_left else "earthquake"

    @property
    def discards_left(self) -> int:
        """In the discard phase: tiles still to lose to the disaster being resolved."""
        if self._phase != DISCARDING:
            return 0
        return self._unrest_left or self._quake_left

    def legal_actions(self) -> list[Action]:
        """Every action the player to move may take now (see :mod:`ra.engine`)."""
        raise NotImplementedError

    # --- players ---------------------------------------------------------------

    def _visible_score(self, seat: int) -> int | None:
        return self._scores[seat]

    @property
    def scores(self) -> list[int | None]:
        """Each seat's score (``None`` where hidden from a viewer, R9.1)."""
        return [self._visible_score(i) for i in range(self._n)]

    def player(self, seat: int) -> PlayerState:
        """A snapshot of one seat."""
        if not 0 <= seat < self._n:
            raise IndexError(f"no seat {seat}: seats are 0-{self._n - 1}")
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

    # --- history ---------------------------------------------------------------

    @property
    def events(self) -> list[Event]:
        """Everything that happened, in order (see :mod:`ra.events`)."""
        return [event_from_entry(e) for e in history(self._log)]

    @property
    def decisions(self) -> list[Action]:
        """The decisions taken so far, in order (the ``move_stack``)."""
        return history(self._decisions)

    @property
    def num_decisions(self) -> int:
        return self._num_decisions

    @property
    def epoch_scores(self) -> list[list[ScoreBreakdown | None]]:
        """Per finished epoch, per seat: the scoring breakdown by category (R7)."""
        out: list[list[ScoreBreakdown | None]] = []
        for e in self.events:
            if e.kind == "score":
                if e.seat == 0:
                    out.append([None] * self._n)
                out[-1][e.seat] = e.detail  # type: ignore[index]
        return out

    @property
    def winner(self) -> int | None:
        """The winning seat once the game is over: highest score, then highest sun (R8.1)."""
        if self._phase != OVER:
            return None
        scores = self._scores
        suns = self._suns
        used = self._used
        return max(range(self._n), key=lambda i: (scores[i], (suns[i] | used[i]).bit_length()))

    def __repr__(self) -> str:
        who = "over" if self._phase == OVER else f"seat {self._to_move} to {PHASES[self._phase]}"
        return (
            f"<{type(self).__name__} {self._n}p epoch {self._epoch}, {who}, "
            f"ra {self._ra}/{self._ra_end}, track {self.auction_track}, "
            f"{self._num_decisions} decisions>"
        )

    def _key(self) -> tuple[Any, ...]:
        """Everything that defines the position and its history, for equality tests."""
        return (
            self._n,
            self._ra_end,
            tuple(tuple(d) for d in self._displays),
            tuple(self._suns),
            tuple(self._used),
            tuple(self._scores),
            self._center,
            self._ra,
            tuple(self._track),
            self._drawn,
            self._bag_size,
            tuple(self._unseen),
            tuple(self._box),
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
            tuple(history(self._log)),
            tuple(history(self._decisions)),
        )
