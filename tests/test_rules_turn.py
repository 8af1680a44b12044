"""R3 A turn: scenario tests."""

from __future__ import annotations

import pytest

import ra
from tests.conftest import kinds, last, make_game, play, tiles

STANDARD_2P = [[9, 6, 5, 2], [8, 7, 4, 3]]
STANDARD_3P = [[13, 8, 5, 2], [12, 9, 6, 3], [11, 10, 7, 4]]
EIGHT = ["pharaoh", "gold", "nile", "astronomy", "temple", "pyramid", "writing", "art"]


def full_track_with_god() -> ra.Game:
    """Seat 0 wins a God tile, then eight tiles fill the track; seat 0 is to move."""
    game = make_game(2, bag=["god", *EIGHT], suns=STANDARD_2P)
    play(game, "draw", "ra", "bid 2", "pass")  # seat 1 invokes; seat 0 wins the God with sun 2
    assert tiles(game, 0) == {"god": 1}
    for _ in range(8):
        play(game, "draw")
    assert len(game.auction_track) == 8
    assert game.to_move == 0
    return game


def test_r3_1_a_player_without_face_up_suns_takes_no_turns() -> None:
    game = make_game(3, suns=[[13], [12], [11]], bag=["gold", "gold", "gold"])
    play(game, "ra", "pass", "pass")  # seat 0 must bid its only sun: applied by the engine
    assert game.players[0].suns == ()
    assert game.to_move == 1
    play(game, "draw")
    assert game.to_move == 2
    play(game, "draw")
    assert game.to_move == 1, "seat 0 has no face-up sun and is skipped"


def test_r3_2_the_three_actions_and_when_they_are_allowed() -> None:
    game = make_game(2, suns=STANDARD_2P)
    assert [str(a) for a in game.legal_actions()] == ["draw", "ra"]
    game = full_track_with_god()
    legal = [str(a) for a in game.legal_actions()]
    assert "draw" not in legal
    assert legal[0] == "ra"
    assert set(legal[1:]) == {f"god {t}" for t in EIGHT}


def test_r3_2_no_draw_on_a_full_track_and_the_game_is_unchanged() -> None:
    game = full_track_with_god()
    before = game._key()
    with pytest.raises(ra.IllegalActionError, match=r"auction track is full \(8 tiles\) \(R3.2\)"):
        game.apply("draw")
    assert game._key() == before


def test_r3_2_god_tiles_need_a_god_and_a_non_god_tile() -> None:
    game = make_game(2, bag=["pharaoh", "god"], suns=STANDARD_2P)
    play(game, "draw")
    with pytest.raises(ra.IllegalActionError, match=r"holds no God tile \(R3.2\)"):
        game.apply("god pharaoh")
    # A track holding only God tiles offers nothing to take.
    game = make_game(2, bag=["god", "god", "god"], suns=STANDARD_2P)
    play(game, "draw", "ra", "bid 2", "pass")  # seat 0 wins a God
    play(game, "draw", "draw")  # two more Gods on the track
    assert game.auction_track == ["god", "god"]
    assert tiles(game, 0) == {"god": 1}
    assert game.to_move == 0
    assert [str(a) for a in game.legal_actions()] == ["draw", "ra"]
    with pytest.raises(ra.NotationError, match=r"cannot take god.*\(R3.5\)"):
        game.apply("god god")


def test_r3_2_when_invoking_ra_is_the_only_action_the_engine_takes_it() -> None:
    game = make_game(2, bag=["pharaoh"], suns=[[3], [2]], exact_bag=True)
    play(game, "draw")  # the bag is now empty; seat 1 can only invoke Ra
    assert game.phase == "bid" and game.to_move == 0
    invoke = last(game, "invoke")
    assert invoke.seat == 1 and invoke.auto


def test_r3_3_a_drawn_tile_goes_on_the_auction_track_and_the_turn_ends() -> None:
    game = make_game(3, bag=["obelisk"], suns=STANDARD_3P)
    play(game, "draw")
    assert game.auction_track == ["obelisk"]
    assert game.to_move == 1
    assert game.tiles_in_bag == 179
    assert last(game, "draw").tile is ra.Tile.OBELISK


def test_r3_3_a_drawn_ra_tile_starts_a_drawn_auction() -> None:
    game = make_game(3, bag=["gold", "ra"], suns=STANDARD_3P)
    play(game, "draw", "draw")
    assert game.ra_count == 1
    assert game.auction_track == ["gold"]
    auction = game.auction
    assert auction is not None
    assert (auction.kind, auction.ra_player, auction.bidder) == ("drawn", 1, 2)


