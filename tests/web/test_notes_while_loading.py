"""A table one worker opens while another worker changes it (the arena's silent pages, issue 55).

Two workers on one PostgreSQL database, each the site's services over its own connections and
its own ``LISTEN`` (real notes, as ``ra serve --workers 2`` runs them).  Worker two opens a table
(a page's hello): it reads the game from the database; a move or the start committed on worker
one *after* that read sends its note to worker two *before* the room is ready.  That note was
dropped (no room yet), so the room kept the older game, and its page heard nothing: it was that
page's turn and nobody knew (2 of about 50 games' pages in the arena end-to-end test).  Here the
read is held at the gap (the store's own read, wrapped: the only way to make the race certain)
until worker two has the note; then the page must hear its turn within seconds, no reconnecting.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest

import ra.web.events
from ra.web import db
from ra.web.clients import Client
from ra.web.events import JoinEvent, NewEvent
from ra.web.hub import Room
from ra.web.lobby import Join, NewGame, SeatSpec
from ra.web.pubsub import GameChanged, Note
from ra.web.services import Services
from tests.web.test_events_workers import six_accounts, worker

HEARD_WITHIN = 5.0
"""Seconds a page may take to hear its turn (the note comes at once; a dropped one never)."""


@asynccontextmanager
async def two_workers(url: str) -> AsyncIterator[tuple[Services, Services, list[Note]]]:
    """Workers one and two, each listening to the other's notes; the notes two heard."""
    db.upgrade(url)
    one, two = worker(url, "one"), worker(url, "two")
    heard: list[Note] = []
    on_note = two.hub.on_note

    async def listening(note: Note) -> None:
        heard.append(note)
        await on_note(note)

    two.hub.on_note = listening  # type: ignore[method-assign]
    try:
        for w in (one, two):
            await w.hub.start()
        await until(lambda: one.hub.pubsub.publish(GameChanged("probe", "one")), lambda: bool(heard))
        yield one, two, heard
    finally:
        for w in (one, two):
            await w.stop()


async def until(poke: Callable[[], Awaitable[None]], done: Callable[[], bool]) -> None:
    """Poke until ``done`` (a note heard): ``LISTEN`` starts in the listener's own task."""
    async with asyncio.timeout(10):
        while not done():
            await poke()
            await asyncio.sleep(0.05)


def held_read(services: Services, name: str) -> tuple[asyncio.Event, asyncio.Event]:
    """Hold worker's store right after its read ``name`` (``game`` or ``decisions``) returns, once:
    (read, go) — set when the read is done, and to let it return."""
    read, go = asyncio.Event(), asyncio.Event()
    real = getattr(services.store, name)

    async def held(*args: Any, **kwargs: Any) -> Any:
        got = await real(*args, **kwargs)
        if not read.is_set():
            read.set()
            await go.wait()
        return got

    setattr(services.store, name, held)
    return read, go


def page(room: Room, seat: int) -> Client:
    """A seat's page on ``room``, as a hello attaches it (its messages stay in its queue)."""
    client = Client(seat, None, room.hub.settings, room.row.seats[seat].token_hash)
    room.audience.clients.add(client)
    room.feed.send_state(client)
    return client


async def hears(client: Client, what: str) -> None:
    """Wait until ``client`` is sent a state with ``what`` in it (``legal``: moves of its own
    to choose from; ``view``: a game, started)."""
    async with asyncio.timeout(HEARD_WITHIN):
        while True:
            message = await client.queue.get()
            state = json.loads(message) if isinstance(message, str) else message
            if state is not None and state["type"] == "state" and state[what]:
                return


