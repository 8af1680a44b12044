"""The event page (issue 55) as a person sees it in Chromium, in English, Russian and German on a
laptop and a phone: a guest reads the event and is asked to sign in; a signed-in player joins
with the page's button and finds themselves in the standings; an organiser creates an event
from the lobby's link (a refused field is said next to it), removes a player, starts it, and
once its game is played sees the crosstable and its downloads."""

from __future__ import annotations

import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import httpx
import pytest

from ra.web.events import MAX_LIVE_EVENTS
from ra.web.testing import Server
from ra.words import words
from tests.web.test_accessibility import audit
from tests.web.test_accounts import sign_up
from tests.web.test_browser import BROWSER_TESTS, PHONE, Browser, Page, new_page, no_js_errors
from tests.web.test_browser_words import INTL_ENGLISH, context, latin_words, words_on
from tests.web.test_events import play_round

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


def test_an_open_event_page_shows_a_join_made_elsewhere_within_two_seconds(
    browser: Browser, live_server: str, organiser: httpx.Client
) -> None:
    """The page stays live over its socket (no reload, and well inside its 30 s fallback poll)."""
    eid = organiser.post("/api/events", json={"name": "Live Cup"}).json()["event"]["id"]
    page = new_page(browser, LAPTOP, "en-US")
    page.goto(f"{live_server}/e/{eid}")
    page.wait_for_selector("#event h1")  # drawn from its first read, before the join
    assert page.locator("#event table").count() == 0  # no players yet: no standings table
    assert organiser.post(f"/api/events/{eid}/join", json={}).status_code == 200
    page.locator("#event table").get_by_text("Nefer").wait_for(timeout=2000)
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
    assert page.locator("#new-event").inner_text() == said("lobby.newEvent")  # a guest too: its page says why
    found: list[str] = []
    audit(page, "the lobby listing an event", found)
    assert found == []
    link.click()
    page.wait_for_selector("#event h1")
    assert page.locator("#event h1").inner_text() == f"Lobby Cup {lang}"
    no_js_errors(page)
    page.context.close()
    organiser.post(f"/api/events/{eid}/cancel")


SHOTS = os.environ.get("RA_EVENT_SHOTS")
"""A folder to save the event page's pictures in (docs/images), when set."""


@pytest.fixture(scope="module")
def trio(module_server: str) -> tuple[httpx.Client, httpx.Client, httpx.Client]:
    """An organiser and two players (a few sign-ups: one address may make only a few a minute)."""
    return sign_up(module_server, "Org"), sign_up(module_server, "Mer"), sign_up(module_server, "Pest")


def signed_in_page(
    browser: Browser, base: str, client: httpx.Client, size: dict[str, int], locale: str
) -> Page:
    page = new_page(browser, size, locale)
    session = next(c for c in client.cookies.jar if c.name == "ra_session")
    page.context.add_cookies([{"name": "ra_session", "value": str(session.value), "url": base}])
    return page


def create_from_the_lobby(page: Page, base: str, lang: str) -> str:
    """The organiser's way: the lobby's link, the form (a refused number first), the event's id."""
    said = words(lang)
    page.goto(base + "/")
    page.locator("#new-event").click()
    page.wait_for_selector("#event-form")
    page.fill("#ev-name", f"Sun Cup {lang}")
    page.select_option("#ev-table_size", "2")
    page.fill("#ev-rounds", "0")  # the server refuses it: said next to the field, in the page's language
    page.get_by_role("button", name=said("eventNew.create")).click()
    page.locator("#rounds-error").wait_for()
    assert page.locator("#rounds-error").inner_text() == said("eventNew.bad.range", min=1, max=100)
    assert page.locator("#ev-rounds").get_attribute("aria-invalid") == "true"
    assert page.url.endswith("/events/new") and page.input_value("#ev-name") == f"Sun Cup {lang}"
    found: list[str] = []
    audit(page, "the create form with a refused field", found)
    assert found == []
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"event-form-{lang}.png"), full_page=True)
    page.fill("#ev-rounds", "1")
    page.get_by_role("button", name=said("eventNew.create")).click()
    page.wait_for_url("**/e/**")
    page.wait_for_selector("#event h1")
    return str(page.url).split("/e/")[1].split("#")[0]


