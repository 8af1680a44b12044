"""ra.envs.vector: many games stepped at once in the native core (issue 26)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import ra
from ra.encode import observation_of
from ra.native import core

if core is None:
    pytest.skip("the native core is not built or RA_NATIVE=0", allow_module_level=True)

from ra.envs.vector import GymVectorRaEnv, VectorRaEnv


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("hidden", [False, True])
def test_the_native_encoder_is_ra_encode_at_every_position(players: int, hidden: bool) -> None:
    """The C++ observation equals ra.encode's for every seat of every position of random games."""
    assert core is not None
    rng = random.Random(players)
    for seed in range(6):
        game = ra.Game(players, seed=seed, hidden_scores=hidden)
        while True:
            state = core.State.from_game(game)
            for seat in range(players):
                assert core.encode(state, seat, hidden) == observation_of(game, seat)
            if game.is_over():
                break
            game.apply(rng.choice(game.legal_actions()))


def test_long_two_player_games_encode_the_same() -> None:
    assert core is not None
    game, rng = ra.Game(2, seed=3, variant="long-2p", suns_per_player=7), random.Random(3)
    while not game.is_over():
        assert core.encode(core.State.from_game(game), 0, False) == observation_of(game, 0)
        game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("opponents", ["random", "greedy", "none"])
def test_every_step_writes_the_games_observation_and_legal_mask(opponents: str) -> None:
    assert core is not None
    env = VectorRaEnv(16, players=3, opponents=opponents, seed=5, hidden_scores=True)
    obs, info = env.reset()
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(400):
        agents = env.agents()
        for i in range(env.num_envs):
            state = env.state(i)
            seat = info["to_move"][i]
            viewer = agents[i] if opponents != "none" else seat
            if opponents != "none":
                assert seat == agents[i]  # opponents moved natively until the learner's turn
            assert obs[i].tolist() == core.encode(state, viewer, True)
            legal = state.legal_actions()
            assert np.flatnonzero(info["action_mask"][i]).tolist() == legal
        obs, reward, terminated, truncated, info = env.step(env.sample_actions(rng))
        assert not truncated.any()
        assert set(np.unique(reward)) <= {0.0, 1.0} and (reward[~terminated] == 0).all()
        finished += int(terminated.sum())
    assert finished > 0  # games ended and were replaced (auto-reset)


def test_the_same_seed_plays_the_same_games() -> None:
    runs = []
    for _ in range(2):
        env = VectorRaEnv(8, players=4, opponents="greedy", seed=11)
        env.reset()
        rng = np.random.default_rng(3)
        trace = []
        for _ in range(150):
            obs, reward, terminated, _, _ = env.step(env.sample_actions(rng))
            trace.append((obs.copy(), reward.copy(), terminated.copy()))
        runs.append(trace)
    for (a, b, c), (x, y, z) in zip(*runs, strict=True):
        assert (a == x).all() and (b == y).all() and (c == z).all()
    other = VectorRaEnv(8, players=4, opponents="greedy", seed=12)
    other.reset()
    rng = np.random.default_rng(3)
    differs = False
    for a, _, _ in runs[0][:20]:
        obs, _, _, _, _ = other.step(other.sample_actions(rng))
        differs = differs or not (obs == a).all()
    assert differs  # another seed deals other games


def test_the_learners_seat_takes_turns() -> None:
    env = VectorRaEnv(9, players=3, seed=2)
    env.reset()
    assert sorted(env.agents()) == [0, 0, 0, 1, 1, 1, 2, 2, 2]


def test_an_illegal_action_is_named_and_moves_no_game() -> None:
    env = VectorRaEnv(4, players=3, seed=2)
    obs, info = env.reset()
    before = obs.copy()
    actions = env.sample_actions(np.random.default_rng(0))
    bad = int(np.flatnonzero(info["action_mask"][2] == 0)[0])
    actions[2] = bad
    with pytest.raises(ValueError, match=f"action {bad} is not legal in game 2"):
        env.step(actions)
    assert (env.observations == before).all()
    with pytest.raises(ValueError, match="4 action indices expected"):
        env.step(np.zeros(3, np.int32))


