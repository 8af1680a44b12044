"""The browser client against a real ``ra serve``, driven in Debian's Chromium with Playwright.

Issue 9 (play Ra online, part 2): games are played only by clicking the buttons the table offers,
a reload or a seat link on another device continues the game, hidden scores stay hidden per
viewer, spectators cannot act, Russian works, the replay viewer steps to the end, and no page
scrolls sideways on a laptop (1366×768) or a phone (390×844). Screenshots go to
``tests/web/screenshots/``.
"""

from __future__ import annotations

import contextlib
import json
import math
import random
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

import ra
import ra.events
import ra.words
from tests.web.chromium import MOTION, Motion, needs_chromium

BROWSER_TESTS = [
    pytest.mark.slow,  # a real browser: pytest -m "not slow" leaves them out
    needs_chromium,
]
"""The marks of every module of browser tests (their ``browser`` fixture is in conftest.py)."""
pytestmark = BROWSER_TESTS
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

Browser = Any  # playwright.sync_api.Browser (imported lazily so the module skips cleanly)
Page = Any  # playwright.sync_api.Page

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = Path(__file__).parent / "screenshots"
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
ACTIONS = "main [data-act]:not([disabled])"


def new_page(
    browser: Browser,
    viewport: dict[str, int] = LAPTOP,
    locale: str = "en-US",
    motion: Motion = MOTION,
    touch: bool = False,
) -> Page:
    """A page in a context of its own; ``touch``: a phone's (touch events, the mobile viewport)."""
    ctx = browser.new_context(
        viewport=viewport, locale=locale, reduced_motion=motion, has_touch=touch, is_mobile=touch
    )
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # A page that breaks its own Content-Security-Policy (an inline script, a foreign connection)
    # is an error too.
    page.on(
        "console",
        lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.js_errors = errors  # checked by no_js_errors()
    # Like a person, a test acts once the page is ready: its script has loaded the language's
    # catalogue and run (common.js marks it); before that the page may still reset a field.
    for name in ("goto", "reload"):
        load = getattr(page, name)

        def ready_after(*args: Any, _load: Any = load, **kwargs: Any) -> Any:
            response = _load(*args, **kwargs)
            wait_js(page, READY)
            return response

        setattr(page, name, ready_after)
    return page


READY = (
    "document.documentElement.dataset.ready === 'true'"
    " || !document.querySelector('script[type=module]')"  # not one of the site's pages (JSON)
)


def no_js_errors(page: Page) -> None:
    assert page.js_errors == [], page.js_errors


def wait_js(page: Page, expression: str, timeout: float = 30_000) -> None:
    """Wait until ``expression`` is true in the page.

    Not ``page.wait_for_function``: it compiles its predicate with ``eval`` inside the page,
    which the server's Content-Security-Policy (rightly) forbids; ``evaluate`` goes through
    the DevTools protocol instead.
    """
    deadline = time.monotonic() + timeout / 1000
    while (answer := holds(page, expression)) is not True:
        if time.monotonic() > deadline:
            why = f" (it last threw: {answer})" if isinstance(answer, str) else ""
            raise sync_api.TimeoutError(f"waited {timeout / 1000:g} s for {expression!r}{why}")
        page.wait_for_timeout(50)


NAVIGATING = ("Execution context was destroyed", "Cannot find context with specified id")
"""What Playwright says when a page navigated away while it evaluated there."""


def holds(page: Page, expression: str) -> bool | str:
    """Whether ``expression`` is true in ``page`` now, or what it threw. Just after a click on a
    link the page may be between two documents (no ``document.documentElement`` yet, its scripts
    not yet run, or the old document gone while it was asked): that is "not yet", as a person
    would see a blank page for a moment, not an error (a CI run at four workers once asked at that
    moment). A mistake in the expression shows as the timeout's reason."""
    guarded = f"(() => {{ try {{ return Boolean({expression}); }} catch (e) {{ return String(e); }} }})()"
    try:
        answer: bool | str = page.evaluate(guarded)
    except sync_api.Error as err:
        if any(m in str(err) for m in NAVIGATING):
            return False
        raise
    return answer


def create_game(base: str, seats: list[dict[str, str]], **options: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"seats": seats, "bot_delay": 0, "name": "Ann", "join": True}
    body.update(options)
    r = httpx.post(base + "/api/games", json=body, timeout=10)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def click_legal(page: Page, rng: random.Random) -> str | None:
    """Click one of the legal actions the page offers (buttons, tiles); None when there is none."""
    buttons = page.locator(ACTIONS)
    n = buttons.count()
    if n == 0:
        return None
    b = buttons.nth(rng.randrange(n))
    try:
        act = b.get_attribute("data-act", timeout=1000)
        b.click(timeout=2000)
    except sync_api.Error:
        return None  # the table moved on under the pointer: look again
    return str(act)


def is_over(page: Page) -> bool:
    return bool(page.locator("#final-area:not([hidden]) .final-headline").count())


WHOLE_GAME_S = 200
"""How long a whole game by clicks may take before a test calls it stalled: a guard, not a measure
of speed (about 20 s alone on a 2-core machine; CI's own load — four workers, browsers, the
pure-Python pass and the wheels beside them — made it pass 90 s; pytest's timeout is 300 s)."""


def play(page: Page, rng: random.Random, clicks: int | None = None, timeout: float = WHOLE_GAME_S) -> int:
    """Click legal actions until the game ends (or ``clicks`` were made); returns the clicks made."""
    made = 0
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if is_over(page) or (clicks is not None and made >= clicks):
            return made
        if click_legal(page, rng) is None:
            page.wait_for_timeout(40)
        else:
            made += 1
    raise AssertionError(f"the game did not end in {timeout} s ({made} clicks)")


def decisions(page: Page) -> int:
    return int(page.evaluate("window.__ra.n"))


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    inner = page.evaluate("innerWidth")
    assert width <= inner, f"{page.url} scrolls horizontally: {width} > {inner}"


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.wait_for_timeout(150)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


# --- tests ------------------------------------------------------------------------------


def test_lobby_create_and_play_to_the_end_by_clicking(
    browser: Browser, live_server: str, tmp_path: Path
) -> None:
    page = new_page(browser)
    page.goto(live_server + "/")
    page.fill("#name", "Ann")
    page.select_option("#pace", "0")
    levels = page.locator("select.level")
    for i in range(levels.count()):
        levels.nth(i).select_option("easy")
    assert page.locator("#hidden-scores").is_checked()  # the rulebooks' default (R9.1)
    page.click("#create-btn")
    page.wait_for_url(re.compile(r"/g/\w+$"))
    page.wait_for_selector(ACTIONS)
    played = play(page, random.Random(1))
    assert played > 5
    headline = page.locator(".final-headline").inner_text()
    assert re.search(r"wins|win", headline), headline
    assert page.locator(".final-table tbody tr").count() == 3
    assert page.locator(".final-scoring .score-table").count() == 3  # one table per epoch
    assert page.locator("#again-btn").is_visible()
    assert page.locator(ACTIONS).count() == 0
    # The log shows its last lines (scrolled to its end once a frame: common.js scrollToEnd).
    wait_js(
        page,
        "(l => l.scrollHeight > l.clientHeight && l.scrollTop + l.clientHeight >= l.scrollHeight - 1)"
        "(document.querySelector('#log'))",
    )
    no_sideways_scroll(page)
    shot(page, "table-final-1366-en")
    no_js_errors(page)

    # "Analyse the game" opens the replay, which asks the server for the analysis at once.
    game_id = page.url.rsplit("/", 1)[1]
    page.click("#analyse-link")
    page.wait_for_url(re.compile(rf"/replay/{game_id}\?analyse=1$"))
    page.wait_for_selector("#analysis-card progress, #analysis-card svg.win-chart")
    # The replay viewer steps through the finished game to its end.
    page.wait_for_selector("#rp-pos:has-text('Decision 0')")
    page.click("#rp-step")
    page.wait_for_selector("#rp-pos:has-text('Decision 1 of')")
    page.click("#rp-back")
    page.wait_for_selector("#rp-pos:has-text('Decision 0 of')")
    assert page.locator(".epoch-jump").count() == 3
    page.locator(".epoch-jump").nth(1).click()
    page.wait_for_selector(".epoch-badge:has-text('Epoch 2')")
    page.click("#rp-last")
    page.wait_for_selector("#final-area:not([hidden]) .final-headline")
    pos = page.locator("#rp-pos").inner_text()
    n, total = map(int, re.findall(r"\d+", pos))
    assert n == total > 0
    assert page.locator("#rp-download").get_attribute("href") == f"/api/games/{game_id}/record"
    # Ann played seat 0: "you" there only; following seat 1 shows it without calling it hers.
    assert page.locator(".player[data-seat='0'] .badge.you").count() == 1
    page.select_option("#rp-seat", "1")
    page.wait_for_selector(".player.me[data-seat='1']")
    assert page.locator(".badge.you").count() == 0
    # Home and End move the replay, not the page; the speed can be chosen.
    page.evaluate("window.addEventListener('keydown', (e) => { window.__kept = e.defaultPrevented; })")
    page.keyboard.press("Home")
    page.wait_for_selector("#rp-pos:has-text('Decision 0 of')")
    assert page.evaluate("window.__kept") is True  # the browser does not scroll the page too
    assert all(s.isdigit() for s in page.locator(".player .score").all_inner_texts())  # nothing hidden now
    page.select_option("#rp-speed", "250")
    page.click("#rp-play")
    # Playing: the position moves on by itself (read as a number: at 250 ms a step, a loaded
    # machine may pass "Decision 3" between two looks).
    wait_js(page, "Number((document.querySelector('#rp-pos').textContent.match(/\\d+/) || [0])[0]) >= 3")
    page.click("#rp-play")
    page.keyboard.press("End")
    page.wait_for_selector("#final-area:not([hidden]) .final-headline")
    no_sideways_scroll(page)
    shot(page, "replay-1366-en")
    no_js_errors(page)

    # The downloaded record opens again in the replay viewer from the lobby.
    record = httpx.get(f"{live_server}/api/games/{game_id}/record", timeout=10)
    assert record.status_code == 200
    saved = tmp_path / "game.json"
    saved.write_bytes(record.content)
    page.goto(live_server + "/")
    page.set_input_files("#import-file", str(saved))
    page.wait_for_url(re.compile(r"/replay/\w+$"))
    assert not page.url.endswith(game_id)
    page.wait_for_selector("#rp-pos:has-text('Decision 0 of')")
    page.click("#rp-last")
    page.wait_for_selector("#final-area:not([hidden]) .final-headline")

    # Play again: a rematch with the same table, and we hold a seat in it.
    page.goto(f"{live_server}/g/{game_id}")
    page.wait_for_selector("#again-btn")
    page.click("#again-btn")
    page.wait_for_url(lambda url: game_id not in url)
    page.wait_for_selector(".player.me")
    page.context.close()


def test_reload_and_seat_link_on_another_device(browser: Browser, live_server: str) -> None:
    made = create_game(live_server, [{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    game_id = made["game"]["id"]
    page = new_page(browser)
    page.goto(live_server + made["link"])
    page.wait_for_selector(ACTIONS)
    assert page.url.endswith(f"/g/{game_id}")  # the token left the address bar
    assert page.title() == "▶ Your turn — Ra"  # the tab says whose turn it is
    rng = random.Random(2)
    play(page, rng, clicks=6)
    wait_js(page, "window.__ra && !window.__ra.sending")
    before = decisions(page)
    assert before > 0
    log_before = page.locator("#log li").count()

    page.reload()  # the token is kept in this browser
    page.wait_for_selector(".player.me[data-seat='0']")
    wait_js(page, f"window.__ra.n >= {before}")
    assert page.locator("#log li").count() >= log_before
    play(page, rng, clicks=6)
    wait_js(page, "window.__ra && !window.__ra.sending")
    mid = decisions(page)
    assert mid > before

    # Another device: a fresh browser context opens the seat link and carries on.
    other = new_page(browser, PHONE)
    other.goto(live_server + made["link"])
    other.wait_for_selector(".player.me[data-seat='0']")
    wait_js(other, f"window.__ra.n >= {mid}")
    assert "token" not in other.url
    play(other, rng)
    assert is_over(other)
    no_sideways_scroll(other)
    # The first device sees the same end.
    page.wait_for_selector("#final-area:not([hidden]) .final-headline")
    no_js_errors(page)
    no_js_errors(other)
    page.context.close()
    other.context.close()


def shown_scores(page: Page) -> tuple[str | None, dict[int, str]]:
    """The phase and the score each player panel shows, read at one instant."""
    phase, scores = page.evaluate(
        """() => [window.__ra.view && window.__ra.view.phase,
                  [...document.querySelectorAll('#players .player')].map(
                      (p) => [Number(p.dataset.seat), p.querySelector('.score').textContent.trim()])]"""
    )
    return phase, {int(seat): str(text) for seat, text in scores}


TURN_JS = """() => [document.querySelectorAll('main [data-act]:not([disabled])').length,
                     window.__ra.view ? window.__ra.view.to_move : null]"""


CLICK_AND_COUNT_JS = """(i) => {
  const all = document.querySelectorAll('main [data-act]:not([disabled])');
  const picks = document.querySelectorAll('main [data-act]:not([disabled]):not(#actions *)');
  const acts = picks.length && i % 2 ? picks : all;  // tiles on the board half the time they show
  if (!acts.length) return 0;
  acts[i % acts.length].click();
  return document.querySelectorAll('main [data-act]:not([disabled])').length;
}"""


def test_two_humans_hidden_scores_and_a_spectator(browser: Browser, live_server: str) -> None:
    # Ann creates the table in the lobby: herself, a second human seat and a bot; hidden scores.
    ann = new_page(browser)
    ann.goto(live_server + "/")
    ann.fill("#name", "Ann")
    ann.select_option("#pace", "0")
    ann.locator(".seat-row").nth(1).locator("label", has_text="Human").click()
    ann.locator(".seat-row").nth(2).locator("select.level").select_option("easy")
    assert ann.locator("#hidden-scores").is_checked()
    ann.click("#create-btn")
    # The invite link comes into view at once (1366x768), ready to copy.
    wait_js(ann, "document.activeElement && document.activeElement.id === 'share-link'")
    box = ann.locator("#share-link").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= LAPTOP["height"], box
    assert ann.locator("#created #copy-btn").is_visible()
    link = ann.locator("#share-link").input_value()
    game_id = link.rsplit("/", 1)[1]
    assert link == f"{live_server}/g/{game_id}"
    ann.click("#copy-btn")
    ann.locator("#created a.btn").click()
    ann.wait_for_selector("#waiting:not([hidden])")  # one human seat is still free
    assert ann.locator("#waiting .share-input").input_value() == link

    # Bob finds the open game in the lobby and joins it from his own browser.
    bob = new_page(browser)
    bob.goto(live_server + "/")
    bob.fill("#name", "Bob")
    bob.locator(f".join-btn[data-id='{game_id}']").click()
    bob.wait_for_url(re.compile(f"/g/{game_id}$"))
    bob.wait_for_selector(".player.me[data-seat='1']")
    ann.wait_for_selector(".player.me[data-seat='0']")

    spectator = new_page(browser, PHONE)
    spectator.goto(f"{live_server}/g/{game_id}")
    spectator.wait_for_selector(".player[data-seat='2']")

    rng = random.Random(3)
    deadline = time.monotonic() + WHOLE_GAME_S
    seen_scoring = False
    while time.monotonic() < deadline and not is_over(ann):
        # Only the player whose turn it is has actions; the spectator never has any.
        turns = []
        for page, seat in ((ann, 0), (bob, 1)):
            buttons, to_move = page.evaluate(TURN_JS)
            if buttons:
                assert to_move == seat, (seat, to_move)
                turns.append(page)
        assert len(turns) <= 1
        assert spectator.locator(ACTIONS).count() == 0
        for page, me in ((ann, 0), (bob, 1)):
            phase, scores = shown_scores(page)
            if phase != "over":
                assert scores[me].isdigit(), scores
                assert [scores[s] for s in range(3) if s != me] == ["?", "?"], scores
        if not seen_scoring and ann.locator("#scoring .score-table").count():
            seen_scoring = True
            rows = ann.locator("#scoring .score-table").first.locator("tbody tr")
            html = ann.locator("#scoring").inner_html()
            assert rows.nth(1).locator("td").first.text_content() == "?", html  # Bob's epoch hidden from Ann
            phase, scores = shown_scores(spectator)
            assert phase == "over" or list(scores.values()) == ["?", "?", "?"], scores
        if not turns:
            ann.wait_for_timeout(40)
            continue
        # Clicking any way to act (a button, a tile on the board, a chip to discard) disables
        # every other one at once, before the server answers: no second move on a stale view.
        left = turns[0].evaluate(CLICK_AND_COUNT_JS, rng.randrange(1000))
        assert left == 0, left
    assert seen_scoring and is_over(ann)
    bob.wait_for_selector("#final-area:not([hidden])")
    spectator.wait_for_selector("#final-area:not([hidden])")
    # At the end every score is shown (R9.1).
    assert all(s.isdigit() for s in spectator.locator(".player .score").all_inner_texts())
    assert spectator.locator("#again-btn").count() == 0
    for p in (ann, bob, spectator):
        no_js_errors(p)
        p.context.close()


def test_russian_table_and_rules(browser: Browser, live_server: str) -> None:
    made = create_game(
        live_server, [{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot"}], edition="2023"
    )
    page = new_page(browser)
    page.goto(live_server + made["link"])
    page.wait_for_selector(ACTIONS)
    page.click(".lang-btn[data-lang='ru']")
    page.wait_for_selector(".track-label:has-text('Трек Ра')")
    rng = random.Random(6)
    for _ in range(40):  # a bot may have opened an auction: play on until we may draw
        if page.locator("[data-act='draw']:not([disabled])").count():
            break
        if click_legal(page, rng) is None:
            page.wait_for_timeout(40)
    assert page.locator(".track-label", has_text="Аукционный ряд").count() == 1
    assert page.locator("#status").inner_text().startswith("Ваш ход")
    assert page.locator("[data-act='draw']").inner_text().strip().endswith("Тянуть жетон")
    assert page.locator("[data-act='ra']").inner_text().strip().endswith("Воззвать к Ра")
    assert page.locator(".group h3", has_text="Фараоны").count() == 3
    assert page.locator(".log-card h2").inner_text() == "Журнал игры"
    page.click("[data-act='draw']")
    wait_js(page, "document.querySelector('#log').innerText.includes('тянет')")
    page.reload()  # the choice is remembered
    page.wait_for_selector(".track-label:has-text('Трек Ра')")
    page.goto(live_server + "/rules")
    for sec in [f"R{i}" for i in range(1, 10)]:
        assert page.locator(f"section#{sec} h2").count() == 1
    assert page.locator("h1").inner_text().startswith("Правила")
    assert page.locator("#tile-unrest .names").inner_text() == "Смута · Война"
    assert page.locator("#tile-fortress .names").inner_text() == "Крепость · Святилище"
    assert "RULES.md" not in page.locator(".rules-page").inner_text()  # users have no such file
    assert "ra rules" not in page.locator(".rules-page").inner_text()  # the site is its rules page (issue 54)
    no_sideways_scroll(page)
    no_js_errors(page)
    page.context.close()


@pytest.mark.parametrize(("size", "viewport"), [("1366", LAPTOP), ("390", PHONE)])
@pytest.mark.parametrize("lang", ["en", "ru", "de"])
def test_screenshots_and_no_sideways_scrolling(
    browser: Browser, live_server: str, size: str, viewport: dict[str, int], lang: str
) -> None:
    page = new_page(browser, viewport, locale={"en": "en-US", "ru": "ru-RU", "de": "de-DE"}[lang])
    page.goto(live_server + "/")
    page.wait_for_selector(".seat-row")
    assert page.evaluate("document.documentElement.lang") == lang  # chosen from the browser
    no_sideways_scroll(page)
    # Each seat is one line: its number, Human/Bot, the level and the remove button side by side.
    rows = page.locator(".seat-row")
    for i in range(rows.count()):
        kids = rows.nth(i).evaluate("r => [...r.children].map(c => c.getBoundingClientRect().top)")
        assert max(kids) - min(kids) < 16, f"seat row {i + 1} wraps: {kids}"
    shot(page, f"lobby-{size}-{lang}")

    made = create_game(
        live_server,
        [
            {"kind": "human"},
            {"kind": "bot", "level": "easy"},
            {"kind": "bot", "level": "easy"},
            {"kind": "bot", "level": "easy"},
        ],
    )
    page.goto(live_server + made["link"])
    page.wait_for_selector(ACTIONS)
    play(page, random.Random(4), clicks=14)
    wait_js(page, "window.__ra && !window.__ra.sending")
    no_sideways_scroll(page)
    # The tracks' names fit their column on one line ("Трек аукциона" once wrapped on a laptop).
    overflow = page.evaluate(
        "[...document.querySelectorAll('.track-label > span')].filter((s) => {"
        " const r = s.getBoundingClientRect();"
        " const next = s.parentElement.nextElementSibling.getBoundingClientRect();"
        " return s.offsetHeight > 30 || (next.top < r.bottom && r.right > next.left); }).length"
    )
    assert overflow == 0
    shot(page, f"table-{size}-{lang}")
    page.goto(live_server + "/rules")
    page.wait_for_selector("#R9")
    no_sideways_scroll(page)
    if size == "390":
        shot(page, f"rules-{size}-{lang}")
    no_js_errors(page)
    page.context.close()


def test_keys_undo_help_and_reconnect_after_a_crash(
    browser: Browser, server_factory: Any, sqlite_url: str, tmp_path: Path
) -> None:
    srv = server_factory(sqlite_url, tmp_path / "server.log").start()
    # The bot waits a moment: undo is for your own last decision before anyone answers it.
    made = create_game(srv.url, [{"kind": "human"}, {"kind": "bot", "level": "easy"}], bot_delay=1.5)
    page = new_page(browser)
    page.goto(srv.url + made["link"])
    page.wait_for_selector(ACTIONS)

    page.keyboard.press("?")
    assert page.locator("#help-dlg").is_visible()
    page.keyboard.press("Escape")
    assert not page.locator("#help-dlg").is_visible()
    page.click("#sound-btn")
    assert page.locator("#sound-btn").get_attribute("aria-pressed") == "true"

    # Draw with d, bid with the sun's number, undo with u when the table allows it.
    rng = random.Random(5)
    drew_by_key = bid_by_key = undone = False
    # Waiting for the bot (1.5 s a move) costs a pass of 40 ms each: room for many bot turns, so that
    # an undo the bot's answer beat (a loaded machine) gets another chance later in the game.
    for _ in range(3000):
        if is_over(page) or (drew_by_key and bid_by_key and undone):
            break
        wait_js(page, "window.__ra && !window.__ra.sending")
        if not drew_by_key and "draw" in page.evaluate("window.__ra.legal"):
            n = decisions(page)
            page.keyboard.press("d")
            wait_js(page, f"window.__ra.n > {n}")
            drew_by_key = True
            continue
        if not undone and "ra" in page.evaluate("window.__ra.legal"):
            n = decisions(page)
            page.keyboard.press("r")  # invoke Ra: nothing revealed, the bot has not answered yet
            wait_js(page, f"window.__ra.n > {n} && !window.__ra.sending")
            if page.locator("[data-undo]").count():
                page.keyboard.press("u")
                with contextlib.suppress(sync_api.Error):
                    wait_js(page, f"window.__ra.n === {n}", timeout=3000)
                undone = decisions(page) == n
            continue
        bids = [b for b in page.evaluate("window.__ra.legal") if b.startswith("bid ")]
        if bids and not bid_by_key:
            n = decisions(page)
            for digit in bids[-1][4:]:
                page.keyboard.press(digit)
            wait_js(page, f"window.__ra.n > {n}")
            assert any(
                e["kind"] == "bid" and e["sun"] == int(bids[-1][4:])
                for e in page.evaluate("window.__ra.events")
            )
            bid_by_key = True
            continue
        if click_legal(page, rng) is None:
            page.wait_for_timeout(40)
    assert drew_by_key and bid_by_key and undone

    # The server dies: the table says so, reconnects by itself when it is back, and resyncs.
    # (At the person's turn: a bot due to move would rightly move once the server is back.)
    wait_js(page, "window.__ra && !window.__ra.sending && window.__ra.legal.length > 0")
    events_before = page.evaluate("window.__ra.events.length")
    srv.kill9()
    page.wait_for_selector("#conn-banner:not([hidden]):has-text('Connection lost')")
    srv.start()
    page.wait_for_selector("#conn-banner:has-text('Connection restored')", timeout=30000)
    wait_js(page, "window.__ra.connected")
    assert page.evaluate("window.__ra.events.length") == events_before
    play(page, rng, clicks=4)
    # The same log as a fresh client gets, compared at the person's turn: while a bot is still
    # thinking, the count read from the page may be one behind the one the fresh page loads.
    wait_js(page, "window.__ra && !window.__ra.sending && window.__ra.legal.length > 0")
    fresh = new_page(browser)
    fresh.goto(f"{srv.url}/g/{made['game']['id']}")
    n = decisions(page)
    wait_js(fresh, f"window.__ra && window.__ra.n === {n}")
    mine = page.evaluate("window.__ra.events.map((e) => e.kind + (e.tile || '') + (e.sun || ''))")
    theirs = fresh.evaluate("window.__ra.events.map((e) => e.kind + (e.tile || '') + (e.sun || ''))")
    assert mine == theirs
    no_js_errors(page)
    page.context.close()
    fresh.context.close()


def sample_events() -> list[ra.Event]:
    """One event of every kind and case, made by the engine's own constructors."""
    from ra import events as ev
    from ra.scoring import ScoreBreakdown
    from ra.tiles import Tile

    breakdown = ScoreBreakdown(1, 0, 2, 0, 5, 0, -5, 0, 0, before=10, after=12)
    return [
        ev.epoch_started(1, 0), ev.draw(0, Tile.UNREST), ev.draw(1, Tile.RA, 3), ev.invoke(1, auto=True),
        ev.auction(1, "forced"), ev.bid(0, 9), ev.auto_pass(1, 9, True), ev.auto_pass(1, 9, False),
        ev.won(0, 9, [Tile.PHARAOH, Tile.PHARAOH, Tile.FORTRESS], 1), ev.won(0, 9, [], 1),
        ev.no_bid(1, [Tile.GOLD, Tile.GOD], True), ev.no_bid(1, [], False), ev.god(0, Tile.PALACE),
        ev.done(0), ev.disaster(0, Tile.EARTHQUAKE, 2), ev.discard(0, Tile.FORTRESS, False),
        ev.epoch_ended(1, "ra_track", []), ev.scored(None, 1), ev.scored(breakdown, 0), ev.game_over(0, True),
    ]  # fmt: skip


def test_log_and_tie_break_are_rendered_from_the_data(browser: Browser, live_server: str) -> None:
    """The page renders each event's message with the same catalogue as Python: the same words
    in every language, for a player and for "you"."""
    from ra.web.protocol import event_data

    events = sample_events()
    sent = [event_data(i, e, "2023") for i, e in enumerate(events)]
    page = new_page(browser)
    page.goto(live_server + "/rules")
    page.wait_for_selector("#R9")
    out = page.evaluate(
        """async (events) => {
            const i18n = await import('/static/i18n.js');
            const board = await import('/static/board.js');
            const view = {phase: 'over', players: [
                {name: 'Ann', suns: [9, 6], used_suns: [13], tiles: {}, score: 30},
                {name: 'Hard bot 2', suns: [8, 7], used_suns: [], tiles: {}, score: 30}]};
            const res = {};
            for (const lang of ['en', 'ru', 'en-XA']) {
                await i18n.setLang(lang);
                res[lang] = {
                    log: events.map((e) => i18n.eventText(e, board.names(view))),
                    you: events.map((e) => i18n.eventText(e, board.names(view), 0)),
                    final: board.renderFinal(view, events, 1),
                    war: i18n.tileName('unrest', '2016'),
                    bot: board.names(view)[1],
                };
            }
            return res;
        }""",
        sent,
    )
    for lang, code in (("en", "en"), ("ru", "ru"), ("en-XA", "en_XA")):
        names = ["Ann", ra.words.words(code)("bot.hard") + " 2"]
        assert out[lang]["log"] == [e.text(names, "2023", code) for e in events], lang
        assert out[lang]["you"] == [ra.events.describe(e, names, "2023", code, you=0) for e in events], lang
    en, ru = out["en"], out["ru"]
    assert en["log"][1] == "Ann draws War."
    assert en["log"][15] == "Ann loses Sanctuary (chosen)."
    assert en["you"][15] == "You lose Sanctuary (chosen)."
    assert ru["log"][1] == "Ann тянет жетон «Война»."
    assert "Tie on 30 points: Ann wins the tie-break holding the highest sun (13) (R8.1)." in en["final"]
    assert "(30)" in ru["final"] and "(13)" in ru["final"]
    assert (en["war"], ru["war"], en["bot"]) == ("War", "Война", "Hard bot 2")
    assert ru["bot"] == ra.words.words("ru")("bot.hard") + " 2"
    no_js_errors(page)
    page.context.close()


def test_waiting_room_join_and_leave(browser: Browser, live_server: str) -> None:
    made = create_game(live_server, [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    game_id = made["game"]["id"]
    cy = new_page(browser, PHONE)
    cy.goto(f"{live_server}/g/{game_id}")
    cy.wait_for_selector("#join-form")
    assert cy.locator(".seat-list li").count() == 3
    cy.fill("#join-name", "Cy")
    cy.click("#join-form button[type=submit]")
    cy.wait_for_selector("#leave-btn")
    assert cy.locator(".seat-list li", has_text="Cy").count() == 1
    assert httpx.get(f"{live_server}/api/games/{game_id}").json()["seats"][1]["name"] == "Cy"
    cy.click("#leave-btn")
    cy.wait_for_selector("#join-form")
    assert not httpx.get(f"{live_server}/api/games/{game_id}").json()["seats"][1]["taken"]
    no_sideways_scroll(cy)
    no_js_errors(cy)
    cy.context.close()


SUMMARY_SIZES_JS = """() => {
  const box = document.querySelector("#epoch-summary");
  const table = box && !box.hidden && box.querySelector(".score-table");
  return table ? [box.clientWidth, table.getBoundingClientRect().width] : null;
}"""
"""The epoch summary's inner width and its table's width, or null while no summary is shown."""
FINAL_WRAPS_JS = """() => [...document.querySelectorAll(
  "#final-area .score-table-wrap, #final-area .final-table")].map((w) => [w.scrollWidth, w.clientWidth])"""
"""Each final scoring table's box: its scroll width and its client width."""


def test_phone_score_tables_fit_and_the_epoch_summary_spans_its_card(
    browser: Browser, live_server: str
) -> None:
    """On a 390 px phone every scoring table (epoch 3 has nine columns) fits its box without
    scrolling inside it, and the epoch summary's Close button does not squeeze its table."""
    made = create_game(
        live_server,
        [{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}],
        hidden_scores=False,
    )
    page = new_page(browser, PHONE, locale="ru-RU")
    page.goto(live_server + made["link"])
    page.wait_for_selector(ACTIONS)
    rng = random.Random(8)
    deadline = time.monotonic() + 90
    # Measured in one evaluation: the page renders the summary again at each bot's move, so a
    # table found by one call may be gone (detached, 0 px wide) by the next.
    while (sizes := page.evaluate(SUMMARY_SIZES_JS)) is None:
        assert time.monotonic() < deadline, "epoch 1 did not end"
        if click_legal(page, rng) is None:
            page.wait_for_timeout(40)
    card, table = sizes
    assert table > card * 0.85, f"the summary table is squeezed: {table} of {card}"
    play(page, rng)
    assert page.locator("#final-area .score-table").count() == 3
    boxes = page.evaluate(FINAL_WRAPS_JS)
    assert len(boxes) >= 3, boxes
    for i, (sw, cw) in enumerate(boxes):
        assert sw <= cw, f"score table {i} scrolls inside its box: {sw} > {cw}"
    no_sideways_scroll(page)
    shot(page, "table-final-390-ru")
    no_js_errors(page)
    page.context.close()


@pytest.mark.parametrize(("size", "viewport", "lang"), [("1366", LAPTOP, "en"), ("390", PHONE, "ru")])
def test_hints_show_each_actions_win_chance_and_the_best(
    browser: Browser, live_server: str, size: str, viewport: dict[str, int], lang: str
) -> None:
    # The lobby proposes hints with one human and not with two (the players agree on it there).
    page = new_page(browser, viewport)
    page.goto(live_server + "/")
    page.wait_for_selector("#seat-rows .seat-row")
    assert page.locator("#hints").is_checked()
    page.locator("#seat-rows .seat-row").nth(1).locator("label", has_text="Human").click()
    assert not page.locator("#hints").is_checked()
    page.context.close()

    made = create_game(live_server, [{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot"}])
    page = new_page(browser, viewport)
    page.goto(live_server + made["link"] + ("&lang=ru" if lang == "ru" else ""))  # the page reads ?lang=
    page.wait_for_selector(ACTIONS)
    assert page.evaluate("document.documentElement.lang") == lang
    legal = sorted(page.evaluate("window.__ra.legal"))
    page.keyboard.press("h")
    page.wait_for_selector("#hint-box")
    hint = page.evaluate("window.__ra.hint")
    assert sorted(a["action"] for a in hint["actions"]) == legal
    # Every legal action's button shows its chance; the best one is marked with it.
    for a in hint["actions"]:
        button = page.locator(f"main [data-act='{a['action']}']").first
        shown = math.floor(100 * a["chance"] + 0.5)  # the page rounds half up (Math.round), not to even
        assert button.locator(".chance").inner_text().endswith(f"{shown}%")
    best = page.locator("main .btn.best[data-act]")
    if hint["starred"] is None:  # an exact tie stars nothing (tests/web/test_browser_webfix.py)
        pytest.skip("this deal's first hint is an exact tie")
    assert best.count() == 1 and best.get_attribute("data-act") == hint["starred"] == hint["best"]
    assert "★" in best.locator(".chance").inner_text()
    box = page.locator("#hint-box").inner_text()
    assert ("Лучший ход" if lang == "ru" else "Best:") in box
    # The reason comes as a message (players by seat) and is shown in the page's language,
    # the player to move addressed as "you", the others by name.
    assert hint["reason"]["key"].startswith("hint.")
    head, _, given = box.partition("\n")
    why = head.split(" — ", 1)[1]
    # Under it, the chance given who is playing (issue 53), apart from the buttons' best play.
    chance = f"{math.floor(100 * hint['given'] + 0.5)}%"
    assert given.strip() == ra.words.words(lang)("table.hintGiven", chance=chance)
    names = page.evaluate("window.__ra.view.players.map((p) => p.name)")
    addressed = f'"seat": {hint["seat"]}}}' in json.dumps(hint["reason"])  # the mover is in it
    if lang == "ru":
        assert "шанс на победу" in why
        assert bool(re.search(r"\b(вы|вас|вам|ваша)\b", why)) == addressed, why
        shown = page.locator(".player-name, .pname").all_inner_texts()
        latin = set(re.findall(r"[A-Za-z]{3,}", why)) - {w for n in [*names, *shown] for w in n.split()}
        assert not latin, f"English words in a Russian reason: {latin} in {why!r}"
    else:
        assert "% to win" in why
        assert bool(re.search(r"\b(you|your)\b", why)) == addressed, why
    no_sideways_scroll(page)
    shot(page, f"table-hints-{size}-{lang}")
    # The next decision starts without hints until asked again.
    best.click()
    wait_js(page, f"window.__ra.n > {hint['n']}")
    assert page.locator("#hint-box").count() == 0
    no_js_errors(page)
    page.context.close()
