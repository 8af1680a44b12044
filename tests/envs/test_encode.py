"""ra.encode: the observation layout is what the module docstring says (hand-built positions)."""

from __future__ import annotations

import random
import struct

import pytest

import ra
from ra import encode
from ra.bots.greedy import greedy_action
from ra.encode import FIELDS, OBSERVATION_HIGH, OBSERVATION_SIZE, describe, fields, observation

SUNS_2P = [[9, 6, 5, 2], [8, 7, 4, 3]]


def test_layout_offsets_sizes_and_documented_order() -> None:
    assert OBSERVATION_SIZE == 80 + 5 * 58 == 370
    assert FIELDS["players"] == (0, 1)
    assert FIELDS["phase"] == (2, 5)
    assert FIELDS["auction_track"] == (16, 23)
    assert FIELDS["unseen"] == (39, 23)
    assert FIELDS["discards_left"] == (79, 1)
    assert FIELDS["slot0.present"] == (80, 1)
    assert FIELDS["slot0.suns"] == (81, 16)
    assert FIELDS["slot1.present"] == (80 + 58, 1)
    assert FIELDS["slot4.score_known"] == (369, 1)
    # The fields' meanings are documented once, in docs/research.md (tests/test_docs.py checks that
    # table against GLOBAL_FIELDS and PLAYER_FIELDS, in order); the module points there.
    doc = " ".join((encode.__doc__ or "").split())
    assert "docs/research.md" in doc and ":data:`GLOBAL_FIELDS`" in doc and ":data:`PLAYER_FIELDS`" in doc


def test_stacked_two_player_position_field_by_field() -> None:
    game = ra.Game(players=2, seed=0, bag=["pharaoh", "funeral", "ra"], suns=SUNS_2P)
    game.apply("draw")  # seat 0 (holds 9): Pharaoh
    game.apply("draw")  # seat 1: Funeral
    game.apply("draw")  # seat 0: Ra, a drawn auction; seat 1 bids first
    game.apply("bid 7")
    obs = observation(game.view(0))
    raw = fields(obs)
    assert raw["players"] == [2.0]
    assert raw["epoch"] == [1.0]
    assert raw["phase"] == [0.0, 1.0, 0.0, 0.0, 0.0]  # bid
    assert raw["to_move"] == [1.0, 0.0, 0.0, 0.0, 0.0]  # the viewer (seat 0, the Ra player)
    assert raw["ra_count"] == [1.0]
    assert raw["ra_track_length"] == [6.0]
    assert raw["center_sun"] == [1.0]
    assert raw["tiles_in_bag"] == [177.0]
    track = [0.0] * 23
    track[ra.Tile.PHARAOH] = track[ra.Tile.FUNERAL] = 1.0
    assert raw["auction_track"] == track
    assert raw["unseen"][ra.Tile.RA] == 29 and raw["unseen"][ra.Tile.PHARAOH] == 24
    assert raw["auction_kind"] == [1.0, 0.0, 0.0]  # drawn
    assert raw["ra_player"] == [1.0, 0.0, 0.0, 0.0, 0.0]
    assert raw["high_bid"] == [7.0]
    assert raw["high_bidder"] == [0.0, 1.0, 0.0, 0.0, 0.0]  # seat 1, one to the viewer's left
    assert raw["must_bid"] == [0.0]
    assert raw["slot0.present"] == [1.0] and raw["slot1.present"] == [1.0]
    assert raw["slot2.present"] == [0.0] and raw["slot4.present"] == [0.0]
    assert [s + 1 for s, x in enumerate(raw["slot0.suns"]) if x] == [2, 5, 6, 9]
    assert [s + 1 for s, x in enumerate(raw["slot1.suns"]) if x] == [3, 4, 7, 8]
    assert raw["slot0.score"] == [10.0] and raw["slot0.score_known"] == [1.0]
    # Seat 1 sees the same position with the slots turned: it is slot 0 there.
    theirs = describe(observation(game.view(1)))
    assert theirs["to_move"] == 1 and theirs["high_bidder"] == 0 and theirs["ra_player"] == 1
    assert theirs["slots"][0]["suns"] == [3, 4, 7, 8]
    # Seat 0 bids 9 and wins: Pharaoh then lost to the Funeral (R5.1); sun 1 face down.
    game.apply("bid 9")
    mine = describe(observation(game.view(0)))
    assert mine["phase"] == "action" and mine["auction_kind"] is None and mine["high_bid"] is None
    assert mine["center_sun"] == 9
    assert mine["slots"][0]["used_suns"] == [1]
    assert mine["slots"][0]["suns"] == [2, 5, 6]
    assert mine["slots"][0]["tiles"] == {}
    assert mine["auction_track"] == {}


