"""The analyses' table: a finished game's analysis, claimed by one worker, its progress and
its numbers (the aggregate of :mod:`ra.web.analyses`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from ra.web.db import analyses, as_utc, now


@dataclass
class AnalysisRow:
    """A game's analysis as stored: its progress while it runs, its numbers once done."""

    status: str  # running | done
    done: int
    total: int
    budget: str
    updated_at: datetime
    data: dict[str, Any] | None


class AnalysisStore:
    """The stored analyses (``store.analyses``)."""

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
        """Start the game's analysis here: True if nobody had, or a run stopped updating for
        ``stale_after`` seconds (its worker died); False if it is done or running elsewhere."""
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
        """Store the finished analysis (``None``: it failed, and the row goes so it can be retried)."""
        async with self.engine.begin() as conn:
            if data is None:
                await conn.execute(sa.delete(analyses).where(analyses.c.game_id == game_id))
                return
            await conn.execute(
                sa.update(analyses)
                .where(analyses.c.game_id == game_id)
                .values(status="done", done=analyses.c.total, data=data, updated_at=now())
            )
