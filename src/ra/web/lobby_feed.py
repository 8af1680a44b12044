"""The live lobby: every open lobby page is pushed the list of tables over a WebSocket when it
changes (players, seats, moves, watchers), instead of asking every few seconds.

One computation per change serves every page: the store and the hub call :meth:`LobbyFeed.touch`
(after a write here, or a note from another worker), the feed waits a moment for the burst to
pass, builds the lists once and offers the text to each page.  A slow page holds only its own
latest list (a queue of one), never the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Literal

from starlette.websockets import WebSocket, WebSocketDisconnect
from typing_extensions import TypedDict

from ra.web.limits import AddressBucket, AddressHolds, Holds, Levels, MemoryHolds, MemoryLevels
from ra.web.protocol import MAX_MESSAGE_BYTES, GameSummary

log = logging.getLogger("ra.web")

FEED_DEBOUNCE = 0.4
"""Seconds a change waits for the ones that follow it (a bot's moves come in bursts)."""
FEED_REFRESH = 15.0
"""Seconds between lists sent anyway (changes this worker cannot hear of, e.g. a lost link)."""
FEEDS_PER_ADDRESS = 8
"""Lobby pages one address may follow at once."""
OPENS_PER_MINUTE = 30.0
"""Lobby sockets one address may open a minute (bursts of :data:`OPENS_BURST`): a page
reconnects with backoff, and each opening reads the lists."""
OPENS_BURST = 20.0
PAGE_MESSAGES_PER_SECOND = 2.0
"""A lobby page has nothing to say; a few pings are tolerated, a flood closes it."""
SEND_TIMEOUT = 10.0
"""Seconds a page may take to take one list before it is dropped."""
LINES_QUEUED = 100
"""Chat messages kept for a page that has not taken them yet."""
POLICY_VIOLATION = 1008
UNSUPPORTED_DATA = 1003
TOO_BIG = 1009


class LobbyLists(TypedDict):
    """What a lobby page is sent: the tables waiting for players, being played, finished."""

    type: Literal["lobby"]
    open: list[GameSummary]
    running: list[GameSummary]
    finished: list[GameSummary]


class Page:
    """One live page (the lobby's, an event's): the latest list not yet sent to it, and the
    chat lines it has not had."""

    def __init__(self) -> None:
        self.latest: str | None = None
        self.lines: deque[str] = deque(maxlen=LINES_QUEUED)
        self.wake = asyncio.Event()

    def offer(self, text: str) -> None:
        """Replace any list still waiting by this newer one."""
        self.latest = text
        self.wake.set()

    def say(self, text: str) -> None:
        """Queue a chat message (a page too slow for :data:`LINES_QUEUED` loses the oldest)."""
        self.lines.append(text)
        self.wake.set()

    def take(self) -> list[str]:
        out = list(self.lines)
        self.lines.clear()
        if self.latest is not None:
            out.append(self.latest)
            self.latest = None
        self.wake.clear()
        return out


class LobbyFeed:
    """The pages following the lobby on this worker, and the loop that feeds them."""

    def __init__(
        self,
        lists: Callable[[], Awaitable[LobbyLists]],
        greeting: Callable[[], Awaitable[str]] | None = None,
        limits: tuple[Levels, Holds] | None = None,
    ) -> None:
        """``limits``: the site's levels and holds the per-address caps count in (the store's;
        by default this worker's memory)."""
        self._lists = lists
        self._greeting = greeting
        """What a page is sent first, before the lists (the lobby chat's last lines)."""
        self._pages: set[Page] = set()
        levels, holds = limits or (MemoryLevels(), MemoryHolds())
        self._open_pages = AddressHolds(holds, "lobby-pages", FEEDS_PER_ADDRESS)
        self._opens = AddressBucket(levels, "lobby-opens", OPENS_PER_MINUTE / 60, OPENS_BURST)
        self._dirty = asyncio.Event()
        self._last: str | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def following(self) -> int:
        return len(self._pages)

    def touch(self) -> None:
        """Something a lobby shows may have changed."""
        self._dirty.set()

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._dirty.wait(), FEED_REFRESH)
            if not self._pages:
                self._dirty.clear()
                self._last = None  # the next page gets a fresh list
                continue
            await asyncio.sleep(FEED_DEBOUNCE)
            self._dirty.clear()
            try:
                text = await self._text()
            except Exception:
                log.exception("the lobby list failed")
                continue
            if text != self._last:
                self._last = text
                for page in self._pages:
                    page.offer(text)

    async def _text(self) -> str:
        return json.dumps(await self._lists(), separators=(",", ":"))

    async def follow(self, ws: WebSocket, address: str) -> None:
        """Serve one lobby page from its opening to its closing."""
        await ws.accept()
        if not await self._open_pages.take(address):  # told why, not just refused
            await ws.close(POLICY_VIOLATION, "too many lobby pages open from this address")
            return
        if not await self._opens.allow(address):  # each opening reads the lists: no flood of them
            await self._open_pages.give_back(address)
            await ws.close(POLICY_VIOLATION, "the lobby is opened too often from this address; slow down")
            return
        page = Page()
        self._pages.add(page)
        sender = asyncio.create_task(send_page(ws, page))
        try:
            if self._greeting is not None:
                page.say(await self._greeting())
            page.offer(self._last if self._last is not None else await self._text())
            code = await listen(ws)
            if code is not None:
                with contextlib.suppress(Exception):
                    await ws.close(code)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            self._pages.discard(page)
            sender.cancel()
            with contextlib.suppress(Exception):  # a lost database: the next refresh makes it good
                await self._open_pages.give_back(address)

    def say(self, text: str) -> None:
        """A chat message for every lobby page on this worker."""
        for page in self._pages:
            page.say(text)


async def send_page(ws: WebSocket, page: Page) -> None:
    """Send a page what it is offered, as it comes, until its socket fails (the live event page
    too: :mod:`ra.web.event_feed`)."""
    with contextlib.suppress(Exception):
        while True:
            await page.wake.wait()
            for text in page.take():
                await asyncio.wait_for(ws.send_text(text), SEND_TIMEOUT)


async def listen(ws: WebSocket) -> int | None:
    """Read what the page sends (nothing is expected) until it goes; the close code for a page
    that misbehaves (binary frames, oversized or too many messages), None when it just left."""
    allowance, last = 10.0, asyncio.get_running_loop().time()
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return None
        text = message.get("text")
        if text is None:
            return UNSUPPORTED_DATA
        if len(text) > MAX_MESSAGE_BYTES:
            return TOO_BIG
        t = asyncio.get_running_loop().time()
        allowance = min(10.0, allowance + (t - last) * PAGE_MESSAGES_PER_SECOND) - 1
        last = t
        if allowance < 0:
            return POLICY_VIOLATION
