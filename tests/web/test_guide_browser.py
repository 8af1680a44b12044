"""The strategy guide in the browser (issue 24): reached from the lobby and the rules page, both
languages, every section shown, no sideways scroll on a phone, no JS errors."""

from __future__ import annotations

import re

import httpx
import pytest

from tests.web.test_browser import (
    BROWSER_TESTS,
    LAPTOP,
    PHONE,
    SHOTS,
    Browser,
    new_page,
    no_js_errors,
    no_sideways_scroll,
    shot,
    wait_js,
)


@pytest.fixture(scope="module")
def live_server(module_server: str) -> str:
    """One server for this module's tests: they read pages or make tables of their own."""
    return module_server


pytestmark = BROWSER_TESTS
READY = "document.documentElement.dataset.ready === 'true'"


def test_api_guide_sends_the_same_anchors_in_both_languages(live_server: str) -> None:
    en = httpx.get(live_server + "/api/guide", params={"lang": "en"}).json()
    ru = httpx.get(live_server + "/api/guide", params={"lang": "ru"}).json()
    assert [s["anchor"] for s in en["sections"]] == [s["anchor"] for s in ru["sections"]]
    assert len(en["sections"]) == 11
    assert ru["title"] == "Ра — руководство по стратегии"
    assert "<!--" not in "".join(s["html"] for s in en["sections"])


def test_guide_page_from_lobby_and_language_switch(browser: Browser, live_server: str) -> None:
    page = new_page(browser, LAPTOP)
    page.goto(live_server + "/")
    page.locator("#guide-link").click()
    page.wait_for_url(re.compile(r"/guide$"))
    wait_js(page, READY)
    assert page.locator("section.guide-section").count() == 11
    assert page.locator("figure.guide-position svg").count() >= 11  # drawn with the table's art
    assert page.locator("table.guide-numbers").count() == 11
    captions = page.locator(".guide-caption").all_inner_texts()
    assert len(captions) == 11 and all(c and "guide.caption" not in c for c in captions)
    assert page.locator("#s2 > h2").inner_text() == "When to invoke Ra"
    shot(page, "guide-laptop-en")
    page.locator('.lang-btn[data-lang="ru"]').click()
    wait_js(page, "document.querySelector('#s2 > h2')?.textContent === 'Когда воззвать к Ра'")
    shot(page, "guide-laptop-ru")
    page.locator("#s1").screenshot(path=str(SHOTS / "guide-laptop-ru-section.png"))
    no_js_errors(page)


def test_guide_page_on_a_phone_in_russian(browser: Browser, live_server: str) -> None:
    page = new_page(browser, PHONE, locale="ru-RU")
    page.goto(live_server + "/rules")
    wait_js(page, "document.documentElement.dataset.ready === 'true'")
    page.locator("#guide-link").click()
    page.wait_for_url(re.compile(r"/guide$"))
    wait_js(page, READY)
    assert page.locator("#s11 > h2").inner_text() == "Игра вдвоём"
    no_sideways_scroll(page)
    shot(page, "guide-phone-ru")
    page.locator("#s1 figure.guide-position").screenshot(path=str(SHOTS / "guide-phone-ru-position.png"))
    no_js_errors(page)
