"""``benchmarks/policy_budget.py`` (docs/training.md): a folder that is not a run is refused with a
clear line, and ``--shipped`` measures the package's own policy from an empty folder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import ra

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "policy_budget.py"

if not ra.native_available():
    pytest.skip("the prior search runs in the native core", allow_module_level=True)


def budget(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=False, timeout=300
    )


def test_a_folder_that_is_not_a_run_is_refused_by_name(tmp_path: Path) -> None:
    result = budget(str(tmp_path / "nothing"), "--games", "2")
    assert result.returncode == 2
    assert "config.json not found" in result.stderr and "--shipped" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_shipped_policy_is_measured_from_an_empty_folder(tmp_path: Path) -> None:
    run = tmp_path / "shipped"
    result = budget(str(run), "--shipped", "--iterations", "30", "--games", "2", "--seed", "3")
    assert result.returncode == 0, result.stderr
    shipped = (ROOT / "src" / "ra" / "data" / "policy.json").read_bytes()
    assert (run / "gen3" / "policy.json").read_bytes() == shipped
    summary = json.loads(result.stdout[result.stdout.index("{") :])
    assert summary["bot"] == "gen3" and summary["other"] == "expert:iterations=30"
    assert summary["games"] == 2
    log = (run / "gen3" / "budget_30_30_2p.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(log) == 2


def test_another_prior_weight_plays_into_a_log_of_its_own(tmp_path: Path) -> None:
    run = tmp_path / "shipped"
    result = budget(str(run), "--shipped", "--c-puct", "0.5", "--iterations", "30", "--games", "2")
    assert result.returncode == 0, result.stderr
    assert len((run / "gen3" / "budget_30_30_2p_c0.5.jsonl").read_text(encoding="utf-8").splitlines()) == 2
    assert not (run / "gen3" / "budget_30_30_2p.jsonl").exists()
    bad = budget(str(run), "--c-puct", "-1", "--games", "2")
    assert bad.returncode == 2 and "--c-puct must be from 0 to 100, got -1" in bad.stderr
