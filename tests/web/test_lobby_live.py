"""The live lobby (issue 21): the list of tables pushed over a WebSocket, quick play and seek,
against a real server on loopback (and two servers sharing PostgreSQL)."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from ra.web.testing import Server
from tests.web.chromium import needs_chromium
from tests.web.client import Player, create, join, next_frame

Lists = dict[str, Any]


class Follower:
    """A lobby page's socket: every list it was sent."""

    def __init__(self, ws_base: str, origin: str | None = None) -> None:
        self.url = f"{ws_base}/ws/lobby"
        self.origin = origin
        self.lists: list[Lists] = []
        self.ws: Any = None

    async def open(self) -> Follower:
        headers = {"Origin": self.origin} if self.origin else None
        self.ws = await websockets.connect(self.url, additional_headers=headers)
        return self

    async def until(self, pred: Callable[[Lists], bool], timeout: float = 10) -> Lists:
        """The first list (kept or newly sent) for which ``pred`` holds."""
        for lists in self.lists:
            if pred(lists):
                return lists
        async with asyncio.timeout(timeout):
            while True:
                sent: Lists = json.loads(await self.ws.recv())
                if sent["type"] == "chat":  # the lobby chat comes on the same socket
                    continue
                assert sent["type"] == "lobby"
                self.lists.append(sent)
                if pred(sent):
                    return sent

    async def close(self) -> None:
        await self.ws.close()


def ids(lists: Lists, status: str) -> list[str]:
    return [g["id"] for g in lists[status]]


def game(lists: Lists, gid: str) -> dict[str, Any]:
    """Table ``gid`` as ``lists`` has it (an empty dict when it is not listed)."""
    games = (g for status in ("open", "running", "finished") for g in lists[status] if g["id"] == gid)
    return next(games, {})


def test_the_lobby_is_pushed_each_change_seats_and_watchers(server: Server) -> None:
    base = server.url

    async def main() -> None:
        page = await Follower(server.ws).open()
        first = await page.until(lambda _: True)
        assert first["open"] == [] and first["running"] == []
        made = await asyncio.to_thread(create, base, [{"kind": "human"}, {"kind": "human"}])
        gid = made["game"]["id"]
        listed = await page.until(lambda ls: gid in ids(ls, "open"))
        assert [s["taken"] for s in game(listed, gid)["seats"]] == [True, False]
        await asyncio.to_thread(join, base, gid, "Bob")
        running = await page.until(lambda ls: gid in ids(ls, "running"))
        assert gid not in ids(running, "open")
        # A spectator opens the table: the lobby counts the watcher, and forgets them on leaving.
        spectator = Player(server.ws, gid, None)
        await spectator.connect()
        await page.until(lambda ls: game(ls, gid).get("spectators") == 1)
        await spectator.close()
        await page.until(lambda ls: game(ls, gid).get("spectators") == 0 and ls is not running)
        await page.close()

    asyncio.run(main())


def test_a_lobby_socket_refuses_what_a_page_never_sends(server: Server) -> None:
    async def closed_with(follower: Follower, frame: str | bytes) -> int | None:
        await follower.open()
        await follower.until(lambda _: True)
        await follower.ws.send(frame)
        with pytest.raises(websockets.ConnectionClosed) as closed:
            async with asyncio.timeout(5):
                while True:
                    await follower.ws.recv()
        return closed.value.rcvd.code if closed.value.rcvd else None

    async def main() -> None:
        assert await closed_with(Follower(server.ws), b"\x00binary") == 1003
        assert await closed_with(Follower(server.ws), "x" * 10_000) == 1009
        # A flood of messages closes the page (it has nothing to say but the odd ping).
        flood = await Follower(server.ws).open()
        with pytest.raises(websockets.ConnectionClosed):
            async with asyncio.timeout(5):
                for _ in range(200):
                    await flood.ws.send("{}")
                    await asyncio.sleep(0)
                while True:
                    await flood.ws.recv()
        # Another site's page may not follow this lobby.
        with pytest.raises(websockets.InvalidStatus):
            await Follower(server.ws, origin="https://evil.example").open()
        # One address may follow the lobby from a few pages at once, not from thousands.
        pages = [await Follower(server.ws).open() for _ in range(8)]
        for p in pages:
            await p.until(lambda _: True)
        extra = await Follower(server.ws).open()
        with pytest.raises(websockets.ConnectionClosed) as refused:
            await next_frame(extra.ws)
        assert refused.value.rcvd is not None and refused.value.rcvd.code == 1008
        for p in pages:
            await p.close()
        # Opening and closing the lobby socket in a loop (each opening reads the lists) is stopped.
        turned_away = 0
        for _ in range(20):
            page = await Follower(server.ws).open()
            try:
                await page.until(lambda _: True, timeout=5)
            except websockets.ConnectionClosed:
                turned_away += 1
            await page.close()
        assert turned_away > 0
        await asyncio.sleep(2.5)  # the allowance comes back (30 a minute)
        # The server still serves lists after all that.
        again = await Follower(server.ws).open()
        await again.until(lambda _: True)
        await again.close()

    asyncio.run(main())


