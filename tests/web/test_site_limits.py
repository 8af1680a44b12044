"""Issue 52, "caps and limits that a second request or a second worker doubles": on a real
server, a burst of table creations from one address creates at most the caps (20 tables, 40 bot
seats), and two servers sharing PostgreSQL (two workers, or two hosts) count every per-address
limit once for the site."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from ra.web.settings import Settings
from ra.web.testing import Server

TABLES = Settings("sqlite://").max_open_games_per_addr
BOT_SEATS = Settings("sqlite://").max_bot_seats_per_addr
BURST = 60


def one_bot(_: int) -> dict[str, Any]:
    return {"seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}], "join": False, "start_in": 600}


def three_bots(_: int) -> dict[str, Any]:
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 3
    return {"seats": seats, "join": False, "start_in": 600}


async def burst(bases: list[str], body: Any, source: str = "127.0.0.1") -> list[int]:
    """``BURST`` table creations sent at once from ``source``, spread over ``bases`` in turn;
    the answers' statuses."""
    transport = httpx.AsyncHTTPTransport(local_address=source)
    async with httpx.AsyncClient(transport=transport, timeout=60) as client:
        answers = await asyncio.gather(
            *(client.post(f"{bases[i % len(bases)]}/api/games", json=body(i)) for i in range(BURST))
        )
    for r in answers:
        assert r.status_code in (200, 429), r.text
    return [r.status_code for r in answers]


def test_a_burst_of_table_creations_makes_at_most_the_caps(server: Server) -> None:
    """60 creations at once made 60 tables (each counted the tables before any was inserted)."""
    made = asyncio.run(burst([server.url], one_bot))
    assert made.count(200) == TABLES, made
    bots = asyncio.run(burst([server.url], three_bots, source="127.0.7.2"))
    assert bots.count(200) == BOT_SEATS // 3, bots  # 13 tables: 39 bot seats, a 14th would be 42
    listed = httpx.get(f"{server.url}/api/games", params={"status": "open"}, timeout=10).json()
    assert len(listed["games"]) == TABLES + BOT_SEATS // 3


def test_two_workers_sharing_postgresql_count_one_addresses_tables_once(
    server_factory: type[Server], pg_url: str, tmp_path: Path
) -> None:
    """Each worker counted its own view then inserted: together they let a burst past the cap."""
    a = server_factory(pg_url, tmp_path / "a.log").start()
    b = server_factory(pg_url, tmp_path / "b.log").start()
    made = asyncio.run(burst([a.url, b.url], one_bot))
    assert made.count(200) == TABLES, made
