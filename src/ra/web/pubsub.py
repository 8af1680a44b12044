"""How the workers of one server tell each other what changed: typed notes over a pub/sub.

A note says *that* a game changed (and, for one appended decision, which), or which
seats a worker has connections on; the receiver reads the rest from the database.
Two implementations of one small interface (:class:`PubSub`):

- :class:`LocalPubSub`: in-process queues — one worker (SQLite) and tests;
- :class:`PostgresPubSub`: PostgreSQL ``LISTEN``/``NOTIFY``.  The store publishes a game's
  note in the same transaction as the change (:func:`notify_sql`), so PostgreSQL delivers it
  on commit and in commit order; presence is published on its own.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

log = logging.getLogger("ra.web")

CHANNEL = "ra_games"
"""The PostgreSQL notification channel."""


@dataclass(frozen=True)
class GameChanged:
    """Game ``game_id`` changed in the database (by ``worker``); ``appended`` is the number of
    the one decision appended, when that is all that changed, and ``seat`` and ``action`` that
    decision (so the other workers need not read it back)."""

    game_id: str
    worker: str
    appended: int | None = None
    seat: int | None = None
    action: str | None = None
    stand_in: bool = False
    """A stand-in bot took that decision for the absent person in ``seat``."""


@dataclass(frozen=True)
class PresenceChanged:
    """``worker`` now has connections on these seats of ``game_id``, and ``watching``
    spectators' connections."""

    game_id: str
    worker: str
    connected: tuple[bool, ...]
    watching: int = 0


@dataclass(frozen=True)
class ChatPosted:
    """``worker`` stored chat line ``chat_id`` at table ``game_id`` (the others send it on)."""

    game_id: str
    worker: str
    chat_id: int


@dataclass(frozen=True)
class EventChanged:
    """``worker`` changed event ``event_id`` (its players, rounds, results or status): the
    other workers' live event pages read it again (:mod:`ra.web.event_feed`)."""

    event_id: str
    worker: str


Note = GameChanged | PresenceChanged | ChatPosted | EventChanged


def encode(note: Note) -> str:
    """A note as the text a notification carries (PostgreSQL's limit is 8,000 bytes: far off)."""
    if isinstance(note, GameChanged):
        decision = {"a": note.appended, "s": note.seat, "d": note.action, "b": note.stand_in}
        return json.dumps({"k": "g", "g": note.game_id, "w": note.worker, **decision})
    if isinstance(note, EventChanged):
        return json.dumps({"k": "e", "e": note.event_id, "w": note.worker})
    if isinstance(note, ChatPosted):
        return json.dumps({"k": "c", "g": note.game_id, "w": note.worker, "i": note.chat_id})
    connected = [int(c) for c in note.connected]
    return json.dumps({"k": "p", "g": note.game_id, "w": note.worker, "c": connected, "v": note.watching})


def decode(text: str) -> Note | None:
    """The note in ``text``, or None for anything that is not one (logged, never raised)."""
    try:
        data = json.loads(text)
        if data["k"] == "e":
            return EventChanged(str(data["e"]), str(data["w"]))
        kind, game_id, worker = data["k"], str(data["g"]), str(data["w"])
        if kind == "g":
            appended, seat, action = data.get("a"), data.get("s"), data.get("d")
            return GameChanged(
                game_id,
                worker,
                appended if isinstance(appended, int) else None,
                seat if isinstance(seat, int) else None,
                action if isinstance(action, str) else None,
                data.get("b") is True,
            )
        if kind == "c" and isinstance(data["i"], int):
            return ChatPosted(game_id, worker, data["i"])
        if kind == "p":
            watching = data.get("v", 0)
            watching = watching if isinstance(watching, int) and 0 <= watching < 1_000_000 else 0
            return PresenceChanged(game_id, worker, tuple(bool(c) for c in data["c"]), watching)
    except (ValueError, KeyError, TypeError):
        pass
    log.warning("ignored a malformed note: %.80r", text)
    return None


class PubSub(Protocol):
    """Publish notes to every worker; each worker reads the others' notes from :meth:`notes`."""

    async def publish(self, note: Note) -> None: ...

    def notes(self) -> AsyncIterator[Note]: ...

    async def close(self) -> None: ...


class LocalPubSub:
    """Notes between the parts of one process (one worker, or tests with several hubs)."""

    def __init__(self) -> None:
        self._queues: list[asyncio.Queue[Note]] = []

    async def publish(self, note: Note) -> None:
        for q in self._queues:
            q.put_nowait(note)

    async def notes(self) -> AsyncIterator[Note]:
        q: asyncio.Queue[Note] = asyncio.Queue()
        self._queues.append(q)
        try:
            while True:
                yield await q.get()
        finally:
            self._queues.remove(q)

    async def close(self) -> None:
        self._queues.clear()


class PostgresPubSub:
    """Notes through PostgreSQL ``LISTEN``/``NOTIFY`` on :data:`CHANNEL`."""

    def __init__(self, url: str, publish: Callable[[Note], Awaitable[None]] | None = None) -> None:
        self.url = url  # a plain postgresql:// URL for psycopg
        self._publish = publish  # e.g. the store's, over its connection pool

    async def publish(self, note: Note) -> None:
        if self._publish is not None:
            await self._publish(note)
            return
        import psycopg

        async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
            await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, encode(note)))

    async def notes(self) -> AsyncIterator[Note]:
        """Follow the channel, reconnecting after a lost link (a ``None``-free stream of notes;
        after a reconnect the caller should catch up: see :meth:`ra.web.hub.Hub.listen`)."""
        import psycopg

        async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
            await conn.execute(f"LISTEN {CHANNEL}")
            async for n in conn.notifies():
                note = decode(n.payload)
                if note is not None:
                    yield note

    async def close(self) -> None:
        """Nothing is held between calls: each :meth:`notes` stream owns its connection."""


def notify_sql(note: Note) -> tuple[str, str]:
    """The channel and payload for ``pg_notify`` inside the writer's own transaction."""
    return CHANNEL, encode(note)
