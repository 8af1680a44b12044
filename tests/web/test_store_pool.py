"""A worker's connections to PostgreSQL outlive a burst: the next burst reuses them (a new one
costs a password exchange and a server process; a pool that closed what it opened past ten
opened 5,326 connections in one 200-game load run). A real PostgreSQL: each transaction asks it
which server process serves it (``pg_backend_pid()``)."""

from __future__ import annotations

import asyncio

import sqlalchemy as sa

from ra.web.store import Store

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
