"""The rl extra stays optional: the core never imports it; the adapters' doc examples run."""

from __future__ import annotations

import doctest
import importlib
import subprocess
import sys

import pytest

RL_PACKAGES = ("numpy", "gymnasium", "pettingzoo", "pyspiel", "open_spiel")


def test_the_core_never_imports_the_rl_packages() -> None:
    code = (
        "import sys, ra, ra.encode, ra.bots, ra.arena, ra.cli\n"
        "g = ra.Game(players=3, seed=1); g.apply('draw'); ra.encode.observation(g.view(0))\n"
        f"print(sorted(m for m in {RL_PACKAGES!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize(
    "name", ["ra.encode", "ra.envs.pettingzoo", "ra.envs.gymnasium", "ra.envs.openspiel"]
)
def test_doctests(name: str) -> None:
    pytest.importorskip("numpy", reason="the rl extra is not installed")
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
