"""The native greedy bot picks exactly what ra.bots.greedy.greedy_action picks, on thousands of
positions (games and views, every player count, random and greedy play)."""

from __future__ import annotations

import dataclasses
import random

import pytest

import ra
from ra.bots.greedy import greedy_action
from ra.bots.valuation import Weights
from tests.native.helpers import CORE, greedy_policy, random_policy, side_by_side


def test_native_greedy_matches_python_on_thousands_of_positions() -> None:
    checked = 0
    kinds: set[str] = set()
    for seed in range(120):
        players = 2 + seed % 4
        policy = random_policy if seed % 3 else greedy_policy
        for game, state in side_by_side(ra.Game(players, seed=500 + seed), policy, seed):
            if game.is_over():
                break
            expected = greedy_action(game)
            assert state.greedy_action() == expected.index, (seed, game.num_decisions, str(expected))
            kinds.add(expected.kind)
            checked += 1
    assert checked > 5000
    assert kinds == {"draw", "ra", "god", "done", "bid", "pass", "discard"}


def test_native_greedy_on_views_and_other_weights() -> None:
    weights = Weights(min_gain=0.0, invoke_gain=2.0, god_margin=0.0, sun_cost=3.0)
    packed = dataclasses.astuple(weights)
    rng = random.Random(2)
    for seed in range(40):
        game = ra.Game(2 + seed % 4, seed=seed, variant="standard")
        while not game.is_over():
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            state = CORE.State.from_game(view)
            assert state.greedy_action() == greedy_action(view).index
            assert state.greedy_action(weights=packed) == greedy_action(view, weights).index
            game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_native_evaluator_playouts_are_the_python_playouts(players: int) -> None:
    """ra.bots.evaluate's native backend plays the greedy policy move for move like the Python
    one (epsilon 0: no random numbers involved), from the start and from mid-game."""
    from ra.bots.evaluate import GreedyPlayouts, NativeGreedyPlayouts

    python, native = GreedyPlayouts(epsilon=0.0), NativeGreedyPlayouts(epsilon=0.0)
    for seed in range(8):
        game = ra.Game(players=players, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 60)):
            if game.is_over():
                break
            game.apply(rng.choice(game.legal_actions()))
        if game.is_over():
            continue
        assert native.playout(game.clone(), seed) == python.playout(game.clone(), seed)


def test_native_evaluator_playouts_with_random_moves_end_and_follow_their_seed() -> None:
    from ra.bots.evaluate import NativeGreedyPlayouts

    backend = NativeGreedyPlayouts(epsilon=0.5)
    game = ra.Game(players=4, seed=3)
    results = [backend.playout(game.clone(), seed) for seed in (1, 1, 2)]
    assert results[0] == results[1]
    assert all(sum(r.scores) > 0 and 0 <= r.winner < 4 for r in results)
    with pytest.raises(ValueError, match="epsilon"):
        NativeGreedyPlayouts(epsilon=1.5)
