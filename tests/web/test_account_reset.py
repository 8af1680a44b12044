"""A new password by mail (issue 40, "mail people want", the account part), against a real
``ra serve`` on loopback and a real SMTP server (aiosmtpd): the link goes only to an account's
confirmed address, asking says the same (and takes the same time) whether the account exists,
the link's token is stored hashed and works once within the hour, setting the password by it
ends every session; asking is limited per client address, per account and per mail address."""

from __future__ import annotations

import asyncio
import hashlib
import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from ra.web import db
from ra.web.accounts import RESET_ASK_BURST, RESET_MAILS_PER_HOUR, RESET_MINUTES, RESET_TRIES_PER_MINUTE
from ra.web.testing import Server
from tests.web.test_mail import PASSWORD, Inbox, account, confirm, mailing_server, text_of

aiosmtpd = pytest.importorskip("aiosmtpd.controller", reason="aiosmtpd is not installed")
NEW = "the-new-one-42"
EVIL = {"Origin": "https://evil.example"}
LINK = re.compile(r"https://ra\.test/account#reset=([A-Za-z0-9_-]+)")


class SlowInbox(Inbox):
    """An SMTP server that takes ``delay`` seconds to accept each message."""

    delay = 0.0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's name
        await asyncio.sleep(self.delay)
        return await super().handle_DATA(server, session, envelope)


@pytest.fixture
def slow_inbox() -> Iterator[tuple[SlowInbox, int]]:
    from ra.web.testing import free_port

    port = free_port()
    box = SlowInbox()
    controller = aiosmtpd.Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    yield box, port
    controller.stop()


def from_(base: str, n: int) -> httpx.Client:
    """A client from its own loopback address (per-address limits are not the point there)."""
    return httpx.Client(
        base_url=base, timeout=10, transport=httpx.HTTPTransport(local_address=f"127.0.7.{n}")
    )


def ask(client: httpx.Client | None, base: str, who: str, **kw: Any) -> httpx.Response:
    c = client or httpx.Client(base_url=base, timeout=10)
    return c.post("/api/account/reset", json={"who": who}, **kw)


def resets(box: Inbox) -> list[Any]:
    return [m for m in box.mail if LINK.search(text_of(m))]


def token_in(message: Any) -> str:
    found = LINK.search(text_of(message))
    assert found is not None, text_of(message)
    return found.group(1)


def wait_resets(box: Inbox, count: int, timeout: float = 15) -> list[Any]:
    deadline = time.monotonic() + timeout
    while len(resets(box)) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    return resets(box)


def confirmed(base: str, box: Inbox, name: str, email: str, lang: str = "en") -> httpx.Client:
    """``name`` signed up with ``email`` and the mailed confirmation link opened."""
    before = len(box.mail)
    client = account(base, name, email, {}, lang=lang)
    assert confirm(base, box, before + 1).status_code == 200
    assert client.get("/api/account/mail").json()["confirmed"] is True
    return client


def test_a_mailed_link_sets_a_new_password_once_and_ends_every_session(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path, slow_inbox: tuple[SlowInbox, int]
) -> None:
    box, port = slow_inbox
    env = {"RA_SMTP_URL": f"smtp://127.0.0.1:{port}?from=ra@test.example", "RA_PUBLIC_URL": "https://ra.test"}
    srv = server_factory(sqlite_url, tmp_path / "s.log", env=env, log_level="info").start()
    base = srv.url
    laptop = confirmed(base, box, "Ann", "ann@test.example", lang="de")
    phone = from_(base, 1)
    assert phone.post("/api/account/login", json={"name": "Ann", "password": PASSWORD}).status_code == 200
    # A stranger asks for Ann's link, through a host name of their own: the link in the mail is
    # made from the server's public address, and the answer only says mail is sent at all.
    headers = {"Host": f"localhost:{srv.port}", "X-Forwarded-Host": "evil.example"}
    r = ask(from_(base, 2), base, "ann", headers=headers)
    assert r.status_code == 200 and r.json() == {"ok": True, "mail": True}
    (mail,) = wait_resets(box, 1)
    assert mail["X-Rcpt"] == "ann@test.example" and mail["Subject"] == "Ra: neues Passwort"
    assert mail["Date"] and mail["Message-ID"].endswith("@test.example>")
    assert mail["List-Unsubscribe"] is None  # not a subscription: nothing to stop
    token = token_in(mail)
    assert (
        "Ann" in text_of(mail) and "evil" not in text_of(mail) and f"{RESET_MINUTES} Minuten" in text_of(mail)
    )
    # Asking changed nothing: Ann's password and sessions still work.
    assert laptop.get("/api/account").status_code == 200
    assert (
        httpx.post(base + "/api/account/login", json={"name": "Ann", "password": PASSWORD}).status_code == 200
    )
    # The token is stored hashed, for an hour.
    engine = sa.create_engine(sqlite_url)
    with engine.connect() as conn:
        ((stored, created, expires),) = conn.execute(
            sa.select(
                db.password_resets.c.token_hash,
                db.password_resets.c.created_at,
                db.password_resets.c.expires_at,
            )
        ).all()
    engine.dispose()
    assert stored == hashlib.sha256(token.encode()).hexdigest() and token not in stored
    assert expires - created == timedelta(minutes=RESET_MINUTES)
    # Another site's page may not use it (that would sign the visitor in to the link's account).
    body = {"token": token, "password": NEW}
    r = httpx.post(base + "/api/account/reset/password", json=body, headers=EVIL)
    assert r.status_code == 403 and r.json()["error"] == "origin"
    assert (
        httpx.post(base + "/api/account/reset/password", json={**body, "password": "short"}).status_code
        == 422
    )
    # The owner sets the new password: signed in here, signed out everywhere else.
    owner = from_(base, 3)
    r = owner.post("/api/account/reset/password", json=body)
    assert r.status_code == 200, r.text
    assert r.json()["name"] == "Ann" and owner.get("/api/account").json()["name"] == "Ann"
    for device in (laptop, phone):
        assert device.get("/api/account").status_code == 401
    assert (
        httpx.post(base + "/api/account/login", json={"name": "Ann", "password": PASSWORD}).status_code == 401
    )
    assert httpx.post(base + "/api/account/login", json={"name": "Ann", "password": NEW}).status_code == 200
    # Once only; and a guessed token is no token.
    again = from_(base, 4).post("/api/account/reset/password", json={**body, "password": "yet-another-1"})
    assert again.status_code == 404 and again.json()["error"] == "bad_reset"
    guess = httpx.post(
        base + "/api/account/reset/password", json={"token": token[:-2] + "AA", "password": NEW}
    )
    assert guess.status_code == 404 and guess.json()["error"] == "bad_reset"
    # The link's token is in its fragment (LINK): a browser never sends it, so no request line,
    # proxy or Referer carries it; nor does the server's own log.
    srv.stop()
    assert token not in (tmp_path / "s.log").read_text()


