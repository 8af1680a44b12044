"""Shared helpers for scenario tests: stacked bags, chosen suns, scripted decisions."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

import pytest

import ra
from ra.cli import language

BROWSER_FIXTURES = ("browser",)
"""Tests in a real browser: under ``pytest -n 2 --dist loadgroup`` those that play in time (a
game by clicks, offline and back, clocks) run on one worker, one after another; the pages'
layout checks (:data:`PAGE_FILES`) in a group of their own beside them."""
PAGE_FILES = (
    "test_browser_issue41.py",
    "test_learn_browser.py",
    "test_browser_phone.py",
    "test_guide_browser.py",
    "test_accessibility.py",
    "test_browser_sun_boat.py",
    "test_account_pages.py",
)
"""Browser tests that measure pages (sizes, contrast, axe, words) rather than time: the second
browser group, so the two halves of the browser tests run side by side."""
CLOCK_FIXTURES = ("cluster",)
CLOCK_FILES = (
    "test_clock.py",
    "test_game_clock.py",
    "test_ray_bots.py",
    "test_fairness.py",
    "test_defences.py",
    "test_forfeits.py",
    "test_soak.py",
)
"""Tests that wait on real clocks or a cluster's workers: one after another too, in a group of
their own, so that the two groups run side by side (the README's test command) and neither
worker carries all the long tests."""


REAL_SERVER_FIXTURES = (
    "server",
    "server_factory",
    "live_server",
    "module_server",
    "pg_url",
    "browser",
    "cluster",
)
"""Tests on a real ``ra serve`` (or PostgreSQL, a browser, a cluster) are slow by nature: the
fast subset (``pytest -m "not slow"``) is the engine, the bots and the in-process tests."""


@pytest.fixture(autouse=True)
def _restore_the_language() -> Iterator[None]:
    """The command line's language is one per process (``ra.cli.language``): a test that runs a
    command with ``--lang ru`` in this process (the CLI's, the guide's, the terminal's) must not
    leave the next test on the same worker in Russian."""
    chosen = language.lang()
    yield
    language.choose(chosen)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        names = getattr(item, "fixturenames", ())
        if any(f in names for f in REAL_SERVER_FIXTURES):
            item.add_marker(pytest.mark.slow)
        if any(f in names for f in BROWSER_FIXTURES):
            group = "pages" if item.path.name in PAGE_FILES else "browser"
            item.add_marker(pytest.mark.xdist_group(group))
        elif any(f in names for f in CLOCK_FIXTURES) or item.path.name in CLOCK_FILES:
            item.add_marker(pytest.mark.xdist_group("clock"))


def make_game(
    players: int | Sequence[str] = 3,
    bag: Iterable[str] = (),
    suns: Sequence[Sequence[int]] | None = None,
    seed: int = 0,
    **kwargs: object,
) -> ra.Game:
    """A game with the given top of the bag and sun groups (seat order)."""
    return ra.Game(players=players, seed=seed, bag=list(bag), suns=suns, **kwargs)  # type: ignore[arg-type]


def play(game: ra.Game, *moves: str) -> ra.Game:
    """Apply decisions in notation; on failure say which one and where the game stood."""
    for i, m in enumerate(moves):
        try:
            game.apply(m)
        except ra.RaError as err:
            raise AssertionError(f"move {i} {m!r} failed: {err}; game: {game!r}") from err
    return game


def kinds(game: ra.Game) -> list[str]:
    return [e.kind for e in game.events]


def last(game: ra.Game, kind: str) -> ra.Event:
    for e in game.events[::-1]:
        if e.kind == kind:
            return e
    raise AssertionError(f"no {kind!r} event in {kinds(game)}")


def tiles(game: ra.Game, seat: int) -> dict[str, int]:
    return dict(game.players[seat].tiles)
