"""The guide's positions: each is reached by legal moves, and its stored best action is the
advisor's at the stored budget (the native core makes this deterministic)."""

from __future__ import annotations

import pytest

from ra.bots.advisor import Advisor
from ra.guide import POSITION_MARK, guide_text, positions
from ra.native import core


def test_every_marker_names_a_stored_position() -> None:
    stored = positions()
    for lang in ("en", "ru", "de"):
        names = POSITION_MARK.findall(guide_text(lang))
        assert names and set(names) <= set(stored)


def test_positions_are_legal_and_their_numbers_are_present() -> None:
    for position in positions().values():
        game = position.game()
        assert game.to_move == position.mover
        legal = {str(a) for a in game.legal_actions()}
        assert {a.action for a in position.actions} == legal
        assert position.best == position.actions[0].action
        assert all(0.0 <= a.win <= 1.0 for a in position.actions)


@pytest.mark.skipif(core is None, reason="the advisor's search needs the native core")
def test_stored_best_is_the_advisors_choice() -> None:
    for position in positions().values():
        game = position.game()
        evaluation = Advisor(budget=position.budget, seed=0).evaluate(game.view(game.to_move))
        assert str(evaluation.actions[0].action) == position.best, position.name


def test_each_position_shows_its_sections_point_and_is_an_open_question() -> None:
    from tools.guide_positions import SPECS, open_question

    stored = positions()
    assert [name for name, _, _ in SPECS] == list(stored)
    for name, players, shows in SPECS:
        position = stored[name]
        game = position.game()
        assert game.num_players == players and shows(game), name
        assert open_question([a.win for a in position.actions]), name


def test_a_malformed_position_is_a_clear_error() -> None:
    from ra.guide import GuideDataError, _position

    with pytest.raises(GuideDataError, match="position 'x': missing or malformed field 'moves'"):
        _position({"name": "x", "players": 3, "seed": 1, "actions": []})
    with pytest.raises(GuideDataError, match="must be an object"):
        _position([1, 2])
    bad = _position(
        {
            "name": "y",
            "players": 3,
            "seed": 1,
            "moves": ["bid 16"],
            "mover": 0,
            "budget": 1,
            "best": "draw",
            "actions": [],
        }
    )
    with pytest.raises(GuideDataError, match=r"position 'y': move 1 \('bid 16'\) is not legal there"):
        bad.game()
