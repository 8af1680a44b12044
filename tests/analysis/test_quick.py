"""The default analysis (issue 53: a whole game in seconds): a short search judges every
decision, the full search only the costliest ones, and each report says which judged it; the
model of win chances gives the instant hint."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

import ra
from ra import bots, records
from ra.actions import Action
from ra.analysis.analyse import analyse_game
from ra.analysis.game import DEFAULT_SEARCHES, GameAnalysis, decisions_to_analyse
from ra.analysis.quick import (
    SCREEN_ITERATIONS,
    SEARCH_FROM,
    model_evaluation,
    model_hint,
    screen_budget,
    to_search,
)
from ra.bots.advisor import QUICK_ITERATIONS, quick_budget
from ra.bots.evaluate import Budget
from ra.cli import app as cli


def _played(players: int = 3, seed: int = 7) -> ra.Game:
    game = ra.Game(players=players, seed=seed, hidden_scores=True)
    seated = [bots.from_spec("greedy", seed=i) for i in range(players)]
    while not game.is_over():
        mover = game.to_move
        assert mover is not None
        game.apply(seated[mover].choose(game.view(mover)))
    return game


@pytest.fixture(scope="module")
def game() -> ra.Game:
    return _played()


@pytest.fixture
def short(monkeypatch: pytest.MonkeyPatch) -> int:
    """A short search of 10 iterations at three players (cheap for a test; the budgets below
    are larger, so the costliest decisions are searched again)."""
    monkeypatch.setitem(SCREEN_ITERATIONS, 3, 10)
    return 10


def test_the_model_judges_every_legal_action_without_reading_the_bag(game: ra.Game) -> None:
    """Every legal action gets the mover's chance, best first; a draw (R3.3) is the mean over the
    tiles left, so two games that differ only in the bag's order judge it the same (R9.3)."""
    probe = ra.Game.from_setup(game.setup)
    for action in game.decisions[:5]:
        probe.apply(action)
    seat = probe.to_move
    assert seat is not None
    ev = model_evaluation(probe)
    assert {v.action for v in ev.actions} == set(probe.legal_actions())
    mine = [v.chances[seat] for v in ev.actions]
    assert mine == sorted(mine, reverse=True) and ev.source == "model"
    assert all(abs(sum(v.chances) - 1) < 1e-9 for v in ev.actions)
    other = probe.view(seat).determinize(seed=123)  # the same position, another bag order
    draw = Action.parse("draw")
    assert model_evaluation(other).value(draw).chances == pytest.approx(ev.value(draw).chances)
    assert model_hint(probe.view(seat)).value(draw).chances == pytest.approx(ev.value(draw).chances)


def test_the_full_search_goes_to_the_costliest_decisions_by_the_short_one() -> None:
    from ra.analysis.game import DecisionReport

    def report(i: int, loss: float) -> DecisionReport:
        return DecisionReport(
            index=i, seat=0, epoch=1, chosen="draw", best="ra", chances=(0.5, 0.5),
            chosen_chance=0.5 - loss, best_chance=0.5, loss=loss, label=None, text="",
        )  # fmt: skip

    reports = [report(0, 0.3), report(1, SEARCH_FROM / 2), report(2, 0.05), report(3, 0.2)]
    assert to_search(reports, 2) == [0, 3]  # the two costliest, in game order
    assert to_search(reports, 10) == [0, 2, 3]  # a close call under SEARCH_FROM is left to the model
    assert to_search(reports, 0) == []


