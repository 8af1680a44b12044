"""'Your turn' by e-mail in games by turns (issue 21), against a real local SMTP server (aiosmtpd)
and a real ra serve, across a restart."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import Message
from pathlib import Path
from typing import Any

import httpx
import pytest

from ra.web.testing import Server
from tests.web.client import create, join
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
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    box = Inbox()
    controller = aiosmtpd.Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    yield box, port
    controller.stop()


def account(base: str, name: str, email: str, seat: dict[str, str], lang: str = "en") -> None:
    body = {"name": name, "password": PASSWORD, "email": email, "lang": lang, "seats": [seat]}
    r = httpx.post(base + "/api/account/signup", json=body)
    assert r.status_code == 200, r.text


def test_each_turn_of_a_game_by_turns_is_mailed_across_a_restart(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path, inbox: tuple[Inbox, int]
) -> None:
    box, port = inbox
    env = {"RA_SMTP_URL": f"smtp://127.0.0.1:{port}?from=ra@test.example", "RA_PUBLIC_URL": "https://ra.test"}
    srv = server_factory(sqlite_url, tmp_path / "s.log", env=env).start()
    made = create(srv.url, [{"kind": "human"}, {"kind": "human"}], move_seconds=HOUR)
    gid = made["game"]["id"]
    # Ann has an account with an address (in Russian); Bob is a guest: no mail for him.
    account(srv.url, "Ann", "ann@test.example", {"game": gid, "token": made["token"]}, lang="ru")
    bob = join(srv.url, gid, "Bob")  # the game starts
    tokens = {0: made["token"], 1: bob["token"]}
    first = httpx.get(f"{srv.url}/api/games/{gid}").json()["to_move"]
    expected = 1 if first == 0 else 0
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
    body = last.get_payload(decode=True)
    assert isinstance(body, bytes) and f"https://ra.test/g/{gid}" in body.decode()


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
