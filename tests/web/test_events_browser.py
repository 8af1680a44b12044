"""The event page (issue 55) as a person sees it in Chromium, in English, Russian and German on a
laptop and a phone: a guest reads the event and is asked to sign in; a signed-in player joins
with the page's button and finds themselves in the standings."""

from __future__ import annotations

import httpx
import pytest

from ra.words import words
from tests.web.test_accessibility import audit
from tests.web.test_accounts import sign_up
from tests.web.test_browser import BROWSER_TESTS, PHONE, Browser, new_page, no_js_errors

pytestmark = BROWSER_TESTS

LAPTOP = {"width": 1280, "height": 800}
LANGS = [("en", "en-US"), ("ru", "ru-RU"), ("de", "de-DE")]


@pytest.fixture(scope="module")
def live_server(module_server: str) -> str:
    return module_server


@pytest.fixture(scope="module")
def organiser(module_server: str) -> httpx.Client:
    return sign_up(module_server, "Nefer")


@pytest.mark.parametrize(("lang", "locale"), LANGS)
@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_guest_reads_an_event_in_their_language(
    browser: Browser, live_server: str, organiser: httpx.Client, lang: str, locale: str, size: dict[str, int]
) -> None:
    r = organiser.post("/api/events", json={"name": f"Cup {lang}", "table_size": 3})
    assert r.status_code == 200, r.text
    eid = r.json()["event"]["id"]
    assert organiser.post(f"/api/events/{eid}/join", json={}).status_code == 200
    page = new_page(browser, size, locale)
    page.goto(f"{live_server}/e/{eid}")
    page.wait_for_selector("#event h1")
    said = words(lang)
    text = page.locator("#event").inner_text()
    assert f"Cup {lang}" in text and said("event.kind.swiss") in text
    assert said("event.status.open") in text and said("event.signIn") in text
    assert "Nefer" in page.locator("#event table").inner_text()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size["width"]  # nothing wider than the screen
    found: list[str] = []
    audit(page, "an event's page", found)
    assert found == []  # axe-core finds nothing
    no_js_errors(page)
    page.context.close()
    organiser.post(f"/api/events/{eid}/cancel")


def test_a_signed_in_player_joins_with_the_button(
    browser: Browser, live_server: str, organiser: httpx.Client
) -> None:
    eid = organiser.post("/api/events", json={"name": "Join Cup"}).json()["event"]["id"]
    bek = sign_up(live_server, "Bek")
    page = new_page(browser, PHONE, "en-US")
    session = next(c for c in bek.cookies.jar if c.name == "ra_session")
    page.context.add_cookies([{"name": "ra_session", "value": str(session.value), "url": live_server}])
    page.goto(f"{live_server}/e/{eid}")
    page.get_by_role("button", name="Join").click()
    page.get_by_role("button", name="Withdraw").wait_for()
    assert "Bek" in page.locator("#event table").inner_text()
    assert [p["name"] for p in httpx.get(f"{live_server}/api/events/{eid}").json()["players"]] == ["Bek"]
    no_js_errors(page)
    page.context.close()
    organiser.post(f"/api/events/{eid}/cancel")


@pytest.mark.parametrize(("lang", "locale"), [("en", "en-US"), ("de", "de-DE")])
def test_the_lobby_lists_an_open_event_with_a_link_to_its_page(
    browser: Browser, live_server: str, organiser: httpx.Client, lang: str, locale: str
) -> None:
    eid = organiser.post("/api/events", json={"name": f"Lobby Cup {lang}"}).json()["event"]["id"]
    page = new_page(browser, PHONE, locale)
    page.goto(live_server + "/")
    link = page.locator(f'#list-events a[href="/e/{eid}"]')
    link.wait_for()
    said = words(lang)
    assert said("lobby.events") in page.locator("#events-card h2").inner_text()
    assert said("event.status.open") in page.locator("#list-events").inner_text()
    found: list[str] = []
    audit(page, "the lobby listing an event", found)
    assert found == []
    link.click()
    page.wait_for_selector("#event h1")
    assert page.locator("#event h1").inner_text() == f"Lobby Cup {lang}"
    no_js_errors(page)
    page.context.close()
    organiser.post(f"/api/events/{eid}/cancel")
