"""'Your turn' by e-mail in games by turns (issue 21), against a real local SMTP server (aiosmtpd)
and a real ra serve, across a restart."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import Message
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from ra.web import db
from ra.web.testing import Server, free_port
from tests.web.client import Player, create, join
from tests.web.test_lobby_live import _move

aiosmtpd = pytest.importorskip("aiosmtpd.controller", reason="aiosmtpd is not installed")
PASSWORD = "mail-me-please"
HOUR = 3600


class Inbox:
    """An SMTP server on loopback that keeps what it is sent."""

    def __init__(self) -> None:
        self.mail: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's name
        message = message_from_bytes(envelope.content, policy=policy.default)
        message["X-Rcpt"] = ",".join(envelope.rcpt_tos)
        self.mail.append(message)
        return "250 OK"

    def wait(self, count: int, timeout: float = 15) -> list[Message]:
        deadline = time.monotonic() + timeout
        while len(self.mail) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        return self.mail


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    port = free_port()
    box = Inbox()
    controller = aiosmtpd.Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    yield box, port
    controller.stop()


def mailing_server(server_factory: type[Server], sqlite_url: str, tmp_path: Path, port: int) -> Server:
    """``ra serve`` mailing through the test's SMTP server on ``port``, its links to ra.test."""
    env = {"RA_SMTP_URL": f"smtp://127.0.0.1:{port}?from=ra@test.example", "RA_PUBLIC_URL": "https://ra.test"}
    return server_factory(sqlite_url, tmp_path / "s.log", env=env).start()


def account(base: str, name: str, email: str, seat: dict[str, str], lang: str = "en") -> httpx.Client:
    """``name`` signed up (with ``seat``) from its own client; the address not confirmed yet."""
    body = {"name": name, "password": PASSWORD, "email": email, "lang": lang, "seats": [seat] if seat else []}
    client = httpx.Client(base_url=base)
    r = client.post("/api/account/signup", json=body)
    assert r.status_code == 200, r.text
    client.headers["X-CSRF-Token"] = r.json()["csrf"]
    return client


def text_of(message: Message) -> str:
    body = message.get_payload(decode=True)
    assert isinstance(body, bytes)
    return body.decode()


def confirm(base: str, box: Inbox, count: int) -> httpx.Response:
    """Open the confirmation link of the ``count``-th mail (it names the public URL) and press
    its page's button (opening it alone confirms nothing: issue 52)."""
    mail = box.wait(count)
    assert len(mail) >= count, [m["Subject"] for m in mail]
    path = re.search(r"/api/mail/confirm/\S+", text_of(mail[count - 1]))
    assert path is not None
    page = httpx.get(base + path.group(0))
    assert page.status_code == 200 and '<form method="post"' in page.text, page.text
    return httpx.post(base + path.group(0))


