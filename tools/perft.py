"""Perft for Ra: how many decision sequences of a given length a position allows.

As in chess programs (python-chess's perft files), the count checks move generation: two
engines that agree on perft at every depth agree on every legal action along the way.  In Ra
the draws are chance: here they come out as the game's seed fixes them (R9.2), so a count is a
property of the seed.  A sequence that ends the game early counts as one.
"""

from __future__ import annotations

from typing import Any

import ra


def perft(game: ra.Game, depth: int) -> int:
    """Decision sequences of ``depth`` decisions from ``game`` (the Python engine)."""
    if depth == 0 or game.is_over():
        return 1
    total = 0
    for action in game.legal_actions():
        child = game.clone()
        child.apply(action)
        total += perft(child, depth - 1)
    return total


def perft_native(state: Any, depth: int) -> int:
    """The same count with the native core (``ra._core.State``)."""
    if depth == 0 or state.is_over():
        return 1
    total = 0
    for index in state.legal_actions():
        child = state.clone()
        child.apply(index)
        total += perft_native(child, depth - 1)
    return total