async def opened_while(
    two: Services, heard: list[Note], gid: str, read: str, change: Callable[[], Awaitable[object]], notes: int
) -> Room:
    """Worker two opens ``gid``, its ``read`` held until the ``notes`` notes of ``change`` (made
    on worker one meanwhile) have reached it; its room once opened."""
    held, go = held_read(two, read)
    opening = asyncio.create_task(two.hub.room(gid))
    await asyncio.wait_for(held.wait(), 10)
    seen = len(heard)
    await change()
    await until(_idle, lambda: sum(getattr(n, "game_id", None) == gid for n in heard[seen:]) >= notes)
    go.set()
    room = await opening
    assert room is not None
    return room


async def _idle() -> None:
    """Nothing to poke: the note is on its way."""


def test_a_move_made_on_one_worker_while_the_other_opens_the_table_reaches_the_page(pg_url: str) -> None:
    """An event's table formed on worker one; its first move is made there while worker two
    opens the table for the other player (its read of the moves done, not yet ready)."""

    async def main() -> None:
        async with two_workers(pg_url) as (one, two, heard):
            people = (await six_accounts(one))[:2]
            eid = (await one.events.create(NewEvent(name="Race Cup", table_size=2), people[0]))["event"]["id"]
            for p in people:
                await one.events.join(eid, JoinEvent(), p)
            assert await one.events.store.move(eid, ("open",), "running")
            assert await one.events.form_round(eid)  # worker one makes (and starts) the table
            gid = (await one.events.view(eid, fresh=True))["tables"][0]["game"]
            here = await one.hub.room(gid)
            assert here is not None and here.game is not None
            mover = here.game.to_move
            assert mover is not None
            action = next(a for a in here.game.legal_actions() if passes_turn(here, a))

            async def first_move() -> None:
                await here.act(mover, str(action), 0)

            there = await opened_while(two, heard, gid, "decisions", first_move, 1)
            await hears(page(there, 1 - mover), "legal")
            assert there.game is not None and there.game.num_decisions == 1

    asyncio.run(main())


def test_a_table_started_on_one_worker_while_the_other_opens_it_reaches_the_page(pg_url: str) -> None:
    """A table of two, its last seat taken (so started) on worker one while worker two opens
    it for the first player (its read of the table done: still open, no game yet)."""

    async def main() -> None:
        async with two_workers(pg_url) as (one, two, heard):
            body = NewGame(seats=[SeatSpec(kind="human"), SeatSpec(kind="human")], name="Ann", bot_delay=0)
            gid = (await one.lobby.create(body, "127.0.0.1"))["game"]["id"]
            bob = Join(name="Bob")  # the last seat: its note, then the start's
            there = await opened_while(two, heard, gid, "game", lambda: one.lobby.join(gid, bob), 2)
            await hears(page(there, 0), "view")  # Ann's page hears the start

    asyncio.run(main())


def passes_turn(room: Room, action: object) -> bool:
    """Whether ``action`` leaves the next decision to the other seat (so a page must hear it)."""
    assert room.game is not None
    game = room.game.clone()
    game.apply(str(action))
    return game.to_move not in (None, room.game.to_move)


def test_an_event_started_on_one_worker_shows_running_on_the_others_at_once(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Worker two keeps a copy of an event's page data (for a burst of its pages); worker one
    starts the event: its note drops two's copy, so two's next answer says "running" — it said
    "open" until the copy's time was up, and a page (or the load benchmark's players) that read
    "open" after the start took the event for over."""
    monkeypatch.setattr(ra.web.events, "VIEW_SECONDS", 3600.0)  # only the note can renew the copy

    async def main() -> None:
        async with two_workers(pg_url) as (one, two, _):
            people = (await six_accounts(one))[:2]
            eid = (await one.events.create(NewEvent(name="Now Cup", table_size=2), people[0]))["event"]["id"]
            for p in people:
                await one.events.join(eid, JoinEvent(), p)
            assert (await two.events.view(eid))["status"] == "open"  # two's copy
            await one.events.begin(eid)
            async with asyncio.timeout(HEARD_WITHIN):
                while (await two.events.view(eid))["status"] != "running":
                    await asyncio.sleep(0.05)

    asyncio.run(main())
