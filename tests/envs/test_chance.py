"""Engine additions for learning and search: the action mask, returns, explicit chance."""

from __future__ import annotations

import pickle
import random

import pytest

import ra
from ra.tiles import TILE_COUNTS, Tile

# The dense action space, index by index: learning agents rely on it (never change silently).
PINNED_ACTIONS = (
    ["draw", "ra", "done", "pass"]
    + [f"god {t}" for t in ra.TILE_IDS if t not in ("ra", "god")]
    + [f"bid {s}" for s in range(1, 17)]
    + [
        "discard astronomy",
        "discard agriculture",
        "discard writing",
        "discard religion",
        "discard art",
        "discard fortress",
        "discard obelisk",
        "discard palace",
        "discard pyramid",
        "discard sphinx",
        "discard statue",
        "discard step_pyramid",
        "discard temple",
    ]
)


def test_action_index_order_is_pinned() -> None:
    assert ra.NUM_ACTIONS == 54
    assert [str(a) for a in ra.ALL_ACTIONS] == PINNED_ACTIONS
    assert ra.Action.parse("god gold").index == 4
    assert ra.Action.parse("bid 1").index == 25
    assert ra.Action.parse("discard temple").index == 53


def random_positions(count: int, seed: int = 0) -> list[ra.Game]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        game = ra.Game(players=2 + i % 4, seed=i)
        for _ in range(rng.randrange(0, 400)):
            if game.is_over():
                break
            game.apply(rng.choice(game.legal_actions()))
        out.append(game)
    return out


def test_legal_action_mask_marks_exactly_the_legal_actions() -> None:
    for game in random_positions(40):
        mask = game.legal_action_mask()
        assert len(mask) == ra.NUM_ACTIONS
        assert {i for i, m in enumerate(mask) if m} == {a.index for a in game.legal_actions()}
        if not game.is_over():
            seat = game.to_move
            assert seat is not None
            assert game.view(seat).legal_action_mask() == mask


def finished(players: int, seed: int) -> ra.Game:
    game = ra.Game(players=players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over():
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_returns_are_zero_until_the_end_then_plus_one_for_the_winner() -> None:
    assert ra.Game(players=4, seed=1).returns() == [0.0] * 4
    for players in (2, 3, 5):
        game = finished(players, seed=players)
        r = game.returns()
        assert r[game.winner or 0] == 1.0
        assert sorted(r)[:-1] == [-1 / (players - 1)] * (players - 1)
        assert sum(r) == pytest.approx(0.0)


def test_chance_outcomes_sum_to_one_and_match_the_unseen_counts() -> None:
    game = ra.Game(players=3, seed=5)
    outcomes = game.chance_outcomes()
    assert [t for t, _ in outcomes] == list(Tile)
    assert dict(outcomes)[Tile.RA] == pytest.approx(30 / 180)
    checked = 0
    for game in random_positions(80, seed=3):
        outcomes = game.chance_outcomes()
        if ra.Action.parse("draw") not in game.legal_actions():
            assert outcomes == []
            continue
        checked += 1
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        unseen = game.unseen_counts()
        assert {t: p * game.tiles_in_bag for t, p in outcomes} == pytest.approx(
            {Tile(t): float(c) for t, c in enumerate(unseen) if c}
        )
        assert game.view(game.to_move or 0).chance_outcomes() == outcomes
    assert checked >= 5


def same_position(a: ra.Game, b: ra.Game) -> None:
    assert a.position_key() == b.position_key()
    assert a.events == b.events
    assert a.decisions == b.decisions
    assert a.auction_track == b.auction_track
    assert a.scores == b.scores


def test_applying_a_chosen_draw_equals_the_engines_own_draw() -> None:
    for game in random_positions(60, seed=7):
        if ra.Action.parse("draw") not in game.legal_actions():
            continue
        own = game.clone()
        own.apply("draw")
        tile = own.last_draw
        assert tile is not None
        chosen = game.clone()
        chosen.apply_draw(tile)
        same_position(chosen, own)
        assert chosen.last_draw is tile


def test_chosen_draw_of_a_stacked_scenario_and_records_replay() -> None:
    scripted = ra.Game(players=2, seed=0, bag=["pharaoh", "funeral"], suns=[[9, 6, 5, 2], [8, 7, 4, 3]])
    chosen = ra.Game(players=2, seed=0, suns=[[9, 6, 5, 2], [8, 7, 4, 3]])
    for g in (scripted, chosen):
        g.apply("draw") if g is scripted else g.apply_draw("pharaoh")
        g.apply("draw") if g is scripted else g.apply_draw(Tile.FUNERAL)
    same_position(chosen, scripted)
    assert chosen.players[0].tiles == scripted.players[0].tiles
    replayed = ra.Game.from_record(chosen.to_record())
    assert replayed == chosen
    chosen.undo()
    assert chosen.auction_track == ["pharaoh"]


def test_a_chosen_draw_leaves_clones_sharing_the_bag_alone() -> None:
    game = ra.Game(players=3, seed=11)
    reference = ra.Game(players=3, seed=11)
    reference.apply("draw")
    real = reference.last_draw
    other = next(t for t in Tile if t is not real and TILE_COUNTS[t])
    sibling = game.clone()
    game.apply_draw(other)  # before the shared bag has decided its first tile
    assert game.last_draw is other
    sibling.apply("draw")
    assert sibling.last_draw is real


def test_apply_draw_refuses_what_a_draw_cannot_give() -> None:
    game = ra.Game(players=2, seed=0, bag=["ra"], suns=[[9, 6, 5, 2], [8, 7, 4, 3]])
    game.apply("draw")  # a Ra tile: an auction, no drawing now
    with pytest.raises(ra.IllegalActionError, match="bid or pass"):
        game.apply_draw("gold")
    empty = ra.Game(players=2, seed=0, bag=["gold"], exact_bag=True)
    with pytest.raises(ra.IllegalActionError, match="no pharaoh tile is left"):
        empty.apply_draw("pharaoh")
    with pytest.raises(ValueError, match="unknown tile"):
        empty.apply_draw("camel")


def test_engine_draws_after_a_chosen_one_come_from_the_seeded_rest_and_replay() -> None:
    game = ra.Game(players=3, seed=21)
    game.apply_draw("pharaoh")
    rng = random.Random(4)
    for _ in range(60):  # engine draws (and everything else) after the chosen one
        if game.is_over():
            break
        game.apply(rng.choice(game.legal_actions()))
    assert game.view(0).drawn_tiles[0] == "pharaoh"
    assert game.tile_census() == list(game.setup.contents)
    assert ra.Game.from_record(game.to_record()) == game
    copy = pickle.loads(pickle.dumps(game))
    assert copy == game