def test_seek_joins_the_table_that_waited_longest(server: Server) -> None:
    base = server.url
    older = create(base, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}])
    newer = create(base, [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}], name="Cy")
    two = create(base, [{"kind": "human"}, {"kind": "human"}], name="Di")
    r = httpx.post(base + "/api/seek", json={"players": 3, "name": "Bob"})
    assert r.status_code == 200, r.text
    seated = r.json()
    assert seated["game"]["id"] == older["game"]["id"] and seated["seat"] == 1
    assert seated["game"]["status"] == "running"  # the last free seat: the game starts
    # A name already at the waiting table is passed over: with none other waiting, the seek
    # opens a table of its own and waits there, listed in the lobby (issue 40, finding 11).
    r = httpx.post(base + "/api/seek", json={"players": 3, "name": "Cy"})
    assert r.status_code == 200, r.text
    cys = r.json()["game"]
    assert cys["id"] not in (older["game"]["id"], newer["game"]["id"]) and cys["status"] == "open"
    assert [s["kind"] for s in cys["seats"]] == ["human"] * 3 and r.json()["seat"] == 0
    open_ids = [g["id"] for g in httpx.get(base + "/api/games", params={"status": "open"}).json()["games"]]
    assert cys["id"] in open_ids
    # The next seekers get the table that waited longest, then the seek's own table.
    r = httpx.post(base + "/api/seek", json={"players": 3, "name": "Eve"})
    assert r.json()["game"]["id"] == newer["game"]["id"]
    r = httpx.post(base + "/api/seek", json={"players": 3, "name": "Fay"})
    assert r.json()["game"]["id"] == newer["game"]["id"] and r.json()["game"]["status"] == "running"
    r = httpx.post(base + "/api/seek", json={"players": 3, "name": "Gil"})
    assert r.json()["game"]["id"] == cys["id"]
    for bad in ({"players": 9, "name": "Eve"}, {"players": 2, "name": ""}, {"players": "x", "name": "E"}):
        r = httpx.post(base + "/api/seek", json=bad)
        assert r.status_code == 422, bad
    assert httpx.get(f"{base}/api/games/{two['game']['id']}").json()["status"] == "open"  # untouched


def test_seek_matches_the_pace_played_together_or_by_turns(server: Server) -> None:
    base = server.url
    by_turns = create(base, [{"kind": "human"}, {"kind": "human"}], move_seconds=86400)
    live = create(base, [{"kind": "human"}, {"kind": "human"}], name="Cy", game_seconds=300, increment=3)
    r = httpx.post(base + "/api/seek", json={"players": 2, "name": "Bob", "speed": "live"})
    assert r.json()["game"]["id"] == live["game"]["id"]
    r = httpx.post(base + "/api/seek", json={"players": 2, "name": "Di", "speed": "live"})
    di = r.json()  # the table by turns is not played together: Di's seek waits at a table of its own
    assert di["game"]["id"] != by_turns["game"]["id"] and di["game"]["status"] == "open"
    assert di["game"]["options"]["move_seconds"] is None
    r = httpx.post(base + "/api/seek", json={"players": 2, "name": "Di", "speed": "turns"})
    assert r.json()["game"]["id"] == by_turns["game"]["id"]
    r = httpx.post(base + "/api/seek", json={"players": 2, "name": "Eve", "speed": "fast"})
    assert r.status_code == 422
    # A seek by turns that finds nobody opens a table with a day a decision.
    r = httpx.post(base + "/api/seek", json={"players": 3, "name": "Gus", "speed": "turns"})
    assert r.json()["game"]["options"]["move_seconds"] == 86400


def test_two_people_who_seek_seconds_apart_meet_and_a_seek_can_be_cancelled(server: Server) -> None:
    """Issue 40, finding 11: "Join a waiting table" told two people a few seconds apart that
    nobody was waiting; a seek now waits at a table of its own, the next seeker sits down there
    and the game starts; leaving before anyone came cancels the seek (the table is closed)."""
    base = server.url
    ann = httpx.post(base + "/api/seek", json={"players": 2, "name": "Ann"}).json()
    time.sleep(1.0)
    bob = httpx.post(base + "/api/seek", json={"players": 2, "name": "Bob"}).json()
    assert bob["game"]["id"] == ann["game"]["id"] and bob["seat"] == 1
    assert bob["game"]["status"] == "running"
    cy = httpx.post(base + "/api/seek", json={"players": 2, "name": "Cy"}).json()
    r = httpx.post(f"{base}/api/games/{cy['game']['id']}/leave", json={"token": cy["token"]})
    assert r.status_code == 200, r.text
    assert httpx.get(f"{base}/api/games/{cy['game']['id']}").status_code == 404  # closed
    di = httpx.post(base + "/api/seek", json={"players": 2, "name": "Di"}).json()
    assert di["game"]["id"] != cy["game"]["id"] and di["seat"] == 0  # nobody to meet at a closed seek


