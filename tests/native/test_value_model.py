"""The learned evaluation is the same model in C++ and in Python (ra.bots.value_model), on
thousands of positions, at every epoch start and elsewhere; the searches use it when asked."""

from __future__ import annotations

import random

import pytest

import ra
from ra import bots
from ra.bots.mcts import MCTSConfig, projected_scores
from ra.bots.value_model import FEATURES, PLAYER_COUNTS, ValueModel, at_epoch_start, features
from tests.native.helpers import CORE, greedy_policy, random_policy, side_by_side


def _random_model(seed: int) -> ValueModel:
    rng = random.Random(seed)
    return ValueModel(
        {(n, e): tuple(rng.uniform(-6, 6) for _ in FEATURES) for n in PLAYER_COUNTS for e in (2, 3)}
    )


def test_features_and_predictions_equal_in_cpp_and_python() -> None:
    model = _random_model(1)
    flat = model.flat()
    starts = checked = 0
    for seed in range(80):
        players = 2 + seed % 4
        policy = random_policy if seed % 2 else greedy_policy
        for game, state in side_by_side(ra.Game(players, seed=900 + seed), policy, seed):
            if game.is_over():
                break
            heuristic = projected_scores(game)
            for seat in range(players):
                gain = heuristic[seat] - (game.scores[seat] or 0)
                assert state.value_features(seat) == pytest.approx(features(game, seat, gain), abs=1e-9)
            learned = model.predict(game, heuristic)
            native = state.projected_scores(value_model=flat)
            if at_epoch_start(game):  # R6.3: only what stays is left; the model judges it
                starts += 1
                assert learned is not None
                assert native == pytest.approx(learned, abs=1e-9)
                assert native == pytest.approx(projected_scores(game, model=model), abs=1e-9)
            else:  # elsewhere both fall back to the heuristic
                assert learned is None
                assert native == pytest.approx(state.projected_scores(), abs=1e-12)
            checked += 1
    assert checked > 3000
    assert starts >= 80  # every game that reaches epoch 2 and 3 contributes


def test_a_bad_value_model_is_refused_by_the_core() -> None:
    state = CORE.State(players=3, seed=1)
    with pytest.raises(ValueError, match="112 numbers"):
        state.mcts(iterations=10, value_model=[1.0] * 5)
    with pytest.raises(TypeError):
        state.projected_scores(value_model=["x"] * 112)  # type: ignore[list-item]


def test_the_learned_search_is_deterministic_and_legal() -> None:
    game = ra.Game(3, seed=4)
    bot = bots.make("mcts", seed=3, iterations=300, value="learned")
    again = bots.make("mcts", seed=3, iterations=300, value="learned")
    rng = random.Random(0)
    while not game.is_over() and game.epoch < 3:
        seat = game.to_move
        assert seat is not None
        action = bot.choose(game.view(seat))
        assert action == again.choose(game.view(seat))
        assert action in game.legal_actions()
        game.apply(action if rng.random() < 0.5 else rng.choice(game.legal_actions()))


def test_value_setting_is_checked() -> None:
    with pytest.raises(ValueError, match="value must be heuristic or learned"):
        MCTSConfig(value="neural").check()
