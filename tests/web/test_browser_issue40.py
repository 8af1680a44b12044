"""Issue 40's pages in Chromium against a real server, in English, Russian and German, on a laptop
and a phone: the account page lists each game with its opponents, whose turn it is, its state and
its table; the mailed link opened on another device, signed in, offers "Play on this device" and
then plays; the leaderboard says exactly which games are rated (the server's own rules) and the
lobby links to it; and a table page that hears nothing after its action, or on a bot's turn, asks
for the state again by itself (finding 7). Screenshots go to /tmp/shots40/."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import httpx

from ra.bots import LEVELS
from ra.web.ratings import level_rating
from ra.web.testing import Server
from ra.words import words
from tests.web.client import create, join
from tests.web.test_accessibility import audit
from tests.web.test_account_games import make_games
from tests.web.test_accounts import PASSWORD, sign_up
from tests.web.test_browser import (
    ACTIONS,
    BROWSER_TESTS,
    SHOTS,
    new_page,
    no_js_errors,
    no_sideways_scroll,
    shot,
    wait_js,
)

pytestmark = BROWSER_TESTS
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = {"laptop": LAPTOP, "phone": PHONE}
LANGS = [("en", "en-US"), ("ru", "ru-RU"), ("de", "de-DE")]
OUT = Path("/tmp/shots40")
Page = Any


def snap(page: Page, name: str) -> None:
    """A full-page screenshot in tests/web/screenshots/, copied to /tmp/shots40/ to look at."""
    shot(page, name)
    OUT.mkdir(parents=True, exist_ok=True)
    shutil.copy(SHOTS / f"{name}.png", OUT / f"{name}.png")


def signed_in(browser: Any, base: str, locale: str, name: str = "Ann") -> Page:
    """A fresh browser (its own context: no seat, no cookie) signed in on the account page's form."""
    page = new_page(browser, LAPTOP, locale)
    page.goto(base + "/account")
    page.fill("#login input[name=name]", name)
    page.fill("#login input[name=password]", PASSWORD)
    page.click("#login button[type=submit]")
    page.wait_for_selector("#logout")
    return page


def number(x: float, lang: str) -> str:
    """A rating as the page's Intl.NumberFormat writes it (one decimal)."""
    text = f"{x:.1f}"
    return text.replace(".", ",") if lang in ("ru", "de") else text


# --- 1. the account page: each game with its opponents, turn, state and table ------------------


