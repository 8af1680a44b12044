"""Who is playing at a table, as the win chances given who is playing read it
(:mod:`ra.analysis.chances`): one strength a seat, for the hints and the analysis' chart alike."""

from __future__ import annotations

from ra.analysis.chances import PERSON_STRENGTH, strength_of
from ra.web.store import GameRow
from ra.web.store.analyses import AnalysisStorage


async def seat_strengths(row: GameRow, ratings: AnalysisStorage | None) -> tuple[float, ...]:
    """Each seat's strength: a bot's level (:func:`ra.analysis.chances.strength_of`), a person's
    account rating μ once it has a rated game (``ratings``: the accounts' ratings at the game's
    seats; None: none known), else :data:`ra.analysis.chances.PERSON_STRENGTH` (a guest, a new
    account: μ 25, as the ratings start everyone)."""
    rated = await ratings.rated_seats(row.id) if ratings is not None else {}
    return tuple(
        strength_of(s.level) if s.kind == "bot" else rated.get(s.seat, PERSON_STRENGTH) for s in row.seats
    )


__all__ = ["seat_strengths"]
