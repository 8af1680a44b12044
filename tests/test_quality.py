"""The code stays ruff- and mypy-clean (DEVELOPERS.md, Style)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_lint_and_format() -> None:
    lint = run("ruff", "check", "src", "tests", "benchmarks", "tools", "build_backend", "setup.py")
    assert lint.returncode == 0, lint.stdout + lint.stderr
    fmt = run("ruff", "format", "--check", "src", "tests", "benchmarks", "tools", "build_backend", "setup.py")
    assert fmt.returncode == 0, fmt.stdout + fmt.stderr


def test_mypy_strict() -> None:
    result = run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_slow_list_names_tests_that_exist() -> None:
    """``SLOW_IN_PROCESS`` (tests/conftest.py) keeps the fast subset fast: an entry whose test was
    renamed or removed would leave its successor in the fast subset unnoticed."""
    from tests.conftest import SLOW_IN_PROCESS
    from tests.test_docs import BLOCKS

    blocks = {b.name for b in BLOCKS}
    missing = []
    for node in SLOW_IN_PROCESS:
        path, name = node.split("[", 1)[0].split("::")
        if f"def {name}(" not in (ROOT / path).read_text(encoding="utf-8"):
            missing.append(node)
        elif path == "tests/test_docs.py" and "[" in node and node.split("[", 1)[1][:-1] not in blocks:
            missing.append(node)  # a block named by its line: the page changed above it
    assert not missing, f"no such test: {missing}"
