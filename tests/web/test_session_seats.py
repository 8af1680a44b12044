"""Seat tokens made while signed in end with their session (issue 52): a table created, joined
or found by quick play from a signed-in page gives a token that "Sign out", "Sign out
everywhere" and a new password end, as "Play on this device" tokens always did — so a thief
with a moment of the session's access keeps no seat.  A guest's token is not touched.  On a
real server, with real sockets."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import websockets

from ra.web.testing import Server
from tests.web.client import Player, create
from tests.web.test_account_devices import sign_in
from tests.web.test_account_password import NEW
from tests.web.test_accounts import PASSWORD, sign_up

BOT = {"kind": "bot", "level": "easy"}


def holds(server: Server, game_id: str, token: str) -> bool:
    """Whether ``token`` still holds its seat: a page with it is given the seat's view."""

    async def main() -> bool:
        page = Player(server.ws, game_id, token)
        await page.connect()
        try:
            m = await page.until(lambda m: m["type"] in ("state", "error"), timeout=20)
        except websockets.ConnectionClosed:
            return False
        finally:
            await page.close()
        return m["type"] == "state" and m["seat"] is not None

    return asyncio.run(main())


def made_by(client: httpx.Client, seats: list[dict[str, str]], name: str = "Ann") -> tuple[str, str]:
    """A table created by ``client`` (its cookies: signed in or not): its id and the seat's token."""
    r = client.post("/api/games", json={"seats": seats, "name": name, "bot_delay": 0})
    assert r.status_code == 200, r.text
    return r.json()["game"]["id"], r.json()["token"]


def test_sign_out_everywhere_ends_the_seat_tokens_made_while_signed_in(server: Server) -> None:
    base = server.url
    laptop = sign_up(base, "Ann")
    created = made_by(laptop, [{"kind": "human"}, BOT])
    bobs = create(base, [{"kind": "human"}, {"kind": "human"}], name="Bob")  # a guest's table
    joined = laptop.post(f"/api/games/{bobs['game']['id']}/join", json={"name": "Ann"})
    assert joined.status_code == 200, joined.text
    seek = laptop.post("/api/seek", json={"players": 2, "name": "Ann"})
    tokens = [created, (bobs["game"]["id"], joined.json()["token"])]
    if "token" in seek.json():
        tokens.append((seek.json()["game"]["id"], seek.json()["token"]))
    guest = made_by(httpx.Client(base_url=base, timeout=10), [{"kind": "human"}, BOT], name="Cleo")
    assert all(holds(server, g, t) for g, t in [*tokens, guest])
    # The page claims its seats for the account, as common.js does after a seat is taken.
    claims = [{"game": g, "token": t} for g, t in tokens]
    assert laptop.post("/api/account/claim", json={"seats": claims}).status_code == 200
    assert {g["id"] for g in laptop.get("/api/players/Ann").json()["games"]} >= {g for g, _ in tokens}
    phone = sign_in(base, "Ann")
    assert phone.post("/api/account/logout-everywhere").status_code == 200
    for g, t in tokens:
        assert not holds(server, g, t), g  # what the session made ends with it
    assert holds(server, bobs["game"]["id"], bobs["token"])  # Bob's (a guest's) seat is his
    assert holds(server, *guest)  # a guest's token is nobody's session's


def test_a_new_password_and_signing_out_here_end_that_sessions_seat_tokens(server: Server) -> None:
    base = server.url
    laptop = sign_up(base, "Ann")
    phone = sign_in(base, "Ann")
    on_laptop, on_phone = made_by(laptop, [{"kind": "human"}, BOT]), made_by(phone, [{"kind": "human"}, BOT])
    assert phone.post("/api/account/logout").status_code == 200
    assert not holds(server, *on_phone)  # signed out here: this session's token ends
    assert holds(server, *on_laptop)  # another session's stays
    r = laptop.post("/api/account/password", json={"current": PASSWORD, "password": NEW})
    assert r.status_code == 200, r.text
    assert not holds(server, *on_laptop)  # a new password ends it too


def test_on_postgresql_with_two_workers_sign_out_everywhere_ends_them_too(
    server_factory: type[Server], pg_url: str, tmp_path: Path
) -> None:
    """The same on PostgreSQL: the seat is taken through one worker, the session ended through
    the other, and the token held by a page on either is refused."""
    a, b = (server_factory(pg_url, tmp_path / f"{w}.log").start() for w in "ab")
    laptop = sign_up(a.url, "Ann")
    game_id, token = made_by(laptop, [{"kind": "human"}, BOT])
    assert holds(a, game_id, token) and holds(b, game_id, token)
    phone = sign_in(b.url, "Ann")
    assert phone.post("/api/account/logout-everywhere").status_code == 200
    assert not holds(a, game_id, token) and not holds(b, game_id, token)
