"""Win chances given who is playing (ra.analysis.chances): the shipped model, its inputs and its
refusals (the fit: tests/train/test_chances_fit.py)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

import ra
from ra import bots, records
from ra.analysis.analyse import analyse_game
from ra.analysis.chances import LEVEL_STRENGTH, MODEL_FILE, ChancesModel, default_model, slot_strengths
from ra.analysis.game import GameAnalysis, given_curve, point_reasons
from ra.analysis.report import svg_chart
from ra.cli import app as cli


def test_the_shipped_model_gives_every_seat_a_chance_summing_to_one() -> None:
    model = default_model()
    for players in (2, 3, 4, 5):
        game = ra.Game(players=players, seed=players, hidden_scores=True)
        for _ in range(12):
            game.apply(game.legal_actions()[0])
        seat = game.to_move
        assert seat is not None
        chances = model.chances(game.view(seat), [LEVEL_STRENGTH["medium"]] * players)
        assert len(chances) == players and sum(chances) == pytest.approx(1.0)
        assert all(0 < c < 1 for c in chances)


def test_the_stronger_player_is_given_the_better_chance() -> None:
    """The same opening position, a random player against a medium one: whoever is medium is
    the favourite, and swapping the seats' strengths swaps the favourite."""
    game = ra.Game(players=2, seed=7, hidden_scores=True)
    view = game.view(0)
    weak, strong = LEVEL_STRENGTH["random"], LEVEL_STRENGTH["medium"]
    first = default_model().chances(view, [weak, strong])
    second = default_model().chances(view, [strong, weak])
    assert first[1] > 0.6 and second[0] > 0.6


def test_a_strength_for_each_seat_is_required() -> None:
    view = ra.Game(players=3, seed=1).view(0)
    with pytest.raises(ValueError, match="3 strengths wanted"):
        default_model().chances(view, [25.0, 25.0])


def test_slot_order_starts_with_the_viewer() -> None:
    assert slot_strengths([1.0, 2.0, 3.0], 1) == [2.0, 3.0, 1.0, 0.0, 0.0]


def test_a_model_file_of_another_kind_is_refused() -> None:
    data = json.loads(MODEL_FILE.read_text(encoding="utf-8"))
    with pytest.raises(ValueError, match="another observation layout"):
        ChancesModel.from_json(json.dumps({**data, "features": 3}))
    with pytest.raises(ValueError, match="weights or scale"):
        ChancesModel.from_json(json.dumps({**data, "weights": data["weights"][:-1]}))
    with pytest.raises(ValueError, match="not a version"):
        ChancesModel.from_json("[]")


def _played(specs: tuple[str, ...], seed: int = 4) -> ra.Game:
    game = ra.Game(players=len(specs), seed=seed, hidden_scores=True)
    seated = [bots.from_spec(s, seed=i) for i, s in enumerate(specs)]
    while not game.is_over():
        mover = game.to_move
        assert mover is not None
        game.apply(seated[mover].choose(game.view(mover)))
    return game


def test_the_analysis_holds_the_chances_given_who_is_playing() -> None:
    """From the start (where the medium player is the favourite of a random and a greedy one)
    to the end (certain), the mean of every seat's view; kept by the JSON, drawn dashed."""
    game = _played(("random", "greedy", "medium"))
    strengths = (LEVEL_STRENGTH["random"], LEVEL_STRENGTH["greedy"], LEVEL_STRENGTH["medium"])
    analysis = analyse_game(game, seats=[0], budget=8, strengths=strengths)
    assert analysis.strengths == strengths
    assert [i for i, _ in analysis.given] == list(range(game.num_decisions + 1))
    start = analysis.given[0][1]
    assert max(start) == start[2] and sum(start) == pytest.approx(1.0)
    assert analysis.given[-1][1] == tuple(float(s == game.winner) for s in range(3))
    probe = ra.Game.from_setup(game.setup)
    for action in game.decisions[:10]:
        probe.apply(action)
    views = [default_model().chances(probe.view(seat), strengths) for seat in range(3)]
    assert analysis.given[10][1] == pytest.approx([sum(v[k] for v in views) / 3 for k in range(3)])
    assert analysis.reasons == point_reasons(game) and len(analysis.reasons) == len(analysis.given)
    again = GameAnalysis.from_dict(json.loads(analysis.to_json()))
    assert again.given == analysis.given and again.strengths == strengths
    svg = ET.fromstring(svg_chart(analysis))
    lines = svg.findall("{http://www.w3.org/2000/svg}polyline[@class='given']")
    assert len(lines) == 3
    first = lines[2].get("data-values", "").split(",")[0]
    assert float(first) == pytest.approx(start[2], abs=1e-4)
    assert lines[0].get("data-reasons", "").split(",") == analysis.reasons
    assert "dashed: given who is playing" in svg_chart(analysis)
    plain = analyse_game(game, seats=[0], budget=8)
    assert plain.given == [] and "given" not in svg_chart(plain)


def test_the_command_takes_who_played(tmp_path: Path) -> None:
    path, data = tmp_path / "game.json", tmp_path / "analysis.json"
    records.save(_played(("random", "greedy")), path)
    args = ["analyze", str(path), "--seat", "1", "--budget", "8", "--json", str(data)]
    result = CliRunner().invoke(cli, [*args, "--strengths", "random, 31.5"])
    assert result.exit_code == 0, result.output
    assert json.loads(data.read_text())["strengths"] == [LEVEL_STRENGTH["random"], 31.5]
    for bad in ("random", "random,fast", "1,nan", "hard,hard,hard"):
        result = CliRunner().invoke(cli, [*args, "--strengths", bad])
        assert result.exit_code == 2 and "is neither a level nor a rating" in result.output, result.output
        assert "2 in all: e.g. medium,medium" in result.output and "Traceback" not in result.output


MOVERS = ("draw", "god", "auction", "bid", "scoring")
"""What may move the chart by more than 15 points: a tile (drawn, or taken with a God), a bid or
an auction's end, the scoring (issue 53)."""


def test_the_chart_jumps_only_where_a_tile_a_bid_or_the_scoring_moved_it() -> None:
    """Eight games between different levels, 2 to 5 players: no step of more than 15 points of
    chance between two decisions unless the point's reason is one of :data:`MOVERS` (the passes
    and Ra calls that made the chances jump when each point was read from the mover's view alone
    are calm now), and each reason names what the decision did."""
    levels = ("random", "easy", "greedy", "medium")
    steps = 0
    for k in range(8):
        n = 2 + k % 4
        specs = tuple(levels[(k + i) % 4] for i in range(n))
        game = _played(specs, seed=500 + k)
        curve = given_curve(game, [LEVEL_STRENGTH[s] for s in specs])
        reasons = point_reasons(game)
        assert reasons[0] == "start" and reasons[-1] == "scoring" and len(reasons) == len(curve)
        for (_, before), (_, after), reason in zip(curve[:-1], curve[1:], reasons[1:], strict=True):
            jump = max(abs(a - b) for a, b in zip(before, after, strict=True))
            assert jump <= 0.15 or reason in MOVERS, (k, reason, jump)
            steps += 1
    assert steps > 1000
