"""Accounts nobody can take, and mail that cannot be aimed at strangers (issue 52; the mail
pages of issue 54): against a real ``ra serve``, a real SMTP server (aiosmtpd) and, for the
limits two workers share, PostgreSQL.  Each test failed on the code before it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

from ra.web import db
from ra.web.addresses import fold_address
from ra.web.testing import Server, free_port
from tests.web.client import create, join
from tests.web.test_mail import PASSWORD, Inbox, account, confirm, mailing_server, text_of

aiosmtpd = pytest.importorskip("aiosmtpd.controller", reason="aiosmtpd is not installed")


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    port, box = free_port(), Inbox()
    controller = aiosmtpd.Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    yield box, port
    controller.stop()


def link_in(message: object, kind: str) -> str:
    """The path of the ``kind`` link (confirm, undo, unsubscribe) in a mail."""
    found = re.search(rf"/api/mail/{kind}/\S+", text_of(message))  # type: ignore[arg-type]
    assert found is not None, text_of(message)  # type: ignore[arg-type]
    return found.group(0)


def age_sessions(url: str, name: str) -> None:
    """The account's sessions signed in an hour ago (no waiting for a clock)."""
    engine = sa.create_engine(url)
    ids = sa.select(db.accounts.c.id).where(db.accounts.c.name == name).scalar_subquery()
    with engine.begin() as conn:
        conn.execute(
            sa.update(db.sessions)
            .where(db.sessions.c.account_id == ids)
            .values(created_at=datetime.now(UTC) - timedelta(hours=1))
        )
    engine.dispose()


def test_folding_an_address_as_its_provider_does() -> None:
    same = ["ann@x.net", "ANN@X.net", "ann@x.net.", "ann+spam@x.net", "Ann+a+b@X.NET."]
    assert {fold_address(a) for a in same} == {"ann@x.net"}
    assert fold_address("A.nn+x@GoogleMail.com") == fold_address("ann@gmail.com") == "ann@gmail.com"
    assert fold_address("a.nn@x.net") != fold_address("ann@x.net")  # only Gmail ignores dots


def test_a_stolen_session_cannot_change_the_address_and_the_old_one_can_undo_it(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path, inbox: tuple[Inbox, int]
) -> None:
    """The thief with the cookie and CSRF token (not the password) of a session signed in an hour
    ago: no new address.  With the password, the old confirmed address is told and undoes it."""
    box, port = inbox
    base = mailing_server(server_factory, sqlite_url, tmp_path, port).url
    ann = account(base, "Ann", "ann@test.example", {}, lang="de")
    assert confirm(base, box, 1).status_code == 200
    age_sessions(sqlite_url, "Ann")
    steal = {"email": "thief@test.example", "lang": "zz"}  # an unknown language: English, no 500
    r = ann.post("/api/account/email", json=steal)
    assert r.status_code == 403 and r.json()["error"] == "password_needed"
    r = ann.post("/api/account/email", json={**steal, "password": "not-the-password"})
    assert r.status_code == 403 and r.json()["error"] == "wrong_password"
    assert ann.get("/api/account/mail").json()["email"] == "ann@test.example"  # unchanged
    assert len(box.wait(2, timeout=1)) == 1
    r = ann.post("/api/account/email", json={**steal, "password": PASSWORD})
    assert r.status_code == 200 and r.json()["mailed"] is True
    told, asked = sorted(box.wait(3)[1:], key=lambda m: m["X-Rcpt"])
    assert told["X-Rcpt"] == "ann@test.example" and "thief@test.example" in text_of(told)
    assert "geändert" in told["Subject"]  # in the account's language until now
    assert asked["X-Rcpt"] == "thief@test.example" and "sign up" not in text_of(asked)
    assert "Ann" not in text_of(asked)  # the account's name starts no mail to a stranger
    assert confirm(base, box, 3).status_code == 200  # the thief confirms the new address
    undo = base + link_in(told, "undo")
    page = httpx.get(undo)  # the owner's mail scanner opens it: nothing happens
    assert page.status_code == 200 and '<html lang="de"' in page.text and "<h1>" in page.text
    assert ann.get("/api/account/mail").json()["email"] == "thief@test.example"
    done = httpx.post(undo)  # the owner, signed out (her phone's mail app), presses the button
    assert done.status_code == 200 and "ann@test.example" in done.text and "rückgängig" in done.text
    assert ann.get("/api/account").status_code == 401  # every session ended
    owner = httpx.Client(base_url=base)
    assert owner.post("/api/account/login", json={"name": "Ann", "password": PASSWORD}).status_code == 200
    assert owner.get("/api/account/mail").json() == {
        "email": "ann@test.example",
        "confirmed": True,
        "turns": True,
    }
    assert httpx.post(undo).status_code == 404  # once


