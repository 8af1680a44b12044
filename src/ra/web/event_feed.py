"""The live event page (issue 55): every open page of an event is pushed the event (its players,
standings, rounds and status) over a WebSocket when it changes, instead of asking every few
seconds.

A change made on this worker (:meth:`EventFeed.touch`, called by :class:`ra.web.events.Events`)
or heard of from another (an :class:`ra.web.pubsub.EventChanged` note) marks the event; the feed
waits a moment for the burst to pass, reads the event once and offers the text to each of its
pages on this worker.  The pages are counted like the lobby's, site-wide, per address.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Literal

from starlette.websockets import WebSocket, WebSocketDisconnect
from typing_extensions import TypedDict

from ra.web.limits import AddressBucket, AddressHolds, Holds, Levels, MemoryHolds, MemoryLevels
from ra.web.lobby import ApiError
from ra.web.lobby_feed import (
    FEED_DEBOUNCE,
    FEEDS_PER_ADDRESS,
    OPENS_BURST,
    OPENS_PER_MINUTE,
    POLICY_VIOLATION,
    Page,
    listen,
    send_page,
)

log = logging.getLogger("ra.web")

EVENT_REFRESH = 30.0
"""Seconds between reads of a followed event anyway (a change this worker could not hear of)."""


class EventMessage(TypedDict):
    """What an event page is sent: the event as GET /api/events/{id} gives it."""

    type: Literal["event"]
    event: dict[str, object]


View = Callable[[str], Awaitable[dict[str, object]]]


class EventFeed:
    """The event pages open on this worker, by event, and the loop that feeds them."""

    def __init__(self, view: View, limits: tuple[Levels, Holds] | None = None) -> None:
        """``view``: the event as its page shows it, read afresh; ``limits``: the site's levels
        and holds the per-address caps count in (the store's; by default this worker's memory)."""
        self._view = view
        self._pages: dict[str, set[Page]] = {}
        self._last: dict[str, str] = {}
        self._dirty: set[str] = set()
        levels, holds = limits or (MemoryLevels(), MemoryHolds())
        self._open_pages = AddressHolds(holds, "event-pages", FEEDS_PER_ADDRESS)
        self._opens = AddressBucket(levels, "event-opens", OPENS_PER_MINUTE / 60, OPENS_BURST)
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def following(self, event_id: str) -> int:
        """How many pages of ``event_id`` this worker feeds."""
        return len(self._pages.get(event_id, ()))

    def touch(self, event_id: str) -> None:
        """Event ``event_id`` may have changed (here, or on another worker)."""
        if event_id in self._pages:
            self._dirty.add(event_id)
            self._wake.set()

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            try:
                await asyncio.wait_for(self._wake.wait(), EVENT_REFRESH)
                await asyncio.sleep(FEED_DEBOUNCE)
            except TimeoutError:
                self._dirty.update(self._pages)  # read every followed event again
            self._wake.clear()
            dirty, self._dirty = self._dirty, set()
            for event_id in dirty:
                await self._refresh(event_id)

    async def _refresh(self, event_id: str) -> None:
        """Read the event and offer it to its pages, if it differs from what they were sent."""
        pages = self._pages.get(event_id)
        if not pages:
            return
        try:
            text = await self._text(event_id)
        except Exception:
            log.exception("event %s: its page failed", event_id)
            return
        if text != self._last.get(event_id):
            self._last[event_id] = text
            for page in pages:
                page.offer(text)

    async def _text(self, event_id: str) -> str:
        message = EventMessage(type="event", event=await self._view(event_id))
        return json.dumps(message, separators=(",", ":"))

    async def follow(self, ws: WebSocket, event_id: str, address: str) -> None:
        """Serve one event page from its opening to its closing."""
        await ws.accept()
        if not await self._open_pages.take(address):
            await ws.close(POLICY_VIOLATION, "too many event pages open from this address")
            return
        try:
            await self._follow(ws, event_id, address)
        finally:
            with contextlib.suppress(Exception):  # a lost database: the holds' refresh makes it good
                await self._open_pages.give_back(address)

    async def _follow(self, ws: WebSocket, event_id: str, address: str) -> None:
        if not await self._opens.allow(address):  # each opening reads the event: no flood of them
            await ws.close(POLICY_VIOLATION, "event pages are opened too often from this address; slow down")
            return
        try:
            first = self._last.get(event_id) if event_id in self._pages else None
            first = first or await self._text(event_id)
        except ApiError as err:
            await ws.close(POLICY_VIOLATION, err.message[:120])
            return
        page = Page()
        pages = self._pages.setdefault(event_id, set())
        pages.add(page)
        self._last.setdefault(event_id, first)
        sender = asyncio.create_task(send_page(ws, page))
        try:
            page.offer(first)
            code = await listen(ws)
            if code is not None:
                with contextlib.suppress(Exception):
                    await ws.close(code)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            sender.cancel()
            pages.discard(page)
            if not pages:
                self._pages.pop(event_id, None)
                self._last.pop(event_id, None)
