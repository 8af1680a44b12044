"""A position in one public packed form: what a search, an encoder or the native core reads.

:meth:`ra.state.State.position` gives a :class:`Position` (every field of the game as typed
numbers) and :meth:`ra.state.State.pack` the same in one fixed byte layout (:data:`LAYOUT`,
versioned), which the native core reads in one pass (``ra._core.State.from_bytes``).  These are
the engine's only doors to its flat fields: nothing outside the engine reads a position's
underscore fields.

A :class:`ra.PlayerView` gives what its player knows (R9): no bag order (the drawn tiles, then
the unseen ones by kind) and, under hidden scores (R9.1), every score and epoch breakdown as the
public history fixes them, never a placeholder: each one follows from public tiles (R7), so a
player who kept count knows them, and a search from a view sees the game it is playing.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Final

from ra import setup, tiles

LAYOUT_VERSION: Final = 2
"""The packed layout's version: bump it with any change to :data:`LAYOUT` (and the core's reader)."""
_N5: Final = setup.MAX_PLAYERS
BREAKDOWN_SIZE: Final = 9
"""A seat's epoch breakdown when packed: the 7 categories of ra.scoring.CATEGORIES, before, after."""
LAYOUT: Final = struct.Struct(
    "<4sB"  # magic "RAST", version
    "BBBBbbBBbBBBBBBBB"  # n ra_end epoch phase to_move ra_player auction_kind high high_bidder
    # must_bid unrest_left quake_left after_discard center ra drawn bag_size
    "H"  # num_decisions
    f"{_N5}I{_N5}I{_N5}h"  # suns, used (bit masks), scores
    f"B{setup.AUCTION_TRACK_SIZE}s"  # track length, track tiles
    f"BB{setup.AUCTION_TRACK_SIZE}s"  # R3.5 disaster timing (1: "2008"), pending disasters: count, tiles
    f"{_N5 * tiles.NUM_KINDS}s{tiles.NUM_KINDS}s{tiles.NUM_KINDS}s"  # displays, unseen, box
    f"B{setup.EPOCHS * _N5 * BREAKDOWN_SIZE}h"  # epochs scored, breakdowns
    f"{tiles.BAG_SIZE}s"  # the bag: its whole order (a game) or drawn + unseen by kind (a view)
)
"""The packed position (little-endian, no padding): what :meth:`Position.pack` writes."""

BreakdownRow = tuple[int, int, tuple[int, ...], int, int]
"""One seat's scoring of one epoch: (epoch, seat, points by category, score before, after)."""


@dataclass(frozen=True, slots=True)
class Position:
    """Every field of a position as the engine keeps it (codes, bit masks, counts by tile).

    Phases and auction kinds are the codes of :mod:`ra.state` (``PHASE_*``, ``DRAWN`` …);
    ``suns`` and ``used`` are bit masks (bit ``s`` is sun ``s``); ``displays``, ``unseen``
    and ``box`` are counts indexed by :class:`ra.Tile`.  ``scores`` and ``breakdowns`` are
    the real ones, for a view too (see the module doc).
    """

    players: int
    ra_end: int
    """How many Ra tiles end an epoch (R2.2)."""
    epoch: int
    phase: int
    to_move: int
    ra_player: int
    auction_kind: int
    high: int
    """The high bid (0: none yet)."""
    high_bidder: int
    """The seat of the high bid (-1: none yet)."""
    must_bid: bool
    unrest_left: int
    quake_left: int
    after_discard: int
    center: int
    ra: int
    """Ra tiles on the Ra track this epoch."""
    drawn: int
    bag_size: int
    num_decisions: int
    suns: tuple[int, ...]
    used: tuple[int, ...]
    scores: tuple[int, ...]
    track: tuple[int, ...]
    late_disasters: bool
    """R3.5: the 2008 disaster timing."""
    pending: tuple[int, ...]
    displays: tuple[tuple[int, ...], ...]
    unseen: tuple[int, ...]
    box: tuple[int, ...]
    breakdowns: tuple[tuple[BreakdownRow, ...], ...]
    """Per scored epoch, every seat's row (R7)."""

    def pack(self, bag: bytes) -> bytes:
        """This position in :data:`LAYOUT`, with ``bag`` (the tiles in drawing order)."""
        n = self.players
        flat = [0] * (setup.EPOCHS * _N5 * BREAKDOWN_SIZE)
        for e, rows in enumerate(self.breakdowns):
            for row in rows:
                k = (e * _N5 + row[1]) * BREAKDOWN_SIZE
                flat[k : k + BREAKDOWN_SIZE] = [*row[2], row[3], row[4]]
        pad = (0,) * (_N5 - n)
        return LAYOUT.pack(
            b"RAST",
            LAYOUT_VERSION,
            n,
            self.ra_end,
            self.epoch,
            self.phase,
            self.to_move,
            self.ra_player,
            self.auction_kind,
            self.high,
            self.high_bidder,
            int(self.must_bid),
            self.unrest_left,
            self.quake_left,
            self.after_discard,
            self.center,
            self.ra,
            self.drawn,
            self.bag_size,
            self.num_decisions,
            *self.suns,
            *pad,
            *self.used,
            *pad,
            *self.scores,
            *pad,
            len(self.track),
            bytes(self.track),
            int(self.late_disasters),
            len(self.pending),
            bytes(self.pending),
            b"".join(map(bytes, self.displays)) + bytes(tiles.NUM_KINDS * (_N5 - n)),
            bytes(self.unseen),
            bytes(self.box),
            len(self.breakdowns),
            *flat,
            bag.ljust(tiles.BAG_SIZE, b"\0")[: tiles.BAG_SIZE],
        )
