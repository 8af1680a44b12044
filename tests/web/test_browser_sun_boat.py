"""The 2023 edition's sun boat on the browser board (R1.2), against a real ``ra serve``.

With the 2023 edition the Ra track shows the sun boat at the space for the Ra tiles drawn this
epoch (its start space one before the first tile space: our ruling), no Ra tile on the track and
the last space marked; the same game in the original edition lays the Ra tiles on the track.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from ra.web.testing import Server
from tests.web.test_accessibility import audit
from tests.web.test_browser import (
    ACTIONS,
    BROWSER_TESTS,
    LAPTOP,
    PHONE,
    Browser,
    Page,
    click_legal,
    create_game,
    new_page,
    no_js_errors,
    no_sideways_scroll,
    shot,
    wait_js,
)

pytestmark = BROWSER_TESTS

SEED = "5"
"""Every table of these tests deals the same bag (RA_GAME_SEED), so both editions play alike."""


@pytest.fixture
def seeded_server(server_factory: type[Server], sqlite_url: str, tmp_path: Path) -> str:
    return server_factory(sqlite_url, tmp_path / "server.log", env={"RA_GAME_SEED": SEED}).start().url


def until_a_ra_tile(page: Page, rng: random.Random, clicks: int = 120) -> int:
    """Draw when we may (pass or bid otherwise) until a Ra tile lies on this epoch's track;
    returns how many."""
    for _ in range(clicks):
        n = int(page.evaluate("window.__ra.view ? window.__ra.view.ra_track : 0"))
        if n > 0 and page.evaluate("window.__ra.view.epoch") == 1:
            return n
        if page.locator("[data-act='draw']:not([disabled])").count():
            page.click("[data-act='draw']")
        elif page.locator("[data-act='pass']:not([disabled])").count():
            page.click("[data-act='pass']")
        elif click_legal(page, rng) is None:
            page.wait_for_timeout(40)
        page.wait_for_timeout(30)
    raise AssertionError("no Ra tile was drawn")


def open_table(browser: Browser, base: str, edition: str, **kw: Any) -> Page:
    made = create_game(base, [{"kind": "human"}, {"kind": "bot", "level": "easy"}], edition=edition)
    page = new_page(browser, **kw)
    page.goto(base + made["link"])
    page.wait_for_selector(ACTIONS)
    return page


def test_the_2023_edition_sails_the_sun_boat_and_the_original_lays_ra_tiles(
    browser: Browser, seeded_server: str
) -> None:
    page = open_table(browser, seeded_server, "2023")
    # Before any Ra tile: the boat on its start space, before the first tile space.
    assert page.locator(".ra-track.boat-track").count() == 1
    assert page.locator(".boat-space").count() == 7  # 2 players: 6 tile spaces and the start
    n = until_a_ra_tile(page, random.Random(3))
    wait_js(page, f"document.querySelector('.boat-track').dataset.boat === '{n}'")
    track = page.locator(".ra-track")
    assert track.locator(".boat-here").get_attribute("data-space") == str(n)
    assert track.locator(".boat-svg").count() == 1
    assert track.locator(".passed").count() == n  # the start space and the spaces sailed
    assert track.locator(".tile-svg").count() == 0  # the Ra tiles are discarded, not laid here
    last = track.locator(".boat-space.last")
    assert last.get_attribute("data-space") == "6" and last.locator(".boat-end-svg").count() == 1
    assert "epoch ends" in (last.get_attribute("title") or "")
    label = f"Sun boat: {n} of 6 spaces"
    assert track.get_attribute("aria-label") == label
    assert track.locator(".boat-svg").get_attribute("aria-label") == label
    assert page.locator(".ra-row .track-label small").inner_text() == label
    gone = 30 - int(page.evaluate("window.__ra.view.unseen.ra || 0"))
    assert page.locator(".ra-discards").inner_text().strip() == f"Ra tiles discarded: {gone}"
    assert gone >= n
    # In Russian, in the 2023 rulebook's words.
    page.click(".lang-btn[data-lang='ru']")
    page.wait_for_selector(".track-label:has-text('Трек Ра')")
    assert page.locator(".ra-track").get_attribute("aria-label") == f"Солнечная ладья: {n} из 6 делений"
    assert page.locator(".ra-discards").inner_text().strip() == f"Сброшено жетонов Ра: {gone}"
    no_js_errors(page)
    page.context.close()

    # The same game in the original edition: the Ra tiles on the track, no boat.
    page = open_table(browser, seeded_server, "original")
    n = until_a_ra_tile(page, random.Random(3))
    wait_js(page, f"document.querySelectorAll('.ra-track .ra-slot.filled').length === {n}")
    track = page.locator(".ra-track")
    assert track.locator(".tile-svg.cat-ra").count() == n
    assert track.locator(".ra-slot").count() == 6
    assert page.locator(".boat-svg, .boat-space, .ra-discards").count() == 0
    assert page.locator(".ra-row .track-label small").inner_text() == f"{n} of 6 Ra tiles"
    no_js_errors(page)
    page.context.close()


@pytest.mark.parametrize(("size", "viewport"), [("1366", LAPTOP), ("390", PHONE)])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_sun_boat_fits_laptops_and_phones(
    browser: Browser, live_server: str, size: str, viewport: dict[str, int], lang: str
) -> None:
    made = create_game(
        live_server,
        [{"kind": "human"}, *[{"kind": "bot", "level": "easy"}] * 4],  # 5 players: the longest track
        edition="2023",
    )
    page = new_page(browser, viewport, locale="ru-RU" if lang == "ru" else "en-US")
    page.goto(live_server + made["link"])
    page.wait_for_selector(ACTIONS)
    until_a_ra_tile(page, random.Random(1))
    assert page.locator(".boat-space").count() == 11
    box = None
    for _ in range(50):  # the bots play on: the board may be between two renders
        box = page.locator(".boat-here").bounding_box()
        if box is not None:
            break
        page.wait_for_timeout(50)
    assert box is not None and box["width"] >= 20  # the boat stays legible on a phone
    no_sideways_scroll(page)
    wait_js(page, "window.__ra && !window.__ra.sending")
    found: list[str] = []
    audit(page, "the sun boat", found)
    assert not found, "\n".join(found)
    shot(page, f"sun-boat-{size}-{lang}")
    no_js_errors(page)
    page.context.close()