@pytest.mark.parametrize(
    ("size", "lang", "locale"), [(LAPTOP, "en", "en-US"), (PHONE, "ru", "ru-RU")], ids=["laptop", "phone"]
)
def test_an_organiser_creates_an_event_from_the_lobby_and_sees_its_crosstable(
    browser: Browser,
    live_server: str,
    trio: tuple[httpx.Client, httpx.Client, httpx.Client],
    size: dict[str, int],
    lang: str,
    locale: str,
) -> None:
    said = words(lang)
    org, mer, pest = trio
    page = signed_in_page(browser, live_server, org, size, locale)
    eid = create_from_the_lobby(page, live_server, lang)
    page.get_by_role("button", name=said("event.join")).click()
    page.get_by_role("button", name=said("event.withdraw")).wait_for()
    for c in (mer, pest):
        assert c.post(f"/api/events/{eid}/join", json={}).status_code == 200
    page.reload()
    row = page.locator("#event tbody tr", has_text="Pest")
    page.once("dialog", lambda d: d.accept())  # "Remove … from this event?"
    row.get_by_role("button", name=said("event.remove")).click()
    row.get_by_text(said("event.removed")).wait_for()
    page.get_by_role("button", name=said("event.start")).click()
    page.get_by_text(said("event.status.running")).first.wait_for()

    event = httpx.get(f"{live_server}/api/events/{eid}").json()
    clients = {p["account"]: c for p, c in zip(event["players"], (org, mer, pest), strict=True)}
    port = live_server.rsplit(":", 1)[1]
    ws = cast(Server, SimpleNamespace(ws=f"ws://127.0.0.1:{port}"))
    with ThreadPoolExecutor(1) as other_thread:  # Playwright's own event loop runs in this one
        other_thread.submit(play_round, ws, event, clients, 1).result(timeout=60)
    page.locator("#crosstable").wait_for(timeout=30_000)  # pushed over the page's socket
    crosstable = page.locator("#crosstable").inner_text()
    assert said("event.crosstable") in crosstable and "Org" in crosstable
    assert page.locator("#crosstable tbody a[href^='/g/']").count() == 2  # both seats' cells link the game
    csv = page.locator("#crosstable a[href$='crosstable.csv']").get_attribute("href")
    assert httpx.get(live_server + str(csv)).text.startswith("rank,player,points,round 1")

    page.get_by_role("button", name="Mer").click()
    games = page.locator("#player-games")
    assert said("event.gamesOf", name="Mer") in games.inner_text()
    assert games.locator("a[href^='/g/']").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    found: list[str] = []
    audit(page, "a finished event's page", found)
    assert found == []
    if SHOTS:
        page.screenshot(
            path=str(Path(SHOTS) / f"event-{'laptop' if size is LAPTOP else 'phone'}.png"), full_page=True
        )
    no_js_errors(page)
    page.context.close()


@pytest.mark.parametrize(("lang", "locale"), [("en", "en-US"), ("de", "de-DE")])
def test_a_guest_is_told_why_they_cannot_create_an_event(
    browser: Browser, live_server: str, lang: str, locale: str
) -> None:
    page = new_page(browser, PHONE, locale)
    page.goto(f"{live_server}/events/new")
    page.wait_for_selector("#event-new a[href='/account']")
    said = words(lang)
    assert said("eventNew.signIn") in page.locator("#event-new").inner_text()
    assert page.locator("#event-form").count() == 0
    found: list[str] = []
    audit(page, "the create page for a guest", found)
    assert found == []
    no_js_errors(page)
    page.context.close()


def test_an_event_by_invitation_shows_its_link_to_copy_and_the_link_lets_a_player_join(
    browser: Browser, live_server: str, trio: tuple[httpx.Client, httpx.Client, httpx.Client]
) -> None:
    org, mer, _ = trio
    page = signed_in_page(browser, live_server, org, LAPTOP, "de-DE")
    said = words("de")
    page.goto(f"{live_server}/events/new")
    page.fill("#ev-name", "Secret Cup")
    page.get_by_label(said("eventNew.invitation")).check()
    page.get_by_role("button", name=said("eventNew.create")).click()
    page.locator("#invite-link").wait_for()
    link = page.input_value("#invite-link")
    eid = link.split("/e/")[1].split("#")[0]
    assert (
        "#invite=" in link
        and "invite" not in page.url.split("#")[0]
        and httpx.get(f"{live_server}/api/events/{eid}").json()["by_invitation"]
    )
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    page.get_by_role("button", name=said("event.copy")).click()
    page.get_by_text(said("event.copied")).wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == link
    found: list[str] = []
    audit(page, "an organiser's page of an event by invitation", found)
    assert found == []
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / "event-invitation.png"))

    guest_view = signed_in_page(browser, live_server, mer, PHONE, "de-DE")
    guest_view.goto(f"{live_server}/e/{eid}")  # without the link: refused, said in German
    guest_view.get_by_role("button", name=said("event.join")).click()
    guest_view.get_by_text(said("err.invitation")).wait_for()
    guest_view.goto(link)
    guest_view.get_by_role("button", name=said("event.join")).click()
    guest_view.get_by_role("button", name=said("event.withdraw")).wait_for()
    assert guest_view.locator("#invite-link").count() == 0  # the link box is the organiser's
    guest_view.context.close()

    page.once("dialog", lambda d: d.accept())  # "Cancel this event for everyone?"
    page.get_by_role("button", name=said("event.cancel")).click()
    page.get_by_text(said("event.status.cancelled")).wait_for()
    assert httpx.get(f"{live_server}/api/events/{eid}").json()["status"] == "cancelled"
    no_js_errors(page)
    page.context.close()


