"""The site's hint stars what the analysis library stars (issue 53): the better margin of two
equal chances, and nothing on an exact tie (:attr:`ra.bots.evaluate.Evaluation.starred`)."""

from __future__ import annotations

import pytest

import ra
from ra.bots import from_spec
from ra.bots.advisor import Advisor
from ra.table import HintJob
from ra.web.bot_work import hint_for

native = pytest.mark.skipif(not ra.native_available(), reason="the advisor's search needs the native core")


def _greedy_position(decision: int) -> ra.Game:
    """Decision ``decision`` of a three-player game of greedy bots (seed 0): at decision 2 a
    draw and a Ra call both show 32% (-5) at 400 iterations (tests/bots/test_advisor.py)."""
    game = ra.Game(players=3, seed=0)
    seated = [from_spec("greedy", seed=i) for i in range(3)]
    while game.num_decisions < decision:
        seat = game.to_move
        assert seat is not None
        game.apply(seated[seat].choose(game.view(seat)))
    return game


@native
def test_a_hint_on_an_exact_tie_stars_nothing_and_names_the_equals() -> None:
    game = _greedy_position(2)
    seat = game.to_move
    assert seat is not None
    evaluation = Advisor(400, seed=0).evaluate(game.view(seat))
    assert evaluation.starred is None  # the library's decision, which the site must send
    hint = hint_for(HintJob(game.view(seat), "400", 0), "original")
    assert hint["starred"] is None
    top = evaluation.actions[0].shown(seat)
    assert hint["tied"] == [str(v.action) for v in evaluation.actions if v.shown(seat) == top]
    assert len(hint["tied"]) >= 2
    assert hint["reason"] is None  # no reason why one of two equals is "best"


@native
def test_a_hint_without_a_tie_stars_the_librarys_choice() -> None:
    checked = 0
    for decision in range(8):
        game = _greedy_position(decision)
        seat = game.to_move
        assert seat is not None
        if len(game.legal_actions()) < 2:
            continue
        evaluation = Advisor(400, seed=0).evaluate(game.view(seat))
        if evaluation.starred is None:
            continue
        hint = hint_for(HintJob(game.view(seat), "400", 0), "original")
        assert hint["starred"] == str(evaluation.starred.action) and hint["tied"] == []
        assert hint["reason"] is not None
        checked += 1
    assert checked >= 3
