"""RA_NATIVE=0 really turns the native core off: the package then runs as pure Python."""

from __future__ import annotations

import os
import subprocess
import sys

import ra
from ra import bots

CHECK = (
    "import ra, ra.bots as b; "
    "print(ra.native_available(), type(b.make('hard')).__name__, b.make('hard').config.budget(3))"
)


def test_env_var_disables_the_native_core() -> None:
    env = {**os.environ, "RA_NATIVE": "0"}
    out = subprocess.run(
        [sys.executable, "-c", CHECK], capture_output=True, text=True, env=env, timeout=120, check=True
    ).stdout.split()
    assert out == ["False", "MCTSBot", str(bots.PYTHON_MCTS_ITERATIONS["hard"][1])]
    command = [sys.executable, "-m", "ra.cli", "--version"]
    version = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60, check=True).stdout
    assert "native core: disabled (RA_NATIVE=0)" in version


def test_this_process_follows_the_env_var() -> None:
    if os.environ.get("RA_NATIVE") == "0":
        assert not ra.native_available()
        assert type(bots.make("hard")) is bots.MCTSBot
        assert bots.MCTS_ITERATIONS == bots.PYTHON_MCTS_ITERATIONS
    else:
        assert (
            bots.NATIVE_MCTS_ITERATIONS if ra.native_available() else bots.PYTHON_MCTS_ITERATIONS
        ) == bots.MCTS_ITERATIONS
