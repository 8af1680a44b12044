"""Keeping an account safe (issue 40, "mail people want", the account part), against a real server
on loopback: changing the password ends the other sessions (and a copied cookie of this one),
signing out everywhere ends them all, wrong current passwords are limited, and a deleted
account's name (and its look-alikes) is nobody's for 90 days."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import sqlalchemy as sa

from ra.web import db
from ra.web.accounts import RESERVED_DAYS, WRONG_PASSWORDS_PER_HOUR
from ra.web.testing import Server
from tests.web.test_account_devices import sign_in
from tests.web.test_accounts import PASSWORD, sign_up

NEW = "a-new-password-9"
EVIL = {"Origin": "https://evil.example"}


def cookie_of(client: httpx.Client) -> str:
    value = client.cookies.get("ra_session")
    assert value
    return value


def test_changing_the_password_signs_out_every_other_session_and_a_copied_cookie(server: Server) -> None:
    base = server.url
    laptop = sign_up(base, "Ann")
    phone, tablet = sign_in(base, "Ann"), sign_in(base, "Ann")
    copied = httpx.Client(base_url=base, cookies={"ra_session": cookie_of(laptop)})  # a stolen cookie
    assert copied.get("/api/account").json()["name"] == "Ann"
    change = {"current": PASSWORD, "password": NEW}
    # Not without the page's CSRF token, not from another site, not with a wrong or short password.
    csrf = laptop.headers.pop("X-CSRF-Token")
    assert laptop.post("/api/account/password", json=change).json()["error"] == "csrf"
    assert copied.post("/api/account/password", json=change).json()["error"] == "csrf"
    laptop.headers["X-CSRF-Token"] = csrf
    r = laptop.post("/api/account/password", json=change, headers=EVIL)
    assert r.status_code == 403 and r.json()["error"] == "origin"
    r = laptop.post("/api/account/password", json={"current": "not-the-one", "password": NEW})
    assert r.status_code == 403 and r.json()["error"] == "wrong_password"
    assert (
        laptop.post("/api/account/password", json={"current": PASSWORD, "password": "short"}).status_code
        == 422
    )
    assert phone.get("/api/account").status_code == 200  # nothing changed yet
    # The change: this page stays signed in with a new session and CSRF token ...
    r = laptop.post("/api/account/password", json=change)
    assert r.status_code == 200, r.text
    assert r.json()["name"] == "Ann" and r.json()["csrf"] != csrf
    assert "httponly" in r.headers["set-cookie"].lower()
    assert laptop.get("/api/account").json()["name"] == "Ann"
    assert laptop.post("/api/account/claim", json={"seats": []}).json()["error"] == "csrf"  # the old token
    laptop.headers["X-CSRF-Token"] = r.json()["csrf"]
    assert laptop.post("/api/account/claim", json={"seats": []}).status_code == 200
    # ... every other one is signed out, the copied cookie too; only the new password signs in.
    for other in (phone, tablet, copied):
        assert other.get("/api/account").status_code == 401
    old = httpx.post(base + "/api/account/login", json={"name": "Ann", "password": PASSWORD})
    assert old.status_code == 401 and old.json()["error"] == "bad_credentials"
    fresh = httpx.post(base + "/api/account/login", json={"name": "Ann", "password": NEW})
    assert fresh.status_code == 200


def test_wrong_current_passwords_are_limited_per_account(server: Server) -> None:
    """A session left open on a shared computer is no way to guess the password: after ten wrong
    current passwords an hour, the account's password checks are refused (changing, deleting);
    another account is not."""
    base = server.url
    ann, bob = sign_up(base, "Ann"), sign_up(base, "Bob")
    wrong = {"current": "guess-0000", "password": NEW}
    codes = [
        ann.post("/api/account/password", json=wrong).status_code
        for _ in range(int(WRONG_PASSWORDS_PER_HOUR))
    ]
    assert codes == [403] * int(WRONG_PASSWORDS_PER_HOUR)
    right = ann.post("/api/account/password", json={"current": PASSWORD, "password": NEW})
    assert right.status_code == 429 and right.json()["error"] == "rate_limited"
    assert ann.post("/api/account/delete", json={"password": PASSWORD}).status_code == 429
    assert bob.post("/api/account/password", json={"current": PASSWORD, "password": NEW}).status_code == 200
    assert (
        httpx.post(base + "/api/account/login", json={"name": "Ann", "password": PASSWORD}).status_code == 200
    )


def test_signing_out_everywhere_ends_every_session_of_the_account_only(server: Server) -> None:
    base = server.url
    laptop = sign_up(base, "Ann")
    phone, tablet = sign_in(base, "Ann"), sign_in(base, "Ann")
    bob = sign_up(base, "Bob")
    csrf = laptop.headers.pop("X-CSRF-Token")
    assert laptop.post("/api/account/logout-everywhere").json()["error"] == "csrf"  # another site's form
    r = laptop.post("/api/account/logout-everywhere", headers={**EVIL, "X-CSRF-Token": csrf})
    assert r.status_code == 403 and r.json()["error"] == "origin"
    r = laptop.post("/api/account/logout-everywhere", headers={"X-CSRF-Token": bob.headers["X-CSRF-Token"]})
    assert r.status_code == 403  # Bob's page token is no token for Ann's cookie
    assert phone.get("/api/account").status_code == 200
    r = laptop.post("/api/account/logout-everywhere", headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200 and r.json() == {"ok": True, "ended": 3}
    cleared = r.headers["set-cookie"].lower()
    assert "ra_session=" in cleared and "max-age=0" in cleared and "path=/" in cleared
    for device in (laptop, phone, tablet):
        assert device.get("/api/account").status_code == 401
    assert bob.get("/api/account").json()["name"] == "Bob"  # another account keeps its sessions
    assert sign_in(base, "Ann").get("/api/account").json()["name"] == "Ann"  # the password still works


def test_a_deleted_accounts_name_and_its_look_alikes_are_reserved_for_90_days(
    server: Server, sqlite_url: str
) -> None:
    base = server.url
    ann = sign_up(base, "Ann")
    assert ann.post("/api/account/delete", json={"password": PASSWORD}).status_code == 200
    # Anyone signing up as Ann, in any case or with a Cyrillic А, is told the name is reserved.
    for i, name in enumerate(("Ann", "ANN", "\u0410nn", "Ａｎｎ")):  # each from its own machine
        other = httpx.Client(base_url=base, transport=httpx.HTTPTransport(local_address=f"127.0.6.{i + 1}"))
        r = other.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert r.status_code == 409 and r.json()["error"] == "name_reserved", (name, r.text)
    assert httpx.get(base + "/api/players/Ann").status_code == 404
    sign_up(base, "Anne")  # another name is free
    # The reservation keeps the name's key only, and ends after RESERVED_DAYS.
    engine = sa.create_engine(sqlite_url)
    with engine.begin() as conn:
        ((key, until),) = conn.execute(sa.select(db.reserved_names)).all()
        assert key == "ann"
        left = until.replace(tzinfo=UTC) - datetime.now(UTC)
        assert timedelta(days=RESERVED_DAYS - 1) < left <= timedelta(days=RESERVED_DAYS)
        conn.execute(
            sa.update(db.reserved_names).values(reserved_until=datetime.now(UTC) - timedelta(seconds=1))
        )
    engine.dispose()
    again = sign_up(base, "\u0410nn")  # free again: a new account, nothing of the old one's
    assert again.get("/api/account").json()["name"] == "\u0410nn"
    assert httpx.get(base + "/api/players/Ann").json()["games"] == []


def test_the_new_refusals_have_words_in_every_language() -> None:
    from ra import words

    for code in ("name_reserved", "wrong_password", "bad_reset"):
        texts = {lang: words.words(lang)(f"err.{code}") for lang in ("en", "ru", "de")}
        assert len(set(texts.values())) == 3 and all(not t.startswith("err.") for t in texts.values()), texts
