"""The Gymnasium environment passes Gymnasium's env checker and replays by seed."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the rl extra is not installed")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import ra.envs.gymnasium  # noqa: E402


def test_registered_and_passes_check_env() -> None:
    env = gymnasium.make("ra/Ra-v0", players=3, opponents="greedy")
    check_env(env.unwrapped, skip_render_check=False)
    env.close()


def test_check_env_with_random_seat_and_mixed_opponents() -> None:
    env = ra.envs.gymnasium.RaEnv(players=4, opponents=["random", "greedy", "easy"], seat=None)
    check_env(env)


def episode(env: ra.envs.gymnasium.RaEnv, seed: int) -> tuple[list[str], float, int]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    reward = 0.0
    done = False
    while not done:
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, done, truncated, info = env.step(action)
        assert not truncated
    return [str(a) for a in env.game.decisions], reward, env.seat


def test_reset_seed_is_reproducible_and_a_game_ends_with_the_returns() -> None:
    env = ra.envs.gymnasium.RaEnv(players=3, opponents="greedy", seat=None)
    first = episode(env, seed=7)
    again = episode(ra.envs.gymnasium.RaEnv(players=3, opponents="greedy", seat=None), seed=7)
    assert first == again
    assert env.game.is_over()
    assert first[1] == env.game.returns()[env.seat] and first[1] in (1.0, -0.5)
    other = episode(env, seed=8)
    assert other[0] != first[0]


def test_illegal_actions_lose_or_raise() -> None:
    env = ra.envs.gymnasium.RaEnv(players=2, opponents="random")
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(illegal)
    assert (reward, done) == (-1.0, True) and "illegal_action" in info
    strict = ra.envs.gymnasium.RaEnv(players=2, opponents="random", illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(ValueError, match=f"illegal action {illegal}"):
        strict.step(illegal)


def test_bad_options_are_refused_clearly() -> None:
    with pytest.raises(ValueError, match="bad bot spec 'nobody'"):
        ra.envs.gymnasium.RaEnv(players=3, opponents="nobody")
    with pytest.raises(ValueError, match="3 players need 2 opponent specs"):
        ra.envs.gymnasium.RaEnv(players=3, opponents=["greedy"])
    with pytest.raises(ValueError, match="seat is a seat number 0-1"):
        ra.envs.gymnasium.RaEnv(players=2, seat=2)


def test_ansi_render() -> None:
    env = gymnasium.make("ra/Ra-v0", players=2, opponents="random", render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str) and "auction track" in text
