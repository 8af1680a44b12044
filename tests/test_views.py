"""R9 Information: what a player's view shows and hides."""

from __future__ import annotations

import pickle
import random

import pytest

import ra
from tests.conftest import make_game, play


def test_r9_1_a_view_shows_everything_public() -> None:
    game = make_game(3, bag=["gold", "pharaoh", "ra"], suns=[[13, 8, 5, 2], [12, 9, 6, 3], [11, 10, 7, 4]])
    play(game, "draw", "draw", "draw", "bid 5")
    view = game.view(1)
    assert view.seat == 1
    assert view.phase == game.phase == "bid"
    assert view.to_move == game.to_move
    assert view.auction_track == ["gold", "pharaoh"]
    assert view.auction == game.auction
    assert view.players == game.players
    assert view.scores == [10, 10, 10]
    assert view.legal_actions() == game.legal_actions()
    assert view.drawn_tiles == ["gold", "pharaoh", "ra"]
    assert view.tiles_in_bag == 177
    unseen = view.unseen
    assert unseen["gold"] == 4 and unseen["ra"] == 29 and sum(unseen.values()) == 177
    assert view.events == game.events
    assert view.decisions == game.decisions


def test_r9_3_a_view_does_not_contain_the_bag_order_or_the_seed() -> None:
    game = ra.Game(players=4, seed=123456789)
    rng = random.Random(1)
    for _ in range(25):
        game.apply(rng.choice(game.legal_actions()))
    assert game._bag is not None
    game._bag.tile(179)  # make sure the whole future order exists in the game
    future = game._bag.order[game._drawn :]
    view = game.view(0)
    assert view._bag is None
    assert view.setup.seed == -1
    assert view.setup.bag == ()
    blob = pickle.dumps(view)
    assert b"123456789" not in blob and (123456789).to_bytes(4, "little") not in blob
    # The only tile sequence the view holds is the drawn prefix.
    assert list(view._drawn_order) == game._bag.order[: game._drawn]
    assert len(future) == 180 - game._drawn


def test_r9_3_views_of_games_with_different_futures_are_equal() -> None:
    stacked = ["gold", "nile", "ra", "pharaoh", "temple"]
    suns = [[13, 8, 5, 2], [12, 9, 6, 3], [11, 10, 7, 4]]
    a = make_game(3, bag=stacked, suns=suns, seed=1)
    b = make_game(3, bag=stacked, suns=suns, seed=2)
    moves = ["draw", "draw", "draw", "pass", "bid 6", "pass", "draw", "draw"]
    play(a, *moves)
    play(b, *moves)
    assert a._bag is not None and b._bag is not None
    assert a._bag.tile(60) != b._bag.tile(60) or a._bag.order[5:60] != b._bag.order[5:60]
    for seat in range(3):
        assert a.view(seat) == b.view(seat)
    assert a.view(0) != a.view(1)


def test_r9_3_determinize_samples_the_unseen_tiles() -> None:
    game = ra.Game(players=3, seed=77)
    rng = random.Random(3)
    for _ in range(40):
        game.apply(rng.choice(game.legal_actions()))
    view = game.view(2)
    d1 = view.determinize(seed=1)
    d2 = view.determinize(seed=2)
    for d in (d1, d2):
        assert d.unseen_counts() == game.unseen_counts()
        assert d.players == game.players
        assert d.legal_actions() == game.legal_actions()
        assert d.tile_census() == list(ra.TILE_COUNTS)
    assert d1._bag is not None and d2._bag is not None
    later = range(game._drawn, 180)
    assert [d1._bag.tile(k) for k in later] != [d2._bag.tile(k) for k in later]
    assert [view.determinize(seed=1)._bag.tile(k) for k in later] == [d1._bag.tile(k) for k in later]  # type: ignore[union-attr]
    # A determinized game is a full game: it can be played on, undone, recorded.
    a = d1.legal_actions()[0]
    d1.apply(a)
    assert d1.undo() is a
    assert ra.Game.from_record(d1.to_record()) == d1


def test_r9_1_hidden_scores_show_only_ones_own_score_until_the_end() -> None:
    game = ra.Game(players=3, seed=5, hidden_scores=True)
    rng = random.Random(5)
    while game.epoch == 1:
        game.apply(rng.choice(game.legal_actions()))
    view = game.view(1)
    assert view.scores[1] == game.scores[1]
    assert view.scores[0] is None and view.scores[2] is None
    assert [p.score for p in view.players] == [None, game.scores[1], None]
    shown = [e for e in view.events if e.kind == "score"]
    assert [e.detail is None for e in shown] == [True, False, True]
    assert "hidden" in shown[0].text()
    # Scores follow from public tiles, so a determinized game gets them right.
    assert view.determinize(seed=3).scores == game.scores
    while not game.is_over():
        game.apply(rng.choice(game.legal_actions()))
    assert game.view(1).scores == game.scores


def test_a_view_cannot_be_played_and_rejects_bad_seats() -> None:
    game = ra.Game(players=2, seed=1)
    view = game.view(0)
    assert not hasattr(view, "apply")
    with pytest.raises(ra.SeatError, match="no seat 2"):
        game.view(2)


def test_view_to_dict_is_plain_data() -> None:
    import json

    game = ra.Game(players=2, seed=3)
    game.apply("draw")
    data = game.view(0).to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["seat"] == 0 and data["legal_actions"] == [str(a) for a in game.legal_actions()]
