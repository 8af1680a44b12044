"""The rate limits' levels in the database (:class:`ra.web.limits.Levels`), for a site whose
workers share PostgreSQL: a cap on sign-ins or password links holds once for the whole site,
not once per worker.  Each change is one atomic statement (PostgreSQL's upsert), so two workers
raising one key at once both count."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

PRUNE_EVERY = 500
"""Writes between two sweeps of the drained levels (a drained row means the same as none)."""

_DRAINED = "GREATEST(0, l.level - EXTRACT(EPOCH FROM (now() - l.at)) * :rate)"

_TAKE = sa.text(
    "INSERT INTO limit_levels AS l (key, level, rate, at) VALUES (:key, 1, :rate, now()) "
    f"ON CONFLICT (key) DO UPDATE SET level = {_DRAINED} + 1, rate = :rate, at = now() "
    f"WHERE {_DRAINED} + 1 <= :cap RETURNING l.level"
)
_ADD = sa.text(
    "INSERT INTO limit_levels AS l (key, level, rate, at) VALUES (:key, 1, :rate, now()) "
    f"ON CONFLICT (key) DO UPDATE SET level = {_DRAINED} + 1, rate = :rate, at = now()"
)
_LEVEL = sa.text(f"SELECT {_DRAINED} FROM limit_levels AS l WHERE l.key = :key")
_PRUNE = sa.text("DELETE FROM limit_levels WHERE level <= EXTRACT(EPOCH FROM (now() - at)) * rate")


_LOCK = sa.text("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))")


async def lock_key(conn: AsyncConnection, key: str) -> None:
    """Hold ``key`` until ``conn``'s transaction ends: a cap's count and the insert it allows
    then happen one request at a time across every worker and host sharing PostgreSQL (a burst
    or a second worker cannot both count 19 and both insert).  SQLite has one worker, whose
    store makes such transactions one at a time itself."""
    if conn.dialect.name == "postgresql":
        await conn.execute(_LOCK, {"key": key})


class StoredLevels:
    """:class:`ra.web.limits.Levels` in PostgreSQL's ``limit_levels`` table."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._writes = 0

    async def take(self, key: str, rate: float, cap: float) -> bool:
        async with self.engine.begin() as conn:
            taken = (await conn.execute(_TAKE, {"key": key, "rate": rate, "cap": cap})).first()
            await self._prune(conn)
        return taken is not None

    async def add(self, key: str, rate: float) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(_ADD, {"key": key, "rate": rate})
            await self._prune(conn)

    async def level(self, key: str, rate: float) -> float:
        async with self.engine.connect() as conn:
            level = await conn.scalar(_LEVEL, {"key": key, "rate": rate})
        return float(level or 0.0)

    async def _prune(self, conn: AsyncConnection) -> None:
        self._writes += 1
        if self._writes % PRUNE_EVERY == 0:
            await conn.execute(_PRUNE)
