"""Ratings of people: OpenSkill's Plackett-Luce model (the arena's, :mod:`ra.arena.stats`), one
rating per account over games of every player count — Plackett-Luce ranks any number of
players, and a club's players rarely play enough games at each count to fill several ratings.

A finished game is rated once (``games.rated``, set by whichever worker gets there first) when
the rating policy says so (:mod:`ra.web.rating_policy`: a rated table, every person a different
account, no early forfeit); bots play with the fixed ratings of their levels
(:data:`ra.bots.LEVEL_RATINGS`, measured in the arena), so games against bots are rated too, and
only the people's ratings move.  The rank is the game's order: the winner (tie-breaks included,
R8) first, then by final score, equal scores sharing a rank; a seat that forfeited ranks after
all the others.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from openskill.models import PlackettLuce, PlackettLuceRating
from sqlalchemy.ext.asyncio import AsyncConnection
from typing_extensions import TypedDict

from ra.bots import LADDER, LEVEL_RATINGS, LEVELS
from ra.record_format import ranks
from ra.web.db import accounts, decisions, games, seats
from ra.web.rating_policy import (
    MIN_OWN_DECISIONS,
    PROVISIONAL_GAMES,
    SeatFacts,
    Verdict,
    Why,
    provisional,
    verdict,
    weight,
)
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
    provisional: bool
    """Fewer rated games than :data:`ra.web.rating_policy.PROVISIONAL_GAMES`: shown with "?"."""


class Leader(TypedDict):
    name: str
    rating: Rating


def rating(mu: float, sigma: float, games_rated: int) -> Rating:
    return {
        "mu": round(mu, 2),
        "sigma": round(sigma, 2),
        "ordinal": round(mu - 3 * sigma, 2),
        "games": games_rated,
        "provisional": provisional(games_rated),
    }


async def rate_game(store: Store, game_id: str) -> bool:
    """Apply a finished game's result to its players' ratings, once, as the rating policy says
    (:func:`ra.web.rating_policy.verdict`: who counts, who ranks last, an abort; :func:`weight`);
    False if it is not rated."""
    async with store.engine.begin() as conn:
        game = (await conn.execute(sa.select(games).where(games.c.id == game_id))).mappings().first()
        if game is None or game["rated"] or game["scores"] is None:
            return False
        held = await _held(conn, game_id)
        judged = await _verdict(conn, game, held)
        if not judged.rated:
            return False  # casual, a guest, no person, an unrated bot, one account twice, or aborted
        claimed = await conn.execute(
            sa.update(games).where(games.c.id == game_id, games.c.rated.is_(False)).values(rated=True)
        )
        if claimed.rowcount != 1:
            return False  # another worker rated it
        people = [s.account_id for s in held if s.kind == "human"]
        rows = {
            r.id: r
            for r in (
                await conn.execute(
                    sa.select(
                        accounts.c.id, accounts.c.rating_mu, accounts.c.rating_sigma, accounts.c.rated_games
                    ).where(accounts.c.id.in_(people))
                )
            ).all()
        }
        teams = [[_rating(s, rows)] for s in held]
        order = ranks(list(game["scores"]), game["winner"], judged.last)
        for new, s in zip(MODEL.rate(teams, ranks=[float(r) for r in order]), held, strict=True):
            if s.kind == "human":  # a bot's rating is fixed (the levels' ladder)
                old = rows[s.account_id]
                others = [r.rated_games for a, r in rows.items() if a != s.account_id]
                share = weight(old.rated_games, others)
                await conn.execute(
                    sa.update(accounts)
                    .where(accounts.c.id == s.account_id)
                    .values(
                        rating_mu=old.rating_mu + share * (new[0].mu - old.rating_mu),
                        rating_sigma=old.rating_sigma + share * (new[0].sigma - old.rating_sigma),
                        rated_games=accounts.c.rated_games + 1,
                    )
                )
    return True


async def _held(conn: AsyncConnection, game_id: str) -> Sequence[Any]:
    """A game's seats as the rating reads them, in seat order."""
    q = (
        sa.select(seats.c.seat, seats.c.kind, seats.c.level, seats.c.account_id, seats.c.forfeited)
        .where(seats.c.game_id == game_id)
        .order_by(seats.c.seat)
    )
    return (await conn.execute(q)).all()


async def _verdict(conn: AsyncConnection, game: Any, held: Sequence[Any]) -> Verdict:
    """The rating policy's verdict on a game (its row and seats): the one place it is asked."""
    facts = await _seat_facts(conn, game["id"], held)
    finished, imported = game["status"] == "finished", game["record"] is not None
    return verdict(not game["casual"], finished, imported, facts, tuple(LEVEL_RATINGS))


class RatingNote(TypedDict):
    """Whether a game counted for its people's ratings, as the table page says it at the end."""

    rated: bool
    why: Why
    walked: list[int]
    """With ``why`` "aborted": the seats that left before ``min_decisions`` decisions of their own."""
    min_decisions: int


async def rating_note(store: Store, game_id: str) -> RatingNote | None:
    """The rating policy's verdict on a game for its page (None: no such game)."""
    async with store.engine.connect() as conn:
        game = (await conn.execute(sa.select(games).where(games.c.id == game_id))).mappings().first()
        if game is None:
            return None
        judged = await _verdict(conn, game, await _held(conn, game_id))
    return {
        "rated": judged.rated,
        "why": judged.why,
        "walked": sorted(judged.walked),
        "min_decisions": MIN_OWN_DECISIONS,
    }


async def _seat_facts(conn: AsyncConnection, game_id: str, held: Sequence[Any]) -> list[SeatFacts]:
    """What the rating policy needs of each seat: who sits there, whether it forfeited, and how
    many of its decisions it took itself and a stand-in bot took."""
    q = (
        sa.select(decisions.c.seat, decisions.c.stand_in, sa.func.count())
        .where(decisions.c.game_id == game_id)
        .group_by(decisions.c.seat, decisions.c.stand_in)
    )
    counts = {(seat, bool(stood)): n for seat, stood, n in (await conn.execute(q)).all()}
    return [
        SeatFacts(
            human=s.kind == "human",
            account=s.account_id,
            level=s.level,
            forfeited=bool(s.forfeited),
            own=counts.get((s.seat, False), 0),
            stood=counts.get((s.seat, True), 0),
        )
        for s in held
    ]


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
    """The accounts whose ratings are established (:func:`ra.web.rating_policy.provisional`: a new
    account is not listed), best conservative rating first."""
    order = accounts.c.rating_mu - 3 * accounts.c.rating_sigma
    q = (
        sa.select(accounts.c.name, accounts.c.rating_mu, accounts.c.rating_sigma, accounts.c.rated_games)
        .where(accounts.c.rated_games >= PROVISIONAL_GAMES)
        .order_by(order.desc())
        .limit(LEADERS)
    )
    async with store.engine.connect() as conn:
        rows = (await conn.execute(q)).all()
    return [{"name": r.name, "rating": rating(r.rating_mu, r.rating_sigma, r.rated_games)} for r in rows]
