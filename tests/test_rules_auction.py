"""R4 Auctions: scenario tests."""

from __future__ import annotations

import pytest

import ra
from tests.conftest import last, make_game, play, tiles

STANDARD_2P = [[9, 6, 5, 2], [8, 7, 4, 3]]
STANDARD_3P = [[13, 8, 5, 2], [12, 9, 6, 3], [11, 10, 7, 4]]
STANDARD_4P = [[13, 6, 2], [12, 7, 3], [11, 8, 4], [10, 9, 5]]
EIGHT = ["pharaoh", "gold", "nile", "astronomy", "temple", "pyramid", "writing", "art"]


def bidders(game: ra.Game) -> list[int]:
    """Pass around the table, recording who is asked, until the auction ends."""
    asked = []
    while game.phase == "bid":
        assert game.to_move is not None
        asked.append(game.to_move)
        game.apply("pass")
    return asked


def test_r4_1_bidding_goes_once_around_from_the_ra_players_left() -> None:
    game = make_game(4, bag=["pharaoh", "ra"], suns=STANDARD_4P)
    play(game, "draw", "draw")  # seat 1 draws Ra
    assert bidders(game) == [2, 3, 0, 1]
    # Drawn auction, nobody bid: the tiles stay (R4.5) and seat 2 plays next (R4.6).
    assert game.auction_track == ["pharaoh"]
    assert (game.phase, game.to_move) == ("action", 2)


def test_r4_2_a_bid_must_be_higher_than_the_current_bid() -> None:
    game = make_game(3, suns=STANDARD_3P)
    play(game, "ra", "bid 9", "pass")  # seat 0 invokes; seat 1 bids 9; seat 2 passes
    assert game.to_move == 0
    before = game._key()
    with pytest.raises(ra.IllegalActionError, match=r"^bid 5 is not higher than the current bid 9 \(R4.2\)$"):
        game.apply("bid 5")
    assert game._key() == before
    assert [str(a) for a in game.legal_actions()] == ["bid 13", "pass"]


def test_r4_2_a_bid_uses_a_face_up_sun_of_ones_own() -> None:
    game = make_game(3, suns=STANDARD_3P)
    play(game, "ra")
    assert game.to_move == 1
    with pytest.raises(ra.IllegalActionError, match=r"has no face-up sun 13 \(R4.2\)"):
        game.apply("bid 13")


def test_r4_2_players_who_cannot_beat_the_bid_pass_automatically() -> None:
    game = make_game(3, suns=STANDARD_3P)
    play(game, "ra", "bid 12")
    # Seat 2's highest sun is 11: passed by the engine, and logged.
    auto = last(game, "pass")
    assert (auto.seat, auto.auto, auto.detail) == (2, True, ("no_higher", 12))
    assert (auto.reason, auto.pass_high) == ("no_higher", 12)
    assert game.to_move == 0


def test_r4_2_players_without_face_up_suns_pass_automatically() -> None:
    game = make_game(3, suns=[[13], [12, 3], [11]], bag=["gold"])
    play(game, "ra", "pass", "pass")  # seat 0 must bid 13, its only sun (R4.3): done by the engine
    assert game.players[0].suns == ()
    play(game, "ra")  # seat 1 invokes
    assert game.to_move == 2
    play(game, "pass")
    auto = last(game, "pass")
    assert (auto.seat, auto.auto, auto.detail) == (0, True, ("no_sun", None))
    assert (auto.reason, auto.pass_high) == ("no_sun", None)
    # Seat 1 invoked Ra and everyone else passed: it must bid (R4.3).
    assert [str(a) for a in game.legal_actions()] == ["bid 3", "bid 12"]


def test_r4_3_the_ra_player_must_bid_in_a_voluntary_auction_if_all_others_pass() -> None:
    game = make_game(3, bag=["gold"], suns=STANDARD_3P)
    play(game, "draw", "ra", "pass", "pass")
    assert game.to_move == 1
    assert game.auction is not None and game.auction.must_bid
    assert "pass" not in [str(a) for a in game.legal_actions()]
    with pytest.raises(ra.IllegalActionError, match=r"must bid \(R4.3\)"):
        game.apply("pass")
    play(game, "bid 3")
    assert tiles(game, 1) == {"gold": 1}


def test_r4_3_with_a_single_sun_the_forced_bid_is_made_by_the_engine() -> None:
    game = make_game(2, suns=[[3], [2]])
    play(game, "ra", "pass")
    bid = last(game, "bid")
    assert (bid.seat, bid.sun, bid.auto) == (0, 3, True)


