"""An account's seats on another device (issue 21): the account page lists the games in play,
your turn first, and "Play on this device" gives the seat a new token — the old device's pages
close (4401) and its token acts no more; nobody else's account, a finished game, or a request
without the page's CSRF token gets one."""

from __future__ import annotations

import asyncio

import httpx
import pytest
import websockets

from ra.web.testing import Server
from tests.web.client import Player, create, join
from tests.web.test_accounts import PASSWORD, sign_up


def sign_in(base: str, name: str) -> httpx.Client:
    """Another device: its own cookies, signed in as ``name``."""
    client = httpx.Client(base_url=base, timeout=10)
    r = client.post("/api/account/login", json={"name": name, "password": PASSWORD})
    assert r.status_code == 200, r.text
    client.headers["X-CSRF-Token"] = r.json()["csrf"]
    return client


def test_a_seat_moves_to_the_accounts_new_device(server: Server) -> None:
    made = create(server.url, [{"kind": "human"}, {"kind": "human"}])
    gid = made["game"]["id"]
    bob = join(server.url, gid, "Bob")
    sign_up(server.url, "Ann", [{"game": gid, "token": made["token"]}])
    phone = sign_in(server.url, "Ann")
    listed = phone.get("/api/players/Ann").json()["games"]
    assert [(g["id"], g["seat"], g["status"]) for g in listed] == [(gid, 0, "running")]
    assert listed[0]["to_move"] in (0, 1)
    url = f"/api/account/seats/{gid}/0/here"
    csrf = phone.headers.pop("X-CSRF-Token")
    assert phone.post(url).json()["error"] == "csrf"
    phone.headers["X-CSRF-Token"] = csrf
    # Someone else's account, or another seat: no token.
    zoe = sign_up(server.url, "Zoe")
    assert zoe.post(url).status_code == 404
    assert phone.post(f"/api/account/seats/{gid}/1/here").status_code == 404

    async def main() -> None:
        laptop = Player(server.ws, gid, made["token"])
        await laptop.connect()
        await laptop.until(lambda m: m["type"] == "state" and m["view"] is not None)
        moved = phone.post(url).json()
        assert moved["seat"] == 0 and moved["token"] != made["token"]
        # The laptop's page is closed with "seat lost"; its token acts no more.
        with pytest.raises(websockets.ConnectionClosed) as closed:
            for _ in range(100):
                await laptop.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
        r = httpx.post(f"{server.url}/api/games/{gid}/leave", json={"token": made["token"]}, timeout=10)
        assert r.status_code in (403, 404, 409)
        here = Player(server.ws, gid, moved["token"])
        await here.connect()
        state = await here.until(lambda m: m["type"] == "state" and m["view"] is not None)
        assert state["seat"] == 0
        await here.close()
        bo = Player(server.ws, gid, bob["token"])  # Bob's seat is untouched
        await bo.connect()
        assert (await bo.until(lambda m: m["type"] == "state" and m["view"] is not None))["seat"] == 1
        await bo.close()

    asyncio.run(main())


def test_no_new_token_for_a_finished_game(server: Server) -> None:
    from tests.web.test_server import play

    made = create(server.url, [{"kind": "human"}, {"kind": "bot", "level": "random"}])
    gid = made["game"]["id"]

    async def finish() -> None:
        ann = Player(server.ws, gid, made["token"], seed=2)
        await ann.connect()
        await play([ann])
        await ann.close()

    asyncio.run(finish())
    ann = sign_up(server.url, "Ann", [{"game": gid, "token": made["token"]}])
    assert ann.post(f"/api/account/seats/{gid}/0/here").status_code == 404
