"""The limits' state in the database (:class:`ra.web.limits.Levels` and
:class:`ra.web.limits.Holds`), for a site whose workers share PostgreSQL: a cap holds once for
the whole site, not once per worker.  Each change of a level is one atomic statement
(PostgreSQL's upsert), so two workers raising one key at once both count; a hold's count and
its insert, and a table cap's, are one transaction under the key's advisory lock."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

log = logging.getLogger("ra.web")

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


HOLD_REFRESH = 30.0
"""Seconds between a worker's refreshes of what its clients hold (its holds' heartbeat)."""
HOLD_STALE = 3 * HOLD_REFRESH
"""Holds not refreshed for this long are a gone worker's: they no longer count, and are swept."""

_FRESH = f"at > now() - make_interval(secs => {HOLD_STALE})"
_HELD = sa.text(f"SELECT COALESCE(SUM(n), 0) FROM limit_holds WHERE key = :key AND {_FRESH}")
_HOLD = sa.text(
    "INSERT INTO limit_holds AS h (key, worker, n, at) VALUES (:key, :worker, 1, now()) "
    "ON CONFLICT (key, worker) DO UPDATE SET n = h.n + 1, at = now()"
)
_GIVE_BACK = sa.text("UPDATE limit_holds SET n = n - 1 WHERE key = :key AND worker = :worker")
_EMPTY = sa.text("DELETE FROM limit_holds WHERE key = :key AND worker = :worker AND n <= 0")
_FORGET = sa.text("DELETE FROM limit_holds WHERE worker = :worker")
_MINE = sa.text("INSERT INTO limit_holds (key, worker, n, at) VALUES (:key, :worker, :n, now())")
_SWEEP = sa.text(f"DELETE FROM limit_holds WHERE NOT ({_FRESH})")


class StoredHolds:
    """:class:`ra.web.limits.Holds` in PostgreSQL's ``limit_holds`` table, one row per key and
    worker.  A take counts every worker's fresh rows and adds its own under the key's lock.
    Every :data:`HOLD_REFRESH` s a running worker writes its rows again from what it knows it
    holds (a give-back the database missed is made good), so a worker that died holding
    sockets stops counting after :data:`HOLD_STALE` s."""

    def __init__(self, engine: AsyncEngine, worker: str) -> None:
        self.engine, self.worker = engine, worker
        self._mine: Counter[str] = Counter()
        self._keeper: asyncio.Task[None] | None = None

    async def take(self, key: str, cap: int) -> bool:
        if self._keeper is None:
            self._keeper = asyncio.create_task(self._keep())
        async with self.engine.begin() as conn:
            await lock_key(conn, f"holds\n{key}")
            if int(await conn.scalar(_HELD, {"key": key}) or 0) >= cap:
                return False
            await conn.execute(_HOLD, {"key": key, "worker": self.worker})
        self._mine[key] += 1
        return True

    async def give_back(self, key: str) -> None:
        self._mine[key] -= 1
        if self._mine[key] <= 0:
            del self._mine[key]
        async with self.engine.begin() as conn:
            await conn.execute(_GIVE_BACK, {"key": key, "worker": self.worker})
            await conn.execute(_EMPTY, {"key": key, "worker": self.worker})

    async def close(self) -> None:
        """Stop refreshing, and let go of this worker's holds (its clients are gone)."""
        if self._keeper is not None:
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keeper
        self._mine.clear()
        with contextlib.suppress(Exception):
            await self.refresh()

    async def refresh(self) -> None:
        """Write this worker's rows again from what it holds (fresh), sweep the stale ones."""
        rows = [{"key": k, "worker": self.worker, "n": n} for k, n in self._mine.items()]
        async with self.engine.begin() as conn:
            await conn.execute(_FORGET, {"worker": self.worker})
            if rows:
                await conn.execute(_MINE, rows)
            await conn.execute(_SWEEP)

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(HOLD_REFRESH)
            try:
                await self.refresh()
            except Exception:
                log.exception("refreshing the limits' holds failed")
