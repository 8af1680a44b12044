"""R1 Components and R2 Setup: scenario tests."""

from __future__ import annotations

import pytest

import ra
from ra.tiles import BAG_SIZE, TILE_COUNTS, Tile
from tests.conftest import make_game, play

STANDARD_3P = [[13, 8, 5, 2], [12, 9, 6, 3], [11, 10, 7, 4]]


# --- R1 ------------------------------------------------------------------------


def test_r1_1_the_bag_holds_180_tiles_of_the_listed_kinds() -> None:
    assert sum(TILE_COUNTS) == BAG_SIZE == 180
    expected = {
        "ra": 30,
        "god": 8,
        "gold": 5,
        "pharaoh": 25,
        "nile": 25,
        "flood": 12,
        "funeral": 2,
        "drought": 2,
        "unrest": 4,
        "earthquake": 2,
    }
    for name, count in expected.items():
        assert TILE_COUNTS[Tile.parse(name)] == count
    for name in ("astronomy", "agriculture", "writing", "religion", "art"):
        assert TILE_COUNTS[Tile.parse(name)] == 5
    for name in ("fortress", "obelisk", "palace", "pyramid", "sphinx", "statue", "step_pyramid", "temple"):
        assert TILE_COUNTS[Tile.parse(name)] == 5


def test_r1_1_a_new_game_bag_contains_exactly_the_180_tiles() -> None:
    game = ra.Game(players=4, seed=11)
    assert game.tiles_in_bag == 180
    assert game.tile_census() == list(TILE_COUNTS)
    assert game.unseen_counts() == TILE_COUNTS


def test_r1_2_edition_names_are_cosmetic() -> None:
    assert ra.display_name("unrest") == "Unrest"
    assert ra.display_name("unrest", "2016") == "War"
    assert ra.display_name("unrest", "2023") == "War"
    assert ra.display_name("step_pyramid") == "Step Pyramid"
    assert ra.display_name("palace", "2023") != ra.display_name("palace")
    with pytest.raises(ValueError, match="unknown edition"):
        ra.display_name("god", "1066")
    # The notation identifier never changes with the edition.
    assert str(ra.Action.parse("god unrest")) == "god unrest"


def test_r1_3_sun_1_starts_in_the_centre_and_suns_are_numbered_1_to_16() -> None:
    game = ra.Game(players=5, seed=3)
    assert game.center_sun == 1
    all_suns = sorted(s for p in game.players for s in p.suns)
    assert all_suns == list(range(2, 17))
    with pytest.raises(ra.NotationError, match="no sun 17"):
        ra.Action.parse("bid 17")


# --- R2 ------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_r2_1_every_player_starts_with_10_points(n: int) -> None:
    game = ra.Game(players=n, seed=1)
    assert game.scores == [10] * n
    assert game.num_players == n


@pytest.mark.parametrize("bad", [0, 1, 6, 7])
def test_r2_1_only_2_to_5_players(bad: int) -> None:
    with pytest.raises(ValueError, match=rf"2 to 5 players, not {bad} \(R2.1\)"):
        ra.Game(players=bad)


def test_r2_1_players_by_name() -> None:
    game = ra.Game(players=["Ann", "Bob", "Cy"], seed=1)
    assert game.names == ("Ann", "Bob", "Cy")
    assert [p.name for p in game.players] == ["Ann", "Bob", "Cy"]
    with pytest.raises(ValueError, match="must differ"):
        ra.Game(players=["Ann", "Ann"])
    with pytest.raises(ValueError, match="non-empty"):
        ra.Game(players=["Ann", ""])


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_r2_2_sun_groups_are_dealt_at_random_but_fixed_by_the_seed(n: int) -> None:
    groups = ra.SUN_GROUPS[n]
    seen_at_seat0 = set()
    for seed in range(200):
        game = ra.Game(players=n, seed=seed)
        dealt = [tuple(sorted(p.suns, reverse=True)) for p in game.players]
        assert sorted(dealt) == sorted(groups)
        seen_at_seat0.add(dealt[0])
        again = ra.Game(players=n, seed=seed)
        assert [p.suns for p in again.players] == [p.suns for p in game.players]
    assert seen_at_seat0 == set(groups), "every group must be dealt to seat 0 for some seed"


