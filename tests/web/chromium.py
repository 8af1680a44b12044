"""Which Chromium the browser tests drive, in one place (no Playwright import here, so that any
test module can ask whether a browser is installed without needing Playwright to be)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

import pytest

HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
"""Debian's Chromium without its windowing layer (package chromium-headless-shell, the same Blink
as the full browser; Playwright's own choice for headless runs): the tests' pages cost about a fifth
less processor in it than in the full browser (issue 39: CI's time), so it is used where installed."""
CHROMIUM = Path(
    os.environ.get("RA_TEST_CHROMIUM", HEADLESS_SHELL if HEADLESS_SHELL.exists() else "/usr/bin/chromium")
)
"""The browser the tests drive: the headless shell, else the full ``/usr/bin/chromium``
(``RA_TEST_CHROMIUM`` names another, e.g. the full browser where both are installed)."""
needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(), reason=f"Debian chromium ({CHROMIUM}) is not installed"
)
"""The mark of a test that drives :data:`CHROMIUM`: skipped, saying why, where it is missing."""
Motion = Literal["reduce", "no-preference"]
MOTION: Motion = "reduce"
"""The motion the tests' pages ask for (``prefers-reduced-motion``): reduced, as a person may set
it, so that a page left open (a pickable auction track bobs, a bot's dots pulse, both without end)
does not draw a frame every 16 ms for the whole test: the games by clicks cost about a seventh less
processor (busy CPU of two whole games side by side, 2026-12-03: 55.6 and 59.1 s with motion, 47.6
and 49.2 s without). The style sheet turns every animation off for it; the pages' scripts wait on
no animation. The accessibility audit keeps the full motion (``"no-preference"``): its colours are
measured once the finite animations are over, as a person sees them."""
