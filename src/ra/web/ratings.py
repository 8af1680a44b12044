"""Ratings of people: OpenSkill's Plackett-Luce model (the arena's, :mod:`ra.arena.stats`), one
rating per account over games of every player count — Plackett-Luce ranks any number of
players, and a club's players rarely play enough games at each count to fill several ratings.

A finished game is rated once (``games.rated``, set by whichever worker gets there first) when
every seat is an account's — games with guests or bots are not rated: the bots have no
published ratings yet (the bots' ladder will give them some).  The rank is the game's order:
the winner (tie-breaks included, R8) first, then by final score, equal scores sharing a rank.
"""

from __future__ import annotations

import logging

import sqlalchemy as sa
from openskill.models import PlackettLuce
from typing_extensions import TypedDict

from ra.web.db import accounts, games, seats
from ra.web.store import Store

log = logging.getLogger("ra.web")
MODEL = PlackettLuce()
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


def ranks(scores: list[int], winner: int) -> list[int]:
    """1 for the winner, then by score (higher first), equal scores sharing a rank."""
    out = []
    for seat, score in enumerate(scores):
        if seat == winner:
            out.append(1)
        else:
            out.append(2 + sum(1 for s, x in enumerate(scores) if s not in (winner, seat) and x > score))
    return out


async def rate_game(store: Store, game_id: str) -> bool:
    """Apply a finished game's result to its players' ratings, once; False if not rated."""
    async with store.engine.begin() as conn:
        game = (await conn.execute(sa.select(games).where(games.c.id == game_id))).mappings().first()
        if game is None or game["status"] != "finished" or game["record"] is not None or game["rated"]:
            return False
        held = (
            await conn.execute(
                sa.select(seats.c.seat, seats.c.account_id)
                .where(seats.c.game_id == game_id)
                .order_by(seats.c.seat)
            )
        ).all()
        ids = [a for _, a in held]
        if any(a is None for a in ids) or len(set(ids)) != len(ids) or game["scores"] is None:
            return False  # a guest or a bot at the table, or one account in two seats
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
                        accounts.c.id.in_(ids)
                    )
                )
            ).all()
        }
        teams = [[MODEL.rating(mu=rows[a].rating_mu, sigma=rows[a].rating_sigma, name=a)] for a in ids]
        rated = MODEL.rate(teams, ranks=[float(r) for r in ranks(list(game["scores"]), game["winner"])])
        for (new,) in rated:
            await conn.execute(
                sa.update(accounts)
                .where(accounts.c.id == new.name)
                .values(rating_mu=new.mu, rating_sigma=new.sigma, rated_games=accounts.c.rated_games + 1)
            )
    return True


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