def test_a_lobby_on_one_server_hears_of_a_table_made_on_another(
    server_factory: type[Server], pg_url: str, tmp_path: Path
) -> None:
    a = server_factory(pg_url, tmp_path / "a.log").start()
    b = server_factory(pg_url, tmp_path / "b.log").start()

    async def main() -> None:
        page = await Follower(b.ws).open()
        await page.until(lambda _: True)
        made = await asyncio.to_thread(create, a.url, [{"kind": "human"}, {"kind": "human"}])
        gid = made["game"]["id"]
        await page.until(lambda ls: gid in ids(ls, "open"))
        await asyncio.to_thread(join, a.url, gid, "Bob")
        await page.until(lambda ls: gid in ids(ls, "running"))
        await page.close()

    asyncio.run(main())


# --- in the browser --------------------------------------------------------------------------


@pytest.mark.slow
@needs_chromium
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_lobby_page_updates_live_and_plays_in_one_click(
    browser: Any, live_server: str, lang: str
) -> None:
    from tests.web.test_browser import LAPTOP, PHONE, new_page, no_js_errors, no_sideways_scroll, shot

    locale = "ru-RU" if lang == "ru" else "en-US"
    people = new_page(browser, PHONE if lang == "ru" else LAPTOP, locale)
    people.goto(live_server + "/")
    people.wait_for_selector("#live-mark:not([hidden])")
    # Someone creates a table elsewhere: it appears here with nobody clicking Refresh.
    made = create(live_server, [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}], name="Cy")
    gid = made["game"]["id"]
    people.wait_for_selector(f"#list-open .gi-meta:has-text('#{gid}')", timeout=10_000)
    # The lobby chat: a line said elsewhere shows as text, with nobody reloading.
    httpx.post(live_server + "/api/lobby/chat", json={"name": "Cy", "text": "<i>anyone</i> for three?"})
    people.wait_for_selector("#chat-lines .chat-line:has-text('for three?')")
    assert people.locator("#chat-lines i").count() == 0
    shot(people, f"lobby-live-{lang}")
    no_sideways_scroll(people)
    # A seek (without a name it goes as a guest: tests/web/test_browser_issue54.py) sits at a table.
    people.fill("#name", "Bob")
    people.select_option("#quick-players", "2")
    people.click("#seek-btn")  # no 2-player table waits: the seek waits at a table of its own
    people.wait_for_url(re.compile(r".*/g/\w+$"))
    own = people.url.rsplit("/", 1)[1]
    waits = httpx.get(f"{live_server}/api/games/{own}").json()
    assert own != gid and waits["status"] == "open" and len(waits["seats"]) == 2
    assert waits["seats"][0]["name"] == "Bob"
    people.click("#waiting:not([hidden]) #leave-btn")  # the seek is cancelled: its table closes
    deadline = time.monotonic() + 10
    while httpx.get(f"{live_server}/api/games/{own}").status_code != 404:
        assert time.monotonic() < deadline, "the seek's table is still there"
        time.sleep(0.1)
    people.goto(live_server + "/")
    people.select_option("#quick-players", "3")
    people.click("#seek-btn")
    people.wait_for_url(f"**/g/{gid}")
    assert httpx.get(f"{live_server}/api/games/{gid}").json()["seats"][1]["name"] == "Bob"
    # Quick play: one click, a table against two bots of the chosen level, and the game on.
    people.goto(live_server + "/")
    people.select_option("#quick-level", "easy")
    people.click("#quick-btn")
    people.wait_for_url(re.compile(r".*/g/\w+$"))
    table = httpx.get(live_server + "/api/games/" + people.url.rsplit("/", 1)[1]).json()
    assert table["status"] == "running"
    seats = [(s["kind"], s["level"]) for s in table["seats"]]
    assert seats == [("human", None), ("bot", "easy"), ("bot", "easy")]
    no_js_errors(people)
    people.context.close()