def test_mail_links_open_pages_in_the_mails_language_whose_button_acts(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path, inbox: tuple[Inbox, int]
) -> None:
    """Issue 54: the pages were English, unstyled, without an h1, and a confirmation opened
    signed out said nothing; issue 52: a GET confirmed, a link worked twice, tokens were kept
    in the clear."""
    box, port = inbox
    srv = mailing_server(server_factory, sqlite_url, tmp_path, port)
    base = srv.url
    lena = account(base, "Lena", "lena@test.example", {}, lang="de")
    path = link_in(box.wait(1)[0], "confirm")
    token = path.rsplit("/", 1)[1]
    stored = b"".join(f.read_bytes() for f in tmp_path.glob("ra.db*"))
    assert token.encode() not in stored  # hashed
    for other in ("undo", "unsubscribe"):  # one purpose: no other link takes it
        assert httpx.post(f"{base}/api/mail/{other}/{token}").status_code == 404
    engine = sa.create_engine(sqlite_url)
    with engine.begin() as conn:  # expired: refused; then live again for the rest of the test
        conn.execute(sa.update(db.account_tokens).values(expires_at=datetime.now(UTC) - timedelta(seconds=1)))
    assert httpx.get(base + path).status_code == 404
    with engine.begin() as conn:
        conn.execute(sa.update(db.account_tokens).values(expires_at=datetime.now(UTC) + timedelta(days=1)))
    engine.dispose()
    for _ in range(2):  # a scanner's prefetch, twice: still unconfirmed
        page = httpx.get(base + path)
        assert page.status_code == 200 and '<html lang="de"' in page.text
        assert "<h1>E-Mail-Adresse bestätigen</h1>" in page.text and "/static/style.css" in page.text
    assert lena.get("/api/account/mail").json()["confirmed"] is False
    done = httpx.post(base + path)  # signed out
    assert done.status_code == 200 and "<h1>Adresse bestätigt</h1>" in done.text
    assert "lena@test.example" in done.text and lena.get("/api/account/mail").json()["confirmed"] is True
    again = httpx.post(base + path, headers={"Accept-Language": "de"})  # once only; the reader's language
    assert again.status_code == 404 and '<html lang="de"' in again.text and "<h1>" in again.text
    dead = httpx.get(
        base + "/api/mail/confirm/nothing-like-it", headers={"Accept-Language": "ru-RU,ru;q=0.9"}
    )
    assert (
        dead.status_code == 404
        and '<html lang="ru"' in dead.text
        and "<h1>Эта ссылка не работает</h1>" in dead.text
    )
    unsubscribe_page_in_german(srv, lena, box)


