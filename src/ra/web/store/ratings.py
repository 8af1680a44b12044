"""The ratings' aggregate: what rating a finished game reads of it (its seats, result and how
many decisions each seat took itself), the accounts' standings it moves, and the leaderboard
(what :mod:`ra.web.ratings` reads and writes): the interface :class:`RatingStorage`, its SQL
store :class:`RatingStore` and its in-memory twin :class:`MemoryRatings`."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ra.web.db import accounts, decisions, games, seats


@dataclass(frozen=True)
class RatedSeat:
    """A seat as the rating policy reads it: who sits there, whether it forfeited, and how many
    of its decisions it took itself (``own``) and a stand-in bot took (``stood``)."""

    seat: int
    kind: str
    level: str | None
    account_id: str | None
    forfeited: bool = False
    own: int = 0
    stood: int = 0


@dataclass(frozen=True)
class RatedGame:
    """A stored game as its rating reads it (``rated``: its ratings were applied already)."""

    id: str
    status: str
    casual: bool
    imported: bool
    rated: bool
    scores: list[int] | None
    winner: int | None
    seats: tuple[RatedSeat, ...]


@dataclass(frozen=True)
class Standing:
    """An account's rating (OpenSkill's mu and sigma) and how many rated games it has."""

    mu: float
    sigma: float
    games: int


Rerate = Callable[[Mapping[str, Standing]], Mapping[str, tuple[float, float]]]
"""From the people's standings before a game, their new (mu, sigma)."""


class RatingStorage(Protocol):
    """The stored ratings (``store.ratings``)."""

    async def game(self, game_id: str) -> RatedGame | None:
        """A game as its rating reads it (None: no such game)."""
        ...

    async def rate(self, game_id: str, people: Sequence[str], rerate: Rerate) -> bool:
        """Mark a game rated, once (False: it was already, by this worker or another), and in the
        same transaction give each of ``people`` the (mu, sigma) ``rerate`` computes from their
        standings, and one more rated game."""
        ...

    async def leaders(self, min_games: int, limit: int) -> list[tuple[str, Standing]]:
        """Up to ``limit`` accounts with at least ``min_games`` rated games, by name, best
        conservative rating (mu - 3 sigma) first."""
        ...


class RatingStore:
    """:class:`RatingStorage` in the site's database."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def game(self, game_id: str) -> RatedGame | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(games).where(games.c.id == game_id))).mappings().first()
            if row is None:
                return None
            held = await _seats(conn, game_id)
        return RatedGame(
            id=game_id,
            status=row["status"],
            casual=bool(row["casual"]),
            imported=row["record"] is not None,
            rated=bool(row["rated"]),
            scores=None if row["scores"] is None else list(row["scores"]),
            winner=row["winner"],
            seats=held,
        )

    async def rate(self, game_id: str, people: Sequence[str], rerate: Rerate) -> bool:
        async with self.engine.begin() as conn:
            claimed = await conn.execute(
                sa.update(games).where(games.c.id == game_id, games.c.rated.is_(False)).values(rated=True)
            )
            if claimed.rowcount != 1:
                return False
            q = sa.select(
                accounts.c.id, accounts.c.rating_mu, accounts.c.rating_sigma, accounts.c.rated_games
            ).where(accounts.c.id.in_(list(people)))
            before = {
                r.id: Standing(r.rating_mu, r.rating_sigma, r.rated_games) for r in await conn.execute(q)
            }
            for account_id, (mu, sigma) in rerate(before).items():
                await conn.execute(
                    sa.update(accounts)
                    .where(accounts.c.id == account_id)
                    .values(rating_mu=mu, rating_sigma=sigma, rated_games=accounts.c.rated_games + 1)
                )
        return True

    async def leaders(self, min_games: int, limit: int) -> list[tuple[str, Standing]]:
        order = accounts.c.rating_mu - 3 * accounts.c.rating_sigma
        q = (
            sa.select(accounts.c.name, accounts.c.rating_mu, accounts.c.rating_sigma, accounts.c.rated_games)
            .where(accounts.c.rated_games >= min_games)
            .order_by(order.desc())
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(q)).all()
        return [(r.name, Standing(r.rating_mu, r.rating_sigma, r.rated_games)) for r in rows]


async def _seats(conn: AsyncConnection, game_id: str) -> tuple[RatedSeat, ...]:
    """A game's seats in seat order, with how many decisions each took itself and by stand-in."""
    q = (
        sa.select(decisions.c.seat, decisions.c.stand_in, sa.func.count())
        .where(decisions.c.game_id == game_id)
        .group_by(decisions.c.seat, decisions.c.stand_in)
    )
    counts = {(seat, bool(stood)): n for seat, stood, n in (await conn.execute(q)).all()}
    q = (
        sa.select(seats.c.seat, seats.c.kind, seats.c.level, seats.c.account_id, seats.c.forfeited)
        .where(seats.c.game_id == game_id)
        .order_by(seats.c.seat)
    )
    return tuple(
        RatedSeat(
            s.seat,
            s.kind,
            s.level,
            s.account_id,
            bool(s.forfeited),
            counts.get((s.seat, False), 0),
            counts.get((s.seat, True), 0),
        )
        for s in (await conn.execute(q)).all()
    )


class MemoryRatings:
    """:class:`RatingStorage` in this process's memory (``put_game``, ``put_account``: what the
    other aggregates would have stored)."""

    def __init__(self) -> None:
        self.games: dict[str, RatedGame] = {}
        self.accounts: dict[str, tuple[str, Standing]] = {}
        """Each account's name and standing, by id."""

    def put_game(self, game: RatedGame) -> None:
        self.games[game.id] = game

    def put_account(self, account_id: str, name: str, standing: Standing) -> None:
        self.accounts[account_id] = (name, standing)

    async def game(self, game_id: str) -> RatedGame | None:
        return self.games.get(game_id)

    async def rate(self, game_id: str, people: Sequence[str], rerate: Rerate) -> bool:
        game = self.games.get(game_id)
        if game is None or game.rated:
            return False
        self.games[game_id] = dataclasses.replace(game, rated=True)
        before = {a: self.accounts[a][1] for a in people if a in self.accounts}
        for account_id, (mu, sigma) in rerate(before).items():
            name, old = self.accounts[account_id]
            self.accounts[account_id] = (name, Standing(mu, sigma, old.games + 1))
        return True

    async def leaders(self, min_games: int, limit: int) -> list[tuple[str, Standing]]:
        listed = [(n, s) for n, s in self.accounts.values() if s.games >= min_games]
        listed.sort(key=lambda ns: -(ns[1].mu - 3 * ns[1].sigma))
        return listed[:limit]
