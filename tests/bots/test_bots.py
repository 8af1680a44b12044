"""Bots: legal choices only, no hidden information, reproducible, sensible heuristics."""

from __future__ import annotations

import random

import pytest

import ra
from ra import bots
from tests.conftest import make_game, play

STANDARD_2P = [[9, 6, 5, 2], [8, 7, 4, 3]]


def play_bots(players: int, specs: list[str], seed: int) -> ra.Game:
    game = ra.Game(players=players, seed=seed)
    seated = [bots.from_spec(specs[i % len(specs)], seed=seed * 10 + i) for i in range(players)]
    while not game.is_over():
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        action = seated[seat].choose(view)
        assert action in view.legal_actions(), f"{specs} returned an illegal {action}"
        game.apply(action)
    return game


@pytest.mark.slow  # many whole games per player count
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_and_greedy_bots_only_return_legal_actions(players: int) -> None:
    for seed in range(250):
        game = play_bots(players, ["greedy", "random", "easy"], seed)
        assert game.is_over()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_mcts_only_returns_legal_actions(players: int) -> None:
    for seed in range(2):
        play_bots(players, ["mcts:iterations=8", "greedy"], seed)
        play_bots(players, ["mcts:iterations=6:rollout=random:paired_root=false", "random"], seed)


def test_bots_play_the_long_game_and_hidden_scores() -> None:
    game = ra.Game(players=2, variant="long-2p", suns_per_player=7, hidden_scores=True, seed=3)
    seated = [bots.make("mcts", seed=1, iterations=6), bots.make("greedy")]
    while not game.is_over():
        seat = game.to_move
        assert seat is not None
        game.apply(seated[seat].choose(game.view(seat)))


def twin_games() -> tuple[ra.Game, ra.Game]:
    """Two games with the same public history and different bags from now on."""
    stacked = ["gold", "nile", "pharaoh", "ra", "temple", "flood", "god", "art"]
    suns = [[13, 8, 5, 2], [12, 9, 6, 3], [11, 10, 7, 4]]
    a = make_game(3, bag=stacked, suns=suns, seed=1)
    b = make_game(3, bag=stacked, suns=suns, seed=2)
    moves = ["draw", "draw", "draw", "draw", "pass", "pass", "pass", "draw", "draw", "draw"]
    play(a, *moves)
    play(b, *moves)
    assert a._bag is not None and b._bag is not None
    assert [a._bag.tile(k) for k in range(9, 60)] != [b._bag.tile(k) for k in range(9, 60)]
    return a, b


@pytest.mark.parametrize(
    "spec", ["random", "greedy", "easy", "mcts:iterations=30", "mcts:iterations=30:paired_root=false"]
)
def test_a_bot_never_reads_the_bag_order(spec: str) -> None:
    a, b = twin_games()
    seat = a.to_move
    assert seat is not None and seat == b.to_move
    assert a.view(seat) == b.view(seat)
    choice_a = bots.from_spec(spec, seed=5).choose(a.view(seat))
    choice_b = bots.from_spec(spec, seed=5).choose(b.view(seat))
    assert choice_a is choice_b


@pytest.mark.parametrize("spec", ["random", "easy", "mcts:iterations=20"])
def test_seeded_bots_reproduce_the_same_game(spec: str) -> None:
    first = play_bots(3, [spec, "greedy"], seed=4)
    second = play_bots(3, [spec, "greedy"], seed=4)
    assert first.decisions == second.decisions
    assert first.scores == second.scores


