"""The learned evaluation's pipeline end to end on a tiny sample (seconds): self-play rows, the
fit, and a model file the search then reads (tools/value_model.py; the real run is documented
in docs/bots.md)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from tools import value_model as pipeline

from ra.bots.value_model import FEATURES, VERSION, ValueModel
from tests.native.helpers import CORE

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("sklearn") is None, reason="the [train] extra is not installed"
)  # not imported here: the fit imports it (at the top it would cost every run's collection 2 s)


def test_generate_then_fit_gives_a_model_the_search_uses(tmp_path: Path) -> None:
    rows = tmp_path / "rows.jsonl"
    assert pipeline.main(["generate", "--games", "16,10,8,6", "--iterations", "8", "--out", str(rows)]) == 0
    lines = [json.loads(line) for line in rows.read_text().splitlines()]
    # One row per player at each start of epoch 2 and 3, with its final score.
    assert {(r["players"], r["epoch"]) for r in lines} == {(n, e) for n in (2, 3, 4, 5) for e in (2, 3)}
    assert all(len(r["features"]) == len(FEATURES) and isinstance(r["final"], int) for r in lines)
    again = tmp_path / "again.jsonl"
    pipeline.main(["generate", "--games", "16,10,8,6", "--iterations", "8", "--out", str(again)])
    assert again.read_text() == rows.read_text()  # reproducible from its seed

    out = tmp_path / "model.json"
    assert pipeline.main(["fit", str(rows), "--folds", "3", "--out", str(out)]) == 0
    model = ValueModel.from_json(out.read_text())
    data = json.loads(out.read_text())
    assert data["version"] == VERSION and len(data["trained"]["report"]) == 8
    state = CORE.State(players=3, seed=2)
    action, _ = state.mcts(iterations=50, seed=1, value_model=model.flat())
    assert action in state.legal_actions()


def test_bad_pipeline_input_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        pipeline.main(["generate", "--games", "1,2", "--out", str(tmp_path / "x")])
    assert "--games must be four positive counts" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        pipeline.main(["fit", str(tmp_path / "missing.jsonl")])
    assert "no such rows file" in capsys.readouterr().err
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"players": 2}\nnot json\n')
    with pytest.raises(SystemExit):
        pipeline.main(["fit", str(broken)])
    assert "is not a rows file of generate" in capsys.readouterr().err
    few = tmp_path / "few.jsonl"
    few.write_text("")
    with pytest.raises(SystemExit, match="too few rows for 2 players, epoch 2: 0"):
        pipeline.main(["fit", str(few)])
