"""The level ``master`` (issue 42): ``expert``'s search, budgets and reward with the shipped policy
as its PUCT prior at the weight ``LEVEL_PRIORS`` gives, the bot that was measured against
``expert`` (docs/training.md, What it reached); without the native core, the same search in Python."""

from __future__ import annotations

from pathlib import Path

import pytest

import ra
from ra import bots
from ra.bots.policy import PolicySearchBot, default_policy
from ra.bots.valuation import SEARCH_WEIGHTS
from ra.train.measure import Lineup

needs_native = pytest.mark.skipif(not ra.native_available(), reason="the measured bot is native")


def test_master_is_the_policy_search_with_the_experts_settings() -> None:
    master = bots.make("master", seed=1)
    assert isinstance(master, PolicySearchBot)
    assert master.policy == default_policy()
    weights = tuple(master.c_puct_for(n) for n in (2, 3, 4, 5))
    assert weights == bots.LEVEL_PRIORS["master"] == (0.5, 1.0, 1.0, 1.0)  # as measured: 2p 0.5, 3p 1
    assert master.weights == SEARCH_WEIGHTS and master.native == ra.native_available()
    assert master.config.win_weight == bots.LEVEL_REWARDS["expert"]["win_weight"]
    budgets = tuple(master.config.budget(n) for n in (2, 3, 4, 5))
    assert budgets == bots.MCTS_ITERATIONS["master"]
    assert budgets[:2] == bots.MCTS_ITERATIONS["expert"][:2]  # expert's, where it was measured
    assert "master" in bots.LEVELS and "puct" not in bots.LEVELS


@needs_native
@pytest.mark.parametrize(("players", "c_puct"), [(2, 0.5), (3, 1.0)])
def test_master_plays_the_moves_of_the_bot_that_was_measured(players: int, c_puct: float) -> None:
    """The level at a small budget chooses as the benchmark's generation bot (policy_budget.py's
    ``gen3`` with the shipped policy, ``--c-puct 0.5`` at 2 players, the run's 1 at 3) at that
    budget, decision for decision."""
    lineup = Lineup(Path("unused"), iterations=200, c_puct=c_puct)
    game = ra.Game(players=players, seed=11, hidden_scores=True)
    for step in range(12):
        view = game.view(game.to_move or 0)
        level = bots.make("master", seed=step, iterations=200)
        options = lineup.search_options()
        measured = PolicySearchBot(seed=step, policy=default_policy(), c_puct=c_puct, **options)
        action = level.choose(view)
        assert action == measured.choose(view)
        game.apply(action)


def test_master_by_spec_its_python_search_and_a_budget_of_its_own() -> None:
    assert isinstance(bots.from_spec("mcts:master"), PolicySearchBot)  # a level of the search
    python = bots.from_spec("master:native=false")
    assert isinstance(python, PolicySearchBot) and not python.native
    assert [python.config.budget(n) for n in (2, 3, 4, 5)] == list(bots.PYTHON_MCTS_ITERATIONS["master"])
    small = bots.from_spec("master:iterations=30:native=false", seed=2)
    assert isinstance(small, PolicySearchBot) and small.config.budget(4) == 30
    pulled = bots.from_spec("master:c_puct=2")  # one weight given: at every player count
    assert isinstance(pulled, PolicySearchBot) and [pulled.c_puct_for(n) for n in (2, 5)] == [2.0, 2.0]
    by = bots.from_spec("puct:c_puct_by_players=1/2/3/4")
    assert isinstance(by, PolicySearchBot) and by.c_puct_for(4) == 3.0
    for bad in ("1/2/3", "a/b/c/d", "1/2/3/101", "5", "true"):
        with pytest.raises(ValueError, match="c_puct_by_players must be"):
            bots.from_spec(f"master:c_puct_by_players={bad}")
    with pytest.raises(ValueError, match=r"give c_puct .* or c_puct_by_players, not both"):
        bots.from_spec("puct:c_puct=2:c_puct_by_players=1/1/1/1")
    with pytest.raises(ValueError, match=r"cannot read the policy /nowhere/policy\.json"):
        bots.from_spec("master:policy=/nowhere/policy.json")
    game = ra.Game(players=2, seed=5, hidden_scores=True)
    assert small.choose(game.view(game.to_move or 0)) in game.legal_actions()
    with pytest.raises(ValueError, match="the puct bot has no levels"):
        bots.from_spec("puct:hard")
    with pytest.raises(ValueError, match=r"unknown MCTS setting\(s\) \['depth'\]"):
        bots.from_spec("master:depth=3")


def test_the_python_master_keeps_to_a_time_budget() -> None:
    """``seconds`` bounds the Python search as it does ``mcts``'s (a level the lobby offers)."""
    bot = bots.from_spec("master:native=false:seconds=0.05", seed=1)
    assert isinstance(bot, PolicySearchBot)
    game = ra.Game(players=2, seed=5, hidden_scores=True)
    bot.choose(game.view(game.to_move or 0))
    assert 1 <= bot.last_iterations < bots.PYTHON_MCTS_ITERATIONS["master"][0]


def test_master_says_what_it_is_and_how_it_fares_against_expert() -> None:
    below, won, games = bots.LADDER["master"]
    assert below == "expert" and won <= games
    text = bots.level_help("master")
    assert "learned policy" in text and f"{won} games of {games}" in text
    for lang in ("ru", "de"):
        assert bots.level_help("master", lang) != text
    assert bots.LEVEL_RATINGS["master"][0] > bots.LEVEL_RATINGS["expert"][0]