def test_r4_3_the_ra_player_may_pass_once_someone_bid() -> None:
    game = make_game(3, bag=["gold"], suns=STANDARD_3P)
    play(game, "draw", "ra", "bid 4", "pass")
    assert game.auction is not None and not game.auction.must_bid
    assert "pass" in [str(a) for a in game.legal_actions()]
    play(game, "pass")
    assert tiles(game, 2) == {"gold": 1}


def test_r4_3_in_a_drawn_auction_everyone_may_pass() -> None:
    game = make_game(3, bag=["gold", "ra"], suns=STANDARD_3P)
    play(game, "draw", "draw")
    assert bidders(game) == [2, 0, 1]
    assert game.auction_track == ["gold"]
    assert game.center_sun == 1
    assert last(game, "no_bid").detail == "kept"


def test_r4_3_in_a_forced_auction_everyone_may_pass_and_the_tiles_leave_the_game() -> None:
    game = make_game(2, bag=["god", *EIGHT], suns=STANDARD_2P)
    play(game, "draw", "ra", "bid 2", "pass")
    for _ in range(8):
        play(game, "draw")
    play(game, "ra")
    assert game.auction is not None and game.auction.kind == "forced"
    assert bidders(game) == [1, 0]
    # R4.5: every tile on the track is removed from the game; the centre sun stays.
    assert game.auction_track == []
    assert game.center_sun == 2
    removed = game.removed_counts()
    for name in EIGHT:
        assert removed[ra.Tile.parse(name)] == 1
    assert last(game, "no_bid").detail == "removed"
    assert game.tile_census() == list(ra.TILE_COUNTS)


def test_r4_4_the_winner_takes_the_lot_and_swaps_suns() -> None:
    game = make_game(3, bag=["pharaoh", "gold"], suns=STANDARD_3P)
    play(game, "draw", "draw", "ra", "bid 5", "bid 9", "pass")
    # Seat 1 wins with 9: takes the tiles and sun 1 face down; 9 goes to the centre.
    assert tiles(game, 1) == {"pharaoh": 1, "gold": 1}
    assert game.players[1].suns == (3, 6, 12)
    assert game.players[1].used_suns == (1,)
    assert game.center_sun == 9
    # Seat 0's bid sun 5 went back to it, face up.
    assert game.players[0].suns == (2, 5, 8, 13)
    assert game.auction_track == []
    win = last(game, "win")
    assert (win.seat, win.sun, win.detail) == (1, 9, 1)
    assert win.tiles == (ra.Tile.PHARAOH, ra.Tile.GOLD)


def test_r4_4_an_empty_track_wins_just_the_centre_sun() -> None:
    game = make_game(3, suns=STANDARD_3P)
    play(game, "ra", "pass", "pass", "bid 2")
    assert game.players[0].used_suns == (1,)
    assert game.center_sun == 2
    assert tiles(game, 0) == {}


def test_r4_5_a_voluntary_auction_always_has_a_winner() -> None:
    # The Ra player must bid if all others pass (R4.3), so the lot never stays.
    game = make_game(2, suns=[[3, 2], [9]], bag=["gold"])
    play(game, "draw", "ra")  # seat 1 (highest sun 9) drew first; seat 0 invokes
    assert game.to_move == 1
    play(game, "pass")
    assert game.to_move == 0
    assert game.phase == "bid" and game.auction is not None and game.auction.must_bid
    play(game, "bid 2")
    assert tiles(game, 0) == {"gold": 1}
    assert not any(e.kind == "no_bid" for e in game.events)


def test_r4_6_after_an_auction_the_player_left_of_the_ra_player_moves() -> None:
    game = make_game(4, bag=["gold"], suns=STANDARD_4P)
    play(game, "draw", "ra", "pass", "pass", "bid 2", "pass")  # seat 1 invokes; seat 0 wins
    assert game.to_move == 2


def test_r4_6_the_epoch_ends_when_no_player_has_a_face_up_sun() -> None:
    game = make_game(2, suns=[[3], [2]])
    play(game, "ra", "pass")  # seat 0 wins with 3
    assert game.to_move == 1
    play(game, "ra")  # seat 0 has no sun (auto pass), seat 1 must bid 2 (auto)
    assert game.epoch == 2
    end = last(game, "epoch_end")
    assert end.detail == (1, "no_suns")
