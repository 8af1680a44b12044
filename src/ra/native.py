"""The optional native core (``ra._core``, C++): loading it, the bridge to it, comparing it.

``ra._core`` is built by ``pip install`` where a C++ compiler exists (see ``native/README.md``);
everything works without it.  Setting the environment variable ``RA_NATIVE=0`` disables it (the
bots then use the pure-Python search).

The bridge is by value: :func:`pack` writes a position in one fixed byte layout
(:data:`LAYOUT`, versioned), which the core reads in one pass (``State.from_bytes``;
``State.from_game`` calls :func:`pack`).  The core never reads a Python object's fields.  When
it is loaded, :func:`check_core` compares its layout and its code tables (phases, tiles,
actions, auction kinds) with the engine's; on any difference the core is refused with one
warning naming it, and everything runs in Python.

:func:`snapshot` gives a :class:`ra.Game`'s full state in the shape of
``ra._core.State.snapshot()``: the differential tests compare the two after every decision.
"""

from __future__ import annotations

import os
import struct
import warnings
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ra import setup, state, tiles
from ra.actions import ALL_ACTIONS, NUM_ACTIONS
from ra.state import State

if TYPE_CHECKING:
    from ra.views import PlayerView

ENV_VAR = "RA_NATIVE"
"""``RA_NATIVE=0`` turns the native core off (for tests and comparisons)."""

LAYOUT_VERSION = 2
"""The packed layout's version: bump it with any change to :data:`LAYOUT` (and the core's reader)."""
_N5 = setup.MAX_PLAYERS
_BREAKDOWN = 9  # the 7 categories of ra.scoring.CATEGORIES, before, after
LAYOUT = struct.Struct(
    "<4sB"  # magic "RAST", version
    "BBBBbbBBbBBBBBBBB"  # n ra_end epoch phase to_move ra_player auction_kind high high_bidder
    # must_bid unrest_left quake_left after_discard center ra drawn bag_size
    "H"  # num_decisions
    f"{_N5}I{_N5}I{_N5}h"  # suns, used (bit masks), scores
    f"B{setup.AUCTION_TRACK_SIZE}s"  # track length, track tiles
    f"BB{setup.AUCTION_TRACK_SIZE}s"  # R3.5 disaster timing (1: "2008"), pending disasters: count, tiles
    f"{_N5 * tiles.NUM_KINDS}s{tiles.NUM_KINDS}s{tiles.NUM_KINDS}s"  # displays, unseen, box
    f"B{setup.EPOCHS * _N5 * _BREAKDOWN}h"  # epochs scored, breakdowns
    f"{tiles.BAG_SIZE}s"  # the bag: its whole order (a game) or drawn + unseen by kind (a view)
)
"""The packed position (little-endian, no padding): what :func:`pack` writes and the core reads."""


def pack(position: State) -> bytes:
    """A :class:`ra.Game` or :class:`ra.PlayerView` in the :data:`LAYOUT` the core reads.

    A game's bag goes whole (its order is a function of the seed, R9.2): the native state draws
    the same tiles.  A view has no bag: the drawn tiles, then the unseen ones by kind (a search
    redeals them, R9.3).
    """
    s = position
    n = s._n
    breakdowns = [0] * (setup.EPOCHS * _N5 * _BREAKDOWN)
    for e, epoch in enumerate(s._breakdowns):
        for i, row in enumerate(epoch):
            if row is not None:
                k = (e * _N5 + i) * _BREAKDOWN
                breakdowns[k : k + _BREAKDOWN] = [*row[2], row[3], row[4]]
    pad = [0] * (_N5 - n)
    return LAYOUT.pack(
        b"RAST",
        LAYOUT_VERSION,
        n,
        s._ra_end,
        s._epoch,
        s._phase,
        s._to_move,
        s._ra_player,
        s._auction_kind,
        s._high,
        s._high_bidder,
        int(s._must_bid),
        s._unrest_left,
        s._quake_left,
        s._after_discard,
        s._center,
        s._ra,
        s._drawn,
        s._bag_size,
        s._num_decisions,
        *s._suns,
        *pad,
        *s._used,
        *pad,
        *s._scores,
        *pad,
        len(s._track),
        bytes(s._track),
        int(s._setup.disaster_timing == "2008"),
        len(s._pending),
        bytes(s._pending),
        b"".join(bytes(d) for d in s._displays) + bytes(tiles.NUM_KINDS * (_N5 - n)),
        bytes(s._unseen),
        bytes(s._box),
        len(s._breakdowns),
        *breakdowns,
        _bag_bytes(s),
    )


def _bag_bytes(s: State) -> bytes:
    bag = s._bag
    if bag is not None:
        if s._bag_size:
            bag.tile(s._bag_size - 1)  # the order is revealed lazily: reveal all of it
        return bytes(bag.order[: s._bag_size]).ljust(tiles.BAG_SIZE, b"\0")
    view: PlayerView = s  # type: ignore[assignment]
    rest = b"".join(_KIND_BYTES[t] * c for t, c in enumerate(s._unseen) if c)
    return (bytes(view._drawn_order[: s._drawn]) + rest).ljust(tiles.BAG_SIZE, b"\0")[: tiles.BAG_SIZE]


_KIND_BYTES = tuple(bytes([t]) for t in range(tiles.NUM_KINDS))


