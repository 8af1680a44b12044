"""The OpenSpiel game passes pyspiel's random simulation test, round-trips, and MCTS plays it."""

from __future__ import annotations

import math

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the rl extra is not installed")

from open_spiel.python.algorithms import mcts  # noqa: E402

import ra  # noqa: E402
import ra.envs.openspiel as ra_os  # noqa: E402
from ra.encode import observation  # noqa: E402


@pytest.mark.parametrize(
    ("params", "sims"),
    [
        ({"players": 2}, 2),
        ({"players": 3}, 1),
        ({"players": 5}, 1),
        ({"players": 2, "variant": "long-2p", "suns": 5, "hidden_scores": True}, 1),
    ],
)
def test_random_sim_test_with_serialization(params: dict[str, object], sims: int) -> None:
    game = pyspiel.load_game(ra_os.SHORT_NAME, params)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def random_state(players: int, steps: int, seed: int) -> ra_os.RaState:
    rng = np.random.default_rng(seed)
    state = pyspiel.load_game("python_ra", {"players": players}).new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state  # type: ignore[no-any-return]


def test_chance_nodes_deal_then_draws() -> None:
    game = pyspiel.load_game("python_ra", {"players": 4})
    state = game.new_initial_state()
    assert state.is_chance_node()
    deal = state.chance_outcomes()
    assert len(deal) == math.factorial(4) and sum(p for _, p in deal) == pytest.approx(1.0)
    state.apply_action(5)
    assert not state.is_chance_node()
    assert ra.Action.parse("draw").index in state.legal_actions()
    state.apply_action(ra.Action.parse("draw").index)
    assert state.is_chance_node()
    outcomes = dict(state.chance_outcomes())
    assert sum(outcomes.values()) == pytest.approx(1.0)
    assert outcomes[int(ra.Tile.RA)] == pytest.approx(30 / 180)
    state.apply_action(int(ra.Tile.GOLD))
    inner = state.ra_game
    assert inner is not None and inner.auction_track == ["gold"]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "tile gold"


def test_serialize_round_trip_and_tensors_from_the_view() -> None:
    for players, steps in ((2, 40), (3, 150), (5, 400)):
        state = random_state(players, steps, seed=players)
        game = state.get_game()
        back = game.deserialize_state(state.serialize())
        assert back.history() == state.history() and str(back) == str(state)
        _, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
        assert again.history() == state.history()
        inner = state.ra_game
        assert inner is not None
        for seat in range(players):
            expected = observation(inner.view(seat))
            assert state.observation_tensor(seat) == pytest.approx(expected)
            assert back.information_state_tensor(seat) == pytest.approx(expected)
        assert state.information_state_string(0).startswith("seat 0: ")


def test_openspiel_mcts_bot_plays_a_game() -> None:
    game = pyspiel.load_game("python_ra", {"players": 2})
    rs = np.random.RandomState(0)
    bot = mcts.MCTSBot(
        game, uct_c=2.0, max_simulations=3, evaluator=mcts.RandomRolloutEvaluator(1, rs), random_state=rs
    )
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(outcomes, p=probs)))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        else:
            state.apply_action(int(rs.choice(state.legal_actions())))
    assert sorted(state.returns()) == [-1.0, 1.0]


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="Ra is for 2 to 5 players"):
        ra_os.RaGame({"players": 6})
    with pytest.raises(ValueError, match="unknown parameter"):
        ra_os.RaGame({"seats": 3})


def test_state_from_a_determinized_view_searches_without_the_bag() -> None:
    game = ra.Game(players=3, seed=9)
    game.apply("draw")
    seat = game.to_move
    assert seat is not None
    state = ra_os.state_from_game(game.view(seat).determinize(seed=1))
    assert state.current_player() == seat
    assert state.legal_actions() == sorted(a.index for a in game.legal_actions())
    assert state.observation_tensor(seat) == pytest.approx(observation(game.view(seat)))


def test_the_arena_seats_an_openspiel_mcts_bot() -> None:
    from ra import arena, bots

    bot = bots.from_spec("openspiel-mcts:simulations=3:rollouts=1", seed=1)
    assert repr(bot) == "OpenSpielMCTSBot(seed=1, simulations=3, rollouts=1, uct_c=2.0)"
    specs = arena.schedule(["openspiel-mcts:simulations=3", "greedy"], players=2, games=2, seed=1)
    results, interrupted = arena.run_games(specs, jobs=1, keep_records=True)
    assert not interrupted and len(results) == 2 and all(r.error is None for r in results)
    again, _ = arena.run_games(specs, jobs=1, keep_records=True)
    assert [(r.scores, r.record) for r in again] == [(r.scores, r.record) for r in results]
    with pytest.raises(ValueError, match="simulations must be a positive integer"):
        bots.from_spec("openspiel-mcts:simulations=0")
    with pytest.raises(ValueError, match="unknown option"):
        bots.from_spec("openspiel-mcts:depth=3")
