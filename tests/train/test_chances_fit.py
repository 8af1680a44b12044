"""The model of win chances given who is playing, made by tools/chances_model.py: its numpy pass
(ra.train.chances) equals the package's plain one, and the pipeline plays, fits and writes a
model that reads back (a smoke test on a few quick games)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from tools.chances_model import play, rows  # noqa: E402

from ra.analysis.chances import ChancesModel, default_model, seat_features  # noqa: E402
from ra.train import chances  # noqa: E402


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    positions = [p for number in range(6) for p in play(number, seed=1, levels=("random", "greedy"))]
    assert positions and {p.game for p in positions} == set(range(6))
    return rows(positions)


def test_the_numpy_pass_equals_the_packages(data: dict[str, Any]) -> None:
    obs, strengths = data["obs"], data["strengths"]
    assert isinstance(obs, np.ndarray) and isinstance(strengths, np.ndarray)
    wide = chances.features(obs, strengths)
    got = chances.predict(default_model(), obs, strengths)
    for i in range(0, len(obs), 7):
        plain = seat_features(obs[i].tolist(), strengths[i].tolist())
        assert np.allclose(wide[i, : len(plain)], plain, atol=1e-6)
        assert np.allclose(
            got[i, : len(plain)], default_model().predict(obs[i].tolist(), strengths[i].tolist())
        )


def test_the_same_game_number_is_the_same_game() -> None:
    once = play(3, seed=1, levels=("random", "greedy"))
    again = play(3, seed=1, levels=("random", "greedy"))
    assert [p.view.decisions for p in once] == [p.view.decisions for p in again]


def test_the_pipeline_fits_and_writes_a_model_that_reads_back(data: dict[str, Any], tmp_path: Path) -> None:
    obs, strengths, winner = data["obs"], data["strengths"], data["winner"]
    assert (
        isinstance(obs, np.ndarray) and isinstance(strengths, np.ndarray) and isinstance(winner, np.ndarray)
    )
    model = chances.fit(obs, strengths, winner, steps=30)
    assert chances.log_loss(model, obs, strengths, winner) < chances.log_loss(
        ChancesModel((0.0,) * len(model.weights), model.scale), obs, strengths, winner
    )  # the fit learned something: better than an even chance for all
    model = chances.tempered(model, obs, strengths, winner)
    path = tmp_path / "model.json"
    path.write_text(model.to_json(), encoding="utf-8")
    back = ChancesModel.from_json(path.read_text(encoding="utf-8"))
    got = chances.predict(back, obs[:20], strengths[:20])
    assert np.allclose(got, chances.predict(model, obs[:20], strengths[:20]), atol=1e-4)
    assert np.allclose(got.sum(axis=1), 1.0)
