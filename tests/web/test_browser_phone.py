"""The site on a touch phone (issue 20): a way back to the lobby, no key badges, every control
at least 44 px to tap, and dates as the browser writes them — Playwright with Debian's Chromium
emulating a touch screen, on a real server."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from tests.web.test_browser import (
    ACTIONS,
    ARGS,
    CHROMIUM,
    PHONE,
    SHOTS,
    Browser,
    Page,
    create_game,
    no_js_errors,
    no_sideways_scroll,
    play,
    sync_api,
    wait_js,
)

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian chromium (/usr/bin/chromium) is not installed"
)

# Every control a finger uses: the top bar, the buttons and fields of the page (not links
# inside running text such as the rules).
CONTROLS = (
    "header a, header button, main button, main select, main .log-jump,"
    " main input:not([type=checkbox]):not([type=radio])"
)

SMALL_JS = """(sel) => [...document.querySelectorAll(sel)].filter((el) => {
  const r = el.getBoundingClientRect();
  const shown = r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  return shown && (r.width < 44 || r.height < 44);
}).map((el) => `${el.tagName.toLowerCase()}#${el.id}.${el.className} "${el.textContent.trim().slice(0, 20)}"`
  + ` ${Math.round(el.getBoundingClientRect().width)}x${Math.round(el.getBoundingClientRect().height)}`)"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


def touch_page(browser: Browser, locale: str = "en-US") -> Page:
    ctx = browser.new_context(viewport=PHONE, locale=locale, has_touch=True, is_mobile=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors  # checked by no_js_errors()
    return page


def visible_kbd(page: Page) -> int:
    return int(page.evaluate("[...document.querySelectorAll('kbd')].filter((k) => k.offsetParent).length"))


def small_targets(page: Page) -> list[str]:
    found: list[str] = page.evaluate(SMALL_JS, CONTROLS)
    return found


@pytest.mark.parametrize("locale", ["en-US", "ru-RU"])
def test_a_touch_phone_gets_big_targets_no_key_badges_and_the_lobby_link(
    browser: Browser, live_server: str, locale: str
) -> None:
    page = touch_page(browser, locale)
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
    ctx = browser.new_context(locale=locale)
    page = ctx.new_page()
    page.goto(live_server + "/")
    page.wait_for_selector("#list-open .game-item")
    meta = page.locator("#list-open .game-item").first.inner_text()
    assert re.search(pattern, meta), meta
    ctx.close()
