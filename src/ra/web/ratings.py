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
from collections.abc import Mapping

from openskill.models import PlackettLuce, PlackettLuceRating
from typing_extensions import TypedDict

from ra.bots import LADDER, LEVEL_RATINGS, LEVELS
from ra.record_format import ranks
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
from ra.web.store.ratings import RatedGame, RatedSeat, RatingStorage, Standing

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


async def rate_game(ratings: RatingStorage, game_id: str) -> bool:
    """Apply a finished game's result to its players' ratings, once, as the rating policy says
    (:func:`ra.web.rating_policy.verdict`: who counts, who ranks last, an abort; :func:`weight`);
    False if it is not rated."""
    game = await ratings.game(game_id)
    if game is None or game.rated or game.scores is None:
        return False
    judged = _verdict(game)
    if not judged.rated:
        return False  # casual, a guest, no person, an unrated bot, one account twice, or aborted
    order = [
        float(r) for r in ranks(list(game.scores), -1 if game.winner is None else game.winner, judged.last)
    ]

    def rerate(before: Mapping[str, Standing]) -> dict[str, tuple[float, float]]:
        """The people's new (mu, sigma), each moved by its share (:func:`weight`)."""
        teams = [[_rating(s, before)] for s in game.seats]
        out: dict[str, tuple[float, float]] = {}
        for new, s in zip(MODEL.rate(teams, ranks=order), game.seats, strict=True):
            if s.kind == "human" and s.account_id is not None:  # a bot's rating is fixed (the ladder)
                old = before[s.account_id]
                share = weight(old.games, [r.games for a, r in before.items() if a != s.account_id])
                out[s.account_id] = (
                    old.mu + share * (new[0].mu - old.mu),
                    old.sigma + share * (new[0].sigma - old.sigma),
                )
        return out

    people = [s.account_id for s in game.seats if s.kind == "human" and s.account_id is not None]
    return await ratings.rate(game_id, people, rerate)  # False: another worker rated it


def _verdict(game: RatedGame) -> Verdict:
    """The rating policy's verdict on a stored game: the one place it is asked."""
    facts = [
        SeatFacts(
            human=s.kind == "human",
            account=s.account_id,
            level=s.level,
            forfeited=s.forfeited,
            own=s.own,
            stood=s.stood,
        )
        for s in game.seats
    ]
    finished = game.status == "finished"
    return verdict(not game.casual, finished, game.imported, facts, tuple(LEVEL_RATINGS))


class RatingNote(TypedDict):
    """Whether a game counted for its people's ratings, as the table page says it at the end."""

    rated: bool
    why: Why
    walked: list[int]
    """With ``why`` "aborted": the seats that left before ``min_decisions`` decisions of their own."""
    min_decisions: int


async def rating_note(ratings: RatingStorage, game_id: str) -> RatingNote | None:
    """The rating policy's verdict on a game for its page (None: no such game)."""
    game = await ratings.game(game_id)
    if game is None:
        return None
    judged = _verdict(game)
    return {
        "rated": judged.rated,
        "why": judged.why,
        "walked": sorted(judged.walked),
        "min_decisions": MIN_OWN_DECISIONS,
    }


def _rating(seat: RatedSeat, before: Mapping[str, Standing]) -> PlackettLuceRating:
    """A seat's rating before the game: its account's, or its bot level's fixed one."""
    if seat.kind == "bot" or seat.account_id is None:
        mu, sigma = LEVEL_RATINGS[seat.level or ""]
        return MODEL.rating(mu=mu, sigma=sigma)
    standing = before[seat.account_id]
    return MODEL.rating(mu=standing.mu, sigma=standing.sigma)


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


async def leaders(ratings: RatingStorage) -> list[Leader]:
    """The accounts whose ratings are established (:func:`ra.web.rating_policy.provisional`: a new
    account is not listed), best conservative rating first."""
    listed = await ratings.leaders(PROVISIONAL_GAMES, LEADERS)
    return [{"name": name, "rating": rating(r.mu, r.sigma, r.games)} for name, r in listed]
