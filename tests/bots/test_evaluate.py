"""The win-chance evaluator (ra.bots.evaluate) and the reasons in words (ra.bots.explain)."""

from __future__ import annotations

import threading

import pytest

import ra
from ra.analysis.game import MISTAKE, analyse_decision
from ra.bots.evaluate import (
    TEMPERATURE,
    Budget,
    EvaluationCancelledError,
    Evaluator,
    calibrate,
    position_wins,
)
from ra.bots.explain import reason, signed
from tests.conftest import make_game


def rich_auction() -> ra.Game:
    """Bob to bid on a lot worth far more than any sun: 3 Gold, 2 Gods, 2 Pharaohs (R4, R7.2).
    Ann, the Ra player, bids last with suns up to 8, so only Bob's 9 wins it (R4.2)."""
    game = make_game(
        ["Ann", "Bob"], bag=["gold", "gold", "god", "god", "pharaoh", "pharaoh", "gold", "ra"], seed=1
    )
    for _ in range(8):
        game.apply("draw")
    assert game.phase == "bid" and game.to_move == 1
    assert ra.Action.parse("bid 9") in game.legal_actions()
    return game


def test_budget_parsing_and_errors() -> None:
    assert Budget.parse("2s") == Budget(iterations=None, seconds=2.0)
    assert Budget.parse(" 1.5 s ") == Budget(iterations=None, seconds=1.5)
    assert Budget.parse("500") == Budget(iterations=500)
    assert str(Budget.parse("500")) == "500 iterations" and str(Budget.parse("2s")) == "2s"
    assert Budget.parse(" Expert ") == Budget(iterations=None, level="expert")
    assert Budget.parse("expert").search_iterations(3) == ra.bots.NATIVE_MCTS_ITERATIONS["expert"][1]
    assert Budget.parse("hard").flat() == Budget(iterations=600)  # the Python advice: a count, repeatable
    for bad in ("", "fast", "-3", "2.5", "0", "0s", "99999s", "easy"):
        with pytest.raises(ValueError, match="budget"):
            Budget.parse(bad)


def test_calibration_map_is_monotone_and_sums_to_one() -> None:
    for n in range(ra.MIN_PLAYERS, ra.MAX_PLAYERS + 1):
        previous = -1.0
        for w in range(0, 101, 5):
            rest = [(100 - w) // (n - 1)] * (n - 1)
            chances = calibrate([w, *rest], 100)
            assert sum(chances) == pytest.approx(1.0)
            assert all(0 < c < 1 for c in chances)
            assert chances[0] > previous
            previous = chances[0]
    # A power below 1 pulls the raw shares towards 1/N, above 1 away from it.
    assert calibrate([80, 20], 100, temperature=0.5)[0] < calibrate([80, 20], 100, temperature=1.0)[0]
    assert calibrate([80, 20], 100, temperature=2.0)[0] > calibrate([80, 20], 100, temperature=1.0)[0]
    assert set(TEMPERATURE) == set(range(ra.MIN_PLAYERS, ra.MAX_PLAYERS + 1))


def test_evaluation_is_deterministic_for_a_seed_and_an_iteration_budget() -> None:
    game = make_game(3, seed=5)
    for _ in range(6):
        game.apply(game.legal_actions()[0])
    view = game.view(game.to_move or 0)
    first = Evaluator(60, seed=3).evaluate(view)
    again = Evaluator(60, seed=3).evaluate(view)
    other = Evaluator(60, seed=4).evaluate(view)
    assert first == again
    assert first != other
    legal = view.legal_actions()
    assert sorted(v.action.index for v in first.actions) == sorted(a.index for a in legal)
    assert first.playouts == (60 // len(legal)) * len(legal)
    mover = first.mover
    assert [v.chances[mover] for v in first.actions] == sorted(
        (v.chances[mover] for v in first.actions), reverse=True
    )
    for v in first.actions:
        assert sum(v.wins) == v.playouts and sum(v.chances) == pytest.approx(1.0)
        assert v.chances == calibrate(v.wins, v.playouts)


def test_the_evaluator_prefers_the_winning_bid_and_flags_the_blunder() -> None:
    game = rich_auction()
    evaluation = Evaluator(200, seed=0).evaluate(game.view(1))
    assert str(evaluation.best.action) == "bid 9"
    assert evaluation.best.margin > evaluation.value(ra.Action.parse("pass")).margin
    blunder = analyse_decision(
        game.clone(), ra.Action.parse("pass"), Evaluator(200, seed=0), game.num_decisions
    )
    assert blunder.loss >= MISTAKE and blunder.label in ("mistake", "blunder")
    assert blunder.best == "bid 9"
    assert blunder.text.startswith(f"lost {round(100 * blunder.loss)}% — ")
    assert "better to bid sun 9 than pass: " in blunder.text
    good = analyse_decision(
        game.clone(), ra.Action.parse("bid 9"), Evaluator(200, seed=0), game.num_decisions
    )
    assert good.loss == 0 and good.label is None


def test_reasons_quote_the_lot_and_its_worth() -> None:
    game = rich_auction()
    text = reason(game, ra.Action.parse("bid 9"))
    assert "the lot (3 Gold tiles, 2 God tiles and 2 Pharaohs)" in text
    trade = "sun 9 goes to the centre and the centre sun 1 comes in its place: 4 points worse"
    assert f"{trade}, but the lot brings more" in text
    assert "Ann" in text  # the rival the lot is worth most to
    start = make_game(["Ann", "Bob"], seed=2)
    assert "Ra tiles until the epoch ends" in reason(start, ra.Action.parse("draw"))
    assert (signed(-0.3), signed(2.6), signed(-2.4)) == ("0", "+3", "-2")  # never "-0"


def test_a_time_budget_and_cancelling() -> None:
    view = make_game(2, seed=9).view(0)
    evaluation = Evaluator(Budget(iterations=None, seconds=0.05), seed=1).evaluate(view)
    assert evaluation.playouts >= 2 * len(view.legal_actions())
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(EvaluationCancelledError):
        Evaluator(10_000, seed=1).evaluate(view, cancel=cancel)


def test_a_positions_chances_come_from_its_raw_playout_wins() -> None:
    view = rich_auction().view(1)
    chances, margin, count = Evaluator(30, seed=2).position(view)
    wins, raw_margin = position_wins(view, 30, Evaluator(30, seed=2)._rng(view))
    assert count == 30 and sum(wins) == 30
    assert chances == calibrate(wins, 30) and margin == raw_margin
    assert sum(chances) == pytest.approx(1.0)


def test_bidding_the_top_sun_on_a_worthless_lot_is_flagged() -> None:
    """Bob bids his 9 for an Earthquake alone and the centre sun 1 (R4.4, R5.4): a blunder."""
    game = make_game(["Ann", "Bob"], bag=["earthquake", "ra"], seed=1)
    game.apply("draw")
    game.apply("draw")
    assert game.phase == "bid" and game.to_move == 1 and game.center_sun == 1
    report = analyse_decision(
        game.clone(), ra.Action.parse("bid 9"), Evaluator(300, seed=0), game.num_decisions
    )
    assert report.label in ("mistake", "blunder") and report.loss >= MISTAKE
    assert report.best == "pass" and "better to pass than bid sun 9: " in report.text
