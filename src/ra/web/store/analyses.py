"""The analyses' aggregate: a finished game's analysis, claimed by one worker, its progress and
its numbers (what :mod:`ra.web.analyses` reads and writes), and the ratings of the accounts at
its seats (what its chances are given): the interface :class:`AnalysisStorage`, its SQL store
:class:`AnalysisStore` and its in-memory twin :class:`MemoryAnalyses`."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from ra.web.db import accounts, analyses, as_utc, now, seats


@dataclass
class AnalysisRow:
    """A game's analysis as stored: its progress while it runs, its numbers once done."""

    status: str  # running | done
    done: int
    total: int
    budget: str
    updated_at: datetime
    data: dict[str, Any] | None


class AnalysisStorage(Protocol):
    """The stored analyses (``store.analyses``)."""

    async def get(self, game_id: str) -> AnalysisRow | None: ...

    async def claim(self, game_id: str, total: int, budget: str, stale_after: float) -> bool:
        """Start the game's analysis here: True if nobody had, or a run stopped updating for
        ``stale_after`` seconds (its worker died); False if it is done or running elsewhere."""
        ...

    async def progress(self, game_id: str, done: int) -> None: ...

    async def finish(self, game_id: str, data: dict[str, Any] | None) -> None:
        """Store the finished analysis (``None``: it failed, and the row goes so it can be retried)."""
        ...

    async def rated_seats(self, game_id: str) -> dict[int, float]:
        """The rating μ of each seat held by an account that has a rated game."""
        ...


class AnalysisStore:
    """:class:`AnalysisStorage` in the database's ``analyses`` table (and the seats' accounts)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def get(self, game_id: str) -> AnalysisRow | None:
        async with self.engine.connect() as conn:
            r = (await conn.execute(sa.select(analyses).where(analyses.c.game_id == game_id))).mappings()
            row = r.first()
        if row is None:
            return None
        return AnalysisRow(
            row["status"],
            row["done"],
            row["total"],
            row["budget"],
            as_utc(row["updated_at"]) or now(),
            row["data"],
        )

    async def claim(self, game_id: str, total: int, budget: str, stale_after: float) -> bool:
        t = now()
        values = {
            "status": "running",
            "done": 0,
            "total": total,
            "budget": budget,
            "updated_at": t,
            "data": None,
        }
        async with self.engine.begin() as conn:
            res = await conn.execute(
                sa.update(analyses)
                .where(
                    analyses.c.game_id == game_id,
                    analyses.c.status == "running",
                    analyses.c.updated_at < t - timedelta(seconds=stale_after),
                )
                .values(**values)
            )
            if res.rowcount == 1:
                return True
            try:
                async with conn.begin_nested():
                    await conn.execute(sa.insert(analyses).values(game_id=game_id, **values))
            except IntegrityError:
                return False
            return True

    async def progress(self, game_id: str, done: int) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                sa.update(analyses).where(analyses.c.game_id == game_id).values(done=done, updated_at=now())
            )

    async def finish(self, game_id: str, data: dict[str, Any] | None) -> None:
        async with self.engine.begin() as conn:
            if data is None:
                await conn.execute(sa.delete(analyses).where(analyses.c.game_id == game_id))
                return
            await conn.execute(
                sa.update(analyses)
                .where(analyses.c.game_id == game_id)
                .values(status="done", done=analyses.c.total, data=data, updated_at=now())
            )

    async def rated_seats(self, game_id: str) -> dict[int, float]:
        q = (
            sa.select(seats.c.seat, accounts.c.rating_mu)
            .join(accounts, accounts.c.id == seats.c.account_id)
            .where(seats.c.game_id == game_id, accounts.c.rated_games > 0)
        )
        async with self.engine.connect() as conn:
            return {int(seat): float(mu) for seat, mu in (await conn.execute(q)).all()}


class MemoryAnalyses:
    """:class:`AnalysisStorage` in this process's memory (``rated``: the ratings of the
    accounts at each game's seats, as a test sets them)."""

    def __init__(self) -> None:
        self.rows: dict[str, AnalysisRow] = {}
        self.rated: dict[str, dict[int, float]] = {}

    async def get(self, game_id: str) -> AnalysisRow | None:
        row = self.rows.get(game_id)
        return None if row is None else dataclasses.replace(row)

    async def claim(self, game_id: str, total: int, budget: str, stale_after: float) -> bool:
        t = now()
        row = self.rows.get(game_id)
        if row is not None and (
            row.status != "running" or row.updated_at >= t - timedelta(seconds=stale_after)
        ):
            return False
        self.rows[game_id] = AnalysisRow("running", 0, total, budget, t, None)
        return True

    async def progress(self, game_id: str, done: int) -> None:
        row = self.rows.get(game_id)
        if row is not None:
            row.done, row.updated_at = done, now()

    async def finish(self, game_id: str, data: dict[str, Any] | None) -> None:
        row = self.rows.get(game_id)
        if data is None:
            self.rows.pop(game_id, None)
        elif row is not None:
            row.status, row.done, row.data, row.updated_at = "done", row.total, data, now()

    async def rated_seats(self, game_id: str) -> dict[int, float]:
        return dict(self.rated.get(game_id, {}))
