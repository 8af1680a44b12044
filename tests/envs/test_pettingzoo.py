"""The PettingZoo AEC environment passes PettingZoo's own checks."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the rl extra is not installed")

from pettingzoo.test import api_test, seed_test

import ra
from ra.encode import describe, observation
from ra.envs import pettingzoo as ra_pz


@pytest.mark.parametrize("players", [2, 3, 5])
def test_api_test(players: int) -> None:
    api_test(ra_pz.env(players=players), num_cycles=300)


def test_seed_test() -> None:
    seed_test(lambda: ra_pz.env(players=3), num_cycles=300)


def test_a_game_to_the_end_rewards_the_winner_and_replays() -> None:
    e = ra_pz.raw_env(players=3)
    e.reset(seed=5)
    seed = e.game.setup.seed
    rewards_seen: dict[str, float] = {}
    rng = np.random.default_rng(0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            rewards_seen[agent] = reward
            e.step(None)
            continue
        assert describe(obs["observation"].tolist())["to_move"] == 0  # the agent to move is slot 0
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert e.agents == []
    assert sorted(rewards_seen.values()) == [-0.5, -0.5, 1.0]
    replay = ra.Game(players=3, seed=seed)
    replay.replay(e.game.decisions)
    assert replay.returns() == [rewards_seen[f"player_{i}"] for i in range(3)]


def test_illegal_and_bad_actions_are_refused_clearly() -> None:
    e = ra_pz.raw_env(players=2)
    e.reset(seed=1)
    with pytest.raises(ValueError, match=r"illegal action 30 \(bid 6\)"):
        e.step(30)
    with pytest.raises(ValueError, match="no action has index 99"):
        e.step(99)
    with pytest.raises(ValueError, match="an action is an integer"):
        e.step("draw")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown render_mode"):
        ra_pz.env(render_mode="video")
    with pytest.raises(ValueError, match="Ra is for 2 to 5 players"):
        ra_pz.env(players=6)


def test_ansi_render_shows_the_position() -> None:
    e = ra_pz.raw_env(players=2, render_mode="ansi")
    e.reset(seed=3)
    text = e.render()
    assert text is not None
    assert "Player 1: score 10" in text and "to move: draw | ra" in text
    # People count from 1 everywhere: no 0-based "seat" beside "Player 2" for the same player.
    mover = e.game.to_move
    assert mover is not None and f"Player {mover + 1} to move" in text
    assert "seat" not in text


def test_only_the_agent_to_move_has_legal_actions_and_observations_are_its_view() -> None:
    e = ra_pz.raw_env(players=3, hidden_scores=True)
    e.reset(seed=4)
    mover = e.agent_selection
    for agent in e.agents:
        obs = e.observe(agent)
        seat = int(agent.split("_")[1])
        assert obs["observation"].tolist() == observation(e.game.view(seat))
        if agent == mover:
            assert obs["action_mask"].tolist() == e.game.legal_action_mask()
        else:
            assert not obs["action_mask"].any()


def test_the_agent_to_move_finds_its_mask_in_infos_so_it_need_not_observe() -> None:
    e = ra_pz.raw_env(players=4)
    e.reset(seed=8)
    rng = np.random.default_rng(8)
    steps = 0
    for agent in e.agent_iter():
        obs, _, terminated, truncated, info = e.last(observe=False)
        assert obs is None
        if terminated or truncated:
            assert "action_mask" not in info
            e.step(None)
            continue
        assert np.array_equal(info["action_mask"], e.observe(agent)["action_mask"])
        assert [i for i in range(ra.NUM_ACTIONS) if info["action_mask"][i]] == sorted(
            a.index for a in e.game.legal_actions()
        )
        assert all("action_mask" not in e.infos[a] for a in e.agents if a != agent)
        e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        steps += 1
    assert steps == e.game.num_decisions > 50
