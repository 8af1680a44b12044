"""Ratings of people: OpenSkill's Plackett-Luce model (the arena's, :mod:`ra.arena.stats`), one
rating per account over games of every player count — Plackett-Luce ranks any number of
players, and a club's players rarely play enough games at each count to fill several ratings.

A finished game is rated once (``games.rated``, set by whichever worker gets there first) when
every person at it is an account (a guest's game is not rated); bots play with the fixed
ratings of their levels (:data:`ra.bots.LEVEL_RATINGS`, measured in the arena), so games
against bots are rated too, and only the people's ratings move.  The rank is the game's order:
the winner (tie-breaks included, R8) first, then by final score, equal scores sharing a rank; a
seat that forfeited (its clock ran out at a forfeit table) ranks after all the others.
"""

from __future__ import annotations

import logging
from typing import Any

import sqlalchemy as sa
from openskill.models import PlackettLuce, PlackettLuceRating
from sqlalchemy.ext.asyncio import AsyncConnection
from typing_extensions import TypedDict

from ra.bots import LADDER, LEVEL_RATINGS, LEVELS
from ra.record_format import ranks
from ra.web.db import accounts, decisions, games, seats
from ra.web.store import Store

log = logging.getLogger("ra.web")
MODEL = PlackettLuce()
STAND_IN_DECISIONS = 3
"""A seat whose stand-in took more of its decisions than this is rated as having forfeited: last,
whatever its score (issue 40, finding 2: an account's chosen stand-in once won it rated games with
no decision of its own; unrated instead would let a losing player walk away from a loss)."""
LEADERS = 50


class Rating(TypedDict):
    mu: float
    sigma: float
    ordinal: float
    """The conservative rating shown and ranked by: mu - 3 sigma."""
    games: int


class Leader(TypedDict):
    name: str
    rating: Rating


def rating(mu: float, sigma: float, games_rated: int) -> Rating:
    return {
        "mu": round(mu, 2),
        "sigma": round(sigma, 2),
        "ordinal": round(mu - 3 * sigma, 2),
        "games": games_rated,
    }


async def rate_game(store: Store, game_id: str) -> bool:
    """Apply a finished game's result to its players' ratings, once; False if not rated."""
    async with store.engine.begin() as conn:
        game = (await conn.execute(sa.select(games).where(games.c.id == game_id))).mappings().first()
        if game is None or game["status"] != "finished" or game["record"] is not None or game["rated"]:
            return False
        held = (
            await conn.execute(
                sa.select(seats.c.seat, seats.c.kind, seats.c.level, seats.c.account_id, seats.c.forfeited)
                .where(seats.c.game_id == game_id)
                .order_by(seats.c.seat)
            )
        ).all()
        people = [s.account_id for s in held if s.kind == "human"]
        bots_rated = all(s.level in LEVEL_RATINGS for s in held if s.kind == "bot")
        if not people or None in people or len(set(people)) != len(people) or not bots_rated:
            return False  # a guest, no person, an unrated bot, or one account in two seats
        if game["scores"] is None:
            return False
        claimed = await conn.execute(
            sa.update(games).where(games.c.id == game_id, games.c.rated.is_(False)).values(rated=True)
        )
        if claimed.rowcount != 1:
            return False  # another worker rated it
        rows = {
            r.id: r
            for r in (
                await conn.execute(
                    sa.select(accounts.c.id, accounts.c.rating_mu, accounts.c.rating_sigma).where(
                        accounts.c.id.in_(people)
                    )
                )
            ).all()
        }
        teams = [[_rating(s, rows)] for s in held]
        stood = await _stand_in_decisions(conn, game_id)
        forfeited = [s.seat for s in held if s.forfeited or stood.get(s.seat, 0) > STAND_IN_DECISIONS]
        order = ranks(list(game["scores"]), game["winner"], forfeited)
        for new, s in zip(MODEL.rate(teams, ranks=[float(r) for r in order]), held, strict=True):
            if s.kind == "human":  # a bot's rating is fixed (the levels' ladder)
                await conn.execute(
                    sa.update(accounts)
                    .where(accounts.c.id == s.account_id)
                    .values(
                        rating_mu=new[0].mu, rating_sigma=new[0].sigma, rated_games=accounts.c.rated_games + 1
                    )
                )
    return True


async def _stand_in_decisions(conn: AsyncConnection, game_id: str) -> dict[int, int]:
    """How many of each seat's decisions a stand-in bot took."""
    q = (
        sa.select(decisions.c.seat, sa.func.count())
        .where(decisions.c.game_id == game_id, decisions.c.stand_in.is_(True))
        .group_by(decisions.c.seat)
    )
    return {seat: n for seat, n in (await conn.execute(q)).all()}


def _rating(seat: Any, accounts_by_id: dict[str, Any]) -> PlackettLuceRating:
    """A seat's rating before the game: its account's, or its bot level's fixed one."""
    if seat.kind == "bot":
        mu, sigma = LEVEL_RATINGS[seat.level]
        return MODEL.rating(mu=mu, sigma=sigma)
    row = accounts_by_id[seat.account_id]
    return MODEL.rating(mu=row.rating_mu, sigma=row.rating_sigma)


class Beats(TypedDict):
    below: str
    won: int
    games: int


class LevelInfo(TypedDict):
    level: str
    rating: float
    """The level's fixed rating as shown (mu - 3 sigma)."""
    beats: Beats | None
    """How it fares against the level below at 2 players (None: not measured)."""


def level_rating(level: str | None) -> float | None:
    """A bot level's fixed rating as shown (mu - 3 sigma), None for a level without one."""
    if level not in LEVEL_RATINGS:
        return None
    mu, sigma = LEVEL_RATINGS[level]
    return round(mu - 3 * sigma, 1)


def levels() -> list[LevelInfo]:
    """The bot levels people choose from, with their fixed ratings and the ladder's results."""
    out: list[LevelInfo] = []
    for level in LEVELS:
        below = LADDER.get(level)
        beats = Beats(below=below[0], won=below[1], games=below[2]) if below is not None else None
        out.append(LevelInfo(level=level, rating=level_rating(level) or 0.0, beats=beats))
    return out


async def leaders(store: Store) -> list[Leader]:
    """The accounts with rated games, best conservative rating first."""
    order = accounts.c.rating_mu - 3 * accounts.c.rating_sigma
    q = (
        sa.select(accounts.c.name, accounts.c.rating_mu, accounts.c.rating_sigma, accounts.c.rated_games)
        .where(accounts.c.rated_games > 0)
        .order_by(order.desc())
        .limit(LEADERS)
    )
    async with store.engine.connect() as conn:
        rows = (await conn.execute(q)).all()
    return [{"name": r.name, "rating": rating(r.rating_mu, r.rating_sigma, r.rated_games)} for r in rows]
