"""The calibration measurement (ra.analysis.calibration, benchmarks/calibration.py) on a small
sample: structure and arithmetic, not the quality (that is the benchmark's job)."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path

import pytest

from ra.analysis import calibration as cal
from ra.bots.evaluate import calibrate

ROOT = Path(__file__).resolve().parents[2]


def sample(
    wins: tuple[int, ...], winner: int, mover: int = 0, playouts: int = 10, game: int = 1
) -> cal.Sample:
    return cal.Sample(len(wins), game, 0, 1, mover, wins, playouts, winner)


def test_game_samples_are_real_positions_of_one_game() -> None:
    got = cal.game_samples(3, seed=11, per_game=4, playouts=6)
    game = cal.selfplay_game(3, 11)
    assert len(got) == 4
    assert [s.decision for s in got] == sorted({s.decision for s in got})
    for s in got:
        assert s.players == 3 and s.game_seed == 11 and s.winner == game.winner
        assert sum(s.wins) == s.playouts == 6
        assert 0 <= s.decision < game.num_decisions
        assert len(s.chances()) == 3


def test_reliability_bins_and_brier_by_hand() -> None:
    # Raw 9/10 and 1/10 with temperature 1: chances (9.5/11, 1.5/11) = 0.864, 0.136.
    samples = [sample((9, 1), winner=0), sample((9, 1), winner=1), sample((1, 9), winner=1)]
    hi, lo = 9.5 / 11, 1.5 / 11
    assert samples[0].chances(1.0) == pytest.approx((hi, lo))
    table = cal.reliability(samples, bins=10, temperature=1.0)
    assert len(table) == 10 and sum(b.count for b in table) == 3
    top = table[8]  # 80-90%
    assert top.count == 2 and top.predicted == pytest.approx(hi) and top.observed == 0.5
    low = table[1]  # 10-20%
    assert (low.count, low.observed) == (1, 0.0)
    assert all(b.count == 0 and math.isnan(b.observed) for i, b in enumerate(table) if i not in (1, 8))
    expected = ((hi - 1) ** 2 + (hi - 0) ** 2 + (lo - 0) ** 2) / 3
    assert cal.brier(samples, 1.0) == pytest.approx(expected)
    assert cal.naive_brier(samples) == pytest.approx(0.25)


def test_fitting_finds_the_temperature_that_made_the_outcomes() -> None:
    # Outcomes drawn exactly in proportion to chances at T = 0.5: the fit recovers about 0.5.
    samples = []
    for w in range(0, 11):
        p = calibrate((w, 10 - w), 10, temperature=0.5)[0]
        wins = round(100 * p)
        samples += [sample((w, 10 - w), 0)] * wins + [sample((w, 10 - w), 1)] * (100 - wins)
    assert cal.fit_temperature(samples) == pytest.approx(0.5, abs=0.03)
    assert cal.mean_log_loss(samples, 0.5) < cal.mean_log_loss(samples, 1.0)


def test_cross_validation_judges_each_game_by_the_other_games() -> None:
    # Even games: the favourite always wins (a sharp map fits); odd games: a coin flip (a flat one).
    sure = [sample((8, 2), 0, game=2 * g) for g in range(10)]
    flip = [sample((8, 2), g % 2, game=2 * g + 1) for g in range(10)]
    preds, folds = cal.cross_validated(sure + flip)
    assert len(preds) == 20 and len(folds) == 2
    assert folds[0] == cal.fit_temperature(flip) and folds[1] == cal.fit_temperature(sure)
    assert folds[0] < folds[1]
    assert preds[:10] == cal.predictions(sure, folds[0])  # the even games, judged by the odd ones
    assert preds[10:] == cal.predictions(flip, folds[1])
    assert cal.brier_of(preds) == pytest.approx(sum((p - won) ** 2 for p, won in preds) / 20)


def load_benchmark() -> object:
    spec = importlib.util.spec_from_file_location(
        "calibration_benchmark", ROOT / "benchmarks" / "calibration.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["calibration_benchmark"] = module
    spec.loader.exec_module(module)
    return module


def test_the_benchmark_runs_writes_json_and_recomputes_from_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load_benchmark()
    out = tmp_path / "cal.json"
    args = ["--players", "2,3", "--positions", "6", "--budget", "4", "--per-game", "3", "--json", str(out)]
    assert bench.main(args) == 0  # type: ignore[attr-defined]
    printed = capsys.readouterr().out
    assert "2 players: 6 positions, Brier" in printed and "3 players: 6 positions" in printed
    data = json.loads(out.read_text())
    assert len(data["samples"]) == 12 and data["budget"] == 4
    assert sum(b["count"] for b in data["results"]["2"]["table"]) == 6
    assert bench.main(["--from-json", str(out), "--fit", "--markdown"]) == 0  # type: ignore[attr-defined]
    again = capsys.readouterr().out
    assert "fitted TEMPERATURE = {2: " in again
    first_brier = printed.split("2 players: 6 positions, Brier ")[1].split()[0]
    assert f"Brier {first_brier}" in again  # the same positions give the same score
    assert "| 0–10% |" in again and "**Brier** (naive 1/N)" in again
    assert bench.main(["--from-json", str(out), "--cross-validate"]) == 0  # type: ignore[attr-defined]
    assert "out of fold (2 folds by game" in capsys.readouterr().out