def test_bad_arguments_are_named() -> None:
    with pytest.raises(ValueError, match="unknown opponents"):
        VectorRaEnv(2, opponents="smart")
    with pytest.raises(ValueError, match="num_envs"):
        VectorRaEnv(0)
    with pytest.raises(ValueError, match="players 2-5"):
        VectorRaEnv(2, players=6)
    with pytest.raises(ValueError, match="long-2p"):
        VectorRaEnv(2, players=3, suns_per_player=5)


def test_gymnasium_vector_env() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    env = GymVectorRaEnv(4, players=2, seed=1)
    assert isinstance(env, gymnasium.vector.VectorEnv)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    for _ in range(50):
        mask = info["action_mask"]
        actions = np.argmax(rng.random(mask.shape) * mask, axis=1)
        obs, _, _, _, info = env.step(actions)
        assert env.observation_space.contains(obs) and obs.dtype == np.float32


def test_the_parallel_api_gives_every_agent_its_own_view_and_moves_only_the_mover() -> None:
    assert core is not None
    from ra.envs.vector import ParallelVectorRaEnv

    env = ParallelVectorRaEnv(6, players=3, seed=4, hidden_scores=True)
    obs, infos = env.reset()
    rng = np.random.default_rng(2)
    rewarded = 0.0
    for _ in range(300):
        for k, agent in enumerate(env.possible_agents):
            for i in range(env.num_envs):
                assert obs[agent][i].tolist() == core.encode(env.env.state(i), k, True)
            movers = env.env.to_move == k
            assert (infos[agent]["action_mask"][~movers] == 0).all()
        actions = {
            a: np.argmax(rng.random((env.num_envs, ra.NUM_ACTIONS)) * infos[a]["action_mask"], axis=1)
            for a in env.possible_agents
        }
        obs, rewards, terms, _, infos = env.step(actions)
        rewarded += sum(float(r.sum()) for r in rewards.values())
        assert all((terms[a] == terms[env.possible_agents[0]]).all() for a in env.possible_agents)
    assert rewarded > 0  # games ended and their winners were rewarded


def test_games_loaded_from_the_python_engine_step_exactly_as_it_does() -> None:
    """The same positions and actions: the batch's masks are the Python engine's legal actions
    and its observations ra.encode's, at every step of many seeded games (self-play mode)."""
    players = 3
    env = VectorRaEnv(8, players=players, opponents="none", seed=1, hidden_scores=True)
    env.reset()
    games = [ra.Game(players, seed=100 + i, hidden_scores=True) for i in range(8)]
    obs, info = env.load(games)
    rng = random.Random(5)
    steps = 0
    while not all(g.is_over() for g in games):
        actions = np.zeros(8, np.int32)
        playing = [not g.is_over() for g in games]
        actors = [g.to_move for g in games]
        for i, game in enumerate(games):
            if not playing[i]:
                actions[i] = int(np.flatnonzero(info["action_mask"][i])[0])  # a fresh game there
                continue
            seat = game.to_move
            assert seat is not None and info["to_move"][i] == seat
            legal = game.legal_actions()
            assert np.flatnonzero(info["action_mask"][i]).tolist() == sorted(a.index for a in legal)
            assert obs[i].tolist() == observation_of(game, seat)
            action = rng.choice(legal)
            actions[i] = action.index
            game.apply(action)
        obs, reward, terminated, _, info = env.step(actions)
        for i, game in enumerate(games):
            if playing[i]:
                assert bool(terminated[i]) == game.is_over()  # it ends in the same step
                won = game.is_over() and game.winner == actors[i]  # the decider won the game
                assert reward[i] == (1.0 if won else 0.0)
        steps += 1
    assert steps > 100
