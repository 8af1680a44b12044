"""An event's page stays live over its socket (issue 55): a raw websocket client on /ws/e/<id>
is pushed the event when a player joins through the API, within 2 s; on two servers over one
PostgreSQL database, a join made through one reaches a socket on the other (a pubsub note)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import websockets

from ra.web.lobby_feed import FEEDS_PER_ADDRESS
from ra.web.testing import Server
from tests.web.test_events import new_event, play_round, sign_up

Event = dict[str, Any]


class EventPage:
    """An event page's socket: every event it was sent."""

    def __init__(self, ws_base: str, eid: str) -> None:
        self.url = f"{ws_base}/ws/e/{eid}"
        self.ws: Any = None

    async def open(self) -> EventPage:
        self.ws = await websockets.connect(self.url)
        return self

    async def until(self, pred: Callable[[Event], bool], timeout: float) -> Event:
        """The first event sent for which ``pred`` holds, within ``timeout`` seconds."""
        async with asyncio.timeout(timeout):
            while True:
                sent = json.loads(await self.ws.recv())
                assert sent["type"] == "event"
                event: Event = sent["event"]
                if pred(event):
                    return event

    async def close(self) -> None:
        await self.ws.close()


def names(event: Event) -> list[str]:
    return sorted(p["name"] for p in event["players"] if not p["withdrawn"])


def joins_reach(page_base: str, api_base: str) -> None:
    """A join, a withdrawal and a cancellation made through ``api_base`` each reach a socket on
    ``page_base`` within 2 s."""
    ann = sign_up(api_base, "Ann")
    eid = new_event(ann)["event"]["id"]
    bob = sign_up(api_base, "Bob")

    async def main() -> None:
        page = await EventPage(page_base, eid).open()
        first = await page.until(lambda _: True, 5)
        assert first["id"] == eid and names(first) == []
        for change, pred in [
            (lambda: bob.post(f"/api/events/{eid}/join", json={}), lambda e: names(e) == ["Bob"]),
            (lambda: bob.post(f"/api/events/{eid}/withdraw"), lambda e: names(e) == []),
            (lambda: ann.post(f"/api/events/{eid}/cancel"), lambda e: e["status"] == "cancelled"),
        ]:
            t = time.monotonic()
            r = await asyncio.to_thread(change)
            assert r.status_code == 200, r.text
            await page.until(pred, 2.0)
            assert time.monotonic() - t < 2.0
        await page.close()

    asyncio.run(main())


def test_an_event_page_socket_is_pushed_a_join_within_two_seconds(server: Server) -> None:
    joins_reach(server.ws, server.url)


def test_a_change_made_on_one_postgresql_worker_reaches_a_page_on_another(
    server_factory: type[Server], pg_url: str, tmp_path: Path
) -> None:
    a = server_factory(pg_url, tmp_path / "a.log").start()
    b = server_factory(pg_url, tmp_path / "b.log").start()
    joins_reach(b.ws, a.url)


def test_an_event_socket_for_no_such_event_is_closed_with_the_reason(server: Server) -> None:
    async def main() -> None:
        async with websockets.connect(f"{server.ws}/ws/e/nosuch") as ws:
            try:
                await asyncio.wait_for(ws.recv(), 5)
                raise AssertionError("a socket for no event was sent something")
            except websockets.ConnectionClosed as closed:
                assert closed.rcvd is not None and closed.rcvd.code == 1008
                assert "no event" in closed.rcvd.reason

    asyncio.run(main())


def test_a_game_of_the_event_ending_pushes_the_standings_and_the_end(server: Server) -> None:
    """A two-player event of one round: when its game ends the page is sent the points and,
    the event being over, its finish (no poll involved: the socket alone)."""
    ann, bob = sign_up(server.url, "Ann"), sign_up(server.url, "Bob")
    eid = new_event(ann, table_size=2, rounds=1)["event"]["id"]
    for c in (ann, bob):
        assert c.post(f"/api/events/{eid}/join", json={}).status_code == 200
    started = ann.post(f"/api/events/{eid}/start").json()
    clients = {p["account"]: c for p, c in zip(started["players"], (ann, bob), strict=True)}

    async def main() -> Event:
        page = await EventPage(server.ws, eid).open()
        await page.until(lambda e: e["status"] == "running", 5)
        await asyncio.to_thread(play_round, server, started, clients, 1)
        done = await page.until(lambda e: e["status"] == "finished", 10)
        await page.close()
        return done

    done = asyncio.run(main())
    assert sorted(s["points"] for s in done["standings"]) != ["0", "0"]


def test_one_address_follows_events_from_at_most_eight_pages(server: Server) -> None:
    ann = sign_up(server.url, "Ann")
    eid = new_event(ann)["event"]["id"]

    async def main() -> None:
        pages = [await EventPage(server.ws, eid).open() for _ in range(FEEDS_PER_ADDRESS)]
        for p in pages:
            await p.until(lambda _: True, 5)
        async with websockets.connect(f"{server.ws}/ws/e/{eid}") as ws:
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
            assert "too many event pages" in closed.value.rcvd.reason
        await pages[0].close()
        again = await EventPage(server.ws, eid).open()  # a page closed gives its place back
        await again.until(lambda e: e["id"] == eid, 5)
        for p in [again, *pages[1:]]:
            await p.close()

    asyncio.run(main())
