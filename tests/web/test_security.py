"""Attacks on a real ``ra serve`` on loopback, each a defect found once (issue 18), now refused.

Every test drives the server as a hostile browser or script would: a seat's connection
after its player left, binary and oversized frames, foreign ``Origin`` and ``Host``,
a rematch race, floods of imports, framing, and tokens in the logs.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed, InvalidStatus

from ra.web.testing import Server
from tests.web.client import Player, create, join, next_frame


async def _closed(ws: websockets.ClientConnection, timeout: float = 10) -> tuple[int | None, list[str]]:
    """Read until the server closes; the close code and the texts received meanwhile."""
    got: list[str] = []
    code: int | None = None
    try:
        async with asyncio.timeout(timeout):
            while True:
                got.append(str(await ws.recv()))
    except ConnectionClosed as closed:
        code = closed.rcvd.code if closed.rcvd is not None else None
    return code, got


def test_a_player_who_left_loses_the_seat_and_cannot_hijack_the_newcomer(server: Server) -> None:
    """Leave, keep the socket open, someone else takes the seat and the game starts with
    them to move: the old socket was closed at the leave and can neither read the
    newcomer's view nor move for them."""
    made = create(server.url, [{"kind": "human"}] * 3, hidden_scores=True)
    gid, token = made["game"]["id"], made["token"]
    join(server.url, gid, "Dee")  # she stays: a table its last person left is closed

    async def main() -> None:
        old = Player(server.ws, gid, token)
        await old.connect()
        await old.until(lambda m: m["type"] == "state")
        r = httpx.post(f"{server.url}/api/games/{gid}/leave", json={"token": token})
        assert r.status_code == 200
        code, texts = await _closed(old.ws)
        assert code == 4401
        assert any(json.loads(t).get("code") == "seat_lost" for t in texts)
        # The seat is taken by Carol, then Bob joins: the game starts.
        carol = join(server.url, gid, "Carol")
        assert carol["seat"] == 0
        bob = join(server.url, gid, "Bob")
        c = Player(server.ws, gid, carol["token"])
        await c.connect()
        state = await c.until(lambda m: m["type"] == "state" and m["view"] is not None)
        # The old token is refused outright, and the old socket is gone.
        stale = Player(server.ws, gid, token)
        await stale.connect()
        code, texts = await _closed(stale.ws)
        assert code == 4401 and "bad_token" in "".join(texts)
        with pytest.raises(ConnectionClosed):
            await old.send({"type": "action", "action": "draw", "n": state["n"]})
        now = await c.state_now()
        assert now["n"] == state["n"]  # nothing was played for Carol
        await c.close()
        assert bob["seat"] == 2

    asyncio.run(main())


def test_binary_and_oversized_frames_are_refused_without_a_traceback(server: Server) -> None:
    made = create(server.url, [{"kind": "human"}, {"kind": "bot", "level": "random"}])
    gid, token = made["game"]["id"], made["token"]

    async def main() -> None:
        # A binary frame after hello: an error, then close 1003.
        p = Player(server.ws, gid, token)
        await p.connect()
        await p.until(lambda m: m["type"] == "state")
        await p.ws.send(b"\x00\x01binary")
        code, texts = await _closed(p.ws)
        assert code == 1003 and any("binary" in t for t in texts)
        # A binary hello: the same.
        ws = await websockets.connect(f"{server.ws}/ws/games/{gid}")
        await ws.send(b"\x81hello")
        code, _ = await _closed(ws)
        assert code == 1003
        # A 1 MiB message in fragments: closed with 1009 (message too big).
        ws = await websockets.connect(f"{server.ws}/ws/games/{gid}", max_size=None)
        await ws.send(json.dumps({"type": "hello", "token": token}))

        async def fragments() -> AsyncIterator[str]:
            for _ in range(16):  # 16 x 64 KiB
                yield "x" * 65536
                await asyncio.sleep(0.05)

        with contextlib.suppress(ConnectionClosed):
            await ws.send(fragments())
        code, _ = await _closed(ws)
        assert ws.close_code == 1009, (ws.close_code, code)

    asyncio.run(main())
    log = server.log_path.read_text()
    assert "Traceback" not in log and "KeyError" not in log, log[-2000:]


def test_foreign_origin_and_host_are_refused(server: Server) -> None:
    made = create(server.url, [{"kind": "human"}, {"kind": "bot", "level": "random"}])
    gid = made["game"]["id"]
    url = f"{server.ws}/ws/games/{gid}"

    async def main() -> None:
        for origin in ("http://evil.example", "null", "http://127.0.0.1:1"):
            with pytest.raises(InvalidStatus) as refused:
                await websockets.connect(url, origin=websockets.Origin(origin))
            assert refused.value.response.status_code == 403, origin
        own = await websockets.connect(url, origin=websockets.Origin(server.url))
        await own.send(json.dumps({"type": "hello"}))
        assert json.loads(await next_frame(own))["type"] == "state"
        await own.close()
        with socket.create_connection(("127.0.0.1", server.port)) as sock, pytest.raises(InvalidStatus):
            await websockets.connect(f"ws://evil.example:{server.port}/ws/games/{gid}", sock=sock)

    asyncio.run(main())
    r = httpx.post(
        server.url + "/api/games",
        json={"seats": [{"kind": "human"}, {"kind": "human"}], "name": "Eve"},
        headers={"Host": "rebound.evil.example"},
    )
    assert r.status_code == 400 and r.json()["error"] == "bad_host"
    assert httpx.get(server.url + "/", headers={"Host": f"localhost:{server.port}"}).status_code == 200