def test_discard_phase_and_display_counts() -> None:
    bag = ["astronomy", "writing", "art", "unrest", "ra"]
    game = ra.Game(players=2, seed=0, bag=bag, suns=SUNS_2P)
    for _ in range(5):
        game.apply("draw")
    game.apply("pass")  # seat 1 passes, seat 0 (Ra player) bids
    game.apply("bid 2")
    assert game.phase == "discard"
    d = describe(observation(game.view(0)))
    assert d["phase"] == "discard" and d["pending_disaster"] == "unrest" and d["discards_left"] == 2
    assert d["slots"][0]["tiles"] == {"astronomy": 1, "writing": 1, "art": 1}
    assert d["to_move"] == 0


def test_hidden_scores_are_zero_and_flagged_unknown() -> None:
    game = ra.Game(players=3, seed=4, hidden_scores=True)
    raw = fields(observation(game.view(2)))
    assert raw["slot0.score"] == [10.0] and raw["slot0.score_known"] == [1.0]
    assert raw["slot1.score"] == [0.0] and raw["slot1.score_known"] == [0.0]
    assert describe(observation(game.view(2)))["slots"][1]["score"] is None


def test_random_positions_stay_within_bounds_and_describe_matches_the_view() -> None:
    rng = random.Random(2)
    for i in range(30):
        game = ra.Game(players=2 + i % 4, seed=i)
        while not game.is_over():
            game.apply(rng.choice(game.legal_actions()))
            if rng.random() < 0.05:
                seat = rng.randrange(game.num_players)
                view = game.view(seat)
                obs = observation(view)
                assert len(obs) == OBSERVATION_SIZE
                assert all(0 <= x <= h for x, h in zip(obs, OBSERVATION_HIGH, strict=True))
                d = describe(obs)
                assert d["phase"] == view.phase and d["epoch"] == view.epoch
                for slot in d["slots"]:
                    p = view.player((seat + slot["slot"]) % view.num_players)
                    assert slot["suns"] == list(p.suns) and slot["tiles"] == dict(p.tiles)
                    assert slot["score"] == p.score
        final = describe(observation(game.view(0)))
        assert final["phase"] == "over" and final["to_move"] is None


def test_bad_input_is_refused_clearly() -> None:
    with pytest.raises(TypeError, match="PlayerView"):
        observation(ra.Game(players=2, seed=0))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="370 entries"):
        describe([0.0] * 5)


def test_observation_of_a_game_equals_the_observation_of_its_view() -> None:
    rng = random.Random(5)
    for i in range(16):
        game = ra.Game(players=2 + i % 4, seed=i, hidden_scores=i % 3 == 0)
        while not game.is_over():
            game.apply(rng.choice(game.legal_actions()))
            seat = rng.randrange(game.num_players)
            assert encode.observation_of(game, seat) == observation(game.view(seat))
        assert encode.observation_of(game, 0) == observation(game.view(0))
    with pytest.raises(ValueError, match="no seat 3"):
        encode.observation_of(ra.Game(players=3, seed=0), 3)


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {}),
        (3, {}),
        (4, {"hidden_scores": True}),
        (5, {}),
        (2, {"variant": "long-2p", "suns_per_player": 5}),
    ],
)
def test_the_fast_bytes_encoding_equals_the_reference_list_everywhere(
    players: int, options: dict[str, object]
) -> None:
    """observation_bytes (the environments' fast path) and observation_of (the plain reference)
    are two implementations of one layout: every seat, every position of many random games."""
    unpack = struct.Struct(f"<{OBSERVATION_SIZE}f").unpack
    rng = random.Random(players)
    phases = set()
    for seed in range(25):
        game = ra.Game(players=players, seed=seed, **options)  # type: ignore[arg-type]
        while True:
            for seat in range(players):
                fast = encode.observation_bytes(game, seat)
                assert len(fast) == encode.OBSERVATION_BYTES
                assert list(unpack(fast)) == encode.observation_of(game, seat)
            phases.add(game.phase)
            if game.is_over():
                break
            # Half greedy (it uses God tiles, so every phase comes up), half random.
            legal = game.legal_actions()
            game.apply(greedy_action(game) if rng.random() < 0.5 else rng.choice(legal))
    assert {"action", "bid", "discard", "over"} <= phases  # the auction and discard fields too
    view = game.view(1)
    assert encode.observation_bytes(view, 1) == encode.observation_bytes(game, 1)
    with pytest.raises(ValueError, match="no seat 9"):
        encode.observation_bytes(game, 9)
    with pytest.raises(TypeError, match="a game or a view"):
        encode.observation_bytes("game", 0)  # type: ignore[arg-type]


def test_observation_arrays_are_fresh_writable_float32_copies_of_the_list() -> None:
    np = pytest.importorskip("numpy", reason="the rl extra is not installed")
    from ra.envs import observation_array, observation_array_of

    game = ra.Game(players=4, seed=3, hidden_scores=True)
    rng = random.Random(3)
    for _ in range(90):
        game.apply(rng.choice(game.legal_actions()))
    for seat in range(4):
        view = game.view(seat)
        first = observation_array_of(game, seat)
        assert first.dtype == np.float32 and first.shape == (OBSERVATION_SIZE,)
        assert first.tolist() == observation(view)
        first[:] = -1.0  # the caller's own array: writable, and the next one is untouched
        assert observation_array(view).tolist() == observation(view)
