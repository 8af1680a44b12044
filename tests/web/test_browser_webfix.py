"""The site's follow-ups of issues 52–54, in Chromium: a hint on a tie stars nothing (issue 53),
a signed-out account page asks nothing it cannot have (issue 54), a game aborted for rating
says who walked away (issue 52), the analysis chart names what moved each point (issue 53)."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest

import ra.words
from tests.web.test_analysis import wait_done
from tests.web.test_analysis_given import stored_game
from tests.web.test_browser import (
    ACTIONS,
    BROWSER_TESTS,
    LAPTOP,
    PHONE,
    Browser,
    create_game,
    new_page,
    no_js_errors,
    shot,
    wait_js,
)
from tests.web.test_rating_note import aborted_games

pytestmark = BROWSER_TESTS

TIE_WORDS = {"en": "Equally good:", "de": "Gleich gut:", "ru": "Одинаково хороши:"}


@pytest.fixture(scope="module")
def live_server(module_server: str) -> str:
    """One server for this module's tests: they make tables of their own."""
    return module_server


def _as_a_tie(text: str) -> str:
    """The server's hint reply made an exact tie of its top two actions, as
    :func:`ra.web.bot_work.hint_for` sends one (tests/web/test_hint_star.py checks that side)."""
    msg = json.loads(text)
    if msg.get("type") != "hint":
        return text
    msg["starred"] = None
    msg["tied"] = [a["action"] for a in msg["actions"][:2]]
    msg["reason"] = None
    return json.dumps(msg)


