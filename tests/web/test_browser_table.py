"""The browser table as a new player finds it (issue 20): reconnecting, bots thinking, the
scoring panel, the 404 page and compression — Playwright with Debian's Chromium on a real server."""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.test_browser import (
    ACTIONS,
    ARGS,
    CHROMIUM,
    Browser,
    click_legal,
    create_game,
    decisions,
    is_over,
    new_page,
    no_js_errors,
    shot,
    sync_api,
    wait_js,
)

pytestmark = [
    pytest.mark.slow,  # a real browser: pytest -m "not slow" leaves them out
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium (/usr/bin/chromium) is not installed"),
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


def test_offline_at_once_controls_off_and_back_as_soon_as_the_server_answers(
    browser: Browser, server_factory: Any, sqlite_url: str, tmp_path: Path
) -> None:
    srv = server_factory(sqlite_url, tmp_path / "server.log").start()
    made = create_game(srv.url, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}])
    page = new_page(browser)
    page.goto(srv.url + made["link"])
    wait_js(page, "window.__ra && window.__ra.connected === true")
    srv.kill9()
    killed = time.monotonic()
    wait_js(page, "window.__ra.connected === false", timeout=5000)
    noticed = time.monotonic() - killed
    assert page.locator("#conn-banner:not([hidden])").is_visible()
    assert page.locator("#reconnect-now").is_visible()
    assert page.locator(".conn.on").count() == 0  # nobody shown online while we cannot know
    srv.start()
    answered = time.monotonic()
    wait_js(page, "window.__ra.connected === true", timeout=15000)
    back = time.monotonic() - answered
    page.wait_for_selector("#conn-banner:has-text('Connection restored')", timeout=5000)
    print(f"\nreconnect: offline {noticed:.2f} s after kill -9; back {back:.2f} s after /health answered")
    no_js_errors(page)
    page.context.close()


def test_reconnect_now_and_actions_disabled_while_offline(
    browser: Browser, server_factory: Any, sqlite_url: str, tmp_path: Path
) -> None:
    srv = server_factory(sqlite_url, tmp_path / "server.log").start()
    made = create_game(srv.url, [{"kind": "human"}, {"kind": "bot", "level": "easy"}], bot_delay=0)
    page = new_page(browser)
    page.goto(srv.url + made["link"])
    page.wait_for_selector(ACTIONS)
    srv.kill9()
    wait_js(page, "window.__ra.connected === false", timeout=5000)
    buttons = page.locator("main [data-act]")
    assert buttons.count() > 0 and all(buttons.nth(i).is_disabled() for i in range(buttons.count()))
    # A key pressed while offline is refused out loud, never dropped silently.
    legal = page.evaluate("window.__ra.legal")
    key = "d" if "draw" in legal else "p" if "pass" in legal else None
    if key is not None:
        page.keyboard.press(key)
        page.wait_for_selector("#toasts :text('Not sent')", timeout=3000)
    assert page.locator("#reconnect-now").is_visible()
    srv.start()
    # The jittered retries (2 s at most) may be back first; else the button brings it back now.
    with contextlib.suppress(sync_api.Error):
        page.click("#reconnect-now", timeout=1000)
    wait_js(page, "window.__ra.connected === true", timeout=15000)
    page.wait_for_selector(ACTIONS)
    no_js_errors(page)
    page.context.close()


def test_a_bot_to_move_shows_it_is_thinking(browser: Browser, live_server: str) -> None:
    made = create_game(live_server, [{"kind": "human"}, {"kind": "bot", "level": "easy"}], bot_delay=4)
    page = new_page(browser)
    page.goto(live_server + made["link"])
    rng = random.Random(1)
    for _ in range(40):
        if page.locator(".thinking").count():
            break
        if page.locator(ACTIONS).count():
            click_legal(page, rng)
        page.wait_for_timeout(150)
    assert page.locator(".thinking").count() == 1
    assert "thinking" in page.locator(".thinking").inner_text()
    page.context.close()


def test_the_scoring_panel_closes_at_the_next_decision(browser: Browser, live_server: str) -> None:
    made = create_game(live_server, [{"kind": "human"}, {"kind": "bot", "level": "random"}], bot_delay=0)
    page = new_page(browser)
    page.goto(live_server + made["link"])
    rng = random.Random(3)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not is_over(page):
        if page.evaluate("window.__ra.summaryEpoch !== null"):
            break
        if click_legal(page, rng) is None:
            page.wait_for_timeout(30)
    assert page.evaluate("window.__ra.summaryEpoch") == 1, "no epoch was scored"
    assert page.locator("#epoch-summary:not([hidden])").count() == 1
    shot(page, "table-summary-1366-en")
    n = decisions(page)
    while decisions(page) == n:  # the next decision, by anyone
        if click_legal(page, rng) is None:
            page.wait_for_timeout(30)
    wait_js(page, "window.__ra.summaryEpoch === null")
    assert page.locator("#epoch-summary:not([hidden])").count() == 0
    no_js_errors(page)
    page.context.close()


def test_unknown_pages_get_an_html_page_and_the_api_keeps_json(browser: Browser, live_server: str) -> None:
    r = httpx.get(live_server + "/no/such/page")
    assert r.status_code == 404 and "text/html" in r.headers["content-type"]
    r = httpx.get(live_server + "/api/no-such-thing")
    assert r.status_code == 404 and r.json()["error"] == "http"
    page = new_page(browser)
    page.goto(live_server + "/no/such/page")
    page.wait_for_selector("h1")
    assert page.locator("h1").inner_text() == "Page not found"
    page.click("text=Go to the lobby")
    page.wait_for_url(live_server + "/")
    no_js_errors(page)
    page.context.close()


def test_pages_and_static_files_are_compressed(live_server: str) -> None:
    for path in ("/", "/static/i18n.js", "/static/table.js", "/static/style.css"):
        r = httpx.get(live_server + path, headers={"Accept-Encoding": "gzip"})
        assert r.status_code == 200 and r.headers.get("content-encoding") == "gzip", path