def unsubscribe_page_in_german(srv: Server, lena: httpx.Client, box: Inbox) -> None:
    """Lena's "your turn" mail: its unsubscribe page is German, asks first, and its button acts."""
    from tests.web.test_lobby_live import _move

    made = create(srv.url, [{"kind": "human"}, {"kind": "human"}], move_seconds=3600)
    gid = made["game"]["id"]
    lena.post("/api/account/claim", json={"seats": [{"game": gid, "token": made["token"]}]})
    tokens = {0: made["token"], 1: join(srv.url, gid, "Bob")["token"]}
    while httpx.get(f"{srv.url}/api/games/{gid}").json()["to_move"] != 1:
        _move(srv.ws, gid, tokens[0])
    _move(srv.ws, gid, tokens[1])
    turn = box.wait(2)[1]
    stop = srv.url + link_in(turn, "unsubscribe")
    page = httpx.get(stop)
    assert page.status_code == 200 and '<html lang="de"' in page.text and "<h1>" in page.text
    assert "Abbestellen" in page.text and lena.get("/api/account/mail").json()["turns"] is True
    done = httpx.post(stop)
    assert done.status_code == 200 and "<h1>Mail abbestellt</h1>" in done.text
    assert lena.get("/api/account/mail").json()["turns"] is False


def test_a_squatters_claim_gives_way_to_the_owners_click(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path, inbox: tuple[Inbox, int]
) -> None:
    """Eve gives Ann's address; Ann's mail scanner opens Eve's link; Ann signs up and confirms:
    the address is Ann's (it was Eve's, and Ann got 409 email_taken)."""
    box, port = inbox
    base = mailing_server(server_factory, sqlite_url, tmp_path, port).url
    eve = account(base, "Eve", "ann+ra@test.example", {})
    eves_link = base + link_in(box.wait(1)[0], "confirm")
    assert httpx.get(eves_link).status_code == 200  # the prefetch
    ann = account(base, "Ann", "Ann@test.example.", {})
    assert confirm(base, box, 2).status_code == 200
    assert ann.get("/api/account/mail").json()["confirmed"] is True
    assert eve.get("/api/account/mail").json() == {"email": None, "confirmed": False, "turns": True}
    assert httpx.post(eves_link).status_code == 404  # Eve's link died with her claim


def seat_held(ws: str, gid: str, token: str) -> bool:
    """Whether ``token`` still plays its seat: its page gets a state with its seat and a view."""
    import asyncio

    import websockets

    from tests.web.client import Player

    async def main() -> bool:
        page = Player(ws, gid, token)
        await page.connect()
        try:
            m = await page.until(lambda m: m["type"] in ("state", "error"), timeout=10)
        except websockets.ConnectionClosed:
            return False
        finally:
            await page.close()
        return m["type"] == "state" and m.get("seat") == 0 and m.get("view") is not None

    return asyncio.run(main())


def test_sign_out_everywhere_and_a_new_password_end_seat_tokens_a_session_made(server: Server) -> None:
    """ "Play on this device" tokens minted from a stolen session kept playing the owner's moves
    after "sign out everywhere" and after a new password."""
    from tests.web.test_account_devices import sign_in
    from tests.web.test_accounts import PASSWORD as SECRET
    from tests.web.test_accounts import sign_up

    made = create(server.url, [{"kind": "human"}, {"kind": "human"}])
    gid = made["game"]["id"]
    join(server.url, gid, "Bob")
    owner = sign_up(server.url, "Ann", [{"game": gid, "token": made["token"]}])
    for end in ("everywhere", "password"):
        thief = sign_in(server.url, "Ann")
        stolen = thief.post(f"/api/account/seats/{gid}/0/here").json()["token"]
        assert seat_held(server.ws, gid, stolen)
        if end == "everywhere":
            assert owner.post("/api/account/logout-everywhere").status_code == 200
        else:
            r = owner.post("/api/account/password", json={"current": SECRET, "password": SECRET})
            assert r.status_code == 200, r.text
        assert thief.get("/api/account").status_code == 401
        assert not seat_held(server.ws, gid, stolen), end
        owner = sign_in(server.url, "Ann")
    mine = owner.post(f"/api/account/seats/{gid}/0/here")  # the owner takes the seat back
    assert mine.status_code == 200 and seat_held(server.ws, gid, mine.json()["token"])
    assert owner.post("/api/account/logout").status_code == 200  # signing out here ends it too
    assert not seat_held(server.ws, gid, mine.json()["token"])


