"""A seat's clock and presence at a running game: away or back, forfeited, its game clock, and
the sweep's query of the games whose person to move is out of time.

The sweep's query is the table's own rule (:func:`ra.clock.out_of_time`) written in SQL, not a
second copy of it.  The in-memory twin is :class:`ra.web.store.game_storage.MemorySeatClocks`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.ext.compiler import compiles

from ra.clock import out_of_time, seconds_for
from ra.web.db import games, now, seats


class SeatClocks:
    """The seats' away and forfeit flags and game clocks in one database; ``notify`` tells the
    other workers a game changed (in the writing transaction), ``changed`` this worker's lobby."""

    def __init__(
        self,
        engine: AsyncEngine,
        notify: Callable[[AsyncConnection, str], Awaitable[None]],
        changed: Callable[[], None],
    ) -> None:
        self.engine = engine
        self.notify = notify
        self.changed = changed

    async def set_away(
        self,
        game_id: str,
        seat: int,
        away: bool,
        restart_turn: bool = False,
        bank: float | None = None,
        forfeited: bool = False,
    ) -> bool:
        """Mark a seat away (its clock ran out) or back; ``restart_turn``: the decision now due
        starts its clock again (a person back at their turn has their full time); ``bank``: the
        seat's game clock now; ``forfeited``: for good (a forfeit table)."""
        values: dict[str, Any] = {"away": away}
        if bank is not None:
            values["bank"] = bank
        if forfeited:
            values["forfeited"] = True
        async with self.engine.begin() as conn:
            res = await conn.execute(
                sa.update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat).values(**values)
            )
            if restart_turn:
                await conn.execute(sa.update(games).where(games.c.id == game_id).values(updated_at=now()))
            await self.notify(conn, game_id)
        self.changed()
        return res.rowcount == 1

    async def set_bank(self, game_id: str, seat: int, bank: float) -> None:
        """A seat's game clock after its decision (what it had, less the time taken, plus the
        increment); the other workers are told (they show it and time the next timeout by it)."""
        async with self.engine.begin() as conn:
            await conn.execute(
                sa.update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat).values(bank=bank)
            )
            await self.notify(conn, game_id)  # the other workers read the seat's clock again

    async def bank(self, game_id: str, seat: int) -> float | None:
        """A seat's game clock as stored (another worker may have charged it)."""
        async with self.engine.connect() as conn:
            return (
                await conn.execute(
                    sa.select(seats.c.bank).where(seats.c.game_id == game_id, seats.c.seat == seat)
                )
            ).scalar()

    async def games_past_their_clock(self, deadline: float) -> list[str]:
        """Running games whose person to move is out of time (at a table without a clock: past
        ``deadline``), or is away (a bot decides)."""
        async with self.engine.connect() as conn:
            return list((await conn.execute(_past_their_clock(now(), deadline))).scalars())


class _SqlTerms:
    """The clock's :class:`ra.clock.Terms` on SQL expressions: the sweep's query is the
    table's own rule (:func:`ra.clock.out_of_time`), not a second copy of it."""

    def first(self, *terms: sa.ColumnElement[Any]) -> sa.ColumnElement[Any]:
        return sa.func.coalesce(*terms)

    def if_set(self, test: sa.ColumnElement[Any], then: sa.ColumnElement[Any]) -> sa.ColumnElement[Any]:
        return sa.case((test.is_not(None), then), else_=sa.null())

    def plus(self, a: sa.ColumnElement[Any], b: sa.ColumnElement[Any]) -> sa.ColumnElement[Any]:
        return a + b

    def at_most(self, a: sa.ColumnElement[Any], b: sa.ColumnElement[Any]) -> sa.ColumnElement[Any]:
        return a <= b

    def either(self, a: sa.ColumnElement[Any], b: sa.ColumnElement[Any]) -> sa.ColumnElement[Any]:
        return sa.or_(a, b)


class _Epoch(sa.sql.functions.FunctionElement[float]):
    """A stored moment in seconds since 1970 (as :meth:`datetime.timestamp` counts them)."""

    type = sa.Float()
    inherit_cache = True


@compiles(_Epoch, "postgresql")
def _epoch_pg(element: _Epoch, compiler: Any, **kw: Any) -> str:
    return f"EXTRACT(EPOCH FROM {compiler.process(element.clauses, **kw)})"


@compiles(_Epoch)
def _epoch_sqlite(element: _Epoch, compiler: Any, **kw: Any) -> str:
    return f"((julianday({compiler.process(element.clauses, **kw)}) - 2440587.5) * 86400.0)"


def _past_their_clock(t: datetime, deadline: float) -> sa.Select[Any]:
    """The running games whose person to move is away or out of time at ``t`` (at a table
    without a clock: past ``deadline``), for :meth:`SeatClocks.games_past_their_clock`: the rule is
    :mod:`ra.clock`'s, written in SQL by :class:`_SqlTerms`."""
    terms = _SqlTerms()
    seconds = seconds_for(
        terms,
        sa.cast(games.c.move_seconds, sa.Float),
        sa.cast(games.c.game_seconds, sa.Float),
        sa.cast(seats.c.bank, sa.Float),
        sa.literal(float(deadline), sa.Float),
    )
    moment = sa.literal(t.timestamp(), sa.Float)
    due = out_of_time(terms, seats.c.away, _Epoch(games.c.updated_at), seconds, moment)
    mover = sa.and_(seats.c.game_id == games.c.id, seats.c.seat == games.c.to_move)
    return (
        sa.select(games.c.id)
        .join(seats, mover)
        .where(
            games.c.status == "running",
            games.c.to_move_bot.is_(False),
            games.c.record.is_(None),
            due,
        )
    )


__all__ = ["SeatClocks"]
