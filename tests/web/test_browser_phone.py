"""The site on a touch phone (issue 20): a way back to the lobby, no key badges, every control
at least 44 px to tap, and dates as the browser writes them — Playwright with Debian's Chromium
emulating a touch screen, on a real server."""

from __future__ import annotations

import random
import re

import pytest

from tests.web.test_browser import (
    ACTIONS,
    BROWSER_TESTS,
    PHONE,
    SHOTS,
    Browser,
    Page,
    create_game,
    new_page,
    no_js_errors,
    no_sideways_scroll,
    play,
    wait_js,
)


@pytest.fixture(scope="module")
def live_server(module_server: str) -> str:
    """One server for this module's tests: they read pages or make tables of their own."""
    return module_server


pytestmark = BROWSER_TESTS

# Every control a finger uses: the top bar, the buttons and fields of the page (not links
# inside running text such as the rules).
CONTROLS = (
    "header a, header button, main button, main select, main .log-jump,"
    " main input:not([type=checkbox]):not([type=radio])"
)

# Under a moving transform (the pickable tile bobs) a rectangle comes back in floating point: a
# 44 px button read 44.00003 px here and under 44 px in CI. Within 0.01 px (under Chromium's layout
# unit, 1/64 px) is 44. Each rectangle is read once, so the size printed is the size judged.
SMALL_JS = """(sel) => [...document.querySelectorAll(sel)].map((el) => [el, el.getBoundingClientRect()])
  .filter(([el, r]) => r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden'
    && (r.width < 43.99 || r.height < 43.99))
  .map(([el, r]) => `${el.tagName.toLowerCase()}#${el.id}.${el.className}`
    + ` "${el.textContent.trim().slice(0, 20)}" ${r.width.toFixed(2)}x${r.height.toFixed(2)}`)"""


def visible_kbd(page: Page) -> int:
    return int(page.evaluate("[...document.querySelectorAll('kbd')].filter((k) => k.offsetParent).length"))


def small_targets(page: Page) -> list[str]:
    found: list[str] = page.evaluate(SMALL_JS, CONTROLS)
    return found


@pytest.mark.parametrize("locale", ["en-US", "ru-RU"])
def test_a_touch_phone_gets_big_targets_no_key_badges_and_the_lobby_link(
    browser: Browser, live_server: str, locale: str
) -> None:
    page = new_page(browser, PHONE, locale, touch=True)
    page.goto(live_server + "/")
    page.wait_for_selector(".seat-row")
    small = small_targets(page)
    assert small == [], "\n".join(small)
    made = create_game(live_server, [{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    page.goto(live_server + made["link"])
    page.wait_for_selector(ACTIONS)
    play(page, random.Random(2), clicks=6)
    wait_js(page, "window.__ra && !window.__ra.sending")
    assert page.locator("header .nav-lobby").is_visible()  # the way back, not only the logo
    no_sideways_scroll(page)
    assert visible_kbd(page) == 0
    small = small_targets(page)
    assert small == [], "\n".join(small)
    # A full-page capture re-lays the page out without the touch emulation: the viewport only.
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"table-touch-{locale[:2]}.png"))
    # The log sits below the players on a phone: one tap from the status takes you there.
    page.click(".log-jump")
    wait_js(page, "document.querySelector('#log-title').getBoundingClientRect().top < innerHeight")
    page.click("header .nav-lobby")
    page.wait_for_selector(".seat-row")
    no_js_errors(page)
    page.context.close()


@pytest.mark.parametrize(
    ("locale", "pattern"),
    [("en-US", r"[A-Z][a-z]{2} \d{1,2}, \d{4}"), ("en-GB", r"\d{1,2} [A-Z][a-z]{2} \d{4}")],
)
def test_dates_as_the_browser_writes_them(
    browser: Browser, live_server: str, locale: str, pattern: str
) -> None:
    create_game(live_server, [{"kind": "human"}, {"kind": "human"}])
    page = new_page(browser, locale=locale)
    page.goto(live_server + "/")
    page.wait_for_selector("#list-open .game-item")
    meta = page.locator("#list-open .game-item").first.inner_text()
    assert re.search(pattern, meta), meta
    page.context.close()
