"""Explicit chance: the bag of a game whose draws are chosen (:meth:`ra.Game.apply_draw`).

A search or a framework that owns the randomness (OpenSpiel) picks every drawn
tile itself, so a game that applied a chosen draw rarely draws from its bag
again.  :class:`ChosenBag` knows the tiles drawn so far and shuffles the rest
(from the setup's seed, exactly as :meth:`ra.setup.Bag.for_setup` would) only if
a tile beyond them is ever asked for: applying a chosen draw stays cheap.
"""

from __future__ import annotations

from ra.setup import Bag, Setup


class ChosenBag(Bag):
    """The bag of ``setup`` (its stacked tiles first), built lazily past them."""

    __slots__ = ("_setup", "_full")

    def __init__(self, setup: Setup) -> None:  # no super().__init__: the rest is made on demand
        self.order = list(setup.bag)
        self._setup = setup
        self._full: Bag | None = None

    def tile(self, k: int) -> int:
        """The ``k``-th tile drawn (0-based), shuffling the rest of the bag on first need."""
        if k < len(self.order):
            return self.order[k]
        full = self._full
        if full is None:
            full = self._full = Bag.for_setup(self._setup)
            self.order = full.order  # the same stacked tiles first, then the seeded rest
        return full.tile(k)


__all__ = ["ChosenBag"]
