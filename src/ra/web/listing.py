"""The lobby's lists of tables: a game by its id, the newest tables of a status (cached a moment,
limited per address) and every list a lobby page shows (:mod:`ra.web.lobby_feed`)."""

from __future__ import annotations

import time
from collections.abc import Sequence

from typing_extensions import TypedDict

from ra.web.db import now
from ra.web.errors import ApiError
from ra.web.hub import Hub
from ra.web.limits import AddressBucket
from ra.web.lobby_feed import LobbyLists
from ra.web.protocol import GameSummary
from ra.web.settings import Settings
from ra.web.store import GameRow
from ra.web.store.lobby import LobbyStorage
from ra.web.waiting import deserted

LIST_CACHE_SECONDS = 1.0
"""How long the lobby's list is served from memory (it is read by every open lobby page)."""
FINISHED_LISTED = 30
"""Finished games the live lobby lists (the page shows five, then the rest on demand)."""
LISTS_PER_SECOND = 5.0
"""Lobby list requests one address may make a second (bursts of 4×)."""


class Seated(TypedDict, total=False):
    """What creating or joining a table answers (``seat``, ``token``, ``link`` when seated)."""

    game: GameSummary
    seat: int
    token: str
    link: str


class Listing:
    """The tables as the lobby lists them, over one store and this worker's rooms."""

    def __init__(self, store: LobbyStorage, hub: Hub, settings: Settings) -> None:
        self.store, self.hub, self.settings = store, hub, settings
        self._asks = AddressBucket(store.levels, "lobby-lists", LISTS_PER_SECOND, 4 * LISTS_PER_SECOND)
        self._listed: dict[str | None, tuple[float, list[GameSummary]]] = {}

    async def row(self, game_id: str) -> GameRow:
        """A stored game (404 ``not_found`` for an unknown id)."""
        row = await self.store.game(game_id) if len(game_id) <= 16 else None
        if row is None:
            raise ApiError(404, "not_found", f"no game {game_id!r}")
        return row

    async def summary(self, game_id: str) -> GameSummary:
        return self.hub.summary(await self.row(game_id))

    async def allow(self, addr: str) -> None:
        """429 ``rate_limited`` past :data:`LISTS_PER_SECOND` lists (and seeks) of one address."""
        if not await self._asks.allow(addr):
            raise ApiError(429, "rate_limited", "the lobby is asked too often from this address; slow down")

    async def list(self, status: str | None, addr: str) -> list[GameSummary]:
        """The newest tables (cached for :data:`LIST_CACHE_SECONDS`; limited per address)."""
        await self.allow(addr)
        t = time.monotonic()
        cached = self._listed.get(status)
        if cached is not None and t - cached[0] < LIST_CACHE_SECONDS:
            return cached[1]
        listed = [self.hub.summary(r) for r in await self.listed(status)]
        self._listed[status] = (t, listed)
        return listed

    def forget(self) -> None:
        """A table was made, joined or left here: the next list shows it at once."""
        self._listed.clear()

    async def listed(self, status: str | None) -> Sequence[GameRow]:
        """The newest tables of ``status`` but the open ones whose people have gone (issue 54)."""
        at, wait = now(), self.settings.open_table_wait
        return [r for r in await self.store.list_games(status) if not deserted(r, at, wait)]

    async def lists(self) -> LobbyLists:
        """Every list a lobby page shows, for the live lobby (:mod:`ra.web.lobby_feed`)."""
        summarize = self.hub.summary
        return {
            "type": "lobby",
            "open": [summarize(r) for r in await self.listed("open")],
            "running": [summarize(r) for r in await self.store.list_games("running")],
            "finished": [summarize(r) for r in await self.store.list_games("finished", FINISHED_LISTED)],
        }
