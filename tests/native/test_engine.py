"""The native engine plays exactly like the Python engine (the reference): full state and legal
actions compared after every decision of thousands of seeded games (R1-R8)."""

from __future__ import annotations

import random

import pytest

import ra
from tests.native.helpers import CORE, greedy_policy, mask_of, random_policy, side_by_side


def play_through(game: ra.Game, policy_name: str, seed: int) -> int:
    policy = random_policy if policy_name == "random" else greedy_policy
    decisions = 0
    for _ in side_by_side(game, policy, seed):
        decisions += 1
    return decisions


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_match(players: int) -> None:
    total = 0
    for seed in range(300):
        total += play_through(ra.Game(players, seed=seed * 7 + players), "random", seed)
    assert total > 300 * 50  # whole games were compared, not just starts


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_greedy_games_match(players: int) -> None:
    for seed in range(60):
        play_through(ra.Game(players, seed=1000 + seed), "greedy", seed)


@pytest.mark.parametrize("suns", [4, 5, 6, 7])
def test_long_two_player_games_match(suns: int) -> None:
    """R2.3: the long two-player game, every number of suns."""
    for seed in range(60):
        game = ra.Game(2, seed=seed, variant="long-2p", suns_per_player=suns)
        play_through(game, "random" if seed % 2 else "greedy", seed)


SUN_SETUPS = [
    [[2, 3], [16, 15, 14]],
    [[13, 12, 11, 10], [2], [9, 8, 7, 6, 5, 4, 3]],
    [[5], [6], [7], [8]],
    [[16, 2], [15, 3], [14, 4], [13, 5], [12]],
]


@pytest.mark.parametrize("suns", SUN_SETUPS, ids=lambda s: f"{len(s)}p")
def test_chosen_suns_match(suns: list[list[int]]) -> None:
    """Uneven sun groups reach the rarer paths: players out of suns, forced bids (R4.3, R4.6)."""
    for seed in range(80):
        game = ra.Game(len(suns), seed=seed, suns=suns)
        play_through(game, "random" if seed % 2 else "greedy", seed)


def test_disaster_heavy_bag_matches() -> None:
    """A bag stacked with disasters and choices (R5): discards chosen and forced."""
    top = ["god", "unrest", "earthquake", "astronomy", "writing", "fortress", "obelisk", "funeral"] * 2
    for seed in range(100):
        game = ra.Game(3, seed=seed, bag=top)
        play_through(game, "random", seed)


def god_heavy_policy(game: ra.Game, rng: random.Random) -> ra.Action:
    """Random, but saving God tiles to use several in one turn, Disasters first (the paths of
    R3.5's two timings)."""
    legal = game.legal_actions()
    gods = [a for a in legal if a.kind == "god"]
    seat = game.to_move
    assert seat is not None
    held = game.tile_counts(seat)[ra.Tile.GOD]
    if gods and (game.phase == "god" or held >= 2) and rng.random() < 0.9:
        disasters = [a for a in gods if a.tile is not None and a.tile >= ra.Tile.FUNERAL]
        return rng.choice(disasters if disasters and rng.random() < 0.7 else gods)
    if gods and game.phase == "action" and held < 2:
        legal = [a for a in legal if a.kind != "god"] if rng.random() < 0.8 else legal
    return rng.choice(legal)


GOD_AND_DISASTER_TOP = [
    "god", "god", "god", "god", "unrest", "earthquake", "pharaoh", "astronomy", "funeral", "fortress",
    "writing", "obelisk", "drought", "flood", "nile", "unrest", "god", "god", "art", "earthquake",
    "god", "god", "pharaoh", "funeral", "unrest", "temple", "pyramid", "drought", "religion", "unrest",
]  # fmt: skip


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_2008_disaster_timing_games_match(players: int) -> None:
    """R3.5, the variant "2008 disaster timing": Disasters taken with God tiles wait until the
    player stops, then are resolved (choices included); both engines agree after every decision."""
    decisions = waiting = 0
    for seed in range(150):
        bag = GOD_AND_DISASTER_TOP if seed % 3 else None
        game = ra.Game(players, seed=seed * 11 + players, disaster_timing="2008", bag=bag)
        policy = god_heavy_policy if seed % 5 else greedy_policy
        for g, _ in side_by_side(game, policy, seed):
            decisions += 1
            waiting += bool(g.pending_disasters)
    assert decisions > 150 * 50  # thousands of decisions, whole games
    assert waiting > 15  # and many of them with disasters waiting (the variant's own states)