def test_confirmation_mails_are_limited_per_account_and_per_inbox_across_two_workers(
    server_factory: type[Server], pg_url: str, tmp_path: Path, inbox: tuple[Inbox, int]
) -> None:
    """One account changed its address 30 times: 30 strangers mailed; an inbox got 3 under
    ``a@x.net``, ``a@x.net.``, ``a+a@x.net``; each worker counted alone."""
    box, port = inbox
    env = {"RA_SMTP_URL": f"smtp://127.0.0.1:{port}?from=ra@test.example", "RA_PUBLIC_URL": "https://ra.test"}
    workers = [server_factory(pg_url, tmp_path / f"{w}.log", env=env).start().url for w in "ab"]
    spammer = account(workers[0], "Buypills", "", {})
    for i in range(30):
        spammer.base_url = httpx.URL(workers[i % 2])
        assert spammer.post("/api/account/email", json={"email": f"s{i}@test.example"}).status_code == 200
    mailed = box.wait(4, timeout=2)
    assert len(mailed) == 3  # per account, whichever worker asked
    assert not any("Buypills" in text_of(m) for m in mailed)
    for i, variant in enumerate(
        ["v@test.example", "V@test.example.", "v+a@test.example", "v+b@TEST.example"]
    ):
        who = account(workers[i % 2], f"Cy{i}", variant, {})
        assert who.get("/api/account/mail").json()["email"] == variant
    assert len(box.wait(6, timeout=2)) == 3 + 2  # per inbox: two a day


def test_no_mailed_links_token_reaches_the_log_even_at_debug_level(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path, inbox: tuple[Inbox, int]
) -> None:
    """The confirm link's token was written to the log at debug level (the access log)."""
    box, port = inbox
    env = {"RA_SMTP_URL": f"smtp://127.0.0.1:{port}?from=ra@test.example", "RA_PUBLIC_URL": "https://ra.test"}
    log = tmp_path / "debug.log"
    base = server_factory(sqlite_url, log, env=env, log_level="debug").start().url
    account(base, "Ann", "ann@test.example", {})
    assert confirm(base, box, 1).status_code == 200
    token = link_in(box.mail[0], "confirm").rsplit("/", 1)[1]
    text = log.read_text()
    assert "/api/mail/confirm/[redacted]" in text  # the access log was on, and said the path
    assert token not in text


def test_the_migration_keeps_mail_already_sent_working_and_stores_its_tokens_hashed(
    empty_sqlite_url: str,
) -> None:
    """0019: a plain ``mail_token`` becomes a hashed token of one purpose (an unsubscribe link
    for a confirmed address, a confirm link for one not yet), the address gets its key."""
    import hashlib

    db.upgrade(empty_sqlite_url, "0018")
    engine = sa.create_engine(empty_sqlite_url)
    t = datetime.now(UTC)
    rows = [("a1", "Ann", "Ann+ra@X.net.", True, "plain-one"), ("a2", "Bob", "bob@x.net", False, "plain-two")]
    with engine.begin() as conn:
        for i, name, email, confirmed, token in rows:
            conn.execute(
                sa.text(
                    "INSERT INTO accounts (id, name, name_key, password_hash, email, email_confirmed, "
                    "mail_token, created_at) VALUES (:i, :n, :k, 'x', :e, :c, :t, :at)"
                ),
                {"i": i, "n": name, "k": name.lower(), "e": email, "c": confirmed, "t": token, "at": t},
            )
    engine.dispose()
    db.upgrade(empty_sqlite_url)
    engine = sa.create_engine(empty_sqlite_url)
    with engine.connect() as conn:
        kept = conn.execute(sa.select(db.account_tokens.c.token_hash, db.account_tokens.c.purpose)).all()
        keys = dict(conn.execute(sa.select(db.accounts.c.id, db.accounts.c.email_key)).all())
    engine.dispose()
    digest = {token: hashlib.sha256(token.encode()).hexdigest() for *_, token in rows}
    assert sorted(kept) == sorted([(digest["plain-one"], "unsubscribe"), (digest["plain-two"], "confirm")])
    assert keys == {"a1": "ann@x.net", "a2": "bob@x.net"}