def test_asking_answers_alike_and_fast_for_everyone_and_mails_only_a_confirmed_address(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path, slow_inbox: tuple[SlowInbox, int]
) -> None:
    """Whether a name has an account, an address, a confirmed one: the answer is the same, and
    it does not wait for the mail (a slow mail server would have told by the time)."""
    box, port = slow_inbox
    srv = mailing_server(server_factory, sqlite_url, tmp_path, port)
    base = srv.url
    confirmed(base, box, "Ann", "ann@test.example")
    account(base, "Bob", "bob@test.example", {})  # Bob never confirms his address
    account(base, "Eve", "ann@test.example", {})  # Eve gives Ann's address, unconfirmed
    httpx.post(base + "/api/account/signup", json={"name": "Cy", "password": PASSWORD})  # no address
    time.sleep(0.5)
    before = len(box.mail)  # the confirmation links (Eve's too: an inbox gets two a day)
    box.delay = 4.0  # the mail server is slow from now on
    answers: dict[str, tuple[int, bytes, float]] = {}
    asks = [
        "Nobody",
        "Bob",
        "bob@test.example",
        "Cy",
        "Eve",
        "nobody@test.example",
        "Ann",
        "ANN@TEST.example",
    ]
    for i, who in enumerate(asks):
        t = time.monotonic()
        r = ask(from_(base, 10 + i), base, who)
        answers[who] = (r.status_code, r.content, time.monotonic() - t)
    assert {(code, content) for code, content, _ in answers.values()} == {(200, b'{"ok":true,"mail":true}')}
    slowest = max(elapsed for _, _, elapsed in answers.values())
    assert slowest < 2.0, answers  # the mail (4 s each) goes out after the answer
    # Two links, both to Ann's confirmed address and for Ann (by name and by address); the
    # second makes the first useless.  Bob's unconfirmed address and Eve's copy of Ann's get none.
    mailed = wait_resets(box, 2, timeout=20)
    time.sleep(box.delay + 1)
    assert len(box.mail) == before + 2 and len(mailed) == 2
    assert [m["X-Rcpt"] for m in mailed] == ["ann@test.example"] * 2
    assert all(text_of(m).startswith("Ann,") for m in mailed)
    tokens = [token_in(m) for m in mailed]
    engine = sa.create_engine(sqlite_url)
    with engine.connect() as conn:
        (live,) = conn.execute(sa.select(db.password_resets.c.token_hash)).scalars().all()
    engine.dispose()
    (newest,) = [t for t in tokens if hashlib.sha256(t.encode()).hexdigest() == live]
    (older,) = [t for t in tokens if t != newest]
    r = httpx.post(base + "/api/account/reset/password", json={"token": older, "password": NEW})
    assert r.status_code == 404 and r.json()["error"] == "bad_reset"
    # Two pages race to use the newest link: it works once.

    async def race() -> list[int]:
        async def use(n: int) -> int:
            transport = httpx.AsyncHTTPTransport(local_address=f"127.0.8.{n}")
            async with httpx.AsyncClient(base_url=base, transport=transport, timeout=20) as c:
                body = {"token": newest, "password": f"{NEW}-{n}"}
                return (await c.post("/api/account/reset/password", json=body)).status_code

        return list(await asyncio.gather(*(use(n) for n in range(1, 5))))

    assert sorted(asyncio.run(race())) == [200, 404, 404, 404]


