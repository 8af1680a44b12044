"""The default analysis (issue 53: a whole game in seconds): the model judges every decision,
the search only the costliest ones, and each report says which judged it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

import ra
from ra import bots, records
from ra.actions import Action
from ra.analysis.game import DEFAULT_SEARCHES, GameAnalysis, analyse_game, decisions_to_analyse
from ra.analysis.quick import SEARCH_FROM, model_evaluation, model_hint, to_search
from ra.bots.advisor import QUICK_ITERATIONS, quick_budget
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


def test_the_search_goes_to_the_costliest_decisions_by_the_model() -> None:
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


def test_the_default_analysis_searches_at_most_the_cap_and_says_which(game: ra.Game) -> None:
    seen: list[tuple[int, int]] = []
    analysis = analyse_game(game, budget=60, searches=3, progress=lambda d, t: seen.append((d, t)))
    judged = decisions_to_analyse(game, range(3))
    assert [d.index for d in analysis.decisions] == judged
    searched = [d for d in analysis.decisions if d.searched]
    assert 1 <= len(searched) <= 3
    by_model = analyse_game(game, budget=60, searches=0)
    assert not any(d.searched for d in by_model.decisions)
    assert [d.index for d in searched] == to_search(by_model.decisions, 3)
    unsearched = [d for d in analysis.decisions if not d.searched]
    picked = {d.index for d in searched}
    assert unsearched == [d for d in by_model.decisions if d.index not in picked]
    full = analyse_game(game, budget=60, searches=None)
    by_index = {d.index: d for d in full.decisions}
    for d in searched:  # the search's own numbers ("with best play") where it searched
        assert d == by_index[d.index]
    assert len(analysis.curve) == game.num_decisions
    assert analysis.complete and seen[-1][0] == seen[-1][1] == game.num_decisions + len(searched)
    again = GameAnalysis.from_dict(analysis.to_dict())
    assert [d.searched for d in again.decisions] == [d.searched for d in analysis.decisions]


def test_an_old_analysis_file_reads_as_searched(game: ra.Game) -> None:
    """Files written before the model judged decisions: every decision there was searched."""
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


def test_ctrl_c_keeps_what_was_judged(game: ra.Game) -> None:
    """Interrupted while the model judges: the decisions so far; while the search judges: every
    decision, the ones not yet searched by the model; never a traceback, never complete."""

    def stop_at(when: int) -> Callable[[int, int], None]:
        def progress(done: int, total: int) -> None:
            if done == when:
                raise KeyboardInterrupt

        return progress

    early = analyse_game(game, budget=20, searches=2, progress=stop_at(10))
    assert not early.complete and [d.index for d in early.decisions] == [
        i for i in decisions_to_analyse(game, range(3)) if i < 10
    ]
    late = analyse_game(game, budget=20, searches=2, progress=stop_at(game.num_decisions + 1))
    assert not late.complete and sum(d.searched for d in late.decisions) == 1
    assert len(late.decisions) == len(decisions_to_analyse(game, range(3)))


def test_the_command_searches_the_costliest_by_default_and_every_decision_when_deep(
    game: ra.Game, tmp_path: Path
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