def expected_layout() -> dict[str, Any]:
    """The layout and code tables of this engine, in the shape of ``ra._core.layout()``."""
    actions = tuple((a.kind, _argument(a.tile, a.sun)) for a in ALL_ACTIONS)
    return {
        "version": LAYOUT_VERSION,
        "size": LAYOUT.size,
        "phases": {
            "action": state.PHASE_ACTION,
            "bid": state.PHASE_BID,
            "god": state.PHASE_GOD,
            "discard": state.PHASE_DISCARD,
            "over": state.PHASE_OVER,
            "action_no_draw": state.PHASE_ACTION_NO_DRAW,
        },
        "auction_kinds": {"drawn": state.DRAWN, "voluntary": state.VOLUNTARY, "forced": state.FORCED},
        "after": {"auction": 0, "god": 1, "god_turn": 2},
        "limits": {
            "kinds": tiles.NUM_KINDS,
            "bag": tiles.BAG_SIZE,
            "max_sun": tiles.MAX_SUN,
            "center_sun": tiles.CENTER_SUN,
            "min_players": setup.MIN_PLAYERS,
            "max_players": setup.MAX_PLAYERS,
            "track": setup.AUCTION_TRACK_SIZE,
            "epochs": setup.EPOCHS,
            "starting_score": setup.STARTING_SCORE,
            "ra": tiles.T_RA,
            "god": tiles.T_GOD,
            "first_disaster": tiles.T_FIRST_DISASTER,
            "first_civ": int(tiles.CIVILIZATIONS[0]),
            "first_monument": int(tiles.MONUMENTS[0]),
        },
        "actions": actions,
        "tile_counts": tuple(tiles.TILE_COUNTS),
    }


def _argument(tile: int | None, sun: int | None) -> int:
    """An action's argument as the core numbers it: the tile or the sun, -1 for none."""
    return int(tile) if tile is not None else sun if sun is not None else -1


def check_core(module: Any, expected: dict[str, Any] | None = None) -> str | None:
    """What differs between a core's layout and code tables and this engine's (None: nothing)."""
    try:
        built = module.layout()
    except AttributeError:
        return "it has no layout() (built from older sources: reinstall to rebuild it)"
    want = expected if expected is not None else expected_layout()
    if len(want["actions"]) != NUM_ACTIONS:
        return f"the engine has {NUM_ACTIONS} actions but its table lists {len(want['actions'])}"
    for key, value in want.items():
        got = built.get(key)
        if got == value:
            continue
        if isinstance(value, dict) and isinstance(got, dict):
            diff = sorted(k for k in value if got.get(k) != value[k])[:3]
            parts = [f"{k} is {got.get(k)} in the core, {value[k]} here" for k in diff]
            return f"{key} differ: " + ", ".join(parts)
        if isinstance(value, tuple) and isinstance(got, tuple) and len(got) == len(value):
            i = next(i for i, (a, b) in enumerate(zip(got, value, strict=True)) if a != b)
            return f"{key} differ at {i}: {got[i]!r} in the core, {value[i]!r} here"
        return f"{key}: {got!r} in the core, {value!r} here"
    return None


def load(expected: dict[str, Any] | None = None) -> tuple[ModuleType | None, str | None]:
    """The core if it is built, enabled and matches this engine; else None, with why it was
    refused (one warning says so too)."""
    if os.environ.get(ENV_VAR, "").strip() == "0":
        return None, None
    try:
        from ra import _core
    except ImportError:
        return None, None
    problem = check_core(_core, expected)
    if problem is None:
        return _core, None
    warnings.warn(
        f"the native core ra._core does not match this engine ({problem}); it is not used and "
        "everything runs in Python (reinstall to rebuild it)",
        RuntimeWarning,
        stacklevel=2,
    )
    return None, problem


core: ModuleType | None
"""The ``ra._core`` module, or ``None`` when it is not built, disabled or refused."""
REFUSED: str | None
"""Why the built core was refused (its layout or a code table differs), or None."""
core, REFUSED = load()


def native_available() -> bool:
    """Whether the native core is built and in use (not disabled by ``RA_NATIVE=0``)."""
    return core is not None


def status() -> str:
    """One line for ``ra --version``: whether the native core is in use, and why not."""
    if core is not None:
        return "native core: in use (ra._core)"
    if os.environ.get(ENV_VAR, "").strip() == "0":
        return f"native core: disabled ({ENV_VAR}=0)"
    if REFUSED is not None:
        return f"native core: refused, it does not match this engine ({REFUSED}); pure Python"
    return "native core: not built (pure Python)"


def snapshot(state: State) -> tuple[Any, ...]:
    """Every field of a position (not the bag's undrawn order), shaped like
    ``ra._core.State.snapshot()``: compare the two to check the native core."""
    s = state
    n = s._n
    return (
        n,
        s._ra_end,
        s._epoch,
        s._phase,
        s._to_move,
        s._ra_player,
        s._auction_kind,
        s._high,
        s._high_bidder,
        bool(s._must_bid),
        s._unrest_left,
        s._quake_left,
        s._after_discard,
        s._center,
        s._ra,
        tuple(s._track),
        s._drawn,
        s._bag_size,
        s._num_decisions,
        tuple(s._suns),
        tuple(s._used),
        tuple(s._scores),
        tuple(tuple(d) for d in s._displays),
        tuple(s._unseen),
        tuple(s._box),
        tuple(
            tuple((b[0], b[1], tuple(b[2]), b[3], b[4]) for b in epoch if b is not None)
            for epoch in s._breakdowns
        ),
        int(s._setup.disaster_timing == "2008"),
        tuple(s._pending),
    )
