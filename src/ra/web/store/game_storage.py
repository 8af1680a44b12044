"""The games' aggregate as a game master needs it: the interface, and an in-memory twin of it.

:class:`GameStorage` is the storage interface a room and its bot driver use (boardgame.io's
``StorageAPI``): one game's row and decisions, a decision appended or taken back atomically
(compare-and-set on the number of decisions), a seat's away/forfeit flags and clock
(:class:`SeatClockStorage`), and the claim of a bot's turn (:class:`ClaimStorage`).
:class:`ra.web.store.Store` holds it in SQLite or PostgreSQL;
:class:`MemoryGames` holds it in dictionaries, so the match and its bots are tested
in-process (``tests/web/test_match.py``) without a server, a socket or a database.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Protocol

from ra.web.pubsub import Note
from ra.web.store.games import ConflictError, GameColumns, GameRow, StoredDecision


class SeatClockStorage(Protocol):
    """A seat's away and forfeit flags and game clock (:class:`ra.web.store.seat_clocks.SeatClocks`)."""

    async def set_away(
        self,
        game_id: str,
        seat: int,
        away: bool,
        restart_turn: bool = False,
        bank: float | None = None,
        forfeited: bool = False,
    ) -> bool: ...

    async def set_bank(self, game_id: str, seat: int, bank: float) -> None: ...

    async def bank(self, game_id: str, seat: int) -> float | None: ...

    async def games_past_their_clock(self, deadline: float) -> list[str]: ...


class ClaimStorage(Protocol):
    """The claims of bots' turns (:class:`ra.web.store.bot_claims.BotClaims`)."""

    async def claim(self, game_id: str, n: int, stale_after: float) -> bool: ...

    async def hold(self, game_id: str, n: int) -> None: ...

    async def games_waiting(self, stale_after: float) -> list[str]: ...


class GameStorage(Protocol):
    """The storage a game's room needs (and nothing of accounts, chat or analyses)."""

    @property
    def sqlite(self) -> bool:
        """One process serves the games: no other worker to claim from or tell."""

    async def game(self, game_id: str) -> GameRow | None: ...

    async def decisions(self, game_id: str, since: int = 0) -> list[StoredDecision]: ...

    async def append(
        self, game_id: str, n: int, seat: int, action: str, state: GameColumns, stand_in: bool = False
    ) -> None: ...

    async def truncate(self, game_id: str, n: int, keep: int, state: GameColumns) -> None: ...

    @property
    def seat_clocks(self) -> SeatClockStorage:
        """The seats' away and forfeit flags and game clocks."""

    @property
    def claims(self) -> ClaimStorage:
        """Which worker computes each bot's turn."""

    async def notify(self, note: Note) -> None: ...


class MemoryGames:
    """:class:`GameStorage` in dictionaries: the same compare-and-set rules as the database
    (a write at the wrong number of decisions raises :class:`ConflictError`), one process."""

    sqlite = True  # one process, as one SQLite worker: nothing to claim, nobody to tell

    def __init__(self, now: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.now = now
        """The moment a change is stamped and a clock is read at (a test's fake clock)."""
        self.rows: dict[str, GameRow] = {}
        self.decided: dict[str, list[StoredDecision]] = {}
        self.seat_clocks = MemorySeatClocks(self.rows, lambda: self.now())  # noqa: PLW0108 (a test may set now)
        """The seats' flags and clocks, in the same rows."""
        self.claims = MemoryClaims(self.rows)
        """Nothing to claim: one process knows its own bots."""

    def put(self, row: GameRow) -> str:
        """Store a game (a copy), as the lobby's ``create_game`` and ``start`` would leave it."""
        self.rows[row.id] = copy.deepcopy(row)
        self.decided.setdefault(row.id, [])
        return row.id

    async def game(self, game_id: str) -> GameRow | None:
        row = self.rows.get(game_id)
        return copy.deepcopy(row) if row is not None else None

    async def decisions(self, game_id: str, since: int = 0) -> list[StoredDecision]:
        return list(self.decided.get(game_id, [])[since:])

    async def append(
        self, game_id: str, n: int, seat: int, action: str, state: GameColumns, stand_in: bool = False
    ) -> None:
        row = self._at(game_id, n)
        self.decided[game_id].append(StoredDecision(seat, action, stand_in))
        self._mirror(row, n + 1, state)

    async def truncate(self, game_id: str, n: int, keep: int, state: GameColumns) -> None:
        row = self._at(game_id, n)
        del self.decided[game_id][keep:]
        self._mirror(row, keep, state)

    async def notify(self, note: Note) -> None:
        return None  # no other worker

    def _at(self, game_id: str, n: int) -> GameRow:
        row = self.rows.get(game_id)
        if row is None or row.num_decisions != n:
            raise ConflictError(game_id)
        return row

    def _mirror(self, row: GameRow, n: int, state: GameColumns) -> None:
        fields = {k: v for k, v in state.items() if k in {f.name for f in dataclasses.fields(row)}}
        for key, value in fields.items():
            setattr(row, key, value)
        row.num_decisions = n
        row.updated_at = self.now()


class MemorySeatClocks:
    """:class:`SeatClockStorage` on :class:`MemoryGames`'s rows (``now``: its clock)."""

    def __init__(self, rows: dict[str, GameRow], now: Callable[[], datetime]) -> None:
        self.rows = rows
        self.now = now

    async def set_away(
        self,
        game_id: str,
        seat: int,
        away: bool,
        restart_turn: bool = False,
        bank: float | None = None,
        forfeited: bool = False,
    ) -> bool:
        row = self.rows.get(game_id)
        if row is None or not 0 <= seat < len(row.seats):
            return False
        s = row.seats[seat]
        s.away = away
        s.bank = bank if bank is not None else s.bank
        s.forfeited = s.forfeited or forfeited
        if restart_turn:
            row.updated_at = self.now()
        return True

    async def set_bank(self, game_id: str, seat: int, bank: float) -> None:
        self.rows[game_id].seats[seat].bank = bank

    async def bank(self, game_id: str, seat: int) -> float | None:
        return self.rows[game_id].seats[seat].bank

    async def games_past_their_clock(self, deadline: float) -> list[str]:
        t = self.now()
        return [g for g, r in self.rows.items() if _past_clock(r, t, deadline)]


class MemoryClaims:
    """:class:`ClaimStorage` on :class:`MemoryGames`'s rows: one process, nothing to claim."""

    def __init__(self, rows: dict[str, GameRow]) -> None:
        self.rows = rows

    async def claim(self, game_id: str, n: int, stale_after: float) -> bool:
        return True  # one process knows its own bots

    async def hold(self, game_id: str, n: int) -> None:
        return None  # nobody else to keep away

    async def games_waiting(self, stale_after: float) -> list[str]:
        return [g for g, r in self.rows.items() if r.status == "running" and _bot_to_move(r)]


def _bot_to_move(row: GameRow) -> bool:
    return row.to_move is not None and row.seats[row.to_move].kind == "bot"


def _past_clock(row: GameRow, t: datetime, deadline: float) -> bool:
    """A running game whose person to move is away or out of time (or past ``deadline``)."""
    if row.status != "running" or row.record is not None or row.to_move is None or _bot_to_move(row):
        return False
    seat = row.seats[row.to_move]
    return row.clock(deadline).is_out(seat.bank, seat.away, row.updated_at, t)


__all__ = [
    "ClaimStorage",
    "GameStorage",
    "MemoryClaims",
    "MemoryGames",
    "MemorySeatClocks",
    "SeatClockStorage",
]
