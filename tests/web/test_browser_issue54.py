"""Issue 54's site items as a person sees them, in Chromium, in English, Russian and German on a
laptop (1280×800) and a phone (390×844): a visitor sees the seated creator online, and the
smaller ones (the words, the header, the skip link, 404 pages, widths)."""

from __future__ import annotations

import pytest

from ra.words import words
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
        if path != "/account":  # the sign-in page's own script is the accounts' (account.js)
            assert not refused, (path, refused)
        if path in ("/", made["link"]):
            snap(page, f"issue54-header-{path.strip('/')[:2] or 'lobby'}-{lang}-{size}")
        no_js_errors(page)
        page.context.close()