def test_empty_bag_scenario_matches() -> None:
    """R6.5: a small exact bag runs out; drawing is no longer offered."""
    bag = ["pharaoh", "nile", "flood", "ra", "god", "gold", "ra", "ra", "ra", "ra", "ra", "ra"]
    for seed in range(40):
        game = ra.Game(2, seed=seed, bag=bag, exact_bag=True)
        play_through(game, "random", seed)


def test_positions_from_a_game_in_progress() -> None:
    """from_game mirrors a game at any point, bag order included (it draws the same tiles)."""
    rng = random.Random(5)
    for seed in range(50):
        game = ra.Game(2 + seed % 4, seed=seed)
        for _ in range(rng.randrange(150)):
            if game.is_over():
                break
            game.apply(rng.choice(game.legal_actions()))
        play_through(game, "random", seed)


def test_chance_outcomes_and_chosen_draws_match() -> None:
    for seed in range(40):
        game = ra.Game(3, seed=seed)
        rng = random.Random(seed)
        state = CORE.State.from_game(game)
        while not game.is_over():
            outcomes = game.chance_outcomes()
            assert state.chance_outcomes() == [(int(t), p) for t, p in outcomes]
            if outcomes and rng.random() < 0.5:
                tile = rng.choice(outcomes)[0]
                game.apply_draw(tile)
                state.apply_draw(int(tile))
                assert state.snapshot() == ra.native.snapshot(game)
                state = CORE.State.from_game(game)  # the Python game re-seeded its bag
            else:
                action = rng.choice(game.legal_actions())
                game.apply(action)
                state.apply(action.index)


def test_native_deal_follows_the_python_seed() -> None:
    """A native game from a seed deals the suns as ra.Game does (R2.2, R9.2)."""
    for players in (2, 3, 4, 5):
        for seed in range(30):
            mine = CORE.State(players, seed).snapshot()
            theirs = ra.native.snapshot(ra.Game(players, seed=seed))
            assert mine[19] == theirs[19]  # face-up suns
            assert mine[4] == theirs[4]  # who starts
    long = CORE.State(2, 3, suns_per_player=7).snapshot()
    python_long = ra.Game(2, seed=3, variant="long-2p", suns_per_player=7)
    assert sorted(long[19]) == sorted(ra.native.snapshot(python_long)[19])


def test_native_games_are_complete_and_legal() -> None:
    """Random native games end with a winner; every tile is accounted for (R1.1)."""
    result = CORE.random_playouts(500, 0, 9)
    assert result["games"] == 500 and sum(result["wins"]) == 500
    assert result["decisions"] > 500 * 80
    greedy = CORE.greedy_playouts(40, 3, 9)
    assert greedy["games"] == 40 and sum(greedy["wins"][:3]) == 40 and greedy["wins"][3:] == (0, 0)
    assert CORE.greedy_playouts(40, 3, 9) == greedy  # seeded
    state = CORE.State(4, 11)
    state.random_playout(3)
    snap = state.snapshot()
    assert state.is_over() and state.winner is not None
    displays, unseen, box = snap[22], snap[23], snap[24]
    census = [sum(d[t] for d in displays) + unseen[t] + box[t] for t in range(len(ra.TILE_COUNTS))]
    assert census == list(ra.TILE_COUNTS)


def test_bad_input_is_refused() -> None:
    state = CORE.State(3, 1)
    with pytest.raises(ValueError, match="not legal"):
        state.apply(ra.Action.parse("bid 5").index)
    with pytest.raises(ValueError):
        CORE.State(6, 1)
    with pytest.raises(ValueError):
        CORE.State(3, 1, suns_per_player=5)
    bare = CORE.State.__new__(CORE.State)  # never a half-made position
    assert bare.snapshot() == CORE.State(3, 0).snapshot()
    with pytest.raises(AttributeError):
        CORE.State.from_game(object())


def test_clone_is_independent() -> None:
    game = ra.Game(3, seed=4)
    state = CORE.State.from_game(game)
    copy = state.clone()
    copy.apply(ra.Action.parse("draw").index)
    assert state.snapshot() == ra.native.snapshot(game)
    assert copy.snapshot() != state.snapshot()


def test_view_gives_the_same_public_position() -> None:
    game = ra.Game(4, seed=8)
    rng = random.Random(1)
    for _ in range(60):
        game.apply(rng.choice(game.legal_actions()))
    seat = game.to_move
    assert seat is not None
    from_view = CORE.State.from_game(game.view(seat))
    assert from_view.snapshot() == ra.native.snapshot(game)
    assert from_view.legal_mask() == mask_of(game)
