"""The profiles' aggregate: an account as its public profile reads it, with the games it sat in
and their seats (what :mod:`ra.web.profiles` shapes for the page and the export): the interface
:class:`ProfileStorage`, its SQL store :class:`ProfileStore` and its in-memory twin
:class:`MemoryProfiles`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ra.web.db import accounts, games, seats
from ra.web.store.ratings import Standing

PROFILE_GAMES = 200
"""How many of an account's games (the latest) its profile lists."""


@dataclass(frozen=True)
class SeatLine:
    """A seat of a game on a profile (``name``: who sat there; None for a bot or an open seat)."""

    seat: int
    kind: str
    name: str | None
    level: str | None


@dataclass(frozen=True)
class SatGame:
    """A game an account sat in, as its profile reads it: the game, the account's seat there
    (``away``, ``forfeited``: that seat's flags) and every seat, in seat order."""

    id: str
    status: str
    players: int
    seat: int
    to_move: int | None
    created_at: datetime
    winner: int | None
    scores: list[int] | None
    epoch: int
    decisions: int
    away: bool
    forfeited: bool
    seats: tuple[SeatLine, ...]


@dataclass(frozen=True)
class StoredProfile:
    """An account as its profile reads it: its name, since when, its rating and its latest games."""

    name: str
    created_at: datetime
    standing: Standing
    games: tuple[SatGame, ...]


class ProfileStorage(Protocol):
    """The stored profiles (``store.profiles``)."""

    async def profile(self, key: str) -> StoredProfile | None:
        """The account whose name folds to ``key`` (:func:`ra.web.names.name_key`) with its latest
        :data:`PROFILE_GAMES` games, newest first (None: no such account)."""
        ...


class ProfileStore:
    """:class:`ProfileStorage` in the site's database."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def profile(self, key: str) -> StoredProfile | None:
        async with self.engine.connect() as conn:
            acc = (await conn.execute(sa.select(accounts).where(accounts.c.name_key == key))).first()
            if acc is None:
                return None
            mine = (
                sa.select(
                    games,
                    seats.c.seat.label("my_seat"),
                    seats.c.away.label("my_away"),
                    seats.c.forfeited.label("my_forfeited"),
                )
                .join(seats, seats.c.game_id == games.c.id)
                .where(seats.c.account_id == acc.id)
                .order_by(games.c.created_at.desc())
                .limit(PROFILE_GAMES)
            )
            rows = (await conn.execute(mine)).mappings().all()
            lines = await _seat_lines(conn, [r["id"] for r in rows])
        standing = Standing(acc.rating_mu, acc.rating_sigma, acc.rated_games)
        sat = tuple(_sat(r, lines.get(r["id"], ())) for r in rows)
        return StoredProfile(acc.name, acc.created_at, standing, sat)


def _sat(r: sa.RowMapping, lines: tuple[SeatLine, ...]) -> SatGame:
    """One row of an account's games (the game's columns and the account's seat's) as read."""
    return SatGame(
        id=r["id"],
        status=r["status"],
        players=r["players"],
        seat=r["my_seat"],
        to_move=r["to_move"],
        created_at=r["created_at"],
        winner=r["winner"],
        scores=r["scores"],
        epoch=r["epoch"],
        decisions=r["num_decisions"],
        away=bool(r["my_away"]),
        forfeited=bool(r["my_forfeited"]),
        seats=lines,
    )


async def _seat_lines(conn: AsyncConnection, game_ids: list[str]) -> dict[str, tuple[SeatLine, ...]]:
    """Every seat of these games, by game, in seat order."""
    if not game_ids:
        return {}
    q = (
        sa.select(seats.c.game_id, seats.c.seat, seats.c.kind, seats.c.name, seats.c.level)
        .where(seats.c.game_id.in_(game_ids))
        .order_by(seats.c.game_id, seats.c.seat)
    )
    out: dict[str, list[SeatLine]] = {}
    for s in (await conn.execute(q)).all():
        out.setdefault(s.game_id, []).append(SeatLine(s.seat, s.kind, s.name, s.level))
    return {g: tuple(lines) for g, lines in out.items()}


class MemoryProfiles:
    """:class:`ProfileStorage` in this process's memory (``put``: what the accounts and the
    games would have stored, by the account's folded name)."""

    def __init__(self) -> None:
        self.profiles: dict[str, StoredProfile] = {}

    def put(self, key: str, profile: StoredProfile) -> None:
        self.profiles[key] = profile

    async def profile(self, key: str) -> StoredProfile | None:
        found = self.profiles.get(key)
        if found is None:
            return None
        latest = sorted(found.games, key=lambda g: g.created_at, reverse=True)[:PROFILE_GAMES]
        return StoredProfile(found.name, found.created_at, found.standing, tuple(latest))
