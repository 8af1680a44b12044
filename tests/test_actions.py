"""Actions and notation: round trips, interning, clear errors."""

from __future__ import annotations

import copy
import pickle

import pytest

import ra
from ra.actions import ALL_ACTIONS, NUM_ACTIONS


def test_every_action_round_trips_through_its_notation() -> None:
    assert NUM_ACTIONS == len(ALL_ACTIONS) == 4 + 21 + 16 + 13
    for i, action in enumerate(ALL_ACTIONS):
        assert action.index == i
        assert ra.Action.parse(str(action)) is action
        assert ra.Action.from_index(i) is action


def test_parse_is_forgiving_about_case_and_spaces() -> None:
    assert ra.Action.parse("  BID   9 ") is ra.Action("bid", 9)
    assert ra.Action.parse("god Step Pyramid") is ra.Action("god", "step_pyramid")
    assert ra.Action.parse("God step-pyramid") is ra.Action.parse("god step_pyramid")
    assert ra.Action("god", ra.Tile.GOLD) is ra.Action.parse("god gold")


def test_action_fields() -> None:
    a = ra.Action.parse("god pharaoh")
    assert (a.kind, a.tile, a.sun) == ("god", ra.Tile.PHARAOH, None)
    b = ra.Action.parse("bid 12")
    assert (b.kind, b.tile, b.sun) == ("bid", None, 12)
    assert str(ra.Action.parse("ra")) == "ra"
    assert repr(b) == "Action.parse('bid 12')"


def test_actions_are_immutable_values_that_survive_pickling_and_copying() -> None:
    a = ra.Action.parse("discard temple")
    with pytest.raises(AttributeError):
        a.kind = "bid"
    assert pickle.loads(pickle.dumps(a)) is a
    assert copy.deepcopy(a) is a and copy.copy(a) is a
    assert {a: 1}[ra.Action.parse("discard temple")] == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty action"),
        ("jump", "unknown action 'jump'"),
        ("bid", "bid needs a sun number"),
        ("bid nine", "bid needs a sun number"),
        ("bid 0", r"no sun 0"),
        ("bid 17", r"no sun 17"),
        ("god", "'god' needs a tile"),
        ("god dragon", "unknown tile"),
        ("god ra", r"cannot take ra"),
        ("discard pharaoh", r"never a choice"),
        ("draw 3", "takes no argument"),
        ("pass now", "takes no argument"),
    ],
)
def test_bad_notation_raises_notation_error(text: str, message: str) -> None:
    with pytest.raises(ra.NotationError, match=message):
        ra.Action.parse(text)


def test_apply_rejects_bad_notation_and_non_actions() -> None:
    game = ra.Game(players=2, seed=1)
    with pytest.raises(ra.NotationError):
        game.apply("fly")
    with pytest.raises(ra.NotationError, match="expected an Action"):
        game.apply(3)  # type: ignore[arg-type]
    assert not game.is_legal("fly")
    assert game.is_legal("draw") and not game.is_legal("pass")


def test_from_index_rejects_out_of_range() -> None:
    with pytest.raises(ValueError, match="no action has index 999"):
        ra.Action.from_index(999)


def test_tile_parse() -> None:
    assert ra.Tile.parse("Step Pyramid") is ra.Tile.STEP_PYRAMID
    assert ra.Tile.STEP_PYRAMID.id == "step_pyramid" == str(ra.Tile.STEP_PYRAMID)
    with pytest.raises(ValueError, match="unknown tile 'x'"):
        ra.Tile.parse("x")