@pytest.mark.parametrize(("viewport", "lang"), [(LAPTOP, "en"), (PHONE, "de"), (LAPTOP, "ru")])
def test_a_hint_on_a_tie_stars_no_action_and_names_the_equals(
    browser: Browser, live_server: str, viewport: dict[str, int], lang: str
) -> None:
    made = create_game(live_server, [{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot"}])
    page = new_page(browser, viewport)

    def relay(ws: object) -> None:  # the real server, its hint reply turned into a tie
        server = ws.connect_to_server()  # type: ignore[attr-defined]
        ws.on_message(server.send)  # type: ignore[attr-defined]
        server.on_message(lambda m: ws.send(_as_a_tie(m)))  # type: ignore[attr-defined]

    page.route_web_socket(re.compile(r".*/ws.*"), relay)
    page.goto(live_server + made["link"] + f"&lang={lang}")
    page.wait_for_selector(ACTIONS)
    page.keyboard.press("h")
    page.wait_for_selector("#hint-box")
    hint = page.evaluate("window.__ra.hint")
    assert hint["starred"] is None and len(hint["tied"]) == 2
    # No button is starred or marked best; each still shows its chance.
    assert page.locator("main .btn.best[data-act]").count() == 0
    assert not any("★" in c for c in page.locator("main .chance").all_inner_texts())
    assert page.locator("main .chance").count() == len(hint["actions"])
    box = page.locator("#hint-box").inner_text()
    assert box.startswith(TIE_WORDS[lang]), box
    head, _, given = box.partition("\n")
    assert " — " not in head  # no reason for one of two equals
    assert given.strip().startswith(ra.words.words(lang)("table.hintGiven", chance="").split(":")[0])
    shot(page, f"table-hint-tie-{viewport['width']}-{lang}")
    no_js_errors(page)
    page.context.close()


LOCALES = [("en", "en-US", LAPTOP), ("de", "de-DE", PHONE), ("ru", "ru-RU", PHONE)]


@pytest.mark.parametrize(("lang", "locale", "viewport"), LOCALES)
def test_the_signed_out_account_page_asks_nothing_and_logs_no_error(
    browser: Browser, live_server: str, lang: str, locale: str, viewport: dict[str, int]
) -> None:
    """Issue 54: /account asked ``/api/account`` for a guest and logged a 401 in the console."""
    page = new_page(browser, viewport, locale)
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type in ("error", "warning") else None)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/account" in r.url else None)
    page.goto(live_server + "/account")
    page.wait_for_selector("#login, form.account-form")
    page.wait_for_timeout(300)  # any request of the page's own is made by now
    assert asked == [] and console == [], (asked, console)
    assert page.locator("h1").count() == 1
    no_js_errors(page)
    page.context.close()


def test_a_signed_in_account_page_still_shows_the_account(browser: Browser, live_server: str) -> None:
    """The same page with a session cookie asks for the account and shows it."""
    page = new_page(browser)
    body = {"name": "Webfix Ann", "password": "sun-and-nile-8", "seats": []}
    r = page.request.post(live_server + "/api/account/signup", data=body)
    assert r.ok, r.text()
    page.goto(live_server + "/account")
    page.wait_for_selector("text=Webfix Ann")
    no_js_errors(page)
    page.context.close()


ABORTED = {
    "en": "Not rated: Bob left before making 5 decisions.",
    "de": "Nicht gewertet: Bob hat die Partie vor 5 eigenen Entscheidungen verlassen.",
    "ru": "Без рейтинга: игрок Bob покинул партию, сделав меньше 5 своих ходов.",
}


def test_a_game_aborted_for_rating_says_who_walked_away_at_its_end(
    browser: Browser, server: Any, sqlite_url: str
) -> None:
    """Issue 52's abort (a seat walked away before 5 decisions of its own) said nothing on the
    table page: now its end says so, in the reader's language, and a game played out does not."""
    made = aborted_games(sqlite_url)
    for lang, locale, viewport in LOCALES:
        page = new_page(browser, viewport, locale)
        page.goto(f"{server.url}/g/{made['walked']}")
        wait_js(page, "document.querySelector('#rated-note').textContent.includes('5')")
        assert page.locator("#rated-note").inner_text() == ABORTED[lang]
        shot(page, f"table-aborted-{viewport['width']}-{lang}")
        no_js_errors(page)
        page.context.close()
    page = new_page(browser)
    page.goto(f"{server.url}/g/{made['played']}")
    page.wait_for_selector("#rated-note:not([hidden])")
    page.wait_for_timeout(300)  # the verdict is asked and answered by now
    assert page.locator("#rated-note").inner_text().startswith("Rated:")
    no_js_errors(page)
    page.context.close()


POINT = {
    "en": ("After decision", "given who is playing", "the scoring"),
    "de": ("Nach Entscheidung", "so, wie diese Spieler spielen", "die Wertung"),
    "ru": ("После хода", "с учётом того, кто играет", "подсчёт очков"),
}


def test_the_analysis_chart_names_what_moved_each_point_on_hover_and_focus(
    browser: Browser, server: Any, sqlite_url: str
) -> None:
    """Issue 53: the chart's chances given who is playing say which tile, bid or scoring moved
    them; the page shows it for the point under the pointer, and for the replay's position when
    the chart has the focus (the arrow keys move it)."""
    gid, game = stored_game(sqlite_url)
    assert httpx.post(f"{server.url}/api/games/{gid}/analysis").status_code == 200
    wait_done(server.url, gid, timeout=120)
    for lang, locale, viewport in LOCALES:
        after, given, scoring = POINT[lang]
        page = new_page(browser, viewport, locale)
        page.goto(f"{server.url}/replay/{gid}?lang={lang}")
        chart = page.locator("#analysis-card svg.win-chart")
        chart.wait_for(timeout=60_000)
        assert page.locator("#analysis-card polyline.given").count() == 3
        plot = chart.locator("rect").first
        plot.scroll_into_view_if_needed()
        box = plot.bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 3)  # a pointer over the plot's middle
        tip = page.locator("#chart-point")
        text = tip.inner_text()
        assert text.startswith(after) and given in text, text
        assert len(re.findall(r"\d+%", text)) == 3, text  # every player's chance
        shot(page, f"replay-chart-point-{viewport['width']}-{lang}")
        chart.focus()
        page.keyboard.press("End")  # the replay goes to the end; the point names the scoring
        wait_js(page, f"window.__replay.n === {game.num_decisions} && !window.__replay.busy")
        text = tip.inner_text()
        assert text.startswith(f"{after} {game.num_decisions} ({scoring})"), text
        page.keyboard.press("Home")
        wait_js(page, "window.__replay.n === 0 && !window.__replay.busy")
        assert ":" in tip.inner_text() and not tip.inner_text().startswith(after)  # the start
        no_js_errors(page)
        page.context.close()


def test_a_late_answer_for_an_earlier_step_does_not_move_the_replay_back(
    browser: Browser, live_server: str
) -> None:
    """End pressed while a step's answer is still on its way: the later answer used to win and
    the replay fell back to that step, without its final table (seen under load in CI)."""
    from tests.web.test_analysis import imported

    game_id = imported(live_server)
    page = new_page(browser)
    page.goto(f"{live_server}/replay/{game_id}")
    page.wait_for_selector("#rp-pos:has-text('Decision 0 of')")

    def slow(route: Any) -> None:
        page.wait_for_timeout(1500)  # the step's answer comes after End's
        route.continue_()

    page.route(re.compile(r".*/replay\?n=1&.*"), slow)
    page.click("#rp-step")  # asks for decision 1 (held back)
    page.keyboard.press("End")  # asks for the last decision, answered at once
    page.wait_for_selector("#final-area:not([hidden]) .final-headline")
    page.wait_for_timeout(2500)  # decision 1's answer has come by now
    assert not page.locator("#final-area").is_hidden()
    n, total = map(int, re.findall(r"\d+", page.locator("#rp-pos").inner_text()))
    assert n == total > 0