@pytest.mark.parametrize(("n", "length"), [(2, 6), (3, 8), (4, 9), (5, 10)])
def test_r2_2_the_ra_track_length_ends_the_epoch(n: int, length: int) -> None:
    game = make_game(n, bag=["ra"] * length)
    assert game.ra_track_length == length
    auctions = 0
    while game.epoch == 1:
        if game.phase == "action":
            game.apply("draw")
        else:
            assert game.phase == "bid"
            assert game.auction is not None and game.auction.kind == "drawn"
            if game.auction.bidder == game.auction.ra_player:
                auctions += 1
            game.apply("pass")
    assert auctions == length - 1  # the last Ra tile ends the epoch with no auction (R3.3)
    end = [e for e in game.events if e.kind == "epoch_end"]
    assert end[0].detail == (1, "ra_track")


@pytest.mark.parametrize("k", [4, 5, 6, 7])
def test_r2_3_long_two_player_game(k: int) -> None:
    game = ra.Game(players=2, variant="long-2p", suns_per_player=k, seed=5)
    dealt = sorted(tuple(sorted(p.suns, reverse=True)) for p in game.players)
    assert dealt == sorted(ra.LONG_2P_GROUPS[k])
    assert game.ra_track_length == 6
    assert all(len(p.suns) == k for p in game.players)


def test_r2_3_long_game_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match=r"4, 5, 6 or 7 suns, not 8 \(R2.3\)"):
        ra.Game(players=2, variant="long-2p", suns_per_player=8)
    with pytest.raises(ValueError, match=r"for 2 players, not 3 \(R2.3\)"):
        ra.Game(players=3, variant="long-2p", suns_per_player=5)
    with pytest.raises(ValueError, match=r"each player has 4 suns \(R2.2\)"):
        ra.Game(players=3, suns_per_player=5)
    with pytest.raises(ValueError, match="unknown variant"):
        ra.Game(players=3, variant="turbo")


def test_r2_4_the_highest_sun_plays_first_and_left_is_the_next_seat() -> None:
    game = make_game(3, suns=[[12, 9, 6, 3], [11, 10, 7, 4], [13, 8, 5, 2]], bag=["gold", "gold"])
    assert game.to_move == 2
    play(game, "draw")
    assert game.to_move == 0  # left of seat 2 wraps to seat 0
    play(game, "draw")
    assert game.to_move == 1


def test_r2_chosen_suns_are_checked() -> None:
    with pytest.raises(ValueError, match="one sun group per player"):
        ra.Game(players=3, suns=[[13], [12]])
    with pytest.raises(ValueError, match=r"sun 1 starts in the centre"):
        ra.Game(players=2, suns=[[1, 9], [8]])
    with pytest.raises(ValueError, match="sun 9 is dealt twice"):
        ra.Game(players=2, suns=[[9], [9]])
    with pytest.raises(ValueError, match="no sun 17"):
        ra.Game(players=2, suns=[[17], [8]])
    with pytest.raises(ValueError, match="has no suns"):
        ra.Game(players=2, suns=[[], [8]])


def test_r2_stacked_bag_is_checked_and_drawn_first() -> None:
    with pytest.raises(ValueError, match=r"bag\[1\]: unknown tile 'dragon'"):
        ra.Game(players=2, bag=["gold", "dragon"])
    with pytest.raises(ValueError, match=r"only 5 gold tiles \(R1.1\)"):
        ra.Game(players=2, bag=["gold"] * 6)
    game = make_game(2, bag=["sphinx", "gold", "nile"])
    play(game, "draw", "draw", "draw")
    assert game.auction_track == ["sphinx", "gold", "nile"]


def test_r2_seed_must_be_a_non_negative_integer() -> None:
    with pytest.raises(ValueError, match=r"seed must be an integer from 0 to 2\*\*64 - 1, got -3"):
        ra.Game(players=2, seed=-3)
    with pytest.raises(ValueError, match="seed must be"):
        ra.Game(players=2, seed="abc")  # type: ignore[arg-type]
