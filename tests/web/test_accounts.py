"""Accounts (issue 21): optional sign-up that keeps a guest's games, sessions in HttpOnly cookies,
CSRF and Origin checks, rate-limited sign-in, no session fixation, a public profile with results,
an export and deletion — against a real server on loopback, and the pages in Chromium."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import httpx
import pytest

from ra.web.testing import Server
from tests.web.chromium import needs_chromium
from tests.web.client import Player, create, join
from tests.web.test_server import play

PASSWORD = "sun-and-nile-8"


def sign_up(base: str, name: str, seats: list[dict[str, str]] | None = None) -> httpx.Client:
    """A client (its own cookie jar) signed up as ``name``; its CSRF token in ``client.csrf``."""
    client = httpx.Client(base_url=base, timeout=10)
    r = client.post("/api/account/signup", json={"name": name, "password": PASSWORD, "seats": seats or []})
    assert r.status_code == 200, r.text
    client.headers["X-CSRF-Token"] = r.json()["csrf"]
    return client


def test_a_guest_signs_up_keeps_the_game_and_sees_the_result_on_the_profile(server: Server) -> None:
    made = create(server.url, [{"kind": "human"}, {"kind": "bot", "level": "random"}])
    gid = made["game"]["id"]

    async def finish() -> None:
        ann = Player(server.ws, gid, made["token"], seed=3)
        await ann.connect()
        await play([ann])
        await ann.close()

    asyncio.run(finish())
    ann = sign_up(
        server.url, "Ann", [{"game": gid, "token": made["token"]}, {"game": gid, "token": "forged"}]
    )
    cookie = ann.cookies.jar  # the session cookie: HttpOnly, SameSite=Lax, the whole site
    (session,) = [c for c in cookie if c.name == "ra_session"]
    assert session.has_nonstandard_attr("HttpOnly") and session.path == "/"
    raw = httpx.post(server.url + "/api/account/signup", json={"name": "Zoe", "password": PASSWORD})
    assert (
        "samesite=lax" in raw.headers["set-cookie"].lower()
        and "httponly" in raw.headers["set-cookie"].lower()
    )
    assert ann.get("/api/account").json()["name"] == "Ann"
    profile = httpx.get(server.url + "/api/players/ann").json()  # names are case-blind
    assert [(g["id"], g["seat"], g["status"]) for g in profile["games"]] == [(gid, 0, "finished")]
    winner = httpx.get(f"{server.url}/api/games/{gid}").json()["winner"]
    assert profile["by_players"] == {"2": {"played": 1, "won": int(winner == 0)}}
    assert profile["games"][0]["won"] is (winner == 0)
    # The export holds the game's record; the name cannot be taken twice, in any case.
    export = ann.get("/api/account/export")
    assert "attachment" in export.headers["content-disposition"]
    assert export.json()["records"][0]["result"]["over"] is True
    r = httpx.post(server.url + "/api/account/signup", json={"name": "ANN", "password": PASSWORD})
    assert r.status_code == 409 and r.json()["error"] == "name_taken"
    # Deleting needs the password; then the profile is gone and the game stays.
    assert ann.post("/api/account/delete", json={"password": "wrong-password"}).status_code == 403
    assert ann.post("/api/account/delete", json={"password": PASSWORD}).status_code == 200
    assert httpx.get(server.url + "/api/players/ann").status_code == 404
    assert httpx.get(f"{server.url}/api/games/{gid}").json()["status"] == "finished"
    assert ann.get("/api/account").status_code == 401


def test_csrf_origin_fixation_and_guessing_are_refused(server: Server) -> None:
    base = server.url
    bob = sign_up(base, "Bob")
    # A change made with the cookie but without the page's token (another site's form) is refused.
    token = bob.headers.pop("X-CSRF-Token")
    assert bob.post("/api/account/logout").json()["error"] == "csrf"
    assert bob.post("/api/account/logout", headers={"X-CSRF-Token": "guess"}).status_code == 403
    assert bob.post("/api/account/claim", json={"seats": []}).status_code == 403
    # Another site's page may not sign in here (login CSRF) nor change the account.
    evil = {"Origin": "https://evil.example"}
    r = httpx.post(base + "/api/account/login", json={"name": "Bob", "password": PASSWORD}, headers=evil)
    assert r.status_code == 403
    r = bob.post("/api/account/logout", headers={**evil, "X-CSRF-Token": token})
    assert r.status_code == 403
    # Session fixation: a session id planted before signing in is never taken; a new one is made.
    planted = httpx.Client(base_url=base, cookies={"ra_session": "planted-by-attacker"})
    assert planted.get("/api/account").status_code == 401
    r = planted.post("/api/account/login", json={"name": "Bob", "password": PASSWORD})
    assert r.status_code == 200
    fresh = r.cookies.get("ra_session")
    assert fresh and fresh != "planted-by-attacker"
    assert httpx.get(base + "/api/account", cookies={"ra_session": "planted-by-attacker"}).status_code == 401
    # Signing out ends that session only.
    assert bob.post("/api/account/logout", headers={"X-CSRF-Token": token}).status_code == 200
    assert bob.get("/api/account").status_code == 401
    assert httpx.get(base + "/api/account", cookies={"ra_session": fresh}).status_code == 200
    # Guessing: a wrong name and a wrong password get the same answer, then the door closes.
    answers = [
        httpx.post(base + "/api/account/login", json={"name": n, "password": "not-the-one"}).json()
        for n in ("Bob", "Nobody", "Bob")
    ]
    assert {a["error"] for a in answers} == {"bad_credentials"} and len({a["message"] for a in answers}) == 1
    codes = [
        httpx.post(base + "/api/account/login", json={"name": "Bob", "password": "not-the-one"}).status_code
        for _ in range(4)
    ]
    assert codes[-1] == 429
    for bad in ({"name": "", "password": PASSWORD}, {"name": "Cy", "password": "short"}, {"name": "Cy"}):
        assert httpx.post(base + "/api/account/signup", json=bad).status_code == 422, bad


def test_ranks_put_the_winner_first_and_share_equal_scores() -> None:
    from ra.record_format import ranks

    assert ranks([30, 41, 41], winner=1) == [3, 1, 2]  # R8: the tie-break made seat 1 the winner
    assert ranks([12, 30, 30, 5], winner=2) == [3, 2, 1, 4]
    assert ranks([20, 20, 25], winner=2) == [2, 2, 1]


def test_a_game_between_accounts_is_rated_once_and_one_with_an_unrated_bot_is_not(server: Server) -> None:
    base = server.url
    made = create(base, [{"kind": "human"}, {"kind": "human"}], name="Ann")
    gid = made["game"]["id"]
    bob_seat = join(base, gid, "Bob")
    ann = sign_up(base, "Ann", [{"game": gid, "token": made["token"]}])
    sign_up(base, "Bob", [{"game": gid, "token": bob_seat["token"]}])
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
    rated = {"seats": seats, "name": "Ann", "bot_delay": 0, "rated": True}
    with_bot = ann.post("/api/games", json=rated).json()  # as Ann
    ann.post(
        "/api/account/claim", json={"seats": [{"game": with_bot["game"]["id"], "token": with_bot["token"]}]}
    )

    async def finish() -> None:
        a = Player(server.ws, gid, made["token"], seed=1)
        b = Player(server.ws, gid, bob_seat["token"], seed=2)
        c = Player(server.ws, with_bot["game"]["id"], with_bot["token"], seed=3)
        for p in (a, b, c):
            await p.connect()
        await asyncio.gather(play([a, b]), play([c]))
        for p in (a, b, c):
            await p.close()

    asyncio.run(finish())
    winner = httpx.get(f"{base}/api/games/{gid}").json()["winner"]
    deadline = time.monotonic() + 10
    rated_games = [0, 0]
    while rated_games != [1, 1] and time.monotonic() < deadline:
        got = [httpx.get(f"{base}/api/players/{n}").json()["rating"] for n in ("ann", "bob")]
        rated_games = [r["games"] for r in got]
        time.sleep(0.1)
    assert rated_games == [1, 1]  # random has no fixed rating: its game is not rated
    first, second = got[winner], got[1 - winner]
    assert first["mu"] > 25 > second["mu"] and first["sigma"] < 8.34
    assert first["provisional"] and second["provisional"]  # one rated game: "?" (rating_policy)
    assert httpx.get(base + "/api/leaderboard").json()["players"] == []  # provisional: not listed yet
    profile = httpx.get(base + "/api/players/ann").json()
    assert profile["rating"]["games"] == 1 and len(profile["games"]) == 2


def test_a_game_against_rated_bots_moves_only_the_persons_rating(server: Server) -> None:
    from ra.bots import LEVEL_RATINGS

    base = server.url
    made = create(
        base,
        [{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "medium"}],
        rated=True,
    )
    gid = made["game"]["id"]
    sign_up(base, "Cy", [{"game": gid, "token": made["token"]}])
    listed = httpx.get(f"{base}/api/games/{gid}").json()["seats"]
    easy_mu, easy_sigma = LEVEL_RATINGS["easy"]
    assert listed[1]["rating"] == round(easy_mu - 3 * easy_sigma, 1) and listed[0]["rating"] is None

    async def finish() -> None:
        cy = Player(server.ws, gid, made["token"], seed=5)
        await cy.connect()
        await play([cy])
        await cy.close()

    asyncio.run(finish())
    deadline = time.monotonic() + 10
    profile = httpx.get(base + "/api/players/cy").json()
    while profile["rating"]["games"] == 0 and time.monotonic() < deadline:
        time.sleep(0.1)
        profile = httpx.get(base + "/api/players/cy").json()
    assert profile["rating"]["games"] == 1 and profile["rating"]["mu"] != 25
    game = httpx.get(f"{base}/api/games/{gid}").json()
    from ra.record_format import ranks

    place = ranks(game["scores"], game["winner"])[0]
    if place == 1:
        assert profile["rating"]["mu"] > 25
    elif place == 3:
        assert profile["rating"]["mu"] < 25
    assert LEVEL_RATINGS["easy"] == (easy_mu, easy_sigma)  # the bots' ratings are fixed
    board = httpx.get(base + "/api/leaderboard").json()["players"]
    assert board == [] and profile["rating"]["provisional"]  # listed after 5 rated games
    seats_after = httpx.get(f"{base}/api/games/{gid}").json()["seats"]
    assert seats_after[0]["provisional"] and not seats_after[1]["provisional"]  # "?" in the lobby
    assert seats_after[0]["rating"] == pytest.approx(
        profile["rating"]["ordinal"], abs=0.06
    )  # in the lobby now


@pytest.mark.slow
@needs_chromium
def test_the_account_pages_sign_up_keep_the_browsers_games_and_show_the_profile(
    browser: Any, live_server: str
) -> None:
    from tests.web.test_browser import LAPTOP, PHONE, new_page, no_js_errors, no_sideways_scroll, shot

    made = create(live_server, [{"kind": "human"}, {"kind": "human"}])
    gid = made["game"]["id"]
    page = new_page(browser, LAPTOP)
    page.goto(f"{live_server}/g/{gid}?seat=0&token={made['token']}")  # a guest's seat in this browser
    page.goto(live_server + "/account")
    page.fill("#signup input[name=name]", "Dee")
    page.fill("#signup input[name=password]", "short")
    page.click("#signup button[type=submit]")
    assert "8" in page.inner_text("#signup .form-error")
    page.fill("#signup input[name=password]", PASSWORD)
    page.click("#signup button[type=submit]")
    page.wait_for_selector("#logout")
    assert "Dee" in page.inner_text("#account")
    # A table taken while signed in joins the account too.
    page.goto(live_server + "/")
    page.select_option("#quick-level", "easy")
    page.click("#quick-btn")
    page.wait_for_url(re.compile(r".*/g/\w+$"))
    quick = page.url.rsplit("/", 1)[1]
    page.wait_for_timeout(500)
    page.goto(live_server + "/account")
    page.click(".account-links a[href='/u/Dee']")
    page.wait_for_selector(f"#profile .gi-meta:has-text('#{gid}')")
    page.wait_for_selector(f"#profile .gi-meta:has-text('#{quick}')")
    shot(page, "profile-en-laptop")
    page.goto(live_server + "/players")
    page.wait_for_selector("#leaderboard .card p")  # no rated game yet: it says so
    shot(page, "leaderboard-en-laptop")
    page.goto(live_server + "/account")
    page.click("#logout")
    page.wait_for_selector("#login")
    no_js_errors(page)
    page.context.close()
    ru = new_page(browser, PHONE, "ru-RU")
    ru.goto(live_server + "/account")
    ru.fill("#login input[name=name]", "Dee")
    ru.fill("#login input[name=password]", "wrong-password")
    ru.click("#login button[type=submit]")
    ru.wait_for_selector("#login .form-error:has-text('Неверное')")
    shot(ru, "account-ru-phone")
    no_sideways_scroll(ru)
    no_js_errors(ru)
    ru.context.close()


def test_migration_0012_gives_look_alike_names_one_key(empty_sqlite_url: str) -> None:
    """Keys made before NFKC: a fullwidth name's key becomes the plain one, unless another
    account holds that key already (both stay usable)."""
    import datetime

    import sqlalchemy as sa

    from ra.web import db

    db.upgrade(empty_sqlite_url, "0011")
    engine = sa.create_engine(empty_sqlite_url)
    t = datetime.datetime.now(datetime.UTC)
    rows = [("a1", "Ｂｏｂ", "ｂｏｂ"), ("a2", "Ann", "ann"), ("a3", "Ａｎｎ", "ａｎｎ")]
    with engine.begin() as conn:
        for i, name, key in rows:
            conn.execute(
                sa.insert(db.accounts).values(id=i, name=name, name_key=key, password_hash="x", created_at=t)
            )
    db.upgrade(empty_sqlite_url)
    with engine.connect() as conn:
        keys = dict(conn.execute(sa.select(db.accounts.c.id, db.accounts.c.name_key)).all())
    assert keys == {"a1": "bob", "a2": "ann", "a3": "ａｎｎ"}
    engine.dispose()
