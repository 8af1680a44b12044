"""The examples in the library's docstrings run with the tests."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "ra",
    "ra.actions",
    "ra.bots",
    "ra.bots.evaluate",
    "ra.bots.advisor",
    "ra.engine",
    "ra.events",
    "ra.record_format",
    "ra.records",
    "ra.scoring",
    "ra.setup",
    "ra.state",
    "ra.tiles",
    "ra.views",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


def test_some_modules_have_examples() -> None:
    finder = doctest.DocTestFinder()
    examples = sum(len(t.examples) for name in MODULES for t in finder.find(importlib.import_module(name)))
    assert examples >= 20
