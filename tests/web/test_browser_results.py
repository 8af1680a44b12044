"""A forfeit's last line names the winner, not the forfeiter (issue 54), in the browser: the replay
of a game whose forfeited seat scored most shows the table's result in its last line, its log and
its headline, in English, Russian and German, laptop and phone (the record is
``tests/records/v1-forfeit.json``: Миша scored 35 and forfeited, Ann won with 5)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from tests.web.test_browser import (
    BROWSER_TESTS,
    LAPTOP,
    PHONE,
    Browser,
    new_page,
    no_js_errors,
    shot,
    wait_js,
)

OLD = Path(__file__).parents[1] / "records" / "v1-forfeit.json"
SAYS = {
    "en": ("Game over: Ann wins.", "Ann wins: Миша forfeited.", "Миша wins"),
    "de": ("Ann gewinnt", "Ann gewinnt – Verlust auf Zeit: Миша.", "Миша gewinnt"),
    "ru": ("Ann", "Побеждает Ann — поражение по времени: Миша.", "Побеждает Миша"),
}


@pytest.fixture(scope="module")
def forfeited_game(module_server: str) -> str:
    """The old record imported once (the site takes a few imports a minute from one address)."""
    record = json.loads(OLD.read_text(encoding="utf-8"))
    r = httpx.post(module_server + "/api/records", json=record, timeout=10)
    assert r.status_code == 200, r.text
    return f"{module_server}/replay/{r.json()['game']['id']}"


@BROWSER_TESTS[0]
@BROWSER_TESTS[1]
@pytest.mark.parametrize("size", ["laptop", "phone"])
@pytest.mark.parametrize("lang", ["en", "de", "ru"])
def test_the_replay_of_a_forfeited_game_names_the_winner_everywhere(
    browser: Browser, forfeited_game: str, lang: str, size: str
) -> None:
    locale = {"en": "en-US", "de": "de-DE", "ru": "ru-RU"}[lang]
    page = new_page(browser, LAPTOP if size == "laptop" else PHONE, locale)
    page.goto(forfeited_game)
    wait_js(page, "!!window.__replay && window.__replay.total > 0 && !window.__replay.busy")
    page.click("#rp-last")
    page.wait_for_selector("#final-area:not([hidden]) .final-headline")
    last, headline, never = SAYS[lang]
    assert last in page.inner_text("#last-event")
    log_end = page.locator("#log li").last.inner_text()
    assert last in log_end and never not in log_end
    assert page.inner_text(".final-headline") == headline
    assert page.locator(".final-table tbody tr").last.inner_text().startswith("3")  # Миша last
    assert page.inner_text("#rp-id").endswith(RATED[lang][2])  # an imported record: casual
    shot(page, f"forfeit-replay-{lang}-{size}")
    no_js_errors(page)
    page.context.close()


RATED = {
    "en": ("Rated", "Rated: this game counts", "Casual"),
    "de": ("Gewertet", "Gewertet: Diese Partie zählt", "Ungewertet"),
    "ru": ("Рейтинговая", "Рейтинговая: партия идёт в рейтинг", "Без рейтинга"),
}


@BROWSER_TESTS[0]
@BROWSER_TESTS[1]
@pytest.mark.parametrize(("lang", "size"), [("en", "laptop"), ("de", "phone"), ("ru", "laptop")])
def test_the_lobby_makes_a_rated_table_without_hints_and_the_table_says_so(
    browser: Browser, module_server: str, lang: str, size: str
) -> None:
    """Issue 52: a table says rated or casual before it starts; a rated one offers no hints."""
    locale = {"en": "en-US", "de": "de-DE", "ru": "ru-RU"}[lang]
    page = new_page(browser, LAPTOP if size == "laptop" else PHONE, locale)
    page.goto(module_server + "/")
    page.wait_for_selector("#seat-rows .seat-row")
    assert page.locator("#hints").is_checked() and not page.locator("#rated").is_checked()  # against bots
    page.locator("#rated").check()
    assert not page.locator("#hints").is_checked()  # a rated table has no hints
    page.fill("#name", "Ann")
    page.select_option("#pace", "0")
    shot(page, f"lobby-rated-{lang}-{size}")
    page.click("#create-btn")
    page.wait_for_selector("#rated-note:not([hidden])")
    word, note, _ = RATED[lang]
    assert page.inner_text("#rated-note").startswith(note)
    assert page.evaluate("window.__ra.game.options.casual") is False
    assert page.evaluate("window.__ra.game.options.hints") is False
    page.goto(module_server + "/")
    page.wait_for_selector("#seat-rows .seat-row")
    assert word in page.inner_text("main")  # the lobby lists the table as rated
    no_js_errors(page)
    page.context.close()
