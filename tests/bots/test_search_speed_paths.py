"""The faster search path chooses exactly what the plain one does: MCTS with and without the
event log of its search games, and greedy rollouts that reuse their valuation."""

from __future__ import annotations

import random

import pytest

import ra
from ra.bots.greedy import greedy_action
from ra.bots.mcts import MCTSBot
from ra.bots.valuation import RolloutValuations, Valuation
from tests.conftest import make_game, play

SUNS_2P = [[9, 6, 5, 2], [8, 7, 4, 3]]


def positions(players: int, seed: int, count: int) -> list[ra.PlayerView]:
    """Views with a real choice, spread over a greedy game."""
    game = ra.Game(players=players, seed=seed)
    seen = []
    while not game.is_over():
        if len(game.legal_actions()) > 1:
            seen.append(game.view(game.to_move or 0))
        game.apply(greedy_action(game))
    return seen[:: max(1, len(seen) // count)][:count]


def same_valuation(a: Valuation, b: Valuation) -> bool:
    keys = ("n", "epoch", "future", "progress", "remaining", "displays", "suns", "used", "center")
    return all(getattr(a, k) == getattr(b, k) for k in keys) and a._rivals_pharaohs == b._rivals_pharaohs


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_mcts_chooses_the_same_with_and_without_the_search_games_event_log(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    views = positions(players, seed=players, count=4)
    quiet = [MCTSBot(seed=i, iterations=40).choose(v) for i, v in enumerate(views)]
    monkeypatch.setattr(ra.Game, "stop_events", lambda self: None)  # search games keep their log
    logged = [MCTSBot(seed=i, iterations=40).choose(v) for i, v in enumerate(views)]
    assert quiet == logged


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_reused_rollout_valuation_equals_a_fresh_one_at_every_step(players: int) -> None:
    for seed in range(12):
        game = ra.Game(players=players, seed=seed, events=False)
        valuations = RolloutValuations()
        last = None
        reused = 0
        while not game.is_over():
            val = valuations.get(game)
            assert same_valuation(val, Valuation(game))
            reused += val is last
            last = val
            action = greedy_action(game, valuations=valuations)
            assert action is greedy_action(game)
            game.apply(action)
        assert reused > 0  # the point: most steps change nothing valued


def test_rollout_valuations_start_afresh_for_another_game_or_after_undo() -> None:
    game = ra.Game(players=3, seed=4)
    rng = random.Random(4)
    for _ in range(40):
        game.apply(rng.choice(game.legal_actions()))
    valuations = RolloutValuations()
    first = valuations.get(game)
    assert valuations.get(game) is first  # nothing changed
    other = game.clone()
    assert valuations.get(other) is not first
    # Undo back over won auctions and God takes: the valuation is rebuilt and right.
    while game.num_decisions:
        game.undo()
        assert same_valuation(valuations.get(game), Valuation(game))
    # Another branch at the same decision count (undo, then a different action, no call in
    # between) is not forward play either, even where the key (epoch, centre sun, Ra count,
    # tiles in the box) cannot tell: either God take puts one God in the box (R3.5).
    game = make_game(2, ["god", "pharaoh", "ra", "gold", "nile", "flood"], suns=SUNS_2P)
    play(game, "draw", "draw", "draw", "pass", "bid 9", "draw", "draw", "draw")
    assert {"god gold", "god nile"} <= {str(a) for a in game.legal_actions()}
    valuations = RolloutValuations()
    valuations.get(game)
    game.apply("god gold")
    took_gold = valuations.get(game)
    game.undo()
    game.apply("god nile")
    took_nile = valuations.get(game)
    assert took_nile is not took_gold and took_nile.displays != took_gold.displays
    assert same_valuation(took_nile, Valuation(game))
