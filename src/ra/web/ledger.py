"""The storage side of a table's step: the effects :meth:`ra.table.Table.step` says must be stored
before anyone is told (a decision, an undo, a seat's clock, a seat away or back, a forfeit),
written to a game's storage (:class:`ra.web.store.game_storage.GameStorage`) and its cached row.

A :class:`ra.web.hub.Room` runs the step and holds the lock and the sockets; its :class:`Ledger`
writes.  A write that loses a race raises :class:`ra.web.store.ConflictError` unchanged (the
room catches up and says so).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from ra.clock import Clock
from ra.engine import Game
from ra.master import (
    ChargeClock,
    Effect,
    SpendClock,
    StoreAway,
    StoreDecision,
    StoreForfeit,
    TakeBackStored,
)
from ra.table import Table, game_result
from ra.web.store import GameColumns, GameRow, ResultColumns
from ra.web.store.game_storage import GameStorage

if TYPE_CHECKING:
    from ra.web.protocol import HintReply


def result_columns(game: Game, forfeited: Collection[int] = ()) -> ResultColumns:
    """The epoch, and the winner and scores once the game is over (hidden until then, R9.1);
    the winner is the table's (:func:`ra.table.game_result`: a seat that forfeited never wins)."""
    result = game_result(game, forfeited)
    return {
        "epoch": game.epoch,
        "winner": result.winner if result is not None else None,
        "scores": list(result.scores) if result is not None else None,
    }


def forfeited_seats(row: GameRow) -> set[int]:
    """The seats of a stored game that forfeited (their clock ran out at a forfeit table)."""
    return {s.seat for s in row.seats if s.forfeited}


def away_seats(row: GameRow) -> set[int]:
    """The seats of a stored game a stand-in decides for now (their people are away)."""
    return {s.seat for s in row.seats if s.away}


def game_state(game: Game, row: GameRow, forfeited: Collection[int] | None = None) -> GameColumns:
    """The columns of ``games`` that mirror the game (for the lobby and the bot sweeper);
    ``forfeited``: the table's (default: the row's)."""
    over = game.is_over()
    to_move = None if over else game.to_move
    result = result_columns(game, forfeited_seats(row) if forfeited is None else forfeited)
    return {
        "status": "finished" if over else "running",
        "to_move": to_move,
        "to_move_bot": to_move is not None and row.seats[to_move].kind == "bot",
        "epoch": result["epoch"],
        "winner": result["winner"],
        "scores": result["scores"],
    }


def mirror(row: GameRow, table: Table[HintReply], now: datetime) -> None:
    """Keep a room's cached ``row`` in step with its ``table``'s game (the lobby's and the bot
    sweeper's columns); the next decision's clock starts ``now``."""
    state = game_state(table.game, row, table.forfeited)
    row.num_decisions = table.game.num_decisions
    row.status = state["status"]
    row.to_move = state["to_move"]
    row.epoch = state["epoch"]
    row.winner = state["winner"]
    row.scores = state["scores"]
    row.updated_at = now


class Ledger:
    """Writes one game's stored effects: to its storage, and to the room's cached ``row`` what the
    table does not hold (the seats' clocks, when the turn began, the lobby's columns)."""

    def __init__(self, store: GameStorage, game_id: str) -> None:
        self.store = store
        self.game_id = game_id

    async def write(
        self, row: GameRow, new: Table[HintReply], effects: Sequence[Effect], now: datetime
    ) -> None:
        """Store what ``effects`` say must be (the others are the room's to carry out), in order;
        ``new``: the table after the step, ``now``: its moment."""
        store, gid = self.store, self.game_id
        for effect in effects:
            if isinstance(effect, StoreDecision):
                state = game_state(new.game, row, new.forfeited)
                await store.append(gid, effect.n, effect.seat, effect.action, state, effect.stand_in)
            elif isinstance(effect, TakeBackStored):
                state = game_state(new.game, row, new.forfeited)
                await store.truncate(gid, effect.n, effect.keep, state)
            elif isinstance(effect, ChargeClock):
                await self._charge(row, effect.seat, effect.at, new.options.clock)
            elif isinstance(effect, SpendClock):
                row.seats[effect.seat].bank = 0.0  # spent: coming back gives only the increment
                await store.seat_clocks.set_bank(gid, effect.seat, 0.0)
            elif isinstance(effect, StoreAway):
                await self._away(row, effect, now)
            elif isinstance(effect, StoreForfeit):  # the table holds it: the row is not told
                await store.seat_clocks.set_away(gid, effect.seat, True, forfeited=True)

    async def read_clock(self, row: GameRow, seat: int) -> None:
        """Read ``seat``'s game clock as stored into the room's ``row`` (another worker may have
        charged it)."""
        row.seats[seat].bank = await self.store.seat_clocks.bank(self.game_id, seat)

    async def _charge(self, row: GameRow, seat: int, at: datetime, clock: Clock) -> None:
        """Under the table's game ``clock``, take the time of the decision taken ``at`` off the
        seat's clock and add the increment (stored: the clock survives a restart)."""
        bank = clock.charged(row.seats[seat].bank, row.updated_at, at)
        if bank is None:
            return
        row.seats[seat].bank = bank
        await self.store.seat_clocks.set_bank(self.game_id, seat, bank)

    async def _away(self, row: GameRow, effect: StoreAway, now: datetime) -> None:
        """A seat away or back (and its game clock, and its turn's new start at ``now``); whether
        it is away the table holds, the room's row only its clock."""
        seat = row.seats[effect.seat]
        if effect.bank is not None:
            seat.bank = effect.bank
        clocks = self.store.seat_clocks
        await clocks.set_away(self.game_id, effect.seat, effect.away, effect.restart_turn, effect.bank)
        if effect.restart_turn:
            row.updated_at = now


__all__ = ["Ledger", "away_seats", "forfeited_seats", "game_state", "mirror", "result_columns"]
