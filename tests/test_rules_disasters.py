"""R5 Disasters: scenario tests (taken by auction; by God tile in test_rules_turn)."""

from __future__ import annotations

import pytest

import ra
from tests.conftest import make_game, play, tiles

STANDARD_2P = [[9, 6, 5, 2], [8, 7, 4, 3]]


def seat0_wins(lot: list[str], before: list[str] | None = None) -> ra.Game:
    """Two players; the lot is drawn (alternately) and seat 0 wins it with sun 2.

    ``before`` is an earlier lot that seat 0 wins first (with sun 5).
    """
    bag = [*(before or []), *lot]
    game = make_game(2, bag=bag, suns=STANDARD_2P)
    if before:
        k = len(before)
        play(game, *["draw"] * k)
        play(game, *(["ra", "pass", "bid 5"] if k % 2 == 0 else ["ra", "bid 5", "pass"]))
        # Seat 0 invoked (k even) or seat 1 did: the next turn is the other one's left.
        assert game.to_move == (1 if k % 2 == 0 else 0)
        if game.to_move == 1:
            # Let seat 1 pass the turn back without touching the track: it invokes Ra
            # with an empty track and must win it (R4.3) with its lowest sun.
            play(game, "ra", "pass", "bid 3")
        assert game.to_move == 0
    k = len(lot)
    play(game, *["draw"] * k)
    if k == 8:
        # A full track and no God tile: invoking Ra is all seat 0 can do, and the
        # engine does it (a forced auction, R3.4).
        assert game.auction is not None and game.auction.kind == "forced"
        play(game, "pass", "bid 2")
    else:
        play(game, *(["ra", "pass", "bid 2"] if k % 2 == 0 else ["ra", "bid 2", "pass"]))
    return game


def discards(game: ra.Game) -> list[tuple[str, bool]]:
    return [(str(e.tile), e.auto) for e in game.events if e.kind == "discard"]


def test_r5_1_tiles_won_are_placed_first_and_may_be_destroyed() -> None:
    game = seat0_wins(["pharaoh", "funeral"])
    assert tiles(game, 0) == {}
    assert discards(game) == [("pharaoh", True)]
    assert game.removed_counts()[ra.Tile.FUNERAL] == 1
    assert game.removed_counts()[ra.Tile.PHARAOH] == 1
    assert game.tile_census() == list(ra.TILE_COUNTS)


def test_r5_1_disasters_destroy_tiles_held_before() -> None:
    game = seat0_wins(["earthquake"], before=["temple", "obelisk"])
    assert tiles(game, 0) == {}
    assert sorted(discards(game)) == [("obelisk", True), ("temple", True)]


def test_r5_2_funeral_destroys_two_pharaohs() -> None:
    game = seat0_wins(["pharaoh", "pharaoh", "pharaoh", "funeral"])
    assert tiles(game, 0) == {"pharaoh": 1}
    disaster = next(e for e in game.events if e.kind == "disaster")
    assert (disaster.tile, disaster.detail) == (ra.Tile.FUNERAL, 2)


def test_r5_2_drought_takes_floods_first_then_niles() -> None:
    game = seat0_wins(["nile", "flood", "nile", "nile", "drought"])
    assert tiles(game, 0) == {"nile": 2}
    assert discards(game) == [("flood", True), ("nile", True)]
    game = seat0_wins(["flood", "nile", "flood", "flood", "drought"])
    assert tiles(game, 0) == {"flood": 1, "nile": 1}
    assert discards(game) == [("flood", True), ("flood", True)]