def test_links_are_limited_per_account_per_address_and_per_asker_without_telling(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path, slow_inbox: tuple[SlowInbox, int]
) -> None:
    box, port = slow_inbox
    srv = mailing_server(server_factory, sqlite_url, tmp_path, port)
    base = srv.url
    ann = confirmed(base, box, "Ann", "ann@test.example")
    # Five strangers from five machines ask for Ann's link: all are told the same, Ann gets three.
    for i in range(5):
        assert ask(from_(base, 20 + i), base, "Ann").json() == {"ok": True, "mail": True}
    time.sleep(1.5)
    assert len(wait_resets(box, int(RESET_MAILS_PER_HOUR))) == int(RESET_MAILS_PER_HOUR)
    # Per mail address: Ann's account goes, Zed confirms her old address; asking for Zed mails
    # nothing more to that inbox this hour (new accounts are no way around the limit).
    assert ann.post("/api/account/delete", json={"password": PASSWORD}).status_code == 200
    before = len(box.mail)
    zed = account(base, "Zed", "ann@test.example", {})
    assert confirm(base, box, before + 1).status_code == 200  # the inbox's second link today
    assert zed.get("/api/account/mail").json()["confirmed"] is True
    assert ask(from_(base, 30), base, "Zed").json() == {"ok": True, "mail": True}
    time.sleep(1.5)
    assert len(resets(box)) == int(RESET_MAILS_PER_HOUR)
    # Per asker: one machine asks in bursts of five, whatever it asks about (existing or not).
    one = from_(base, 40)
    codes = [ask(one, base, who).status_code for who in ("Nobody", "Zed", "x@y.org", "Cy", "Nobody", "Zed")]
    assert codes == [200] * int(RESET_ASK_BURST) + [429]
    assert ask(from_(base, 41), base, "Nobody").status_code == 200  # another machine may


def test_a_link_dies_when_it_expires_the_address_changes_or_the_password_is_changed(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path, slow_inbox: tuple[SlowInbox, int]
) -> None:
    box, port = slow_inbox
    srv = mailing_server(server_factory, sqlite_url, tmp_path, port)
    base = srv.url
    ann = confirmed(base, box, "Ann", "ann@test.example")
    engine = sa.create_engine(sqlite_url)

    def link(n: int) -> str:
        assert ask(from_(base, 50 + n), base, "Ann").status_code == 200
        mailed = wait_resets(box, n)
        assert len(mailed) == n
        return token_in(mailed[-1])

    def works(token: str) -> int:
        return httpx.post(
            base + "/api/account/reset/password", json={"token": token, "password": NEW}
        ).status_code

    # An hour old: refused.
    expired = link(1)
    with engine.begin() as conn:
        past = datetime.now(UTC) - timedelta(seconds=1)
        conn.execute(sa.update(db.password_resets).values(expires_at=past))
    assert works(expired) == 404
    # The address changed: a link mailed to the old one is refused, and the new one (not yet
    # confirmed) gets no link.
    to_old = link(2)
    assert ann.post("/api/account/email", json={"email": "ann2@test.example"}).status_code == 200
    assert works(to_old) == 404
    assert ask(from_(base, 60), base, "Ann").status_code == 200
    time.sleep(1)
    assert [m["X-Rcpt"] for m in resets(box)] == ["ann@test.example"] * 2
    # The password changed through the page: the links out there die with it.
    assert confirm(base, box, len(box.mail)).status_code == 200  # ann2's confirmation link
    before_change = link(3)
    assert resets(box)[-1]["X-Rcpt"] == "ann2@test.example"
    assert ann.post("/api/account/password", json={"current": PASSWORD, "password": NEW}).status_code == 200
    assert works(before_change) == 404
    with engine.connect() as conn:
        assert conn.scalar(sa.select(sa.func.count()).select_from(db.password_resets)) == 0
    engine.dispose()


def test_guessing_link_tokens_is_refused_and_limited_and_a_server_without_mail_says_so(
    server: Server,
) -> None:
    base = server.url
    sign = {"token": "x" * 43, "password": NEW}
    one = from_(base, 70)
    codes = [
        one.post("/api/account/reset/password", json=sign).status_code
        for _ in range(int(RESET_TRIES_PER_MINUTE) + 1)
    ]
    assert codes == [404] * int(RESET_TRIES_PER_MINUTE) + [429]
    for bad in ({"token": "", "password": NEW}, {"token": "x" * 101, "password": NEW}, {"who": ""}):
        path = "/api/account/reset" if "who" in bad else "/api/account/reset/password"
        assert httpx.post(base + path, json=bad).status_code == 422, bad
    r = ask(None, base, "Ann", headers=EVIL)
    assert r.status_code == 403 and r.json()["error"] == "origin"
    assert ask(None, base, "Ann").json() == {"ok": True, "mail": False}  # no --smtp: nothing can be mailed
