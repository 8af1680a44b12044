"""The lobby's aggregate: the tables as the lobby makes, lists, seats and closes them, and the
caps a creation is counted against (what :class:`ra.web.lobby.Lobby`,
:class:`ra.web.listing.Listing` and :class:`ra.web.game_records.GameRecords` read and write).
The interface :class:`LobbyStorage`; its SQL store is :class:`ra.web.store.Store` itself (the
games' rows are the lobby's), its in-memory twin :class:`MemoryLobby`."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import timedelta
from typing import Any, Protocol

from ra.web.db import now
from ra.web.store.game_storage import MemoryGames
from ra.web.store.games import Caps, GameRow, Linker, OverCapError, SeatRow
from ra.web.store.limits import Levels, MemoryLevels
from ra.web.store.tokens import hash_token, new_id

DAY = timedelta(hours=24)


class LobbyStorage(Protocol):
    """The stored tables as the lobby needs them."""

    @property
    def levels(self) -> Levels:
        """The rate limits' levels (lists, seeks and imports are limited per address)."""

    async def game(self, game_id: str) -> GameRow | None: ...

    async def list_games(self, status: str | None, limit: int = 100) -> list[GameRow]:
        """The newest ``limit`` games (of one ``status``) with their seats."""
        ...

    async def seat_for_token(self, game_id: str, token: str) -> int | None: ...

    async def create_game(
        self,
        values: dict[str, Any],
        seat_rows: Sequence[dict[str, Any]],
        caps: Caps | None = None,
        then: Linker | None = None,
    ) -> str:
        """A new game, unless its creator is past one of ``caps`` (:class:`OverCapError`);
        ``then`` runs in the creation's transaction with the new id."""
        ...

    async def delete_game(self, game_id: str) -> None:
        """Remove a game that never started (a rematch table that lost a race)."""
        ...

    async def close_if_empty(self, game_id: str) -> bool:
        """Remove an open table nobody is seated at; False if someone is."""
        ...

    async def take_seat(self, game_id: str, seat: int, name: str, token: str) -> bool:
        """Give a free human seat a name and a token; False if it was taken meanwhile."""
        ...

    async def free_seat(self, game_id: str, seat: int) -> bool: ...

    async def start(self, game_id: str, to_move: int | None, to_move_bot: bool) -> bool:
        """Mark an open game running (once)."""
        ...

    async def set_rematch(self, game_id: str, rematch_id: str) -> bool:
        """Note the game's rematch table (once: False if it had one)."""
        ...


_GAME_FIELDS = {f.name for f in dataclasses.fields(GameRow)}
_SEAT_FIELDS = {f.name for f in dataclasses.fields(SeatRow)}
_NEW_GAME: dict[str, Any] = {
    "suns_per_player": None,
    "record": None,
    "num_decisions": 0,
    "to_move": None,
    "epoch": 1,
    "winner": None,
    "scores": None,
    "rematch_id": None,
}
"""A new game's columns the lobby leaves to the database's defaults."""


class MemoryLobby(MemoryGames):
    """:class:`LobbyStorage` on :class:`ra.web.store.game_storage.MemoryGames`'s rows, with the same rules
    and caps as the database (one process: a creation is one step)."""

    def __init__(self) -> None:
        super().__init__()
        self.levels = MemoryLevels()

    async def list_games(self, status: str | None, limit: int = 100) -> list[GameRow]:
        rows = [r for r in self.rows.values() if status is None or r.status == status]
        rows.sort(key=lambda r: r.created_at, reverse=True)
        return [dataclasses.replace(r, seats=[dataclasses.replace(s) for s in r.seats]) for r in rows[:limit]]

    async def seat_for_token(self, game_id: str, token: str) -> int | None:
        row = self.rows.get(game_id)
        found = [s.seat for s in row.seats if s.token_hash == hash_token(token)] if row else []
        return found[0] if found else None

    async def create_game(
        self,
        values: dict[str, Any],
        seat_rows: Sequence[dict[str, Any]],
        caps: Caps | None = None,
        then: Linker | None = None,
    ) -> str:
        if then is not None:  # a step over a database connection: events live in the SQL store only
            raise NotImplementedError("the in-memory lobby has no transaction to link a game into")
        if caps is not None:
            self._check_caps(caps)
        t = now()
        columns = {k: v for k, v in {**_NEW_GAME, **values}.items() if k in _GAME_FIELDS}
        row = GameRow(id=new_id(), created_at=t, updated_at=t, **columns)
        row.seats = [SeatRow(**{k: v for k, v in s.items() if k in _SEAT_FIELDS}) for s in seat_rows]
        return self.put(row)

    async def delete_game(self, game_id: str) -> None:
        row = self.rows.get(game_id)
        if row is not None and row.status == "open":
            del self.rows[game_id]

    async def close_if_empty(self, game_id: str) -> bool:
        row = self.rows.get(game_id)
        if row is None or row.status != "open" or any(s.token_hash is not None for s in row.seats):
            return False
        del self.rows[game_id]
        return True

    async def take_seat(self, game_id: str, seat: int, name: str, token: str) -> bool:
        s = self._seat(game_id, seat)
        if s is None or s.kind != "human" or s.token_hash is not None:
            return False
        s.name, s.token_hash, s.gone_at = name, hash_token(token), now()
        return True

    async def free_seat(self, game_id: str, seat: int) -> bool:
        s = self._seat(game_id, seat)
        if s is None:
            return False
        s.name, s.token_hash, s.gone_at = None, None, None
        return True

    async def start(self, game_id: str, to_move: int | None, to_move_bot: bool) -> bool:
        row = self.rows.get(game_id)
        if row is None or row.status != "open":
            return False
        row.status, row.to_move, row.updated_at = "running", to_move, now()
        return True

    async def set_rematch(self, game_id: str, rematch_id: str) -> bool:
        row = self.rows.get(game_id)
        if row is None or row.rematch_id is not None:
            return False
        row.rematch_id = rematch_id
        return True

    def _seat(self, game_id: str, seat: int) -> SeatRow | None:
        row = self.rows.get(game_id)
        return next((s for s in row.seats if s.seat == seat), None) if row else None

    def _check_caps(self, caps: Caps) -> None:
        """The caps counted over the rows, as :meth:`ra.web.store.Store.create_game` counts them."""
        mine = [r for r in self.rows.values() if r.creator_addr == caps.addr]
        active = [r for r in mine if r.status in ("open", "running")]
        bots = sum(s.kind == "bot" for r in active for s in r.seats)
        if caps.active is not None and len(active) >= caps.active:
            raise OverCapError("active", len(active))
        if caps.bot_seats is not None and bots + caps.new_bots > caps.bot_seats:
            raise OverCapError("bot_seats", bots)
        today = sum(r.created_at >= now() - DAY for r in mine)
        if caps.today is not None and today >= caps.today:
            raise OverCapError("today", today)
