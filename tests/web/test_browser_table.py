"""The browser table as a new player finds it (issue 20): reconnecting, bots thinking, the
scoring panel, the 404 page and compression — Playwright with Debian's Chromium on a real server."""

from __future__ import annotations

import contextlib
import random
import time
from pathlib import Path
from typing import Any

import httpx

from tests.web.test_browser import (
    ACTIONS,
    BROWSER_TESTS,
    WHOLE_GAME_S,
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

pytestmark = BROWSER_TESTS


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
    # The status bar's last move is the log's newest line that is not a score, in the same words
    # (board.js's lastMoveLine, which the replay shows too).
    newest = page.locator("#log li:not(.ev-score)").last.inner_text()
    assert newest and page.inner_text("#last-event") == f"Last: {newest}"
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


MARK_ITEMS = """() => {
  const items = [...document.querySelectorAll('#players > *'), ...document.querySelectorAll('#log > li')];
  items.forEach((el, i) => { el.__mark = i; });
  return items.map((el) => el.outerHTML);
}"""
"""Marks each player's display and each line of the log (a property on the element, not in its
HTML) and returns their HTML as it is now."""
ITEMS_NOW = """() => [...document.querySelectorAll('#players > *'), ...document.querySelectorAll('#log > li')]
  .map((el) => [el.__mark ?? null, el.outerHTML])"""


def test_a_replay_step_draws_again_only_what_the_decision_changed(browser: Browser, live_server: str) -> None:
    """Stepping a replay one decision on keeps every player's display and log line that did not
    change as the element it was (laid out, scrolled and focused as before), and writes the ones
    that did: before, every step wrote the whole board, all displays and the whole log again."""
    from tests.web.test_analysis import imported

    game_id = imported(live_server)
    page = new_page(browser)
    page.goto(f"{live_server}/replay/{game_id}")
    page.wait_for_selector("#log li")
    # Into the game (some lines in the log, displays with tiles), as the slider takes it there.
    page.locator("#rp-range").evaluate("(el) => { el.value = '30'; el.dispatchEvent(new Event('change')); }")
    wait_js(page, "window.__replay.n === 30 && !window.__replay.busy")
    kept = changed = 0
    for step in range(10):
        before = page.evaluate(MARK_ITEMS)
        page.keyboard.press("ArrowRight")
        wait_js(page, f"window.__replay.n === {31 + step} && !window.__replay.busy")
        now = page.evaluate(ITEMS_NOW)
        assert len(now) >= len(before), "lines of the log went missing"
        for mark, html in now:
            if mark is not None:  # the element kept: its HTML is what it was
                assert html == before[mark], f"an element kept though it changed: {html[:120]}"
                kept += 1
        marked = {m for m, _ in now if m is not None}
        for i, html in enumerate(before):
            if i not in marked:  # written again: it changed (or was dropped)
                assert html not in [h for _, h in now], (
                    f"an unchanged element was written again: {html[:120]}"
                )
                changed += 1
    assert kept > 10 * 20 and changed >= 10, (kept, changed)
    page.keyboard.press("ArrowLeft")  # a step back drops the decision's log lines, keeps the rest
    wait_js(page, "window.__replay.n === 39 && !window.__replay.busy")
    assert page.evaluate("document.querySelector('#log > li').__mark") == len(
        page.evaluate("[...document.querySelectorAll('#players > *')]")
    ), "the log's first line was written again"
    no_js_errors(page)
    page.context.close()


def test_an_opened_seat_link_stays_open_through_the_moves(browser: Browser, live_server: str) -> None:
    """The table's link card is written again only when it changes: a person who opened the seat
    link to copy it keeps it open while the bots move (it closed at every move)."""
    made = create_game(
        live_server,
        [{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}],
        bot_delay=0,
    )
    page = new_page(browser)
    page.goto(live_server + made["link"])
    page.wait_for_selector(ACTIONS)
    page.click("#links-card details.seat-link summary")
    assert page.evaluate("document.querySelector('#links-card details.seat-link').open")
    n = decisions(page)
    rng = random.Random(5)
    deadline = time.monotonic() + WHOLE_GAME_S
    while decisions(page) < n + 6:  # the person's moves and the bots'
        assert time.monotonic() < deadline, f"the table stalled at decision {decisions(page)}"
        if click_legal(page, rng) is None:
            page.wait_for_timeout(30)
    assert page.evaluate("document.querySelector('#links-card details.seat-link').open")
    no_js_errors(page)
    page.context.close()
