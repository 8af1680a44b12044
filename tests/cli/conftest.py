"""The command line's language is one per process (``ra.cli.language``): a test that runs a
command with ``--lang ru`` in this process must not leave the next test in Russian."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ra.cli import language


@pytest.fixture(autouse=True)
def _restore_the_language() -> Iterator[None]:
    chosen = language.lang()
    yield
    language.choose(chosen)