def test_the_form_offers_an_arena_bots_and_byes_as_the_servers_validation_takes_them(
    browser: Browser, live_server: str, trio: tuple[httpx.Client, httpx.Client, httpx.Client]
) -> None:
    """The form is built from ``GET /api/events/form``: the server's create accepts an arena (with
    ``minutes``), ``bots`` and ``byes``, so the form offers and sends them; the create request is
    caught, not sent, and answered with a refusal of the minutes, named next to its field."""
    fields = httpx.get(f"{live_server}/api/events/form").json()["properties"]
    assert "arena" in fields["kind"]["enum"] and "bots" in fields and "byes" in fields
    page = signed_in_page(browser, live_server, trio[0], PHONE, "en-US")
    sent: list[dict[str, object]] = []

    def caught(route: Any) -> None:  # playwright's Route
        sent.append(route.request.post_data_json)
        route.fulfill(status=422, json={"error": "bad_request", "message": "minutes: too long"})

    page.route("**/api/events", caught)
    page.goto(f"{live_server}/events/new")
    page.wait_for_selector("#event-form")
    assert page.locator("#ev-minutes").count() == 0 and page.locator("#ev-rounds").count() == 1
    page.select_option("#ev-kind", "arena")
    page.locator("#ev-minutes").wait_for()
    assert page.locator("#ev-rounds").count() == 0
    page.fill("#ev-name", "Arena Cup")
    page.fill("#ev-minutes", "700")
    page.get_by_label(words("en")("eventNew.bots")).check()
    page.get_by_label(words("en")("eventNew.byes")).check()
    page.get_by_role("button", name=words("en")("eventNew.create")).click()
    page.locator("#minutes-error").wait_for()
    low, high = fields["minutes"]["minimum"], fields["minutes"]["maximum"]
    assert page.locator("#minutes-error").inner_text() == words("en")("eventNew.bad.range", min=low, max=high)
    (body,) = sent
    assert body["kind"] == "arena" and body["minutes"] == 700 and "rounds" not in body
    assert body["bots"] is True and body["byes"] is True
    no_js_errors(page)
    page.context.close()


def test_a_refusal_that_names_no_field_is_said_above_the_form(
    browser: Browser, live_server: str, trio: tuple[httpx.Client, httpx.Client, httpx.Client]
) -> None:
    mer = trio[1]
    ids = [
        mer.post("/api/events", json={"name": f"Mer Cup {i}"}).json()["event"]["id"]
        for i in range(MAX_LIVE_EVENTS)
    ]
    page = signed_in_page(browser, live_server, mer, LAPTOP, "ru-RU")
    said = words("ru")
    page.goto(f"{live_server}/events/new")
    page.fill("#ev-name", "One too many")
    page.get_by_role("button", name=said("eventNew.create")).click()
    alert = page.get_by_role("alert")
    alert.wait_for()
    assert alert.inner_text() == said("err.event_limit") and page.url.endswith("/events/new")
    assert page.locator("[aria-invalid]").count() == 0
    no_js_errors(page)
    page.context.close()
    for eid in ids:
        mer.post(f"/api/events/{eid}/cancel")


def test_every_word_of_the_event_pages_comes_from_the_catalogue(
    browser: Browser, live_server: str, trio: tuple[httpx.Client, httpx.Client, httpx.Client]
) -> None:
    """In the pseudo-locale (every catalogued letter accented) the create form with a refused
    field and a finished event's page (crosstable, a player's games) show no plain English word:
    one would be a string that bypassed the catalogue (the players' names and ids aside)."""
    org, mer, _ = trio
    eid = org.post("/api/events", json={"name": "Ra 2", "table_size": 2, "rounds": 1}).json()["event"]["id"]
    for c in (org, mer):
        assert c.post(f"/api/events/{eid}/join", json={}).status_code == 200
    event = org.post(f"/api/events/{eid}/start").json()
    clients = {p["account"]: c for p, c in zip(event["players"], (org, mer), strict=True)}
    ws = cast(Server, SimpleNamespace(ws=live_server.replace("http://", "ws://")))
    with ThreadPoolExecutor(1) as other_thread:
        other_thread.submit(play_round, ws, event, clients, 1).result(timeout=60)
    page = signed_in_page(browser, live_server, org, LAPTOP, "en-US")
    page.goto(f"{live_server}/e/{eid}?lang=en-XA")
    page.locator("#crosstable").wait_for(timeout=30_000)
    page.get_by_role("button", name="Mer").click()
    page.locator("#player-games").wait_for()
    seen = [words_on(page, eid)]
    page.goto(f"{live_server}/events/new?lang=en-XA")
    page.fill("#ev-rounds", "0")
    page.locator("#event-form button[type=submit]").click()
    page.locator("#rounds-error").wait_for()
    seen.append(words_on(page))
    for text in seen:
        left = latin_words(re.sub("Org|Mer|Pest", " ", text)) - INTL_ENGLISH  # the players' names
        assert not left, {w: context(text, w) for w in left}
    no_js_errors(page)
    page.context.close()
