"""The limits' state (the aggregate behind :mod:`ra.web.limits`): leaky buckets' levels
(:class:`Levels`) and things held at once (:class:`Holds`), each an interface with its
in-memory twin for one worker and its store in PostgreSQL for a site whose workers share it: a
cap holds once for the whole site, not once per worker.  Each change of a level is one atomic statement
(PostgreSQL's upsert), so two workers raising one key at once both count; a hold's count and
its insert, and a table cap's, are one transaction under the key's advisory lock."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from typing import Protocol

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

MAX_ADDRESSES = 10_000
"""Buckets kept at most; full ones (idle addresses) are forgotten first."""


class Levels(Protocol):
    """Leaky buckets by key, each draining at its own ``rate`` a second: the one state behind
    :class:`SharedBucket` and :class:`SharedTally`.  In memory for one worker
    (:class:`MemoryLevels`); in the database when several workers share it
    (:class:`StoredLevels`), so N workers do not give N times the caps."""

    async def take(self, key: str, rate: float, cap: float) -> bool:
        """Add 1 to ``key``'s level if it stays at most ``cap``; False (nothing added) if not."""
        ...

    async def add(self, key: str, rate: float) -> None:
        """Add 1 to ``key``'s level."""
        ...

    async def level(self, key: str, rate: float) -> float:
        """``key``'s level now (drained since it was last raised)."""
        ...


class MemoryLevels:
    """:class:`Levels` in this process's memory (:class:`Buckets`), for one worker."""

    def __init__(self) -> None:
        self._buckets = Buckets()

    async def take(self, key: str, rate: float, cap: float) -> bool:
        return self._buckets.take(key, rate, cap)

    async def add(self, key: str, rate: float) -> None:
        self._buckets.add(key, rate)

    async def level(self, key: str, rate: float) -> float:
        return self._buckets.level(key, rate)


class Buckets:
    """Leaky buckets by key in this process's memory: each key's level drains at its ``rate`` a
    second.  Bounded: past :data:`MAX_ADDRESSES` keys, the drained ones are forgotten."""

    def __init__(self) -> None:
        self._levels: dict[str, tuple[float, float, float]] = {}  # key -> (level, rate, when)

    def level(self, key: str, rate: float) -> float:
        """``key``'s level now (drained since it was last raised)."""
        level, _, last = self._levels.get(key, (0.0, rate, 0.0))
        return max(0.0, level - (time.monotonic() - last) * rate)

    def take(self, key: str, rate: float, cap: float) -> bool:
        """Add 1 to ``key``'s level if it stays at most ``cap``; False (nothing added) if not."""
        now = self.level(key, rate)
        if now + 1 > cap:
            return False
        self._raise(key, now + 1, rate)
        return True

    def add(self, key: str, rate: float) -> None:
        """Add 1 to ``key``'s level."""
        self._raise(key, self.level(key, rate) + 1, rate)

    def _raise(self, key: str, level: float, rate: float) -> None:
        t = time.monotonic()
        self._levels[key] = (level, rate, t)
        if len(self._levels) > MAX_ADDRESSES:
            drained = [k for k, (lv, r, last) in self._levels.items() if lv - (t - last) * r <= 0]
            for k in drained:
                del self._levels[k]


class Holds(Protocol):
    """How many of something each key holds at once (sockets, pages), over every worker that
    shares it: :class:`MemoryHolds` for one worker, :class:`StoredHolds`
    in PostgreSQL."""

    async def take(self, key: str, cap: int) -> bool:
        """Hold one more for ``key`` if it then holds at most ``cap``; False (nothing held) if not."""
        ...

    async def give_back(self, key: str) -> None:
        """Let go of one that :meth:`take` gave ``key``."""
        ...

    async def close(self) -> None:
        """This worker stops: let go of everything its clients hold."""
        ...


class MemoryHolds:
    """:class:`Holds` in this process's memory, for one worker."""

    def __init__(self) -> None:
        self._held: Counter[str] = Counter()

    async def take(self, key: str, cap: int) -> bool:
        if self._held[key] >= cap:
            return False
        self._held[key] += 1
        return True

    async def give_back(self, key: str) -> None:
        self._held[key] -= 1
        if self._held[key] <= 0:
            del self._held[key]

    async def close(self) -> None:
        self._held.clear()


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
