"""The tuned weights of the strong searches (ra.bots.valuation.SEARCH_WEIGHTS) and the tool that
tunes them (tools/tune_weights.py; the real run is documented in docs/bots.md)."""

from __future__ import annotations

import dataclasses

import pytest
from tools import tune_weights as tool

from ra import bots
from ra.bots.valuation import DEFAULT_WEIGHTS, SEARCH_WEIGHTS, Weights
from tests.native.helpers import CORE

DEFAULT = dataclasses.astuple(DEFAULT_WEIGHTS)
TUNED = dataclasses.astuple(SEARCH_WEIGHTS)


def test_tuned_greedy_beats_the_hand_set_one_on_fresh_deals() -> None:
    # Deals the tuning never saw (it trains on 1000-3999 and checks on 50000-52999).
    fresh = range(90_000, 90_200)
    share = {n: tool.excess_wins(TUNED, DEFAULT, fresh, [n]) + 1 / n for n in (2, 3, 4)}
    assert share[2] > 0.65 and share[3] > 0.5 and share[4] > 0.4, share
    # And the hand-set weights against themselves win exactly their fair share (seats rotated).
    assert tool.excess_wins(DEFAULT, DEFAULT, fresh, [2, 3]) == pytest.approx(0.0)


def test_tuning_runs_end_to_end_and_is_reproducible() -> None:
    first, score = tool.tune(seed=5, deals=6, steps=4, players=[2, 3], log=False)
    again, score_again = tool.tune(seed=5, deals=6, steps=4, players=[2, 3], log=False)
    assert isinstance(first, Weights) and (first, score) == (again, score_again)
    assert score >= 0.0  # a candidate is kept only when it beats the defaults it starts from
    assert all(x >= 0.0 for x in dataclasses.astuple(first))
    # A second round starts from the tuned set and plays against it (--from tuned).
    second, second_score = tool.tune(seed=5, deals=6, steps=4, players=[3], log=False, start="tuned")
    assert second_score >= 0.0 and second != first
    unchanged, none = tool.tune(seed=5, deals=6, steps=0, players=[3], log=False, start="tuned")
    assert unchanged == Weights(*(round(x, 4) for x in TUNED)) and none == pytest.approx(0.0)


def test_the_strong_levels_search_with_the_tuned_weights() -> None:
    for level in ("hard", "expert"):
        assert bots.make(level, seed=1).weights == SEARCH_WEIGHTS  # type: ignore[attr-defined]
    assert bots.make("medium", seed=1).weights == DEFAULT_WEIGHTS  # type: ignore[attr-defined]
    # Its own weights still win over the level's (hard:... with weights given).
    bot = bots.make("hard", seed=1, weights=DEFAULT_WEIGHTS)
    assert bot.weights == DEFAULT_WEIGHTS  # type: ignore[attr-defined]
    state = CORE.State(players=2, seed=3)
    action, _ = state.mcts(iterations=200, seed=1, weights=TUNED)
    assert action in state.legal_actions()


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--players", "2,7"], "player counts must be 2 to 5"),
        (["--players", "two"], "player counts must be numbers"),
        (["--deals", "0"], "expected at least 1"),
        (["--steps", "many"], "expected a whole number"),
        (["--from", "best"], "invalid choice: 'best'"),
    ],
)
def test_bad_command_lines_are_named(argv: list[str], named: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        tool.main(argv)
    assert stop.value.code == 2
    assert named in capsys.readouterr().err
