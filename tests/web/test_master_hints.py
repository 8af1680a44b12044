"""Hints at a room, in-process (issue 56): the room carries out the table's hint effects — a
search started, cancelled when its decision is past or its page gone, its answer sent — over the
in-memory storage with a fake search and a fake clock, in milliseconds.  The real search in a
worker process, through a real server, stays in ``test_hints.py``."""

from __future__ import annotations

import asyncio
import json

import pytest

from ra.master import HintKey
from ra.table import HintJob
from ra.web.clients import Client
from ra.web.errors import ClientError
from ra.web.hub import Room
from ra.web.protocol import HintReply
from tests.web.test_master_clock import FakeTime, master, run, settle, to_move


class FakeSearch:
    """The hub's hint search, answered (or failed) when the test says."""

    def __init__(self) -> None:
        self.started: dict[HintKey, asyncio.Future[HintReply]] = {}

    async def __call__(self, room: Room, job: HintJob, key: HintKey) -> HintReply:
        assert job.view.seat == key[0] and job.budget == room.hub.settings.hint_budget
        search: asyncio.Future[HintReply] = asyncio.get_running_loop().create_future()
        self.started[key] = search
        return await search


def reply(key: HintKey) -> HintReply:
    return {
        "type": "hint",
        "n": len(key[1]),
        "seat": key[0],
        "chances": [],
        "actions": [],
        "best": "ra",
        "starred": "ra",
        "tied": [],
        "reason": None,
        "playouts": 1,
        "source": "search",
    }


def sent(client: Client) -> list[str]:
    """The types of the messages queued for ``client``."""
    out = []
    while not client.queue.empty():
        text = client.queue.get_nowait()
        if text is not None:
            out.append(json.loads(text)["type"])
    return out


async def hinted(fake: FakeTime) -> tuple[Room, FakeSearch, Client, int]:
    """A casual table with hints, its search a fake one, and a page of the seat to move."""
    _, room = await master(fake, hints=True, casual=True)
    search = FakeSearch()
    room.hub.hint = search  # type: ignore[method-assign]
    seat = to_move(room)
    client = Client(seat, None, room.hub.settings)
    return room, search, client, seat


def test_a_hint_asked_twice_is_searched_once_and_sent_to_both_pages() -> None:
    async def main(fake: FakeTime) -> None:
        room, search, page, seat = await hinted(fake)
        tab = Client(seat, None, room.hub.settings)
        await room.hint(page, 0)
        await room.hint(tab, 0)
        await settle()
        key = room.table_now().hint_key(seat)
        assert list(search.started) == [key]
        search.started[key].set_result(reply(key))
        await settle()
        assert sent(page) == ["hint"] and sent(tab) == ["hint"]
        assert room.table_now().hints_asked == {}
        await room.hint(page, 0)  # again: from the table's cache, no second search
        assert sent(page) == ["hint"] and len(search.started) == 1

    run(main)


def test_a_decision_cancels_the_search_and_its_page_is_sent_nothing() -> None:
    async def main(fake: FakeTime) -> None:
        room, search, page, seat = await hinted(fake)
        await room.hint(page, 0)
        await settle()
        key = room.table_now().hint_key(seat)
        assert room.hint_wanted(key)
        await room.act(seat, "ra", 0)
        await settle()
        assert search.started[key].cancelled() and not room.hint_wanted(key)
        assert "hint" not in sent(page) and room.table_now().hints_asked == {}

    run(main)


def test_a_page_gone_cancels_its_search_and_a_failed_search_is_told() -> None:
    async def main(fake: FakeTime) -> None:
        room, search, page, seat = await hinted(fake)
        await room.hint(page, 0)
        await settle()
        key = room.table_now().hint_key(seat)
        await room.page_gone(page)
        await settle()
        assert search.started.pop(key).cancelled() and room.table_now().hints_asked == {}
        await room.hint(page, 0)  # asked again: a new search, which fails
        await settle()
        search.started[key].set_exception(RuntimeError("the worker died"))
        await settle()
        assert sent(page)[-1] == "error" and room.table_now().hints_asked == {}

    run(main)


def test_a_rated_table_or_one_without_hints_refuses_and_starts_nothing() -> None:
    async def main(fake: FakeTime) -> None:
        room, search, page, _ = await hinted(fake)
        with pytest.raises(ClientError) as stale:
            await room.hint(page, 5)
        assert stale.value.code == "stale"
        _, rated = await master(fake, hints=True, casual=False)
        with pytest.raises(ClientError) as no:
            await rated.hint(Client(to_move(rated), None, rated.hub.settings), 0)
        assert no.value.code == "no_hints"
        _, off = await master(fake, hints=False, casual=True)
        with pytest.raises(ClientError) as off_err:
            await off.hint(Client(to_move(off), None, off.hub.settings), 0)
        assert off_err.value.code == "no_hints" and not search.started

    run(main)
