"""A worker's connections to PostgreSQL outlive a burst: the next burst reuses them (a new one
costs a password exchange and a server process; a pool that closed what it opened past ten
opened 5,326 connections in one 200-game load run). A real PostgreSQL: each transaction asks it
which server process serves it (``pg_backend_pid()``). And ``ra serve`` warns when PostgreSQL
allows fewer connections than its workers may keep."""

from __future__ import annotations

import asyncio
from pathlib import Path

import psycopg
import sqlalchemy as sa

from ra.cli.serve import connections_warning
from ra.web import db as database
from ra.web.store import Store
from ra.web.store.games import WORKER_CONNECTIONS

BURST = 25
"""Transactions at once: past the ten connections the pool used to keep."""


async def burst(store: Store) -> set[int]:
    """:data:`BURST` transactions at once, each held a moment: the server processes that served them."""

    async def one() -> int:
        async with store.engine.begin() as conn:
            pid = (await conn.execute(sa.text("SELECT pg_backend_pid()"))).scalar_one()
            await conn.execute(sa.text("SELECT pg_sleep(0.05)"))
            return int(pid)

    return set(await asyncio.gather(*(one() for _ in range(BURST))))


def test_the_connections_of_a_burst_are_kept_for_the_next(pg_url: str) -> None:
    async def go() -> tuple[set[int], set[int]]:
        store = Store(pg_url)
        try:
            first = await burst(store)
            later: set[int] = set()
            for _ in range(3):
                await asyncio.sleep(0.05)  # the pool idle between bursts
                later |= await burst(store)
            return first, later
        finally:
            await store.close()

    first, later = asyncio.run(go())
    assert len(first) == BURST  # each transaction of a burst had a connection of its own
    assert later <= first, f"the later bursts opened {len(later - first)} connections again"


def test_the_limits_are_postgresqls_own(pg_url: str, migrated_sqlite: Path) -> None:
    most, room = database.connection_limits(pg_url) or (0, 0)
    admin = pg_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(admin) as conn:
        setting = {
            n: conn.execute(f"SHOW {n}").fetchone()
            for n in ("max_connections", "superuser_reserved_connections")
        }
    shown = {n: int(row[0]) for n, row in setting.items() if row is not None}
    assert most == shown["max_connections"] and room == most - shown["superuser_reserved_connections"] > 0
    assert database.connection_limits(f"sqlite:///{migrated_sqlite}") is None  # nothing to ask


def test_ra_serve_warns_when_its_workers_could_want_more_connections_than_postgresql_allows(
    pg_url: str,
) -> None:
    most, room = database.connection_limits(pg_url) or (0, 0)
    fits = room // WORKER_CONNECTIONS
    assert connections_warning(pg_url, fits) is None
    said = connections_warning(pg_url, fits + 1)
    assert said is not None
    needed = (fits + 1) * WORKER_CONNECTIONS
    enough = int(said.rsplit("max_connections = ", 1)[1].split(";")[0])
    assert f"open {room} connections" in said and f"keep up to {needed}" in said
    assert enough % 50 == 0 and enough - most >= needed - room  # room for every worker's connections
