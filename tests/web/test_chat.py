"""Chat at the table (issue 21): players and spectators apart, limits, reports and ``ra admin``,
against a real server on loopback (and two servers sharing PostgreSQL)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from ra.cli import app as cli
from ra.web.chat import BURST, LINES_PER_MINUTE
from ra.web.testing import Server
from tests.web.chromium import needs_chromium
from tests.web.client import Player, create, join, next_frame
from tests.web.test_account_games import run

Msg = dict[str, Any]


def chat_lines(p: Player, history: bool | None = None) -> list[Msg]:
    """Every chat line ``p`` was sent (of the history, the live ones, or both)."""
    return [
        line
        for m in p.messages
        if m["type"] == "chat" and (history is None or m["history"] is history)
        for line in m["lines"]
    ]


def said(text: str) -> Any:
    return lambda m: m["type"] == "chat" and any(line["text"] == text for line in m["lines"])


def error(code: str) -> Any:
    return lambda m: m["type"] == "error" and m["code"] == code


async def quiet(p: Player) -> None:
    """Read what is already on its way (so a test can say what did *not* arrive)."""
    await p.state_now()


def test_players_and_spectators_talk_apart_with_limits(server: Server, tmp_path: Path) -> None:
    base = server.url
    made = create(base, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}])
    gid = made["game"]["id"]
    bob = join(base, gid, "Bob")

    async def main() -> int:
        ann = Player(server.ws, gid, made["token"])
        bo = Player(server.ws, gid, bob["token"])
        zed, yan = Player(server.ws, gid, None), Player(server.ws, gid, None)
        for p in (ann, bo, zed, yan):
            await p.connect()
            await p.until(lambda m: m["type"] == "chat" and m["history"])
        await ann.send({"type": "chat", "text": "  good   luck\tall  "})
        line = (await bo.until(said("good luck all")))["lines"][0]
        assert (line["seat"], line["name"]) == (0, "Ann")  # a seat speaks as itself
        # A spectator speaks to the spectators only, under a name that is no player's.
        await zed.send({"type": "chat", "text": "Bob should pass", "name": "Ann"})
        await zed.until(error("name_taken"))
        await zed.send({"type": "chat", "text": "Bob should pass", "name": "Zed"})
        assert (await yan.until(said("Bob should pass")))["channel"] == "spectators"
        await asyncio.sleep(0.3)
        for p in (ann, bo, zed, yan):
            await quiet(p)
        assert "Bob should pass" not in [x["text"] for x in chat_lines(ann) + chat_lines(bo)]
        assert "good luck all" not in [x["text"] for x in chat_lines(zed) + chat_lines(yan)]
        # Bad lines are refused with the reason and not stored; markup is kept as text.
        for bad, code in (("x" * 301, "bad_message"), ("a\x07b", "bad_message"), ("   ", "bad_message")):
            await ann.send({"type": "chat", "text": bad})
            await ann.until(error(code))
        await ann.send({"type": "chat", "text": "<b>bold</b>"})
        await bo.until(said("<b>bold</b>"))
        # Too many lines too fast: the sixth of a burst is refused.
        for i in range(6):
            await bo.send({"type": "chat", "text": f"spam {i}"})
        await bo.until(error("rate_limited"))
        # A newcomer gets the channel's history, only its own channel's.
        late = Player(server.ws, gid, None)
        await late.connect()
        history = (await late.until(lambda m: m["type"] == "chat" and m["history"]))["lines"]
        assert [x["text"] for x in history] == ["Bob should pass"]
        # Reports: only a line one could see; a player reports Ann's line.
        await zed.send({"type": "report", "id": line["id"]})
        await zed.until(error("not_found"))
        await bo.send({"type": "report", "id": line["id"]})
        await bo.until(lambda m: m["type"] == "reported" and m["id"] == line["id"])
        for p in (ann, bo, zed, yan, late):
            await p.close()
        return int(line["id"])

    line_id = asyncio.run(main())
    db = ["--db", f"sqlite:///{tmp_path / 'ra.db'}"]
    listed = CliRunner().invoke(cli, ["admin", "reports", *db])
    assert listed.exit_code == 0 and f"line {line_id} " in listed.output and "good luck all" in listed.output
    hidden = CliRunner().invoke(cli, ["admin", "hide", str(line_id), *db])
    assert hidden.exit_code == 0, hidden.output
    assert "No open reports" in CliRunner().invoke(cli, ["admin", "reports", *db]).output
    assert CliRunner().invoke(cli, ["admin", "hide", "99999", *db]).exit_code != 0

    async def after() -> None:  # a hidden line is no longer sent to anyone
        again = Player(server.ws, gid, bob["token"])
        await again.connect()
        history = (await again.until(lambda m: m["type"] == "chat" and m["history"]))["lines"]
        assert "good luck all" not in [x["text"] for x in history] and history
        await again.close()

    asyncio.run(after())


def test_a_player_who_left_cannot_speak_for_the_seat(server: Server) -> None:
    base = server.url
    made = create(base, [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    gid = made["game"]["id"]
    bob = join(base, gid, "Bob")

    async def main() -> None:
        ann = Player(server.ws, gid, made["token"])
        bo = Player(server.ws, gid, bob["token"])
        for p in (ann, bo):
            await p.connect()
            await p.until(lambda m: m["type"] == "chat")
        r = await asyncio.to_thread(httpx.post, f"{base}/api/games/{gid}/leave", json={"token": bob["token"]})
        assert r.status_code == 200
        with contextlib.suppress(Exception):  # the server may already have closed the seat's socket
            await bo.send({"type": "chat", "text": "still here"})
        await asyncio.sleep(0.5)
        await quiet(ann)
        assert "still here" not in [x["text"] for x in chat_lines(ann)]
        await ann.close()
        await bo.close()

    asyncio.run(main())


def test_chat_crosses_servers_sharing_postgresql(
    server_factory: type[Server], pg_url: str, tmp_path: Path
) -> None:
    a = server_factory(pg_url, tmp_path / "a.log").start()
    b = server_factory(pg_url, tmp_path / "b.log").start()
    made = create(a.url, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}])
    gid = made["game"]["id"]
    bob = join(b.url, gid, "Bob")

    async def main() -> None:
        ann = Player(a.ws, gid, made["token"])
        bo = Player(b.ws, gid, bob["token"])
        spec = Player(b.ws, gid, None)
        for p in (ann, bo, spec):
            await p.connect()
            await p.until(lambda m: m["type"] == "chat")
        await ann.send({"type": "chat", "text": "hello from a"})
        await bo.until(said("hello from a"))
        await asyncio.sleep(0.3)
        await quiet(spec)
        assert chat_lines(spec, history=False) == []
        for p in (ann, bo, spec):
            await p.close()

    asyncio.run(main())


def test_the_lobby_chat_reaches_every_lobby_page_and_can_be_reported(server: Server, tmp_path: Path) -> None:
    from tests.web.test_lobby_live import Follower

    base = server.url

    async def main() -> int:
        first = await Follower(server.ws).open()
        history = json.loads(await next_frame(first.ws))
        assert history == {"type": "chat", "channel": "lobby", "lines": [], "history": True}
        r = await asyncio.to_thread(
            httpx.post, base + "/api/lobby/chat", json={"name": "Ann", "text": "anyone for 3?"}
        )
        assert r.status_code == 200, r.text
        said = r.json()
        heard = json.loads(await next_frame(first.ws))
        while heard["type"] != "chat":
            heard = json.loads(await next_frame(first.ws))
        assert heard["lines"] == [said] and heard["history"] is False
        late = await Follower(server.ws).open()  # a newcomer gets the last lines first
        assert json.loads(await next_frame(late.ws))["lines"] == [said]
        for page in (first, late):
            await page.close()
        return int(said["id"])

    first_said = time.monotonic()
    line_id = asyncio.run(main())
    for bad in ({"name": "", "text": "x"}, {"name": "Ann", "text": ""}, {"name": "Ann", "text": "x" * 301}):
        assert httpx.post(base + "/api/lobby/chat", json=bad).status_code == 422, bad
    evil = httpx.post(
        base + "/api/lobby/chat",
        json={"name": "Eve", "text": "spam"},
        headers={"Origin": "https://evil.example"},
    )
    assert evil.status_code == 403
    assert httpx.post(f"{base}/api/lobby/chat/{line_id}/report").json() == {"reported": line_id}
    assert httpx.post(f"{base}/api/lobby/chat/999999/report").status_code == 404
    listed = CliRunner().invoke(cli, ["admin", "reports", "--db", f"sqlite:///{tmp_path / 'ra.db'}"])
    assert "the lobby" in listed.output and "anyone for 3?" in listed.output
    # Too many lines too fast are refused. The bucket refills in real time (a loaded machine is
    # slow), so what passes is the burst less the line said above, plus what has refilled since.
    codes: list[int] = []
    while 429 not in codes and len(codes) < 30:
        line = {"name": "Ann", "text": f"x{len(codes)}"}
        codes.append(httpx.post(base + "/api/lobby/chat", json=line).status_code)
    refilled = LINES_PER_MINUTE / 60 * (time.monotonic() - first_said)
    assert 429 in codes, codes
    assert set(codes[:-1]) == {200} and len(codes) - 1 <= BURST - 1 + int(refilled), (codes, refilled)


# --- in the browser --------------------------------------------------------------------------


@pytest.mark.slow
@needs_chromium
def test_chat_in_the_browser_players_spectators_mute_and_report(
    browser: Any, live_server: str, sqlite_url: str
) -> None:
    from tests.web.test_browser import LAPTOP, PHONE, new_page, no_js_errors, no_sideways_scroll, shot

    made = create(live_server, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}])
    gid = made["game"]["id"]
    bob_seat = join(live_server, gid, "Bob")
    ann = new_page(browser, LAPTOP)
    bob = new_page(browser, PHONE, "ru-RU")
    zed = new_page(browser, LAPTOP)
    ann.goto(f"{live_server}/g/{gid}?seat=0&token={made['token']}")
    bob.goto(f"{live_server}/g/{gid}?seat=1&token={bob_seat['token']}")
    zed.goto(f"{live_server}/g/{gid}")
    for page in (ann, bob, zed):
        page.wait_for_selector("#chat-card:not([hidden])")
    assert "Spectators" in zed.locator("#chat-title").inner_text()
    ann.fill("#chat-input", "<b>good</b> luck")
    ann.press("#chat-input", "Enter")  # typing in the chat plays no game keys
    line = bob.locator("#chat-lines .chat-line", has_text="good")
    line.wait_for()
    assert line.locator(".chat-text").inner_text() == "<b>good</b> luck"  # text, not markup
    assert bob.locator("#chat-lines b").count() == 0
    zed.fill("#chat-input", "nice board")
    zed.press("#chat-input", "Enter")  # no name yet: the page asks for one first
    zed.wait_for_selector(".toast.bad")
    zed.fill("#chat-name", "Zed")
    zed.press("#chat-input", "Enter")
    zed.wait_for_selector("#chat-lines .chat-line.mine")
    ann.wait_for_timeout(500)
    assert ann.locator("#chat-lines .chat-line").count() == 1  # the spectators' line never came
    assert zed.locator("#chat-lines", has_text="good").count() == 0
    shot(ann, "chat-en-laptop")
    # Bob mutes Ann (in his browser only), brings her back, then reports her line.
    line.locator(".chat-more").click()
    bob.locator(".chat-mute").click()
    bob.wait_for_selector("#chat-muted:not([hidden])")
    assert bob.locator("#chat-lines .chat-line").count() == 0
    bob.click("#chat-unmute")
    line.wait_for()
    line.locator(".chat-more").click()
    bob.locator(".chat-report").click()
    bob.wait_for_selector(".toast:has-text('Жалоба')")
    shot(bob, "chat-ru-phone")
    no_sideways_scroll(bob)
    with ThreadPoolExecutor(1) as pool:  # the CLI's own event loop, off Playwright's thread
        listed = pool.submit(CliRunner().invoke, cli, ["admin", "reports", "--db", sqlite_url]).result()
    assert "<b>good</b> luck" in listed.output
    for page in (ann, bob, zed):
        no_js_errors(page)
        page.context.close()


def test_a_chat_line_says_when_its_name_is_said_by_its_account(server: Server) -> None:
    """Issue 40: a name said by the account whose name it is (a seat it holds, or signed in to
    the lobby) is marked, and the pages link it to its profile; a guest's name is plain."""
    base = server.url
    ann = httpx.Client(base_url=base, headers={"Origin": base})
    signed = ann.post("/api/account/signup", json={"name": "Ann", "password": "sun-and-nile-8"})
    assert signed.status_code == 200, signed.text
    ann.headers["X-CSRF-Token"] = signed.json()["csrf"]
    made = ann.post(
        "/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}], "name": "Ann", "bot_delay": 0}
    )
    assert made.status_code == 200, made.text
    gid = made.json()["game"]["id"]
    bob = join(base, gid, "Bob")

    async def main() -> None:
        a = Player(server.ws, gid, made.json()["token"])
        b = Player(server.ws, gid, bob["token"])
        for p in (a, b):
            await p.connect()
            await p.until(lambda m: m["type"] == "chat")
        # the page claims its seat for the account once the table is open (the table learns at once)
        seat = [{"game": gid, "token": made.json()["token"]}]
        claimed = await asyncio.to_thread(ann.post, "/api/account/claim", json={"seats": seat})
        assert claimed.json() == {"claimed": 1}, claimed.text
        await a.send({"type": "chat", "text": "from the account"})
        await b.until(said("from the account"))
        await b.send({"type": "chat", "text": "from a guest"})
        await a.until(said("from a guest"))
        marks = {x["text"]: x["account"] for x in chat_lines(a)}
        assert marks == {"from the account": True, "from a guest": False}
        for p in (a, b):
            await p.close()

    run(main)  # off this thread: a module's browser tests keep Playwright's loop running here
    mine = ann.post("/api/lobby/chat", json={"name": "Ann", "text": "hello lobby"})
    guest = httpx.post(f"{base}/api/lobby/chat", json={"name": "Cy", "text": "hi"}, headers={"Origin": base})
    assert mine.status_code == guest.status_code == 200, (mine.text, guest.text)
    assert mine.json()["account"] is True and guest.json()["account"] is False
    again = Player(server.ws, gid, bob["token"])  # the marks are stored: a page that comes later sees them

    async def later() -> None:
        await again.connect()
        history = await again.until(lambda m: m["type"] == "chat" and m["history"])
        assert {x["text"]: x["account"] for x in history["lines"]} == {
            "from the account": True,
            "from a guest": False,
        }
        await again.close()

    run(later)