def test_r5_2_unrest_lets_the_player_choose_civilization_tiles() -> None:
    game = seat0_wins(["astronomy", "writing", "art", "unrest"])
    assert (game.phase, game.to_move) == ("discard", 0)
    assert game.pending_disaster == "unrest"
    assert game.discards_left == 2
    assert [str(a) for a in game.legal_actions()] == ["discard astronomy", "discard writing", "discard art"]
    with pytest.raises(
        ra.IllegalActionError, match=r"must discard a civilization tile .*not Temple \(R5.2\)"
    ):
        game.apply("discard temple")
    with pytest.raises(ra.IllegalActionError, match=r"holds no Religion to discard \(R5.2\)"):
        game.apply("discard religion")
    with pytest.raises(ra.IllegalActionError, match=r"must discard"):
        game.apply("draw")
    play(game, "discard art")
    assert game.phase == "discard" and game.discards_left == 1
    play(game, "discard astronomy")
    assert tiles(game, 0) == {"writing": 1}
    assert discards(game) == [("art", False), ("astronomy", False)]
    # Seat 0 invoked Ra, so seat 1 (its left) plays next (R4.6).
    assert (game.phase, game.to_move) == ("action", 1)


def test_r5_2_earthquake_lets_the_player_choose_monuments() -> None:
    game = seat0_wins(["pyramid", "pyramid", "temple", "earthquake"])
    assert game.pending_disaster == "earthquake"
    assert [str(a) for a in game.legal_actions()] == ["discard pyramid", "discard temple"]
    play(game, "discard pyramid")
    # One Pyramid and one Temple left, one to lose: still a real choice.
    assert [str(a) for a in game.legal_actions()] == ["discard pyramid", "discard temple"]
    play(game, "discard temple")
    assert tiles(game, 0) == {"pyramid": 1}


def test_r5_2_with_fewer_than_two_tiles_all_of_them_go() -> None:
    game = seat0_wins(["astronomy", "unrest"])
    assert tiles(game, 0) == {}
    assert discards(game) == [("astronomy", True)]
    game = seat0_wins(["funeral"])
    assert tiles(game, 0) == {}
    assert discards(game) == []


def test_r5_3_disasters_of_one_kind_stack() -> None:
    lot = ["pyramid", "pyramid", "temple", "sphinx", "statue", "earthquake", "earthquake"]
    game = seat0_wins(lot)
    assert game.discards_left == 4
    play(game, "discard pyramid", "discard pyramid")
    assert game.discards_left == 2
    play(game, "discard temple")
    assert [str(a) for a in game.legal_actions()] == ["discard sphinx", "discard statue"]
    play(game, "discard statue")
    assert tiles(game, 0) == {"sphinx": 1}
    game = seat0_wins(["pharaoh"] * 5 + ["funeral", "funeral"])
    assert tiles(game, 0) == {"pharaoh": 1}


def test_r5_3_different_disasters_in_one_lot() -> None:
    game = seat0_wins(["pharaoh", "funeral", "nile", "drought", "astronomy", "writing", "art", "unrest"])
    # Funeral and Drought resolve by themselves; Unrest leaves a choice.
    assert tiles(game, 0) == {"astronomy": 1, "writing": 1, "art": 1}
    assert game.phase == "discard"
    play(game, "discard writing", "discard art")
    assert tiles(game, 0) == {"astronomy": 1}
    assert game.tile_census() == list(ra.TILE_COUNTS)


def test_r5_4_no_question_without_a_real_choice() -> None:
    # One kind only: the engine discards.
    game = seat0_wins(["astronomy", "astronomy", "astronomy", "unrest"])
    assert game.phase == "action"
    assert tiles(game, 0) == {"astronomy": 1}
    assert discards(game) == [("astronomy", True), ("astronomy", True)]
    # Exactly as many as must go: the engine discards them all.
    game = seat0_wins(["astronomy", "writing", "unrest"])
    assert game.phase == "action"
    assert tiles(game, 0) == {}


def test_r5_4_each_choice_is_one_decision() -> None:
    game = seat0_wins(["fortress", "obelisk", "palace", "earthquake"])
    n = game.num_decisions
    play(game, "discard obelisk")
    assert game.num_decisions == n + 1
    assert game.phase == "discard"
    play(game, "discard palace")
    assert game.num_decisions == n + 2
    assert game.decisions[-2:] == (ra.Action.parse("discard obelisk"), ra.Action.parse("discard palace"))
    assert tiles(game, 0) == {"fortress": 1}