def test_each_turn_of_a_game_by_turns_is_mailed_across_a_restart(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path, inbox: tuple[Inbox, int]
) -> None:
    box, port = inbox
    srv = mailing_server(server_factory, sqlite_url, tmp_path, port)
    made = create(srv.url, [{"kind": "human"}, {"kind": "human"}], move_seconds=HOUR)
    gid = made["game"]["id"]
    # Ann has an account with an address (in Russian), which she confirms; Bob is a guest: no mail.
    account(srv.url, "Ann", "ann@test.example", {"game": gid, "token": made["token"]}, lang="ru")
    assert confirm(srv.url, box, 1).status_code == 200  # redirected to her account page
    bob = join(srv.url, gid, "Bob")  # the game starts
    tokens = {0: made["token"], 1: bob["token"]}
    first = httpx.get(f"{srv.url}/api/games/{gid}").json()["to_move"]
    expected = 2 if first == 0 else 1
    mail = box.wait(expected, timeout=5 if expected else 1)
    assert len(mail) == expected  # at the start, only if Ann moves first
    while httpx.get(f"{srv.url}/api/games/{gid}").json()["to_move"] != 1:
        _move(srv.ws, gid, tokens[0])
    before = len(box.mail)
    srv.stop()  # the server restarts between turns; nobody's page is open
    srv.start()
    _move(srv.ws, gid, tokens[1])  # Bob's move: Ann's turn, by mail
    mail = box.wait(before + 1)
    assert len(mail) == before + 1
    last = mail[-1]
    assert last["X-Rcpt"] == "ann@test.example" and last["From"] == "ra@test.example"
    assert gid in last["Subject"] and "Ваш ход" in last["Subject"]
    assert f"https://ra.test/g/{gid}" in text_of(last)
    # RFC 5322's Date and Message-ID, and RFC 8058's one-click unsubscribe
    assert last["Date"] and last["Message-ID"].endswith("@test.example>")
    assert last["List-Unsubscribe"].strip().startswith("<https://ra.test/api/mail/unsubscribe/")
    assert last["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_bad_addresses_and_smtp_urls_are_refused(server: Server) -> None:
    for bad in ("no-at-sign", "a@b", "ann@x.org\nBcc: all@x.org", "<ann@x.org>"):
        r = httpx.post(
            server.url + "/api/account/signup", json={"name": "Ann", "password": PASSWORD, "email": bad}
        )
        assert r.status_code == 422, bad
    from ra.web.mail import parse_smtp

    assert parse_smtp("smtps://u:p%40ss@mail.example.org?from=x@y.org").password == "p@ss"
    for bad in ("http://mail.example.org", "smtp://", "smtp://host:notaport"):
        with pytest.raises(ValueError):
            parse_smtp(bad)


def test_an_address_gets_only_its_confirmation_until_confirmed_and_mail_can_be_stopped(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path, inbox: tuple[Inbox, int]
) -> None:
    """Issue 40, finding 3: a stranger's address once got 47 mails in 4 s; "your turn" came on
    every turn even with the table open; nothing could be stopped."""
    box, port = inbox
    srv = mailing_server(server_factory, sqlite_url, tmp_path, port)
    base = srv.url
    # Five accounts signed up with a stranger's address, from five machines: two mails (a
    # squatter's link and its owner's; issue 52: per inbox, a day).
    for i in range(5):
        other = httpx.Client(base_url=base, transport=httpx.HTTPTransport(local_address=f"127.0.4.{i + 1}"))
        body = {"name": f"Spam{i}", "password": PASSWORD, "email": "stranger@test.example"}
        assert other.post("/api/account/signup", json=body).status_code == 200
    time.sleep(1)
    assert len(box.mail) == 2 and "/api/mail/confirm/" in text_of(box.mail[0])
    assert confirm(base, box, 1).status_code == 200  # one of them confirms it...
    engine = sa.create_engine(sqlite_url)
    with engine.connect() as conn:  # ...and the others' claims on it are gone (issue 52)
        claims = conn.scalars(sa.select(db.accounts.c.email).where(db.accounts.c.email.is_not(None)))
        assert list(claims) == ["stranger@test.example"]
    engine.dispose()
    other = account(base, "Cy", "STRANGER@test.example", {})
    time.sleep(1)
    assert len(box.mail) == 2  # no third link to that inbox today
    assert other.get("/api/account/mail").json()["confirmed"] is False
    # An unconfirmed address gets no "your turn".
    made = create(base, [{"kind": "human"}, {"kind": "human"}], move_seconds=HOUR)
    gid = made["game"]["id"]
    ann = account(base, "Ann", "ann@test.example", {"game": gid, "token": made["token"]})
    assert ann.get("/api/account/mail").json() == {
        "email": "ann@test.example",
        "confirmed": False,
        "turns": True,
    }
    bob = join(base, gid, "Bob")
    tokens = {0: made["token"], 1: bob["token"]}
    while httpx.get(f"{base}/api/games/{gid}").json()["to_move"] != 1:
        _move(srv.ws, gid, tokens[0])
    _move(srv.ws, gid, tokens[1])  # Ann's turn: unconfirmed, so only her link has come
    time.sleep(1)
    assert [m["X-Rcpt"] for m in box.mail] == ["stranger@test.example"] * 2 + ["ann@test.example"]
    assert confirm(base, box, 3).status_code == 200 and ann.get("/api/account/mail").json()["confirmed"]
    # Confirmed: her next turn is mailed, with a one-click unsubscribe (RFC 8058).
    while httpx.get(f"{base}/api/games/{gid}").json()["to_move"] != 1:
        _move(srv.ws, gid, tokens[0])
    time.sleep(0.5)  # her page (the move's socket) has closed: she is not looking
    _move(srv.ws, gid, tokens[1])
    mail = box.wait(4)
    assert len(mail) == 4, [m["X-Rcpt"] for m in mail]
    turn = mail[3]
    assert turn["X-Rcpt"] == "ann@test.example" and gid in turn["Subject"]
    stop = turn["List-Unsubscribe"].strip().strip("<>").replace("https://ra.test", base)
    assert "Stop it" in httpx.get(stop).text  # a GET (a mail scanner's) only asks
    assert ann.get("/api/account/mail").json()["turns"] is True
    assert httpx.post(stop, data={"List-Unsubscribe": "One-Click"}).status_code == 200
    assert ann.get("/api/account/mail").json()["turns"] is False
    assert ann.post("/api/account/mail", json={"turns": True}).json()["turns"] is True  # and back on
    # The address can be changed (unconfirmed again: a new link) or removed.
    changed = ann.post("/api/account/email", json={"email": "ann2@test.example"}).json()
    assert changed == {"email": "ann2@test.example", "confirmed": False, "turns": True, "mailed": True}
    mail = box.wait(6)  # her confirmed address is told (with an undo link), the new one asked
    assert sorted(m["X-Rcpt"] for m in mail[4:]) == ["ann2@test.example", "ann@test.example"]
    assert ann.post("/api/account/email", json={"email": None}).json()["email"] is None


def test_no_turn_mail_while_the_player_has_the_table_open(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path, inbox: tuple[Inbox, int]
) -> None:
    box, port = inbox
    srv = mailing_server(server_factory, sqlite_url, tmp_path, port)
    made = create(srv.url, [{"kind": "human"}, {"kind": "human"}], move_seconds=HOUR)
    gid = made["game"]["id"]
    account(srv.url, "Ann", "ann@test.example", {"game": gid, "token": made["token"]})
    assert confirm(srv.url, box, 1).status_code == 200

    async def with_anns_page_open() -> None:
        page = Player(srv.ws, gid, made["token"])
        await page.connect()  # her page is open before the game starts
        tokens = {0: made["token"], 1: (await asyncio.to_thread(join, srv.url, gid, "Bob"))["token"]}
        await page.until(lambda m: m["type"] == "state" and m["view"] is not None)
        for _ in range(4):  # Ann's turns come and go while her page is open
            state = await page.state_now()
            if state["legal"]:
                await page.play_random()
            else:
                await asyncio.to_thread(_move, srv.ws, gid, tokens[1])
            await asyncio.sleep(0.3)
        await page.close()

    asyncio.run(with_anns_page_open())
    time.sleep(1)
    assert [m["X-Rcpt"] for m in box.mail] == ["ann@test.example"]  # only the confirmation link


def test_turns_in_several_games_come_in_one_mail_and_not_one_each(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path, inbox: tuple[Inbox, int]
) -> None:
    """Issue 40: "your turn" is batched — the mail lists every game where it is the person's
    turn ("it is your turn in 3 games"), and turns that come soon after a mail wait for the next."""
    box, port = inbox
    srv = mailing_server(server_factory, sqlite_url, tmp_path, port)
    tables = []
    for _ in range(3):
        made = create(srv.url, [{"kind": "human"}, {"kind": "human"}], move_seconds=HOUR)
        gid = made["game"]["id"]
        tables.append((gid, {0: made["token"], 1: join(srv.url, gid, "Bob")["token"]}))

    def to_move(gid: str) -> int:
        return int(httpx.get(f"{srv.url}/api/games/{gid}").json()["to_move"])

    def until_turn_of(seat: int, gid: str, tokens: dict[int, str]) -> None:
        while (mover := to_move(gid)) != seat:
            _move(srv.ws, gid, tokens[mover])

    first, *others = tables
    until_turn_of(1, *first)  # Bob to move in the first game, Ann in the other two
    for table in others:
        until_turn_of(0, *table)
    seats = [{"game": gid, "token": tokens[0]} for gid, tokens in tables]
    body = {"name": "Ann", "password": PASSWORD, "email": "ann@test.example", "lang": "ru", "seats": seats}
    assert httpx.post(srv.url + "/api/account/signup", json=body).status_code == 200
    assert confirm(srv.url, box, 1).status_code == 200
    _move(srv.ws, first[0], first[1][1])  # Bob moves: Ann's turn in all three games
    mail = box.wait(2)
    assert len(mail) == 2
    assert mail[1]["Subject"] == "Ваш ход в «Ра»: 3 игры"
    text = text_of(mail[1])
    assert "ваш ход в 3 играх" in text
    assert all(f"https://ra.test/g/{gid}" in text for gid, _ in tables)
    # Ann plays on in one game and it is her turn there again soon: no second mail yet.
    gid, tokens = others[0]
    _move(srv.ws, gid, tokens[0])
    until_turn_of(0, gid, tokens)
    time.sleep(1.5)
    assert len(box.mail) == 2
