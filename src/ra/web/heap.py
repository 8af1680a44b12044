"""The server's heap and Python's cyclic garbage collector: the pauses it makes on the event loop.

A collection of the oldest generation walks every tracked object, and while it runs no message is
sent and no decision is taken. ``ra serve``'s heap once started (the modules, the routes, the
engine's tables: about 140,000 objects) took some 110 ms of CPU a full collection, and under load
(1,000 games, 2,000 spectators) the server ran 55 of them in one run, 44 s of pauses, up to 1.8 s
each on the shared machine — part of issue 56's latency tail, the rest the load generator's own
pauses, which left the server's messages queued long enough to grow its old generation
(``docs/benchmarks.md``). Two remedies, both CPython's own:

- :func:`settle` freezes what start-up left (:func:`gc.freeze`): it lives as long as the process,
  and no later collection walks it again;
- a larger young generation (:data:`YOUNG_GENERATION`): a decision's short-lived objects (its
  messages, queued for a few milliseconds) die young instead of being promoted to the old
  generation, whose growth is what starts a full collection.
"""

from __future__ import annotations

import gc

YOUNG_GENERATION = 20_000
"""Allocations (net of frees) between two collections of the youngest generation (CPython's
default is 700: under load a decision's messages outlived it and were promoted to the old
generation, which grew and was walked again every few seconds)."""


def settle() -> None:
    """Once the server has started: collect, freeze what is left, and enlarge the young
    generation (see the module's docstring). Idempotent; objects made later are collected as usual."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_GENERATION, middle, old)


__all__ = ["YOUNG_GENERATION", "settle"]