def test_the_account_page_lists_each_game_with_its_opponents_turn_state_and_table(
    browser: Any, server: Server
) -> None:
    base = server.url
    made = make_games(base)
    ids = {k: made[k]["game"]["id"] for k in ("turn", "three", "waiting", "done")}
    winner = httpx.get(f"{base}/api/games/{ids['done']}", timeout=10).json()["winner"]
    found: list[str] = []  # axe's findings
    for lang, locale in LANGS:
        w = words(lang)
        page = signed_in(browser, base, locale)
        # This browser holds the seat of the game at her turn (its seat link); the others were
        # opened on another device.
        page.goto(f"{base}/g/{ids['turn']}?seat=0&token={made['turn']['token']}")
        page.wait_for_selector(ACTIONS)
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            page.goto(base + "/account")
            page.wait_for_selector("#games .game-item")
            items = page.locator("#games .game-item")
            order = [items.nth(i).get_attribute("data-game") for i in range(items.count())]
            assert order == [ids["turn"], ids["waiting"], ids["three"], ids["done"]]  # your turn first

            def item(key: str, page: Page = page) -> Any:
                return page.locator(f"#games .game-item[data-game='{ids[key]}']")

            turn = item("turn")
            assert w("account.against", names=w("bot.easy")) in turn.locator(".gi-title").inner_text()
            assert turn.locator(".status-pill.turn").inner_text() == w("account.yourTurn")
            assert "your-turn" in (turn.get_attribute("class") or "")
            link = turn.locator(f".gi-acts a[href='/g/{ids['turn']}']")
            assert link.inner_text() == w("account.open") and turn.locator("[data-here]").count() == 0

            three = item("three")
            title = three.locator(".gi-title").inner_text()
            assert "Bob" in title and w("bot.medium") in title
            assert three.locator(".status-pill.turn").count() == 0
            assert three.locator(".status-pill.running").inner_text() == w("lobby.status.running")
            meta = three.locator(".gi-meta").inner_text()
            assert w("account.theirTurn", name="Bob") in meta and w("table.epoch", n=1) in meta
            assert three.locator("[data-here]").inner_text() == w("account.playHere")
            assert three.locator(f".gi-acts a[href='/g/{ids['three']}']").count() == 1

            waiting = item("waiting")
            assert waiting.locator(".status-pill.open").inner_text() == w("lobby.status.open")
            free = w("account.against", names=w("account.freeSeat"))
            assert free in waiting.locator(".gi-title").inner_text()
            assert w("lobby.freeSeats", n=1) in waiting.locator(".gi-meta").inner_text()

            done = item("done")
            assert done.locator(".status-pill.finished").inner_text() == w("lobby.status.finished")
            result = w("profile.won" if winner == 0 else "profile.lost")
            assert result in done.locator(".gi-meta").inner_text()
            assert done.locator(f"a[href='/g/{ids['done']}']").inner_text() == w("fin.title")
            assert done.locator(f"a[href='/replay/{ids['done']}']").count() == 1
            assert page.inner_text("#games h2") == w("account.games")
            no_sideways_scroll(page)
            page.locator("#games").scroll_into_view_if_needed()
            snap(page, f"i40-account-games-{lang}-{size}")
            audit(page, f"the account's games ({lang}, {size})", found)
        # Her public page names the opponents too.
        page.goto(f"{base}/u/Ann")
        title = page.locator(f"#profile .game-item:has-text('#{ids['three']}') .gi-title").inner_text()
        against = w("account.against", names="|").split("|")[0]
        assert title.startswith(f"{against}Bob") and w("bot.medium") in title
        no_sideways_scroll(page)
        snap(page, f"i40-profile-{lang}-phone")
        if lang == "en":  # "Play on this device" from the list: the table, her seat
            page.goto(base + "/account")
            page.click(f"#games [data-here='{ids['three']}']")
            page.wait_for_url(re.compile(rf".*/g/{ids['three']}$"))
            wait_js(page, "window.__ra && window.__ra.seat === 0")
        no_js_errors(page)
        page.context.close()
    assert not found, "\n".join(found)


# --- 2. the mailed link on another device: "Play on this device", then move ---------------------


def test_the_mailed_link_on_another_device_offers_the_seat_and_then_plays(
    browser: Any, server: Server
) -> None:
    base = server.url
    games = [create(base, [{"kind": "human"}, {"kind": "bot", "level": "easy"}]) for _ in range(6)]
    sign_up(base, "Ann", [{"game": g["game"]["id"], "token": g["token"]} for g in games])
    zoe = sign_up(base, "Zoe")
    left = iter(games)
    found: list[str] = []  # axe's findings
    for lang, locale in LANGS:
        w = words(lang)
        page = signed_in(browser, base, locale)  # the phone: signed in, no seat token
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            gid = next(left)["game"]["id"]
            page.goto(f"{base}/g/{gid}")  # the mailed link
            page.wait_for_selector("#here-box:not([hidden]) #here-btn")
            assert page.inner_text("#here-box span") == w("table.hereOffer", name="Ann", n=1)
            assert page.inner_text("#here-btn") == w("account.playHere")
            assert page.evaluate("window.__ra.seat") is None and page.locator(ACTIONS).count() == 0
            no_sideways_scroll(page)
            snap(page, f"i40-table-offer-{lang}-{size}")
            audit(page, f"the table's offer ({lang}, {size})", found)
            page.click("#here-btn")
            page.wait_for_selector(ACTIONS)  # her seat now, at her turn (the easy bot is quick)
            assert page.is_hidden("#here-box")
            assert page.evaluate("window.__ra.seat") == 0
            before = int(page.evaluate("window.__ra.n"))
            page.locator(ACTIONS).first.click()
            wait_js(page, f"window.__ra.n > {before}")
            snap(page, f"i40-table-played-here-{lang}-{size}")
        no_js_errors(page)
        page.context.close()
    # Nobody else is offered the seat: an account that holds none, and a guest.
    gid = games[0]["game"]["id"]
    for cookie in (zoe.cookies.get("ra_session"), None):
        page = new_page(browser, LAPTOP)
        if cookie:
            page.context.add_cookies([{"name": "ra_session", "value": cookie, "url": base}])
        page.goto(f"{base}/g/{gid}")
        wait_js(page, "window.__ra.game !== null && window.__ra.view !== null")
        page.wait_for_timeout(1000)  # the account's games were asked for
        assert page.is_hidden("#here-box")
        no_js_errors(page)
        page.context.close()
    assert not found, "\n".join(found)


