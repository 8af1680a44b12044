"""Issue 54's site items as a person sees them, in Chromium, in English, Russian and German on a
laptop (1280×800) and a phone (390×844): a visitor sees the seated creator online, and the
smaller ones (the words, the header, the skip link, 404 pages, widths)."""

from __future__ import annotations

import re
import sqlite3
from typing import Any

import httpx
import pytest

from ra.words import words
from tests.web.test_accounts import sign_up
from tests.web.test_browser import (
    BROWSER_TESTS,
    PHONE,
    SHOTS,
    Browser,
    Page,
    create_game,
    new_page,
    no_js_errors,
)

pytestmark = BROWSER_TESTS

LAPTOP = {"width": 1280, "height": 800}
LANGS = [("en", "en-US"), ("ru", "ru-RU"), ("de", "de-DE")]
SIZES = {"laptop": LAPTOP, "phone": PHONE}
EVERY = [(lang, locale, size) for lang, locale in LANGS for size in SIZES]


@pytest.fixture(scope="module")
def live_server(module_server: str) -> str:
    """One server for this module's tests: they read pages or make tables of their own."""
    return module_server


def snap(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_a_visitor_sees_the_waiting_creator_online(
    browser: Browser, live_server: str, lang: str, locale: str
) -> None:
    """Issue 54: "Seat 1: Lotte ○ offline" to a visitor while Lotte's page was open."""
    made = create_game(live_server, [{"kind": "human"}, {"kind": "human"}], name="Lotte")
    lotte = new_page(browser, LAPTOP, locale)
    lotte.goto(live_server + made["link"])
    lotte.wait_for_selector("#waiting .conn.on")
    visitor = new_page(browser, PHONE, locale)
    visitor.goto(f"{live_server}/g/{made['game']['id']}")
    visitor.wait_for_selector("#waiting li")
    first = visitor.locator("#waiting li").first
    assert f"● {words(lang)('table.online')}" in first.inner_text()
    assert visitor.locator("#waiting .conn.off").count() == 0
    snap(visitor, f"issue54-visitor-online-{lang}")
    for page in (lotte, visitor):
        no_js_errors(page)
        page.context.close()


@pytest.mark.parametrize(("lang", "locale", "size"), EVERY)
def test_an_unknown_replay_table_or_player_is_a_404_page_in_the_readers_language(
    browser: Browser, live_server: str, lang: str, locale: str, size: str
) -> None:
    """Issue 54: no replay controls, no Analyse button: the page says what is missing, in the
    reader's language, and leads to the lobby."""
    w = words(lang)
    page = new_page(browser, SIZES[size], locale)
    for path, title in (
        ("/replay/nosuchgame", "nf.noGame"),
        ("/g/nosuchgame", "nf.noGame"),
        ("/u/Nobody", "nf.noPlayer"),
    ):
        response = page.goto(live_server + path)
        assert response is not None and response.status == 404, path
        page.wait_for_selector("#notfound h1")
        assert page.locator("h1").inner_text() == w(title), path
        assert page.locator('#rp-step, #rp-range, button:has-text("Analy")').count() == 0, path
        assert page.locator("#notfound a[href='/']").inner_text() == w("nf.lobby")
    snap(page, f"issue54-404-{lang}-{size}")
    no_js_errors(page)
    page.context.close()


PAGES = ["/", "/players", "/rules", "/learn", "/guide", "/puzzles", "/account", "/no/such/page"]
"""The site's pages a guest opens without a table of their own (the table is added per test)."""


@pytest.mark.parametrize(("lang", "locale", "size"), EVERY)
def test_every_page_has_one_header_a_skip_link_and_asks_a_guest_nothing_of_an_account(
    browser: Browser, live_server: str, lang: str, locale: str, size: str
) -> None:
    """Issue 54: the header's links differed from page to page, no skip link (39 Tabs to "play
    against bots"), and every signed-out page logged a 401 asking for the account."""
    w = words(lang)
    made = create_game(live_server, [{"kind": "human"}, {"kind": "bot", "level": "easy"}], name="Lotte")
    expected = [w("nav.lobby"), w("nav.leaders"), w("nav.rules"), w("nav.account")]
    for path in [*PAGES, made["link"]]:
        page = new_page(browser, SIZES[size], locale)
        refused: list[str] = []
        page.on(
            "response",
            lambda r, bad=refused: bad.append(f"{r.status} {r.url}") if r.status in (401, 403) else None,
        )
        page.goto(live_server + path)
        page.wait_for_selector("header.topbar nav a", state="attached")
        links = page.locator("header.topbar nav > a").all_text_contents()
        assert [x.strip() for x in links] == expected, path
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"], path
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.className") == "skip-link", path
        assert page.evaluate("document.activeElement.textContent") == w("nav.skip")
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.tagName") == "MAIN", path
        page.wait_for_timeout(300)  # the page's own requests (a seat link's claim, puzzles) are made
        assert not refused, (path, refused)
        if path in ("/", made["link"]):
            snap(page, f"issue54-header-{path.strip('/')[:2] or 'lobby'}-{lang}-{size}")
        no_js_errors(page)
        page.context.close()


@pytest.mark.parametrize(("lang", "locale", "size"), EVERY)
def test_the_leaderboard_fits_a_phone_and_every_rating_speaks_the_readers_decimals(
    browser: Browser, server: Any, sqlite_url: str, lang: str, locale: str, size: str
) -> None:
    """Issue 54: the German leaderboard was 399 px wide on a 390 px phone, and the leaderboard and
    profile said "-1.9" where the lobby said "(-1,9)"."""
    for name in ("Maximilian Lüdensche", "Lotte"):
        sign_up(server.url, name).close()
    with sqlite3.connect(sqlite_url.removeprefix("sqlite:///")) as db:
        db.execute("UPDATE accounts SET rating_mu = 18.8, rating_sigma = 6.9, rated_games = 123")
    decimal = "," if lang in ("de", "ru") else "."
    page = new_page(browser, SIZES[size], locale)
    page.goto(server.url + "/players")
    page.wait_for_selector("table.results tbody tr")
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    cells = page.locator("table.results tbody tr").first.locator("td").all_inner_texts()
    assert cells[1].replace("\u2212", "-") == f"-1{decimal}9", cells  # 18.8 - 3 × 6.9, its sign
    snap(page, f"issue54-leaderboard-{lang}-{size}")
    page.goto(server.url + "/u/Lotte")
    page.wait_for_selector(".profile-rating")
    shown = page.locator(".profile-rating").inner_text()
    assert f"-1{decimal}9" in shown.replace("\u2212", "-") and f"18{decimal}8" in shown, shown
    no_js_errors(page)
    page.context.close()


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_a_phones_help_speaks_of_taps_and_lists_no_keys(
    browser: Browser, live_server: str, lang: str, locale: str
) -> None:
    """Issue 54: the phone's help was titled "Keys and help", listed no keys and said "Klicke"."""
    w = words(lang)
    made = create_game(live_server, [{"kind": "human"}, {"kind": "bot", "level": "easy"}], name="Lotte")
    page = new_page(browser, PHONE, locale, touch=True)
    page.goto(live_server + made["link"])
    page.wait_for_selector("#help-btn")
    page.locator("#help-btn").tap()
    page.wait_for_selector("#help-dlg[open]")
    text = page.locator("#help-dlg").inner_text()
    assert page.locator("#help-dlg h2").inner_text() == w("help.titleTouch")
    assert w("help.taps") in text and w("help.clicks") not in text and w("help.keys") not in text
    assert not re.search(r"\b(Klick|click|щёлкн)", text, re.IGNORECASE), text
    page.screenshot(path=str(SHOTS / f"issue54-phone-help-{lang}.png"))
    page.context.close()
    laptop = new_page(browser, LAPTOP, locale)  # a laptop's help keeps its keys
    laptop.goto(live_server + made["link"])
    laptop.keyboard.press("?")
    laptop.wait_for_selector("#help-dlg[open]")
    assert w("help.keys") in laptop.locator("#help-dlg").inner_text()
    laptop.context.close()


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_the_guided_game_names_you_once(browser: Browser, live_server: str, lang: str, locale: str) -> None:
    """Issue 54: the guided game showed "Du DU" (the name "You" and a "YOU" badge)."""
    page = new_page(browser, PHONE, locale)
    page.goto(live_server + "/learn")
    page.wait_for_selector("#players .player.me")
    me = page.locator("#players .player.me")
    assert me.locator(".badge.you").count() == 0, me.inner_text()
    no_js_errors(page)
    page.context.close()


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_the_rules_and_guide_pages_send_nobody_to_a_terminal(
    browser: Browser, live_server: str, lang: str, locale: str
) -> None:
    """Issue 54: the site's rules and guide pages told players to run `ra rules` in a terminal."""
    page = new_page(browser, LAPTOP, locale)
    page.goto(live_server + "/rules")
    page.wait_for_selector("#rules h1")
    assert "ra rules" not in page.locator("main").inner_text()
    page.goto(live_server + "/guide")
    page.wait_for_selector("#guide h1")
    assert "ra rules" not in page.locator("main").inner_text()
    assert page.locator("#guide a[href='/rules']").count() >= 1
    no_js_errors(page)
    page.context.close()


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_quick_play_plays_at_once_as_a_guest(
    browser: Browser, live_server: str, lang: str, locale: str
) -> None:
    """Issue 54: a guest had to type a name before quick play; now the table opens at once under a
    guest's name in the page's language, kept in the field for the next time."""
    guest = words(lang)("lobby.guestName", n=0).replace("0", "")
    page = new_page(browser, PHONE, locale)
    page.goto(live_server + "/")
    assert page.input_value("#name") == ""
    page.select_option("#quick-players", "2")
    page.select_option("#quick-level", "easy")
    page.click("#quick-btn")
    page.wait_for_url(re.compile(r"/g/"))
    gid = page.url.rsplit("/", 1)[-1]
    seats = httpx.get(f"{live_server}/api/games/{gid}", timeout=10).json()["seats"]
    assert re.fullmatch(re.escape(guest) + r"\d{4}", seats[0]["name"]), seats[0]["name"]
    page.goto(live_server + "/")
    assert page.input_value("#name") == seats[0]["name"]
    no_js_errors(page)
    page.context.close()


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_your_games_say_which_seat_not_which_place(
    browser: Browser, live_server: str, lang: str, locale: str
) -> None:
    """Issue 54: "Platz 1" / "место 2" in "your games" read as first or second place."""
    made = create_game(live_server, [{"kind": "human"}, {"kind": "human"}], name="Lotte")
    gid = made["game"]["id"]
    page = new_page(browser, PHONE, locale)
    page.goto(live_server + "/")
    page.evaluate(
        "([id, token]) => localStorage.setItem('ra.seats',"
        " JSON.stringify({[id]: {seat: 0, token, name: 'Lotte'}}))",
        [gid, made["token"]],
    )
    page.reload()
    item = page.locator(f"#list-yours .game-item:has-text('#{gid}')")
    item.wait_for()
    meta = item.locator(".gi-meta").inner_text()
    assert words(lang)("lobby.seatAs", n=1) in meta, meta
    assert {"de": "Sitzplatz 1", "ru": "место за столом: 1", "en": "seat 1"}[lang] in meta, meta
    no_js_errors(page)
    page.context.close()