def test_allowed_origin_and_host_options(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path
) -> None:
    s = server_factory(
        sqlite_url,
        tmp_path / "s.log",
        args=("--allowed-origin", "https://club.example", "--allowed-host", "ra.club.example"),
    ).start()
    made = create(s.url, [{"kind": "human"}, {"kind": "bot", "level": "random"}])

    async def main() -> None:
        url = f"{s.ws}/ws/games/{made['game']['id']}"
        ws = await websockets.connect(url, origin=websockets.Origin("https://club.example"))
        await ws.close()

    asyncio.run(main())
    assert httpx.get(s.url + "/health", headers={"Host": "ra.club.example"}).status_code == 200


def test_a_rematch_race_makes_one_table(server: Server) -> None:
    made = create(server.url, [{"kind": "human"}, {"kind": "human"}], bot_delay=0)
    gid = made["game"]["id"]
    bob = join(server.url, gid, "Bob")

    async def finish() -> None:
        from tests.web.test_server import play

        ann, bo = Player(server.ws, gid, made["token"], seed=1), Player(server.ws, gid, bob["token"], seed=2)
        for p in (ann, bo):
            await p.connect()
            await p.until(lambda m: m["type"] == "state")
        await play([ann, bo])
        await ann.close()
        await bo.close()

    asyncio.run(finish())

    async def race() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=server.url) as c:
            return list(
                await asyncio.gather(
                    c.post(f"/api/games/{gid}/again", json={"token": made["token"]}),
                    c.post(f"/api/games/{gid}/again", json={"token": bob["token"]}),
                )
            )

    answers = asyncio.run(race())
    assert [r.status_code for r in answers] == [200, 200], [r.text for r in answers]
    tables = {r.json()["game"]["id"] for r in answers}
    assert len(tables) == 1
    listed = httpx.get(server.url + "/api/games", params={"status": "open"}).json()["games"]
    running = httpx.get(server.url + "/api/games", params={"status": "running"}).json()["games"]
    assert {g["id"] for g in listed + running} <= tables  # no orphan table left open


def test_imports_are_json_only_and_limited(server: Server) -> None:
    import ra

    game = ra.Game(players=["A", "B"], seed=3)
    while not game.is_over():
        game.apply(game.legal_actions()[0])
    record = game.to_record()
    plain = {"Content-Type": "text/plain"}
    r = httpx.post(server.url + "/api/records", content=json.dumps(record), headers=plain)
    assert r.status_code == 415 and r.json()["error"] == "bad_content_type"
    codes = [httpx.post(server.url + "/api/records", json=record).status_code for _ in range(8)]
    assert codes[:5] == [200] * 5 and set(codes[5:]) == {429}, codes
    finished = httpx.get(server.url + "/api/games", params={"status": "finished"}).json()["games"]
    assert len(finished) == 5


PAGES = ("/", "/g/abc", "/replay/abc", "/rules", "/static/style.css", "/api/games", "/health", "/nowhere")


def test_every_page_forbids_framing_inline_script_and_referrers(server: Server) -> None:
    for path in PAGES:
        r = httpx.get(server.url + path)
        csp = r.headers.get("content-security-policy", "")
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp, path
        assert "unsafe-inline" not in csp.split("script-src", 1)[1].split(";")[0], path
        assert r.headers.get("referrer-policy") == "no-referrer", path
        assert r.headers.get("x-frame-options") == "DENY", path
    for page in ("index.html", "table.html", "replay.html", "rules.html"):
        html = httpx.get(server.url + ("/" if page == "index.html" else "/rules")).text
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), page


def test_no_token_reaches_the_log_at_debug_level(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path
) -> None:
    log_path = tmp_path / "debug.log"
    s = server_factory(sqlite_url, log_path, log_level="debug").start()
    made = create(s.url, [{"kind": "human"}, {"kind": "human"}])
    gid = made["game"]["id"]
    bob = join(s.url, gid, "Bob")
    tokens = [made["token"], bob["token"]]
    httpx.get(s.url + made["link"])  # the seat link, as a browser opens it
    httpx.post(f"{s.url}/api/games/{gid}/leave", json={"token": "wrong-" + made["token"]})

    async def main() -> None:
        for t in tokens:
            p = Player(s.ws, gid, t)
            await p.connect()
            await p.until(lambda m: m["type"] == "state")
            await p.close()

    asyncio.run(main())
    s.stop()
    text = log_path.read_text()
    assert "GET /g/" in text or "hello" in text or "connection open" in text  # debug lines were written
    for t in tokens:
        assert t not in text
        assert t[:12] not in text
