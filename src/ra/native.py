"""The optional native core (``ra._core``, C++): loading it, the bridge to it, comparing it.

``ra._core`` is built by ``pip install`` where a C++ compiler exists (see ``native/README.md``);
everything works without it.  Setting the environment variable ``RA_NATIVE=0`` disables it (the
bots then use the pure-Python search).

The bridge is by value: the engine's ``State.pack()`` writes a position in one fixed byte layout
(:data:`ra.position.LAYOUT`, versioned), which the core reads in one pass (``State.from_bytes``;
``State.from_game(position)`` calls ``position.pack()``).  The core never reads a Python
object's fields, and never imports this module.  When
it is loaded, :func:`check_core` compares its layout and its code tables (phases, tiles,
actions, auction kinds) with the engine's; on any difference the core is refused with one
warning naming it, and everything runs in Python.

:func:`snapshot` gives a :class:`ra.Game`'s full state in the shape of
``ra._core.State.snapshot()``: the differential tests compare the two after every decision.
"""

from __future__ import annotations

import os
import warnings
from types import ModuleType
from typing import Any

from ra import position, setup, state, tiles
from ra.actions import ALL_ACTIONS, NUM_ACTIONS
from ra.state import State

ENV_VAR = "RA_NATIVE"
"""``RA_NATIVE=0`` turns the native core off (for tests and comparisons)."""

LAYOUT_VERSION = position.LAYOUT_VERSION
LAYOUT = position.LAYOUT
"""The packed position (:data:`ra.position.LAYOUT`): what ``State.pack()`` writes and the core reads."""


def pack(state: State) -> bytes:
    """``state.pack()``: a :class:`ra.Game` or :class:`ra.PlayerView` in the layout the core reads
    (kept for callers of earlier versions; see :meth:`ra.state.State.pack`)."""
    return state.pack()


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
    p = state.position()
    return (
        p.players,
        p.ra_end,
        p.epoch,
        p.phase,
        p.to_move,
        p.ra_player,
        p.auction_kind,
        p.high,
        p.high_bidder,
        p.must_bid,
        p.unrest_left,
        p.quake_left,
        p.after_discard,
        p.center,
        p.ra,
        p.track,
        p.drawn,
        p.bag_size,
        p.num_decisions,
        p.suns,
        p.used,
        p.scores,
        p.displays,
        p.unseen,
        p.box,
        p.breakdowns,
        int(p.late_disasters),
        p.pending,
    )
