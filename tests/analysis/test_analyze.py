"""ra analyze: a short fixed game analysed, its HTML/SVG report and terminal chart, the errors."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest
from textual.widgets import Static
from typer.testing import CliRunner

import ra
from ra import records
from ra.analysis.analyse import analyse_game
from ra.analysis.game import (
    GameAnalysis,
    curve_playouts,
    decisions_to_analyse,
    epoch_starts,
    position_chances,
)
from ra.analysis.report import html_report, svg_chart, terminal_chart
from ra.bots import make
from ra.bots.advisor import Advisor
from ra.cli import app as cli
from ra.labels import action_label
from ra.tui import ReplayApp

SVG = "{http://www.w3.org/2000/svg}"
BUDGET = 300


def short_game() -> ra.Game:
    """A fixed two-player game between greedy bots, one of them careless."""
    game = ra.Game(players=["Ann", "Bob"], seed=4)
    seats = [make("greedy", seed=1), make("greedy", seed=2, epsilon=0.3)]
    while not game.is_over():
        seat = game.to_move
        assert seat is not None
        game.apply(seats[seat].choose(game.view(seat)))
    return game


@pytest.fixture(scope="module")
def analysed() -> tuple[ra.Game, GameAnalysis]:
    game = short_game()
    return game, analyse_game(game, seats=[1], budget=BUDGET, seed=0, searches=None)


def test_every_choice_of_the_seat_is_judged_with_the_advisors_numbers(
    analysed: tuple[ra.Game, GameAnalysis],
) -> None:
    game, analysis = analysed
    todo = decisions_to_analyse(game, [1])
    assert [d.index for d in analysis.decisions] == todo and todo
    assert analysis.complete and analysis.winner == game.winner
    assert analysis.epoch_starts == epoch_starts(game) and len(analysis.epoch_starts) == 2
    # One decision recomputed by hand from the position the player faced.
    d = analysis.decisions[len(todo) // 2]
    position = ra.Game.from_setup(game.setup)
    for action in game.decisions[: d.index]:
        position.apply(action)
    evaluation = Advisor(BUDGET, seed=0).evaluate(position.view(1))
    chosen = game.decisions[d.index]
    assert d.chosen == str(chosen) and d.best == str(evaluation.best.action)
    assert d.chances == evaluation.value(chosen).chances
    assert d.loss == pytest.approx(evaluation.loss(chosen))
    assert all(x.seat == 1 for x in analysis.decisions)
    # Between Bob's decisions, the curve is a plain estimate of the position (Ann to move).
    assert [i for i, _ in analysis.curve] == list(range(1, game.num_decisions + 1))
    between = next(i for i in range(game.num_decisions) if i not in todo and i + 1 < game.num_decisions)
    after = ra.Game.from_setup(game.setup)
    for action in game.decisions[: between + 1]:
        after.apply(action)
    expected = position_chances(after, Advisor(BUDGET, seed=0), curve_playouts(Advisor(BUDGET).budget, 2))
    assert analysis.curve[between][1] == expected
    assert analysis.curve[-1][1][game.winner or 0] == 1.0  # the end is certain
    accuracy = analysis.accuracy(1)
    assert accuracy is not None and 0 <= accuracy <= 1
    assert analysis.accuracy(0) is None


def test_the_report_holds_the_chart_with_the_advisors_numbers(
    analysed: tuple[ra.Game, GameAnalysis],
) -> None:
    _, analysis = analysed
    page = html_report(analysis)
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    start, end = page.index("<svg"), page.index("</svg>") + len("</svg>")
    assert page[start:end] == svg_chart(analysis)
    svg = ET.fromstring(page[start:end])  # well-formed XML
    lines = svg.findall(f"{SVG}polyline[@class='player']")
    assert [line.get("data-name") for line in lines] == ["Ann", "Bob"]
    for seat, line in enumerate(lines):
        values = [float(v) for v in (line.get("data-values") or "").split(",")]
        steps = [int(v) for v in (line.get("data-decisions") or "").split(",")]
        assert values[0] == pytest.approx(0.5) and steps == list(range(analysis.total_decisions + 1))
        for d in analysis.decisions:  # the analysed decisions' own numbers
            assert values[d.index + 1] == pytest.approx(d.chances[seat], abs=1e-4)
        assert values[1:] == pytest.approx([c[seat] for _, c in analysis.curve], abs=1e-4)
        assert len((line.get("points") or "").split()) == len(values)
    epochs = svg.findall(f"{SVG}line[@class='epoch']")
    assert [int(e.get("data-decision") or -1) for e in epochs] == list(analysis.epoch_starts)
    marks = svg.findall(f"{SVG}circle[@class='costly']")
    costly = {d.index for d in analysis.costliest()} | {d.index for d in analysis.labelled()}
    assert {int(m.get("data-decision") or -1) for m in marks} == costly
    for d in analysis.costliest():
        assert f'data-decision="{d.index}"' in page and f"{round(100 * d.loss)}%" in page
    rows = re.findall(r'<tr[^>]* data-decision="(\d+)"', page)
    assert [int(r) for r in rows] == [d.index for d in analysis.decisions]


def test_the_terminal_chart_has_a_row_per_player_and_the_marks(
    analysed: tuple[ra.Game, GameAnalysis],
) -> None:
    _, analysis = analysed
    lines = terminal_chart(analysis, width=40).plain.splitlines()
    assert lines[0].startswith("Ann ") and lines[1].startswith("Bob ")
    assert all(len(line.split()[1]) == 40 for line in lines[:2])
    assert lines[2].count("┊") == len(analysis.epoch_starts) or "▲" in lines[2]
    final = analysis.curve[-1][1]  # the end of the game: the winner's 100%
    assert lines[0].endswith(f"{round(100 * final[0])}%") and lines[1].endswith(f"{round(100 * final[1])}%")


def test_the_analysis_survives_json(analysed: tuple[ra.Game, GameAnalysis]) -> None:
    _, analysis = analysed
    again = GameAnalysis.from_dict(json.loads(analysis.to_json()))
    assert again == analysis
    with pytest.raises(ValueError, match="not a game analysis"):
        GameAnalysis.from_dict({"format": "ra-record"})


def test_ctrl_c_keeps_the_decisions_done() -> None:
    game = short_game()

    def stop_after_three(done: int, total: int) -> None:
        if done == 3:
            raise KeyboardInterrupt

    analysis = analyse_game(game, budget=8, progress=stop_after_three, searches=None)
    assert not analysis.complete and len(analysis.decisions) == 3
    row = terminal_chart(analysis, width=40).plain.splitlines()[0]
    assert row.split()[1].strip("▁▂▃▄▅▆▇█") == "" and row[4:44].endswith(" " * 20)  # the rest: not analysed


def test_the_command_writes_the_report_and_the_json(tmp_path: Path) -> None:
    game = short_game()
    path = tmp_path / "game.json"
    records.save(game, path)
    out, data = tmp_path / "report.html", tmp_path / "analysis.json"
    result = CliRunner().invoke(
        cli, ["analyze", str(path), "--seat", "Bob", "--budget", "16", "--out", str(out), "--json", str(data)]
    )
    assert result.exit_code == 0, result.output
    assert "Bob: accuracy" in result.output and "Report written to" in result.output
    analysis = GameAnalysis.from_dict(json.loads(data.read_text()))
    assert analysis.seats == (1,) and analysis.budget == "16 iterations"
    assert out.read_text() == html_report(analysis)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.json"], "cannot read"),
        (["GAME", "--seat", "3"], "--seat 3: seats are 1 to 2"),
        (["GAME", "--seat", "Zed"], "--seat 'Zed': give a seat number"),
        (["GAME", "--budget", "fast"], "--budget: 'fast' is not a budget: give a level"),
        (["GAME", "--budget", "0"], "--budget:"),
        (["GAME", "--out", "."], "is a folder"),
        (["GAME", "--jobs", "0"], "--jobs must be 1 or more"),
    ],
)
def test_bad_input_gets_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    path = tmp_path / "game.json"
    records.save(ra.Game(players=["Ann", "Bob"], seed=1), path)
    args = [str(path) if a == "GAME" else str(tmp_path / a) if a == "missing.json" else a for a in args]
    result = CliRunner().invoke(cli, ["analyze", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) <= 2


def test_a_file_that_is_no_game(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text("[1, 2")
    result = CliRunner().invoke(cli, ["analyze", str(path)])
    assert result.exit_code == 2 and "is not a game record" in result.output


def test_replay_shows_the_analysis_beside_the_moves(analysed: tuple[ra.Game, GameAnalysis]) -> None:
    game, analysis = analysed
    app = ReplayApp(game, analysis=analysis)
    d = analysis.decisions[2]
    shown: list[str] = []

    async def main() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            shown.append(str(app.query_one("#analysis", Static).render()))
            app.go(d.index + 1)
            await pilot.pause()
            shown.append(str(app.query_one("#analysis", Static).render()))

    asyncio.run(main())
    assert "steps through the decisions" in shown[0]
    assert shown[1].startswith(f"Bob: {app._label(d.chosen)} — win chance {round(100 * d.chosen_chance)}%")
    assert f"Ann {round(100 * d.chances[0])}%  Bob {round(100 * d.chances[1])}%" in shown[1]
    assert d.why_text(analysis.names) in shown[1]


def test_replay_refuses_an_analysis_of_another_game(
    tmp_path: Path, analysed: tuple[ra.Game, GameAnalysis]
) -> None:
    _, analysis = analysed
    other = tmp_path / "other.json"
    records.save(ra.Game(players=["Ann", "Bob"], seed=99), other)
    judged = tmp_path / "analysis.json"
    judged.write_text(analysis.to_json())
    result = CliRunner().invoke(cli, ["replay", str(other), "--analysis", str(judged)])
    assert result.exit_code == 2 and "is the analysis of another game" in result.output
    result = CliRunner().invoke(cli, ["replay", str(other), "--analysis", str(other)])
    assert result.exit_code == 2 and "not a game analysis" in result.output


def test_two_processes_give_the_same_analysis(analysed: tuple[ra.Game, GameAnalysis]) -> None:
    game, analysis = analysed
    seen: list[int] = []
    again = analyse_game(
        game, seats=[1], budget=BUDGET, seed=0, jobs=2, progress=lambda d, t: seen.append(d), searches=None
    )
    assert again == analysis
    assert seen == list(range(1, game.num_decisions + 1))
    with pytest.raises(ValueError, match="jobs"):
        analyse_game(game, jobs=0)


def test_without_the_native_core_the_analysis_says_it_is_weaker(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    records.save(short_game(), path)
    env = {**os.environ, "RA_NATIVE": "0"}
    done = subprocess.run(
        [str(Path(sys.executable).parent / "ra"), "analyze", str(path), "--seat", "Bob", "--budget", "8"],
        capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "the native core is not built, so this analysis is weaker" in " ".join(done.stdout.split())


NOTATION = {"bid", "pass", "draw", "ra", "god", "done", "discard", "version", "analysis", "replay"}
"""Words left as they are in every language: the action notation (``bid 9``, ``god pharaoh``),
the commands (``ra --version``)."""


def foreign_words(text: str, names: tuple[str, ...]) -> set[str]:
    """Words of three or more unaccented Latin letters outside player names, the notation, tile
    identifiers and rule numbers (R4.2)."""
    allowed = NOTATION | set(ra.TILE_IDS) | {"war", "sanctuary", "mausoleum"}
    allowed |= {part for name in names for part in name.split()}
    words_found = re.findall(r"(?<![\w.])[A-Za-z]{3,}(?![\w])", re.sub(r"\bR\d+(\.\d+)*", "", text))
    return {w for w in words_found if w not in allowed and w.lower() not in allowed}


def page_text(page: str) -> str:
    """What a reader sees of an HTML page (and its SVG): the text, without tags and styles."""
    import html

    body = re.sub(r"<style>.*?</style>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


@pytest.mark.parametrize("lang", ["ru", "en_XA"])
def test_the_report_speaks_the_chosen_language(analysed: tuple[ra.Game, GameAnalysis], lang: str) -> None:
    _, analysis = analysed
    page = html_report(analysis, lang)
    assert f'<html lang="{lang.replace("_", "-")}">' in page
    seen = page_text(page)
    assert not foreign_words(seen, analysis.names), foreign_words(seen, analysis.names)
    if lang == "ru":
        assert "Анализ партии" in seen and "точность" in seen and "итераций на решение" in seen
        d = analysis.costliest()[0]
        assert d.why_text(analysis.names, "ru").startswith(f"потеряно {round(100 * d.loss)}% — лучше ")
    svg = ET.fromstring(svg_chart(analysis, lang))  # still well-formed, with the numbers
    assert len(svg.findall(f"{SVG}polyline[@class='player']")) == 2
    chart = terminal_chart(analysis, width=40, lang=lang).plain
    assert not foreign_words(chart, analysis.names), chart


def test_the_english_report_is_unchanged_in_substance(analysed: tuple[ra.Game, GameAnalysis]) -> None:
    _, analysis = analysed
    page = html_report(analysis)
    assert '<html lang="en">' in page and "Ra game analysis: Ann, Bob" in page
    assert "300 iterations per decision" in page
    d = analysis.decisions[0]
    assert d.why_text(analysis.names) == d.text  # the stored English text is the message's


@pytest.mark.parametrize("lang", ["ru", "en_XA"])
def test_the_command_speaks_the_chosen_language(tmp_path: Path, lang: str) -> None:
    from ra.cli import language

    language.choose(lang)  # ra --lang <lang> (tests/conftest.py restores it after)
    path = tmp_path / "game.json"
    records.save(short_game(), path)
    out = tmp_path / "report.html"
    args = ["analyze", str(path), "--seat", "Bob", "--budget", "16", "--out", str(out)]
    result = CliRunner().invoke(cli, args, env={"COLUMNS": "400"})  # a path is never wrapped
    assert result.exit_code == 0, result.output
    shown = result.output.replace(str(out), " ")
    assert not foreign_words(shown, ("Ann", "Bob")), shown
    assert f'<html lang="{lang.replace("_", "-")}">' in out.read_text()
    if lang == "ru":
        assert "Bob: точность" in shown and "Отчёт записан в" in shown
    bad = CliRunner().invoke(cli, ["analyze", str(path), "--seat", "9"])
    said = bad.output.replace("--seat", "")
    assert bad.exit_code == 2 and not foreign_words(said, ("Ann", "Bob")), bad.output


def test_a_costly_decision_is_listed_with_the_games_own_label() -> None:
    """Issue 41: ``ra analyze`` listed "ra — lost 6%" (notation) where a player reads words, then
    "bid sun 11" where the game's button, the hints and the replay say "Bid 11": the game's own
    label (:func:`ra.labels.action_label`) in every language."""
    from ra.analysis.game import DecisionReport

    d = DecisionReport(
        index=45, seat=1, epoch=2, chosen="bid 11", best="pass", chances=(0.3, 0.7), chosen_chance=0.3,
        best_chance=0.4, loss=0.1, label="mistake", text="lost 10%", actions=(), why=None,
    )  # fmt: skip
    assert d.line(["Ann", "Bob"]).startswith("decision 46 (Bob, epoch 2): Bid 11 — lost 10%")
    assert d.line(["Аня", "Борис"], "ru").startswith("решение 46 (Борис, эпоха 2): Ставка 11 — ")
    assert d.line(["Anna", "Bernd"], "de").startswith("Entscheidung 46 (Bernd, Epoche 2): Gebot 11 — ")
    for lang in ("en", "ru", "de"):
        assert action_label(ra.Action.parse("bid 11"), lang=lang) in d.line(["Ann", "Bob"], lang)
    god = replace(d, chosen="god palace")  # the tile by the edition's name, as on the button
    assert "God: Palace" in god.line(["Ann", "Bob"])
    assert "God: Mausoleum" in god.line(["Ann", "Bob"], edition="2023")


def test_the_charts_legend_names_each_player_whole(analysed: tuple[ra.Game, GameAnalysis]) -> None:
    """Issue 54: the legend cut "Mittlerer Bot 2" to "Mittlerer Bot" (14 characters); a name of
    an account's full length (20) is shown whole, a longer one ends in an ellipsis."""
    _, analysis = analysed
    named = replace(analysis, names=("Mittlerer Bot 2", "Maximilian Lüdensche"))
    svg = ET.fromstring(svg_chart(named, "de"))
    legend = [t.text for t in svg.findall(f"{SVG}text[@class='legend']")]
    assert legend == ["Mittlerer Bot 2", "Maximilian Lüdensche"]
    long = replace(analysis, names=("A" * 30, "Bob"))
    assert [t.text for t in ET.fromstring(svg_chart(long)).findall(f"{SVG}text[@class='legend']")] == [
        "A" * 19 + "…",
        "Bob",
    ]