def test_make_by_name_level_and_spec() -> None:
    assert isinstance(bots.make("random", seed=1), bots.RandomBot)
    assert isinstance(bots.make("greedy"), bots.GreedyBot)
    hard = bots.make("mcts", seed=1, level="hard")
    assert isinstance(hard, bots.MCTSBot)
    assert tuple(hard.config.budget(n) for n in (2, 3, 4, 5)) == bots.MCTS_ITERATIONS["hard"]
    assert isinstance(bots.make("hard"), bots.MCTSBot)
    easy = bots.make("easy")
    assert isinstance(easy, bots.GreedyBot) and easy.epsilon > 0
    spec = bots.from_spec("mcts:medium:exploration=0.9:rollout=random")
    assert isinstance(spec, bots.MCTSBot)
    assert (spec.config.iterations, spec.config.exploration, spec.config.rollout) == (150, 0.9, "random")
    assert isinstance(bots.make("greedy"), bots.Bot)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("alphago", "unknown bot 'alphago'"),
        ("mcts:impossible", "bad part 'impossible'"),
        ("mcts:depth=3", r"unknown MCTS setting\(s\) \['depth'\]"),
        ("mcts:rollout=smart", "rollout must be greedy or random, got 'smart'"),
        ("mcts:iterations=0", "iterations must be from 1 to"),
        ("mcts:iterations=abc", "iterations must be an integer, got 'abc'"),
        ("mcts:exploration=high", "exploration must be a number, got 'high'"),
        ("mcts:seconds=-1", "seconds must be from"),
        ("mcts:paired_root=3", "paired_root must be true or false"),
        ("greedy:epsilon=2", "epsilon must be a number from 0 to 1, got 2"),
        ("greedy:hard", "the greedy bot has no levels"),
        ("random:hard", "the random bot has no levels"),
        ("random:speed=3", "unknown option.*speed for the random bot"),
        ("greedy:level=hard", "the greedy bot has no levels"),
        ("hard:easy", "already a level"),
        (":hard", "empty bot name"),
    ],
)
def test_bad_bot_specs_say_why(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        bots.from_spec(spec)


def test_mcts_is_deterministic_for_a_seed_and_budget() -> None:
    game = ra.Game(players=3, seed=9)
    rng = random.Random(9)
    for _ in range(12):
        game.apply(rng.choice(game.legal_actions()))
    view = game.view(game.to_move or 0)
    picks = {bots.make("mcts", seed=7, iterations=40).choose(view) for _ in range(3)}
    assert len(picks) == 1
    bot = bots.make("mcts", seed=7, iterations=40)
    bot.choose(view)
    assert isinstance(bot, bots.MCTSBot) and bot.last_iterations >= 40


@pytest.mark.parametrize("native", ["true", "false"])
def test_mcts_epsilon_rollouts_play_legal_whole_games(native: str) -> None:
    if native == "true" and not ra.native_available():
        pytest.skip("the native core is not built")
    game = play_bots(3, [f"mcts:iterations=30:epsilon=0.3:native={native}", "greedy"], seed=4)
    assert game.is_over()
    for bad in ("-0.1", "1.5"):
        with pytest.raises(ValueError, match=r"epsilon must be from 0\.0 to 1\.0"):
            bots.from_spec(f"mcts:epsilon={bad}")


def test_mcts_time_budget_stops_in_time() -> None:
    import time

    game = ra.Game(players=3, seed=9)
    game.apply("draw")
    bot = bots.make("mcts", seed=1, seconds=0.2)
    start = time.perf_counter()
    bot.choose(game.view(game.to_move or 0))
    assert time.perf_counter() - start < 1.0
    assert isinstance(bot, bots.MCTSBot) and bot.last_iterations > 0


# --- the greedy heuristics -------------------------------------------------------


def greedy_choice(game: ra.Game) -> str:
    seat = game.to_move
    assert seat is not None
    return str(bots.make("greedy").choose(game.view(seat)))


def test_greedy_bids_its_smallest_sun_on_a_rich_lot() -> None:
    game = make_game(2, bag=["gold", "gold", "god", "gold"], suns=STANDARD_2P)
    play(game, "draw", "draw", "draw", "draw", "ra")
    assert game.to_move == 1
    assert greedy_choice(game) == "bid 3"


def test_greedy_passes_on_a_lot_of_disasters() -> None:
    game = make_game(2, bag=["pharaoh", "pharaoh", "funeral", "earthquake"], suns=STANDARD_2P)
    play(game, "draw", "draw", "ra", "pass", "bid 2")  # seat 0 wins two Pharaohs
    play(game, "draw", "draw", "ra")  # seat 1 draws the Funeral, seat 0 the Earthquake; seat 1 invokes
    assert game.to_move == 0
    assert greedy_choice(game) == "pass"  # the lot would cost seat 0 both Pharaohs


def test_greedy_invokes_ra_for_a_valuable_lot_and_draws_otherwise() -> None:
    game = make_game(2, bag=["gold", "gold", "gold"], suns=STANDARD_2P)
    assert greedy_choice(game) == "draw"  # nothing to win yet
    play(game, "draw", "draw", "draw")
    assert greedy_choice(game) == "ra"


def test_greedy_discards_what_costs_it_least() -> None:
    # Four Pyramids (+10 as a set) with a Temple and an Obelisk, then an Earthquake:
    # losing a Pyramid costs 5, losing the Temple or the Obelisk only 1 (R7.3).
    lot = ["pyramid", "pyramid", "pyramid", "pyramid", "temple", "obelisk", "earthquake"]
    game = make_game(2, bag=lot, suns=STANDARD_2P)
    play(game, *["draw"] * 7, "ra", "bid 2", "pass")
    assert game.phase == "discard"
    first = greedy_choice(game)
    assert first in ("discard temple", "discard obelisk")
    play(game, first)
    assert game.phase == "discard"  # one more to lose, still a choice (R5.4)
    second = greedy_choice(game)
    assert second in ("discard temple", "discard obelisk") and second != first
    play(game, second)
    assert dict(game.players[0].tiles) == {"pyramid": 4}


def test_greedy_uses_a_god_when_the_take_is_worth_it() -> None:
    # Seat 0 holds six Niles and a God; a Flood makes the Niles score (R7.2).
    game = make_game(2, bag=["god", *["nile"] * 6, "flood", "gold"], suns=STANDARD_2P)
    play(game, *["draw"] * 7, "ra", "bid 2", "pass")
    assert dict(game.players[0].tiles) == {"god": 1, "nile": 6}
    play(game, "draw", "draw")  # seat 0 draws the Flood, seat 1 the Gold
    assert game.to_move == 0
    assert greedy_choice(game) == "god flood"
    # Without the Niles a God is not worth spending on the Flood.
    game = make_game(2, bag=["god", "flood", "gold"], suns=STANDARD_2P)
    play(game, "draw", "ra", "bid 2", "pass", "draw", "draw")
    assert game.to_move == 0
    assert not greedy_choice(game).startswith("god")


def test_bad_options_fail_at_make_not_in_choose() -> None:
    with pytest.raises(ValueError, match="exploration must be a number"):
        bots.make("mcts", exploration="high")
    with pytest.raises(ValueError, match="the greedy bot has no levels"):
        bots.make("greedy", level="hard")
    with pytest.raises(ValueError, match="unknown level 'extreme'"):
        bots.make("mcts", level="extreme")
    with pytest.raises(ValueError, match="seed is an integer"):
        bots.make("random", seed="1")  # type: ignore[arg-type]


def test_bots_repr_shows_their_configuration() -> None:
    assert repr(bots.make("random", seed=4)) == "RandomBot(seed=4)"
    assert repr(bots.make("easy", seed=1)) == "GreedyBot(seed=1, epsilon=0.25)"
    search = "NativeMCTSBot" if ra.native_available() else "MCTSBot"
    assert repr(bots.make("mcts", seed=2, level="medium")) == f"{search}(seed=2, iterations=150)"
    assert repr(bots.from_spec("mcts:iterations=30:rollout=random", seed=0)) == (
        f"{search}(seed=0, iterations=30, rollout='random')"
    )
    assert repr(bots.from_spec("mcts:medium:native=false", seed=2)) == "MCTSBot(seed=2, iterations=150)"


def test_level_budgets_by_player_count() -> None:
    """A level's budget may differ by player count; a budget given with the level wins."""
    by = bots.MCTSConfig(iterations=7, iterations_by_players=(10, 20, 30, 40))
    assert [by.budget(n) for n in (2, 3, 4, 5)] == [10, 20, 30, 40]
    assert bots.MCTSConfig(iterations=7).budget(4) == 7

    def config(spec: str) -> bots.MCTSConfig:
        bot = bots.from_spec(spec)
        assert isinstance(bot, bots.MCTSBot)
        return bot.config

    assert config("mcts:iterations_by_players=4/3/2/1").iterations_by_players == (4, 3, 2, 1)
    assert config("hard:iterations=300").budget(2) == 300
    assert config("mcts:hard:iterations=300").iterations_by_players is None
    # The Python search at a level gets the Python budget, not the native one.
    python_hard = bots.make("hard", native=False)
    assert type(python_hard) is bots.MCTSBot and isinstance(python_hard, bots.MCTSBot)
    assert [python_hard.config.budget(n) for n in (2, 3, 4, 5)] == list(bots.PYTHON_MCTS_ITERATIONS["hard"])
    for bad in ("1/2/3", "a/b/c/d", "0/1/1/1", "5"):
        with pytest.raises(ValueError, match="iterations_by_players must be four integers"):
            bots.from_spec(f"mcts:iterations_by_players={bad}")


def test_expert_weighs_the_win_more_and_a_spec_can_undo_it() -> None:
    """``expert`` searches with its own reward (LEVEL_REWARDS), the other levels with the default."""

    def config(spec: str) -> bots.MCTSConfig:
        bot = bots.from_spec(spec)
        assert isinstance(bot, bots.MCTSBot)
        return bot.config

    default = bots.MCTSConfig().win_weight
    assert config("expert").win_weight == bots.LEVEL_REWARDS["expert"]["win_weight"] != default
    assert config("expert:native=false").win_weight == bots.LEVEL_REWARDS["expert"]["win_weight"]
    assert config("expert:win_weight=0.25").win_weight == 0.25
    assert config("hard").win_weight == config("medium").win_weight == config("mcts").win_weight == default


def budget_spent(players: int, native: bool, budgets: tuple[int, int, int, int]) -> int:
    """Iterations an ``mcts`` bot with ``iterations_by_players=budgets`` makes for one real choice."""
    game = ra.Game(players, seed=4)
    while len(game.legal_actions()) < 2:
        game.apply(game.legal_actions()[0])
    bot = bots.make("mcts", seed=1, native=native, iterations_by_players=budgets)
    assert isinstance(bot, bots.MCTSBot) and game.to_move is not None
    bot.choose(game.view(game.to_move))
    return bot.last_iterations


def test_the_python_search_spends_its_budget_for_the_player_count() -> None:
    assert budget_spent(3, False, (5, 9, 13, 17)) == 9


def test_bots_registered_by_entry_point_load_when_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 39: ra.bots names no adapter; the OpenSpiel bot registers itself in the package's
    metadata (entry-point group ``ra.bots``), and a plugin that cannot load says why."""
    from importlib.metadata import EntryPoint

    from ra import bots

    assert bots._plugins()["openspiel-mcts"].value == "ra.envs.openspiel:OpenSpielMCTSBot"
    plugins = {
        "plain": EntryPoint("plain", "ra.bots.base:RandomBot", bots.PLUGINS),
        "gone": EntryPoint("gone", "ra.no_such_module:Bot", bots.PLUGINS),
        "notabot": EntryPoint("notabot", "collections:OrderedDict", bots.PLUGINS),
    }
    monkeypatch.setattr(bots, "_plugins", lambda: plugins)
    assert isinstance(bots.make("plain", seed=3), bots.RandomBot)
    with pytest.raises(ValueError, match=r"the gone bot \(ra.no_such_module:Bot\) could not be loaded"):
        bots.make("gone")
    with pytest.raises(ValueError, match="unknown option"):
        bots.make("plain", depth=3)
    with pytest.raises(ValueError, match="has no levels"):
        bots.make("plain", level="hard")
    with pytest.raises(ValueError, match="is not a bot"):
        bots.make("notabot")
    with pytest.raises(ValueError, match=r"bots are: .*plain, gone, notabot"):
        bots.make("nothing")