def test_r3_3_the_ra_tile_that_fills_the_track_ends_the_epoch_without_auction() -> None:
    game = make_game(2, bag=["ra"] * 5 + ["gold", "ra"], suns=STANDARD_2P)
    while not (game.ra_count == 5 and game.phase == "action"):
        play(game, "draw" if game.phase == "action" else "pass")
    play(game, "draw")  # gold
    assert game.auction_track == ["gold"]
    play(game, "draw")  # the sixth Ra tile
    assert game.epoch == 2
    assert game.ra_count == 0
    assert game.auction_track == []
    tail = kinds(game)[kinds(game).index("epoch_end") - 1 :]
    assert "auction" not in tail


def test_r3_4_invoking_ra_starts_a_voluntary_auction() -> None:
    game = make_game(3, bag=["gold"], suns=STANDARD_3P)
    play(game, "draw", "ra")
    auction = game.auction
    assert auction is not None
    assert (auction.kind, auction.ra_player, auction.bidder) == ("voluntary", 1, 2)


def test_r3_4_invoking_ra_on_a_full_track_is_a_forced_auction() -> None:
    game = full_track_with_god()
    play(game, "ra")
    assert game.auction is not None and game.auction.kind == "forced"


def test_r3_5_god_tiles_take_tiles_one_each_then_stop() -> None:
    game = make_game(2, bag=["god", "god", "gold", "nile", "sphinx"], suns=STANDARD_2P)
    play(game, "draw", "draw", "ra", "pass", "bid 2")  # seat 0 wins two God tiles
    assert tiles(game, 0) == {"god": 2}
    play(game, "draw", "draw", "draw")  # seat 1 gold, seat 0 nile, seat 1 sphinx
    assert game.to_move == 0
    play(game, "god nile")
    # The turn is not over: another God may take another tile (R3.5).
    assert game.phase == "god" and game.to_move == 0
    assert [str(a) for a in game.legal_actions()] == ["god gold", "god sphinx", "done"]
    play(game, "done")
    assert game.to_move == 1
    assert tiles(game, 0) == {"god": 1, "nile": 1}
    assert game.auction_track == ["gold", "sphinx"]
    assert game.removed_counts()[ra.Tile.GOD] == 1


def test_r3_5_the_turn_ends_by_itself_when_no_god_is_left() -> None:
    game = make_game(2, bag=["god", "gold", "nile", "sphinx", "pharaoh"], suns=STANDARD_2P)
    play(game, "draw", "ra", "bid 2", "pass")  # seat 0 wins the God
    play(game, "draw", "draw", "draw", "draw")  # gold, nile, sphinx, pharaoh
    assert game.to_move == 0
    play(game, "god sphinx")
    assert (game.phase, game.to_move) == ("action", 1)
    done = last(game, "done")
    assert done.seat == 0 and done.auto


def test_r3_5_gaps_are_filled_by_later_draws() -> None:
    game = make_game(2, bag=["god", "gold", "nile", "pharaoh", "sphinx", "temple"], suns=STANDARD_2P)
    play(game, "draw", "ra", "bid 2", "pass")  # seat 0 wins the God
    play(game, "draw", "draw", "draw", "draw")  # gold, nile, pharaoh, sphinx
    play(game, "god nile")
    assert game.auction_track == ["gold", "pharaoh", "sphinx"]
    play(game, "draw")
    assert game.auction_track == ["gold", "pharaoh", "sphinx", "temple"]


def test_r3_5_a_disaster_taken_with_a_god_is_resolved_at_once() -> None:
    # Seat 0 wins a God and two Pharaohs, then takes a Funeral with the God.
    game = make_game(2, bag=["god", "pharaoh", "pharaoh", "funeral", "gold"], suns=STANDARD_2P)
    play(game, "draw", "draw", "draw", "ra", "bid 2", "pass")
    assert tiles(game, 0) == {"god": 1, "pharaoh": 2}
    play(game, "draw")  # seat 0 draws the funeral
    play(game, "draw")  # seat 1 draws gold
    play(game, "god funeral")
    assert tiles(game, 0) == {}
    events = [e for e in game.events if e.kind in ("disaster", "discard")]
    assert [(e.kind, e.tile) for e in events] == [
        ("disaster", ra.Tile.FUNERAL),
        ("discard", ra.Tile.PHARAOH),
        ("discard", ra.Tile.PHARAOH),
    ]