# --- 3. the leaderboard says what is rated; the lobby links to it ------------------------------


def test_the_leaderboard_says_what_is_rated_and_the_lobby_links_to_it(
    browser: Any, server_factory: type[Server], sqlite_url: str, tmp_path: Path
) -> None:
    srv = server_factory(sqlite_url, tmp_path / "s.log", env={"RA_MOVE_DEADLINE": "86400"}).start()
    a_day = {"en": "1 day", "ru": "1 день", "de": "1 Tag"}  # this server's deadline, not the default
    found: list[str] = []  # axe's findings
    for lang, locale in LANGS:
        w = words(lang)
        for size, viewport in SIZES.items():
            page = new_page(browser, viewport, locale)
            page.goto(srv.url + "/")
            link = page.locator("header.topbar a[href='/players']")
            assert link.is_visible() and link.inner_text() == w("nav.leaders")
            box = link.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
            assert box["y"] + box["height"] <= 160, box  # in the header, not pages down
            no_sideways_scroll(page)
            snap(page, f"i40-lobby-nav-{lang}-{size}")
            audit(page, f"the lobby ({lang}, {size})", found)
            link.click()
            page.wait_for_url(re.compile(r".*/players$"))
            page.wait_for_selector("#rated-rules li")
            rules = page.locator("#rated-rules li").all_inner_texts()
            assert page.inner_text("#rated-rules h2") == w("leaders.rated.title")
            # issue 52: a table is rated or casual before it starts (ra.web.rating_policy), said first
            assert rules[:2] == [w("leaders.rated.table"), w("leaders.rated.people")]
            for level in LEVELS:  # every level the lobby offers, master too
                rating = level_rating(level)
                assert rating is not None
                assert f"{w('lobby.level.' + level)} {number(rating, lang)}" in rules[2], rules[2]
            head = w("leaders.rated.bots", levels="|").split("|")[0]
            assert rules[2].startswith(head)
            assert rules[3:] == [
                w("leaders.rated.order"),
                w("leaders.rated.standIn", n=3),
                w("leaders.rated.abort", n=5),
                w("leaders.rated.provisional", n=5),
                w("leaders.rated.deadline", time=a_day[lang]),
                w("leaders.rated.not"),
            ]
            assert page.inner_text("#leaderboard > p.muted") == w("leaders.help")
            assert "games with bots are not rated" not in page.inner_text("body").lower()  # the old words
            no_sideways_scroll(page)
            snap(page, f"i40-leaderboard-{lang}-{size}")
            audit(page, f"the leaderboard ({lang}, {size})", found)
            no_js_errors(page)
            page.context.close()
    assert not found, "\n".join(found)


# --- 4. a table page that hears nothing asks again --------------------------------------------


