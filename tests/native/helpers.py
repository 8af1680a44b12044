"""Shared by the native-core tests: the core (or a skip), and games played side by side."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import ra
from ra.bots.greedy import greedy_action
from ra.native import core, snapshot

if core is None:
    pytest.skip(
        "the native core ra._core is not built (no C++ compiler at install) or RA_NATIVE=0",
        allow_module_level=True,
    )
from ra import _core as CORE  # noqa: N812  (imported once the core is known to be in use)

__all__ = ["CORE"]

Policy = Callable[[ra.Game, random.Random], ra.Action]


def random_policy(game: ra.Game, rng: random.Random) -> ra.Action:
    return rng.choice(game.legal_actions())


def greedy_policy(game: ra.Game, rng: random.Random) -> ra.Action:
    return greedy_action(game)


def mask_of(game: ra.Game) -> int:
    """The legal actions of the Python engine as the native core's bitmask."""
    m = 0
    for a in game.legal_actions():
        m |= 1 << a.index
    return m


def side_by_side(game: ra.Game, policy: Policy, seed: int) -> Iterator[tuple[ra.Game, Any]]:
    """Play ``game`` to the end with ``policy``, mirrored natively; after every decision check
    the full state and the legal actions are equal, and yield both (before the next decision)."""
    rng = random.Random(seed)
    state = CORE.State.from_game(game)
    while True:
        assert state.snapshot() == snapshot(game), f"states differ after {game.num_decisions} decisions"
        assert state.legal_mask() == mask_of(game)
        yield game, state
        if game.is_over():
            assert state.is_over() and state.winner == game.winner and state.scores == game.scores
            return
        action = policy(game, rng)
        game.apply(action)
        state.apply(action.index)
