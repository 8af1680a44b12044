"""The native ISMCTS: deterministic for a seed, blind to the real bag (R9.3), valued like the
Python search (projected_scores), and usable as the mcts bot and the levels."""

from __future__ import annotations

import random

import pytest

import ra
from ra import bots
from ra.bots.mcts import projected_scores
from tests.bots.test_bots import budget_spent, play_bots, twin_games
from tests.native.helpers import CORE, random_policy, side_by_side


def positions(count: int, seed: int) -> list[ra.Game]:
    """Positions with a real choice from random games of every player count."""
    rng = random.Random(seed)
    out: list[ra.Game] = []
    i = 0
    while len(out) < count:
        game = ra.Game(2 + i % 4, seed=seed * 100 + i)
        i += 1
        while not game.is_over() and len(out) < count:
            if len(game.legal_actions()) > 1 and rng.random() < 0.1:
                out.append(game.clone())
            game.apply(rng.choice(game.legal_actions()))
    return out


def test_projected_scores_match_python() -> None:
    """The value of a rollout's last position is Python's projected_scores, to the bit."""
    checked = 0
    for seed in range(40):
        for game, state in side_by_side(ra.Game(2 + seed % 4, seed=seed), random_policy, seed):
            if not game.is_over():
                assert state.projected_scores() == projected_scores(game)
                checked += 1
    assert checked > 2000


def test_search_is_deterministic_for_a_seed() -> None:
    for game in positions(12, 1):
        state = CORE.State.from_game(game)
        first = state.mcts(iterations=300, seed=42)
        assert state.mcts(iterations=300, seed=42) == first
        assert first[1] == 300
        assert ra.Action.from_index(first[0]) in game.legal_actions()


def test_search_never_reads_the_real_bag() -> None:
    """A view (no bag) and the game (real bag) search identically; so do two games with the
    same public history and different bags (R9.3)."""
    for game in positions(10, 2):
        seat = game.to_move
        assert seat is not None
        from_game = CORE.State.from_game(game).mcts(iterations=200, seed=7)
        assert CORE.State.from_game(game.view(seat)).mcts(iterations=200, seed=7) == from_game
    a, b = twin_games()
    assert CORE.State.from_game(a).mcts(iterations=400, seed=3) == CORE.State.from_game(b).mcts(
        iterations=400, seed=3
    )


def test_search_options() -> None:
    game = positions(1, 3)[0]
    state = CORE.State.from_game(game)
    for options in ({"rollout": "random"}, {"horizon": 3}, {"exploration": 2.0, "win_weight": 1.0}):
        index, done = state.mcts(iterations=50, seed=1, **options)
        assert done == 50 and ra.Action.from_index(index) in game.legal_actions()
    index, done = state.mcts(seconds=0.05, seed=1)
    assert done >= 1 and ra.Action.from_index(index) in game.legal_actions()
    with pytest.raises(ValueError, match="rollout"):
        state.mcts(rollout="smart")
    with pytest.raises(ValueError, match="epsilon"):
        state.mcts(epsilon=1.5)


def test_epsilon_rollouts_change_the_search_only_when_asked() -> None:
    # epsilon=0 draws no random numbers for the rollouts: the same search as before, move for move.
    state = CORE.State.from_game(positions(2, 3)[1])
    plain = state.mcts(iterations=400, seed=5)
    assert state.mcts(iterations=400, seed=5, epsilon=0.0) == plain
    assert state.mcts(iterations=400, seed=5, epsilon=0.2) == state.mcts(iterations=400, seed=5, epsilon=0.2)
    index, done = state.mcts(iterations=400, seed=5, epsilon=1.0)
    assert done == 400 and ra.Action.from_index(index) in positions(2, 3)[1].legal_actions()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_native_bot_plays_whole_games(players: int) -> None:
    first = play_bots(players, ["mcts:iterations=60", "greedy"], seed=players)
    again = play_bots(players, ["mcts:iterations=60", "greedy"], seed=players)
    assert first.decisions == again.decisions  # reproducible for a seed


def test_the_levels_use_the_native_search() -> None:
    for level in ("medium", "hard", "expert"):
        bot = bots.make(level, seed=1)
        assert isinstance(bot, bots.NativeMCTSBot)
        assert tuple(bot.config.budget(n) for n in (2, 3, 4, 5)) == bots.NATIVE_MCTS_ITERATIONS[level]
    assert type(bots.make("mcts", native=False)) is bots.MCTSBot
    assert type(bots.make("mcts", paired_root=True)) is bots.MCTSBot  # Python only
    assert type(bots.make("mcts", config=bots.MCTSConfig(paired_root=True))) is bots.MCTSBot
    with pytest.raises(ValueError, match="paired_root"):
        bots.make("mcts", native=True, paired_root=True)
    with pytest.raises(ValueError, match="true or false"):
        bots.from_spec("mcts:native=3")
    game = ra.Game(3, seed=5)
    bot = bots.make("mcts", seed=3, iterations=100)
    assert isinstance(bot, bots.NativeMCTSBot)
    action = bot.choose(game.view(0))
    assert action in game.legal_actions() and bot.last_iterations == 100


def test_a_check_that_raises_stops_the_search() -> None:
    """The terminal game stops a search on undo or quit through the view's determinize()."""
    state = CORE.State.from_game(positions(1, 4)[0])
    calls: list[int] = []

    def check() -> None:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        state.mcts(iterations=1_000_000, seed=1, check=check)
    assert len(calls) == 3
    assert state.mcts(iterations=600, seed=1, check=lambda: None)[1] == 600


def test_the_native_search_spends_its_budget_for_the_player_count() -> None:
    assert budget_spent(2, True, (11, 13, 17, 23)) == 11
    assert budget_spent(5, True, (11, 13, 17, 23)) == 23
