"""R6 End of an epoch, R7 Scoring (in play), R8 End of the game: scenario tests."""

from __future__ import annotations

import random

import pytest

import ra
from tests.conftest import last, make_game, play, tiles

STANDARD_2P = [[9, 6, 5, 2], [8, 7, 4, 3]]
# Each player wins one auction per epoch with nothing on the track (see the tests).
QUICK_EPOCH_FROM_SEAT0 = ("ra", "pass", "ra")


def epoch_one_with_tiles() -> ra.Game:
    """Two players with one sun each.  Seat 0 wins Pharaoh + Gold with sun 3; seat 1
    wins Flood + Nile + Astronomy with sun 2; then nobody has a face-up sun."""
    game = make_game(2, bag=["pharaoh", "gold", "flood", "nile", "astronomy"], suns=[[3], [2]])
    play(game, "draw", "draw", "ra", "pass")  # seat 0's forced single-sun bid is automatic
    assert game.to_move == 1
    play(game, "draw", "draw", "draw", "ra")  # seat 0 has no sun: seat 1 plays alone
    return game


def test_r6_1b_r6_3_r7_2_an_epoch_scored_by_category() -> None:
    game = epoch_one_with_tiles()
    assert game.epoch == 2
    assert last(game, "epoch_end").detail == (1, "no_suns")
    s0, s1 = game.epoch_scores[0]
    assert s0 is not None and s1 is not None
    # Seat 0: Gold 3, most Pharaohs +5, no Civilization -5.
    assert (s0.gods, s0.gold, s0.pharaohs, s0.nile_flood, s0.civilization, s0.monuments, s0.suns) == (
        0,
        3,
        5,
        0,
        -5,
        0,
        0,
    )
    # Seat 1: fewest Pharaohs -2, Flood + Nile 2, one Civilization type 0.
    assert (s1.gods, s1.gold, s1.pharaohs, s1.nile_flood, s1.civilization, s1.monuments, s1.suns) == (
        0,
        0,
        -2,
        2,
        0,
        0,
        0,
    )
    assert (s0.total, s0.before, s0.after) == (3, 10, 13)
    assert (s1.total, s1.before, s1.after) == (0, 10, 10)
    assert game.scores == [13, 10]
    # R6.3: Gold, Flood and Civilization leave; Pharaohs and Niles stay.
    assert tiles(game, 0) == {"pharaoh": 1}
    assert tiles(game, 1) == {"nile": 1}
    removed = game.removed_counts()
    assert (removed[ra.Tile.GOLD], removed[ra.Tile.FLOOD], removed[ra.Tile.ASTRONOMY]) == (1, 1, 1)
    assert game.tile_census() == list(ra.TILE_COUNTS)


def test_r6_4_suns_turn_face_up_and_the_highest_sun_starts_the_next_epoch() -> None:
    game = epoch_one_with_tiles()
    # Seat 0 won sun 1, seat 1 won sun 3; the centre keeps sun 2 (R6.2).
    assert game.players[0].suns == (1,) and game.players[0].used_suns == ()
    assert game.players[1].suns == (3,) and game.players[1].used_suns == ()
    assert game.center_sun == 2
    assert (game.phase, game.to_move) == ("action", 1)
    epoch_event = last(game, "epoch")
    assert (epoch_event.detail, epoch_event.seat) == (2, 1)


def test_r6_2_tracks_are_cleared_and_the_centre_sun_stays() -> None:
    game = make_game(2, bag=["ra"] * 5 + ["gold", "pharaoh", "ra"], suns=STANDARD_2P)
    while game.epoch == 1:
        play(game, "draw" if game.phase == "action" else "pass")
    assert game.center_sun == 1
    assert (game.ra_count, game.auction_track) == (0, [])
    removed = game.removed_counts()
    assert (removed[ra.Tile.RA], removed[ra.Tile.GOLD], removed[ra.Tile.PHARAOH]) == (6, 1, 1)
    end = last(game, "epoch_end")
    assert end.detail == (1, "ra_track")
    assert end.tiles == (ra.Tile.GOLD, ra.Tile.PHARAOH)


