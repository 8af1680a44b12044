"""The optional native core (``ra._core``, C++): loading it, and comparing it with the engine.

``ra._core`` is built by ``pip install`` where a C++ compiler exists (see ``native/README.md``);
everything works without it.  Setting the environment variable ``RA_NATIVE=0`` disables it (the
bots then use the pure-Python search).  :func:`snapshot` gives a :class:`ra.Game`'s full state in
the shape of ``ra._core.State.snapshot()``: the differential tests compare the two after every
decision.
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import Any

from ra.state import State

ENV_VAR = "RA_NATIVE"
"""``RA_NATIVE=0`` turns the native core off (for tests and comparisons)."""


def _load() -> ModuleType | None:
    if os.environ.get(ENV_VAR, "").strip() == "0":
        return None
    try:
        from ra import _core
    except ImportError:
        return None
    return _core


core: ModuleType | None = _load()
"""The ``ra._core`` module, or ``None`` when it is not built or is disabled."""


def native_available() -> bool:
    """Whether the native core is built and in use (not disabled by ``RA_NATIVE=0``)."""
    return core is not None


def status() -> str:
    """One line for ``ra --version``: whether the native core is in use, and why not."""
    if core is not None:
        return "native core: in use (ra._core)"
    if os.environ.get(ENV_VAR, "").strip() == "0":
        return f"native core: disabled ({ENV_VAR}=0)"
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
    )
