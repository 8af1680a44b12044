"""The bridge by value (issue 18): a position crosses to the core as bytes in one versioned
layout (ra.native.pack / State.from_bytes), and a core whose layout or code tables differ from
the engine's is refused with one clear warning, never used."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

import ra
from ra import native
from tests.native.helpers import CORE, mask_of


@pytest.mark.parametrize(
    ("players", "variant"),
    [(2, "standard"), (3, "standard"), (4, "standard"), (5, "standard"), (2, "long-2p")],
)
def test_every_position_crosses_the_bridge_whole(players: int, variant: str) -> None:
    rng = random.Random(players)
    for seed in range(12):
        game = ra.Game(players, seed=seed, variant=variant, hidden_scores=seed % 2 == 0)
        while not game.is_over():
            packed = native.pack(game)
            assert len(packed) == native.LAYOUT.size
            state = CORE.State.from_bytes(packed)
            assert state.snapshot() == native.snapshot(game)
            assert state.legal_mask() == mask_of(game)
            seat = game.to_move
            assert seat is not None
            view = CORE.State.from_bytes(native.pack(game.view(seat)))  # a view: no bag order
            assert view.legal_mask() == mask_of(game)
            game.apply(rng.choice(game.legal_actions()))
        assert CORE.State.from_game(game).snapshot() == native.snapshot(game)


def test_bad_bytes_are_refused_with_a_clear_error() -> None:
    good = native.pack(ra.Game(3, seed=1))
    for bad in (b"", good[:-1], good + b"\0", b"XXXX" + good[4:], good[:4] + bytes([99]) + good[5:]):
        with pytest.raises(ValueError, match="not a packed Ra position"):
            CORE.State.from_bytes(bad)
    broken = bytearray(good)
    broken[5] = 9  # nine players
    with pytest.raises(ValueError, match="not a valid position"):
        CORE.State.from_bytes(bytes(broken))


def test_the_built_core_matches_the_engine() -> None:
    assert native.check_core(CORE) is None
    assert CORE.layout()["size"] == native.LAYOUT.size


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda t: t["phases"].update(bid=7), "phases differ: bid is 1 in the core, 7 here"),
        (lambda t: t.update(version=3), "version: 2 in the core, 3 here"),
        (lambda t: t.update(actions=(("draw", -1), ("pass", -1), *t["actions"][2:])), "actions differ at 1"),
        (lambda t: t.update(tile_counts=(31, *t["tile_counts"][1:])), "tile_counts differ at 0"),
        (lambda t: t["limits"].update(kinds=24), "limits differ: kinds is 23 in the core, 24 here"),
    ],
)
def test_a_mismatch_refuses_the_core_and_falls_back_to_python(change: Any, says: str) -> None:
    table = copy.deepcopy(native.expected_layout())
    change(table)
    assert says in (native.check_core(CORE, table) or "")
    with pytest.warns(RuntimeWarning, match="does not match this engine") as caught:
        module, refused = native.load(table)
    assert module is None and refused is not None and says in refused
    assert "runs in Python" in str(caught[0].message)


def test_a_core_without_a_layout_is_refused() -> None:
    class Old:
        pass

    assert "no layout()" in (native.check_core(Old()) or "")
