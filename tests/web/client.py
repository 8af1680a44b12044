"""A scripted WebSocket client of ``ra serve`` for the tests: it keeps every message it got."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
import websockets

RECV_WITHIN = 30.0
"""Seconds a test waits for the server's next message before it fails (never forever)."""


async def next_frame(ws: Any, timeout: float = RECV_WITHIN) -> Any:
    """The next frame the server sends on ``ws`` (a websockets connection), within ``timeout``."""
    return await asyncio.wait_for(ws.recv(), timeout)


def create(
    base: str, seats: list[dict[str, Any]], name: str | None = "Ann", **options: Any
) -> dict[str, Any]:
    body = {"seats": seats, "name": name, "bot_delay": 0, **options}
    if name is None:
        body["join"] = False
    r = httpx.post(base + "/api/games", json=body, timeout=10)
    assert r.status_code == 200, r.text
    return dict(r.json())


def join(base: str, game_id: str, name: str) -> dict[str, Any]:
    r = httpx.post(f"{base}/api/games/{game_id}/join", json={"name": name}, timeout=10)
    assert r.status_code == 200, r.text
    return dict(r.json())


class Player:
    """One connection: a seat (with its token) or a spectator (no token)."""

    def __init__(self, ws_base: str, game_id: str, token: str | None, seed: int = 0) -> None:
        self.url = f"{ws_base}/ws/games/{game_id}"
        self.token = token
        self.rng = random.Random(seed)
        self.raw: list[str] = []
        self.messages: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.errors: list[dict[str, Any]] = []
        self.ws: Any = None

    async def connect(self) -> None:
        await self.connect_raw()
        await self.send({"type": "hello", "token": self.token, "since": len(self.events)})

    async def connect_raw(self) -> None:
        """Open the socket without saying hello (the test says it)."""
        self.ws = await websockets.connect(self.url, max_size=2**22)

    async def send(self, msg: dict[str, Any] | str) -> None:
        await self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    def _take(self, text: str) -> dict[str, Any]:
        self.raw.append(text)
        m: dict[str, Any] = json.loads(text)
        self.messages.append(m)
        if m["type"] == "state":
            start = m["events_from"]
            assert start <= len(self.events), (start, len(self.events))
            del self.events[start:]
            self.events.extend(m["events"])
            assert [e["i"] for e in self.events] == list(range(len(self.events)))
            self.state = m
        elif m["type"] == "error":
            self.errors.append(m)
        return m

    async def recv(self, timeout: float = RECV_WITHIN) -> dict[str, Any]:
        return self._take(await next_frame(self.ws, timeout))

    async def until(self, pred: Any, timeout: float = 60) -> dict[str, Any]:
        """Read messages until one satisfies ``pred``."""
        async with asyncio.timeout(timeout):
            while True:
                m = await self.recv(timeout)
                if pred(m):
                    return m

    async def state_now(self) -> dict[str, Any]:
        """Drain what is already queued, then return the latest state (the first one is waited
        for: right after the hello it may not have come yet on a busy machine)."""
        if self.state is None:
            await self.until(lambda m: m["type"] == "state", timeout=30)
        while True:
            try:
                self._take(await next_frame(self.ws, 0.05))
            except TimeoutError:
                break
        assert self.state is not None
        return self.state

    @property
    def my_turn(self) -> bool:
        return bool(self.state and self.state["legal"])

    async def play_random(self) -> str:
        """Send a random legal action for the state it has; retries once when rate-limited."""
        assert self.state is not None
        action = self.rng.choice(self.state["legal"])
        await self.send({"type": "action", "action": action, "n": self.state["n"]})
        return str(action)


def over(m: dict[str, Any]) -> bool:
    return m["type"] == "state" and m["view"] is not None and m["view"]["phase"] == "over"
