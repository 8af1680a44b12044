"""A finished game's final table fits a phone: at 390 px it was 417 px wide in Russian (373 px in
German; the "forfeited" badge, the headers and a long name did not wrap), so the page scrolled
sideways.  The record is ``tests/records/v1-forfeit.json`` with the longest names the site allows."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from ra.web.names import MAX_NAME
from tests.web.test_browser import BROWSER_TESTS, PHONE, Browser, new_page, no_js_errors, no_sideways_scroll

pytestmark = BROWSER_TESTS

RECORD = Path(__file__).parents[1] / "records" / "v1-forfeit.json"
LONG_NAMES = ["Wolfgang-Maximilian-", "Александра-Владимира", "Ann"]
"""Names of :data:`MAX_NAME` characters without a space (and the winner's short one)."""
WIDTHS_JS = """() => {
  const box = document.querySelector("#final-area .final");
  const table = box && box.querySelector(".final-table");
  return table ? [box.getBoundingClientRect().right, table.getBoundingClientRect().right, innerWidth] : null;
}"""
"""The right edges of the final box and of its table, and the window's width."""


@pytest.fixture(scope="module")
def finished_game(module_server: str) -> str:
    """A finished game with a forfeit (its row has the widest badge), imported once."""
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    assert all(len(n) <= MAX_NAME for n in LONG_NAMES) and len(LONG_NAMES[0]) == MAX_NAME
    record["players"] = LONG_NAMES
    r = httpx.post(module_server + "/api/records", json=record, timeout=10)
    assert r.status_code == 200, r.text
    return f"{module_server}/g/{r.json()['game']['id']}"


@pytest.mark.parametrize("locale", ["en-US", "de-DE", "ru-RU"])
def test_the_final_table_fits_a_phone(browser: Browser, finished_game: str, locale: str) -> None:
    page = new_page(browser, PHONE, locale)
    page.goto(finished_game)
    page.wait_for_selector("#final-area:not([hidden]) .final-table tbody tr")
    assert page.locator(".final-table tbody tr .badge").count() >= 1  # the forfeit is shown
    box, table, window = page.evaluate(WIDTHS_JS)
    assert table <= box <= window, f"the final table overflows: its right edge {table}, its box's {box}"
    no_sideways_scroll(page)
    page.locator("#final-area .final").screenshot(path=str(shots() / f"final-table-390-{locale[:2]}.png"))
    no_js_errors(page)
    page.context.close()


def shots() -> Path:
    """The folder of the screenshots (as :func:`tests.web.test_browser.shot`)."""
    folder = Path(__file__).parent / "screenshots"
    folder.mkdir(exist_ok=True)
    return folder