class Stall:
    """A page's table sockets through Playwright's WebSocket routing, forwarded both ways, except
    that on the first socket, once ``after`` happened, nothing the server sends arrives: a
    connection that looks open and delivers nothing. ``after``: ``action`` (the page sent one),
    ``state`` (a state with a position arrived), or None (never: a control)."""

    def __init__(self, page: Page, after: str | None) -> None:
        self.after = after
        self.sockets = 0
        self.dropping = False
        self.dropped = 0
        self.hellos: list[dict[str, Any]] = []
        page.route_web_socket(re.compile(r".*/ws/games/.*"), self.route)

    def route(self, ws: Any) -> None:
        self.sockets += 1
        first = self.sockets == 1
        server = ws.connect_to_server()

        def up(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg.get("type") == "hello":
                self.hellos.append(msg)
            server.send(message)
            if first and self.after == "action" and msg.get("type") == "action":
                self.dropping = True

        def down(message: str | bytes) -> None:
            if first and self.dropping:
                self.dropped += 1
                return
            ws.send(message)
            msg = json.loads(message)
            if first and self.after == "state" and msg.get("type") == "state" and msg.get("view"):
                self.dropping = True

        ws.on_message(up)
        server.on_message(down)


RESYNC_AFTER_MS = 20_000
"""table.js's silence rule: a page that waits on a quick answer and has heard nothing for this long
asks again (issue 40, finding 7)."""


def test_a_table_page_that_hears_nothing_asks_for_the_state_again(browser: Any, server: Server) -> None:
    """The pages' clocks are Playwright's (``page.clock``): the test moves them 25 s on in a moment
    instead of waiting 20 real seconds, and asks each page when it asked again."""
    base = server.url
    pages: list[tuple[str, str, Page, Stall]] = []
    for lang, locale in LANGS:
        # A person's page at a table with a bot: its action, then silence.
        made = create(base, [{"kind": "human"}, {"kind": "bot", "level": "easy"}])
        page = new_page(browser, LAPTOP if lang != "ru" else PHONE, locale)
        stall = Stall(page, "action")
        page.clock.install()
        page.goto(f"{base}/g/{made['game']['id']}?seat=0&token={made['token']}")
        pages.append((lang, "action", page, stall))
        # A spectator of bots (a second a move): a state, then silence on a bot's turn.
        bots = create(base, [{"kind": "bot", "level": "easy"}] * 2, name=None, bot_delay=1.0)
        page = new_page(browser, PHONE if lang != "ru" else LAPTOP, locale)
        stall = Stall(page, "state")
        page.clock.install()
        page.goto(f"{base}/g/{bots['game']['id']}")
        pages.append((lang, "bots", page, stall))
    # A control: a spectator of two people, one of whom thinks: quiet, and rightly so.
    two = create(base, [{"kind": "human"}, {"kind": "human"}])
    join(base, two["game"]["id"], "Bob")
    quiet = new_page(browser, LAPTOP)
    control = Stall(quiet, None)
    quiet.clock.install()
    quiet.goto(f"{base}/g/{two['game']['id']}")
    wait_js(quiet, "window.__ra.view !== null")

    before: dict[int, int] = {}
    for i, (_, kind, page, _stall) in enumerate(pages):
        if kind == "action":
            page.wait_for_selector(ACTIONS)
            before[i] = int(page.evaluate("window.__ra.n"))
            page.locator(ACTIONS).first.click()
        else:
            wait_js(page, "window.__ra.view !== null")
            before[i] = int(page.evaluate("window.__ra.n"))
    # What each page waits since (table.js's expectedSince): the action it sent; a bot's state and
    # the bot's second. Read once the silence began, before any clock moves.
    since: dict[int, float] = {}
    for i, (_, kind, page, stall) in enumerate(pages):
        for _ in range(600):  # the sockets' routes run while Playwright is waited on
            if stall.dropping:
                break
            page.wait_for_timeout(50)
        assert stall.dropping, (kind, "never went silent")
        waits = "__ra.sentAt" if kind == "action" else "__ra.stateAt + 1000 * __ra.game.options.bot_delay"
        since[i] = float(page.evaluate(waits))
        assert page.evaluate("window.__ra.resyncs") == 0
    for page in [*(p for _, _, p, _ in pages), quiet]:
        page.clock.run_for(25_000)
    for i, (lang, kind, page, stall) in enumerate(pages):
        assert stall.dropped > 0, (lang, kind)  # the first socket really went silent
        assert page.evaluate("window.__ra.resyncs") == 1, (lang, kind)
        asked = float(page.evaluate("window.__ra.askedAt")) - since[i]
        # Not before the rule's 20 s, and at the first of its once-a-second checks after them (the
        # few real seconds this test took flow into the page's clock too: up to 3 s allowed).
        assert RESYNC_AFTER_MS < asked <= RESYNC_AFTER_MS + 4_000, (lang, kind, asked)
        assert stall.sockets == 2 and stall.hellos[1]["since"] > 0 and stall.hellos[1]["key"], stall.hellos
        wait_js(page, f"window.__ra.n > {before[i] + (1 if kind == 'action' else 0)}", 30_000)
        if kind == "action":
            page.wait_for_selector(ACTIONS)  # her turn again: the page plays on
        assert page.is_hidden("#conn-banner")  # no alarm: it asked quietly
        no_js_errors(page)
        snap(page, f"i40-resynced-{kind}-{lang}")
    assert control.sockets == 1 and quiet.evaluate("window.__ra.resyncs") == 0
    for _, _, page, _ in pages:
        page.context.close()
    quiet.context.close()


# --- the new words are the catalogue's --------------------------------------------------------


def test_the_new_words_come_from_the_catalogue(browser: Any, server: Server) -> None:
    """In the pseudo-locale every catalogued letter is accented: a plain English word on the
    leaderboard's rules or the table's offer would be a string that bypassed the catalogue. The
    deadline's length is the browser's own (Intl, as dates are): it is left out."""
    from tests.web.test_browser_words import latin_words, words_on

    base = server.url
    made = create(base, [{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    gid = made["game"]["id"]
    sign_up(base, "Ann", [{"game": gid, "token": made["token"]}])
    page = signed_in(browser, base, "en-US")
    page.goto(f"{base}/players?lang=en-XA")
    page.wait_for_selector("#rated-rules li")
    bare = latin_words(words_on(page)) - {"days"}
    page.goto(f"{base}/g/{gid}")
    page.wait_for_selector("#here-box:not([hidden]) #here-btn")
    bare |= latin_words(words_on(page, gid))
    assert not bare, bare
    no_js_errors(page)
    page.context.close()


# --- names people can trust: an account's name links to its profile ---------------------------


def test_an_accounts_name_links_to_its_profile_and_a_guests_does_not(browser: Any, server: Server) -> None:
    """Issue 40, "Names people can trust": wherever a seat's name is shown (the table, the lobby),
    an account's name is a link to its profile; a guest's name is plain text, so a guest cannot
    pass for an account by its name."""
    base = server.url
    made = create(base, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}], name="Ann")
    gid = made["game"]["id"]
    sign_up(base, "Ann", [{"game": gid, "token": made["token"]}])
    join(base, gid, "Bob")  # a guest
    seats = httpx.get(f"{base}/api/games/{gid}", timeout=10).json()["seats"]
    assert [s["account"] for s in seats] == [True, False, False]
    for lang, locale in LANGS:
        page = new_page(browser, LAPTOP, locale)
        page.goto(f"{base}/g/{gid}")
        page.wait_for_selector("#players .player")
        links = page.locator("#players a.profile-link")
        assert links.count() == 1 and links.first.get_attribute("href") == "/u/Ann", lang
        assert (
            "Bob" in page.inner_text("#players") and page.locator("#players a", has_text="Bob").count() == 0
        )
        page.goto(base + "/")
        item = page.locator(".game-item", has_text="Bob").first
        item.wait_for()
        assert item.locator("a.profile-link").count() == 1
        assert item.locator("a.profile-link").get_attribute("href") == "/u/Ann"
        no_js_errors(page)
        page.context.close()