def _move(ws_base: str, gid: str, token: str) -> None:
    """One decision for the seat of ``token``, through its own socket (it must be its turn)."""
    from websockets.sync.client import connect

    with connect(f"{ws_base}/ws/games/{gid}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            m = json.loads(ws.recv(timeout=10))
            if m["type"] == "state" and m["view"] is not None:
                break
        legal = m["legal"]
        assert legal, "not this seat's turn"
        ws.send(
            json.dumps({"type": "action", "action": "draw" if "draw" in legal else legal[0], "n": m["n"]})
        )
        while True:
            m = json.loads(ws.recv(timeout=10))
            if m["type"] == "state" and m["n"] > 0:
                return


FAKE_NOTIFICATIONS = """
Object.defineProperty(document, "hidden", { configurable: true, get: () => window.__hidden === true });
window.__notes = [];
window.Notification = function (title, opts) {
  window.__notes.push([title, opts && opts.body]);
  return { close() {} };
};
window.Notification.permission = "granted";
window.Notification.requestPermission = async () => "granted";
"""
"""Chromium without a desktop shows no notifications: the page's calls are recorded instead."""


@pytest.mark.slow
@needs_chromium
def test_your_turn_is_marked_in_the_lobby_and_notified_while_the_page_is_away(
    browser: Any, live_server: str, server: Server
) -> None:
    from tests.web.test_browser import new_page, no_js_errors, wait_js

    made = create(live_server, [{"kind": "human"}, {"kind": "human"}])
    gid = made["game"]["id"]
    bob = join(live_server, gid, "Bob")
    tokens = {0: made["token"], 1: bob["token"]}
    to_move = httpx.get(f"{live_server}/api/games/{gid}").json()["to_move"]
    if to_move == 0:  # Ann first: she moves, so that the turn comes back to her while she is away
        _move(server.ws, gid, tokens[0])
    ann = new_page(browser)
    ann.add_init_script(FAKE_NOTIFICATIONS)
    ann.goto(f"{live_server}/g/{gid}?seat=0&token={made['token']}")  # her seat is saved here
    ann.goto(live_server + "/")
    ann.wait_for_selector("#live-mark:not([hidden])")
    ann.wait_for_selector("#list-yours .game-item")
    assert ann.locator("#list-yours .status-pill.turn").count() == 0
    assert ann.locator("#notify-box svg.icon-bell").count() == 1  # the page's own bell, not an emoji
    ann.evaluate("window.__hidden = true")
    _move(server.ws, gid, tokens[1])  # Bob moves: Ann's turn
    ann.wait_for_selector("#list-yours .status-pill.turn")
    wait_js(ann, "window.__notes.length === 1")
    title, body = ann.evaluate("window.__notes[0]")
    assert title == "Your turn in Ra" and gid in body
    no_js_errors(ann)
    ann.context.close()


def test_the_levels_come_with_their_ratings_and_the_ladder(server: Server) -> None:
    from ra.bots import LADDER, LEVEL_RATINGS, LEVELS

    got = httpx.get(server.url + "/api/levels").json()["levels"]
    assert [g["level"] for g in got] == list(LEVELS)
    by = {g["level"]: g for g in got}
    mu, sigma = LEVEL_RATINGS["hard"]
    assert by["hard"]["rating"] == round(mu - 3 * sigma, 1)
    below, won, games = LADDER["hard"]
    assert by["hard"]["beats"] == {"below": below, "won": won, "games": games}
    assert by["easy"]["beats"] is None and by["expert"]["beats"]["below"] == "hard"
    ratings = [by[level]["rating"] for level in LEVELS]
    assert ratings == sorted(ratings)  # each level above the one below it


@pytest.mark.slow
@needs_chromium
def test_the_lobby_says_when_the_server_is_gone_and_waits_for_it(
    browser: Any, server_factory: type[Server], sqlite_url: str, tmp_path: Path
) -> None:
    """Issue 40, finding 11: the lobby said nothing when the server went (the table page did)."""
    from tests.web.test_browser import LAPTOP, new_page, no_js_errors

    server = server_factory(sqlite_url, tmp_path / "s.log").start()
    page = new_page(browser, LAPTOP, "en-US")
    page.goto(server.url + "/")
    page.wait_for_selector("#live-mark:not([hidden])")
    assert page.locator("#conn-banner").is_hidden() and page.locator("#create-btn").is_enabled()
    server.stop()
    page.wait_for_selector("#conn-banner:not([hidden])", timeout=10_000)
    assert "Connection lost" in page.locator("#conn-banner").inner_text()
    assert page.locator("#create-btn").is_disabled() and page.locator("#quick-btn").is_disabled()
    server.start()  # the same address: the lobby comes back by itself
    page.wait_for_selector("#conn-banner[hidden]", state="attached", timeout=40_000)
    assert page.locator("#create-btn").is_enabled()
    no_js_errors(page)
