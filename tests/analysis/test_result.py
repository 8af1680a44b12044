"""The analysis names the table's winner (issue 53, one decision of the result): a seat that
forfeited ranks last whatever its score (:func:`ra.table.game_result`), in the analysis, its
chart's end and ``ra analyze``'s report; without forfeits nothing changes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import ra
from ra import bots
from ra.analysis.analyse import analyse_game
from ra.cli import app as cli
from ra.table import game_result


@pytest.fixture(scope="module")
def game() -> ra.Game:
    game = ra.Game(players=3, seed=11)
    seated = [bots.from_spec("greedy", seed=i) for i in range(3)]
    while not game.is_over():
        mover = game.to_move
        assert mover is not None
        game.apply(seated[mover].choose(game.view(mover)))
    return game


@pytest.mark.parametrize("searches", [2, None])
def test_a_forfeited_winner_is_not_the_analysis_winner(game: ra.Game, searches: int | None) -> None:
    engine = game.winner
    assert engine is not None
    table = game_result(game, {engine})
    assert table is not None and table.winner != engine
    plain = analyse_game(game, budget=8, searches=searches)
    analysis = analyse_game(game, budget=8, searches=searches, forfeited={engine})
    assert plain.winner == engine and analysis.winner == table.winner
    certain = tuple(float(s == table.winner) for s in range(3))
    assert analysis.curve[-1] == (game.num_decisions, certain)
    assert analysis.curve[:-1] == plain.curve[:-1] and analysis.decisions == plain.decisions
    rated = analyse_game(game, budget=8, searches=searches, forfeited={engine}, strengths=[25.0] * 3)
    assert rated.given[-1] == (game.num_decisions, certain)


def test_ra_analyze_reports_the_tables_winner(game: ra.Game, tmp_path: Path) -> None:
    """A site's record lists the seats that forfeited; the report's winner is the table's (it
    was the engine's, patched by the command after the analysis)."""
    engine = game.winner
    assert engine is not None
    record = game.to_record()
    del record["result"]  # the table's result would be stated with the forfeit; it is optional
    out = {}
    for forfeited in ([], [engine]):
        path, data = tmp_path / f"game{len(forfeited)}.json", tmp_path / f"analysis{len(forfeited)}.json"
        path.write_text(json.dumps({**record, "forfeited": forfeited}))
        result = CliRunner().invoke(cli, ["analyze", str(path), "--budget", "8", "--json", str(data)])
        assert result.exit_code == 0, result.output
        out[len(forfeited)] = json.loads(data.read_text())
    table = game_result(game, {engine})
    assert table is not None
    assert out[0]["winner"] == engine and out[1]["winner"] == table.winner != engine