def test_r6_5_an_empty_bag_forbids_drawing_and_epochs_still_end() -> None:
    # exact_bag: the bag holds only these three tiles (a scenario device).
    game = make_game(2, bag=["god", "pharaoh", "gold"], suns=[[5, 3], [4, 2]], exact_bag=True)
    play(game, "draw", "ra", "bid 3", "pass")  # seat 0 wins the God
    play(game, "draw", "draw")  # the bag is now empty
    assert game.tiles_in_bag == 0
    assert game.to_move == 0
    assert [str(a) for a in game.legal_actions()] == ["ra", "god gold", "god pharaoh"]
    before = game._key()
    with pytest.raises(ra.IllegalActionError, match=r"the bag is empty \(R3.2, R6.5\)"):
        game.apply("draw")
    assert game._key() == before
    play(game, "god pharaoh")
    # Seat 1 can only invoke Ra (done by the engine); seat 0 passes; seat 1 must bid.
    assert game.auction is not None and game.auction.kind == "voluntary"
    play(game, "pass", "bid 2")
    assert tiles(game, 1) == {"gold": 1}
    # The rest of the epoch is forced invocations; it ends when the suns are gone.
    play(game, "pass")
    assert game.epoch == 2
    assert last(game, "epoch_end").detail == (1, "no_suns")
    rng = random.Random(0)
    while not game.is_over():
        game.apply(rng.choice(game.legal_actions()))
    assert game.tile_census() == [c for c in game.setup.contents]


def test_r7_1_scores_never_go_below_zero_and_r8_1_tie_break() -> None:
    # Nobody takes a tile: -5 (no Civilization) every epoch for both, and the suns
    # decide the third epoch: seat 0 ends with sun 1, seat 1 with sun 3.
    game = make_game(2, suns=[[3], [2]])
    play(game, *QUICK_EPOCH_FROM_SEAT0)
    assert game.scores == [5, 5]
    play(game, "ra", "pass", "ra")  # epoch 2 starts with seat 1 (sun 3)
    assert game.scores == [0, 0]
    play(game, *QUICK_EPOCH_FROM_SEAT0)
    assert game.is_over()
    final = game.epoch_scores[2]
    assert [b.suns for b in final if b] == [-5, 5]
    assert [b.total for b in final if b] == [-10, 0]
    assert game.scores == [0, 0]  # seat 0 would be at -10: set to 0 (R7.1)
    # R8.1: tied at 0; seat 1 holds the highest sun (3) and wins.
    assert game.players[1].suns == (3,)
    assert game.winner == 1
    over = last(game, "game_over")
    assert (over.seat, over.detail) == (1, True)


def test_r7_3_monuments_score_only_after_the_third_epoch() -> None:
    game = make_game(2, bag=["pyramid", "pyramid", "pyramid", "temple"], suns=[[3], [2]])
    play(game, "draw", "draw", "draw", "draw", *QUICK_EPOCH_FROM_SEAT0)
    play(game, "ra", "pass", "ra")
    play(game, *QUICK_EPOCH_FROM_SEAT0)
    assert game.is_over()
    monuments = [[b.monuments for b in epoch if b] for epoch in game.epoch_scores]
    # Two types (2) plus three identical Pyramids (+5) = 7, in the third epoch only.
    assert monuments == [[0, 0], [0, 0], [7, 0]]
    assert tiles(game, 0) == {"pyramid": 3, "temple": 1}


def test_r8_1_the_highest_score_wins() -> None:
    game = epoch_one_with_tiles()
    play(game, "ra", "pass", "ra")  # epoch 2: Pharaoh +5 / -2, no Civilization -5 each
    assert game.scores == [13, 3]
    play(game, *QUICK_EPOCH_FROM_SEAT0)
    # Epoch 3: seat 0 +5 Pharaohs, -5 Civilization, -5 suns (1 vs 3); seat 1 -2, -5, +5.
    assert game.scores == [8, 1]
    assert game.winner == 0
    assert last(game, "game_over").detail is False
    assert game.to_move is None and game.phase == "over"
    assert game.legal_actions() == []
    with pytest.raises(ra.IllegalActionError, match=r"the game is over \(R8.1\)"):
        game.apply("ra")
