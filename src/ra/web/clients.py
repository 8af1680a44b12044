"""One browser's connection to a table: its seat, its send queue and its message rate."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from ra.web.metrics import Metrics
from ra.web.protocol import Outgoing
from ra.web.settings import Settings

log = logging.getLogger("ra.web")
TRY_AGAIN = 1013
"""The WebSocket close code for a client too far behind: its page reconnects and resyncs."""


class Client:
    """One WebSocket connection: its seat (``None`` for a spectator), the token that opened
    it (a seat's connection lives only as long as that token holds the seat), its send queue."""

    def __init__(
        self,
        seat: int | None,
        send: Any,
        settings: Settings,
        token_hash: str | None = None,
        close: Callable[[int], Awaitable[None]] | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.seat = seat
        self._metrics = metrics
        self._close = close
        self.token_hash = token_hash
        self.events_sent = 0
        self.revealed = False
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=256)
        self._send = send
        self._rate = settings.messages_per_second
        self._burst = settings.message_burst
        self._allowance = settings.message_burst
        self._last = time.monotonic()
        self.closed = False
        self.close_code: int | None = None
        self.addr = ""
        """The client's address (chat lines and reports keep it for the admin)."""
        self.cookie: str | None = None
        """The page's session cookie, if any (a spectator's chat name is checked against it)."""
        self.state_n: int | None = None
        """The decision number of the last state queued for this socket (issue 40, finding 7:
        a turn that never reached a page shows here, in the socket's closing log line)."""
        self.action_n: int | None = None
        """The decision number of the last action this socket sent."""

    def allow(self) -> bool:
        """Token bucket: False when the client sends faster than the limit."""
        t = time.monotonic()
        self._allowance = min(self._burst, self._allowance + (t - self._last) * self._rate)
        self._last = t
        if self._allowance < 1:
            return False
        self._allowance -= 1
        return True

    def put(self, message: Outgoing | str) -> None:
        """Queue a message (typed, or its JSON text already encoded)."""
        if self.closed:
            return
        if self._metrics is not None and not isinstance(message, str) and message["type"] == "error":
            self._metrics.errors.labels(message["code"]).inc()
        try:
            self.queue.put_nowait(message if isinstance(message, str) else json.dumps(message))
        except asyncio.QueueFull:
            # A client this far behind is closed (not left open and silent): its page reconnects
            # and resyncs from scratch.
            log.warning("a socket fell %d messages behind: closed (%s)", self.queue.qsize(), self.trace())
            self.close_code = TRY_AGAIN
            self.closed = True
            while not self.queue.empty():  # what it would get is stale: it resyncs anyway
                self.queue.get_nowait()
            self.queue.put_nowait(None)

    def finish(self, close_code: int | None = None) -> None:
        """Stop sending once what is queued has gone out (then close with ``close_code``)."""
        if close_code is not None and self.close_code is None:
            self.close_code = close_code
        self.closed = True
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)

    def trace(self) -> str:
        """The socket's last state and action, for the log."""
        return f"seat {self.seat}, last state at decision {self.state_n}, last action at {self.action_n}"

    async def run_sender(self) -> None:
        """Send what is queued; at the end, close the connection if the server ended it."""
        while True:
            message = await self.queue.get()
            if message is None:
                if self.close_code is not None and self._close is not None:
                    with contextlib.suppress(Exception):
                        await self._close(self.close_code)
                return
            await self._send(message)


__all__ = ["Client"]