def test_the_default_analysis_searches_at_most_the_cap_and_says_which(game: ra.Game, short: int) -> None:
    """Every decision with a choice is judged by the short search; the costliest of them (by the
    short search) again at the analysis' budget, with the full analysis' own numbers there."""
    seen: list[tuple[int, int]] = []
    analysis = analyse_game(game, budget=60, searches=3, progress=lambda d, t: seen.append((d, t)))
    judged = decisions_to_analyse(game, range(3))
    assert [d.index for d in analysis.decisions] == judged
    searched = [d for d in analysis.decisions if d.searched]
    assert 1 <= len(searched) <= 3
    screened = analyse_game(game, budget=60, searches=0)
    assert not any(d.searched for d in screened.decisions)
    by_short = {d.index: d for d in analyse_game(game, budget=short, searches=None).decisions}
    assert [dataclasses.replace(d, searched=True) for d in screened.decisions] == list(by_short.values())
    assert [d.index for d in searched] == to_search(screened.decisions, 3)
    picked = {d.index for d in searched}
    unsearched = [d for d in analysis.decisions if not d.searched]
    assert unsearched == [d for d in screened.decisions if d.index not in picked]
    full = {d.index: d for d in analyse_game(game, budget=60, searches=None).decisions}
    assert all(d == full[d.index] for d in searched)
    assert len(analysis.curve) == game.num_decisions
    assert analysis.complete and seen[-1][0] == seen[-1][1] == len(judged) + len(searched)
    again = GameAnalysis.from_dict(analysis.to_dict())
    assert [d.searched for d in again.decisions] == [d.searched for d in analysis.decisions]


def test_a_budget_within_the_short_search_judges_every_decision_at_the_budget(game: ra.Game) -> None:
    """Nothing to search again: the default analysis is the full one (and its numbers do not
    depend on the processes)."""
    assert screen_budget(Budget(iterations=20), 3) == Budget(iterations=20)
    assert screen_budget(Budget.parse("expert"), 3) == Budget(iterations=SCREEN_ITERATIONS[3])
    default = analyse_game(game, budget=20, searches=3)
    assert default.decisions == analyse_game(game, budget=20, searches=None).decisions
    assert analyse_game(game, budget=20, searches=3, jobs=2).decisions == default.decisions


def test_an_old_analysis_file_reads_as_searched(game: ra.Game, short: int) -> None:
    """Files written before the short search judged decisions: every decision there was searched."""
    data = analyse_game(game, seats=[0], budget=20, searches=0).to_dict()
    for d in data["decisions"]:
        del d["searched"]
    assert all(d.searched for d in GameAnalysis.from_dict(data).decisions)


def test_a_bad_cap_is_refused_by_name(game: ra.Game) -> None:
    with pytest.raises(ValueError, match="searches"):
        analyse_game(game, searches=-1)


def test_the_quick_hint_budget_by_player_count() -> None:
    assert quick_budget(3).iterations == QUICK_ITERATIONS[3]
    with pytest.raises(ValueError, match="2 to 5 players"):
        quick_budget(6)


def test_ctrl_c_keeps_what_was_judged(game: ra.Game, short: int) -> None:
    """Interrupted during the short searches: the decisions so far; during the full ones: every
    decision, those not yet searched again by the short search; never a traceback, never complete."""

    def stop_at(when: int) -> Callable[[int, int], None]:
        def progress(done: int, total: int) -> None:
            if done == when:
                raise KeyboardInterrupt

        return progress

    judged = decisions_to_analyse(game, range(3))
    early = analyse_game(game, budget=20, searches=2, progress=stop_at(10))
    assert not early.complete and [d.index for d in early.decisions] == judged[:10]
    late = analyse_game(game, budget=20, searches=2, progress=stop_at(len(judged) + 1))
    assert not late.complete and sum(d.searched for d in late.decisions) == 1
    assert [d.index for d in late.decisions] == judged


def test_the_command_searches_the_costliest_by_default_and_every_decision_when_deep(
    game: ra.Game, tmp_path: Path, short: int
) -> None:
    path, data = tmp_path / "game.json", tmp_path / "analysis.json"
    records.save(game, path)
    for extra, everything in (([], False), (["--deep"], True)):
        args = ["analyze", str(path), "--seat", "1", "--budget", "20", "--json", str(data), *extra]
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
        searched = [d["searched"] for d in json.loads(data.read_text())["decisions"]]
        assert all(searched) == everything and (any(searched) or not everything)
        assert sum(searched) <= (len(searched) if everything else DEFAULT_SEARCHES)
