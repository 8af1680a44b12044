"""A player's public profile: the games their account played (with the other seats), their wins
by number of players and their rating, read in one place for the profile page and the export."""

from __future__ import annotations

from datetime import UTC, datetime

from typing_extensions import TypedDict

from ra.web.lobby import ApiError
from ra.web.names import name_key
from ra.web.ratings import Rating, rating
from ra.web.store.profiles import ProfileStorage, SatGame


class Opponent(TypedDict):
    """Another seat of a game on a profile: a person (by the name they sat under; None for a
    seat nobody took yet) or a bot (its pages name it by ``level``, in their language)."""

    seat: int
    kind: str
    """``human`` or ``bot``."""
    name: str | None
    level: str | None
    """A bot's level (``easy`` … ``master``); None for a person."""


class PlayedGame(TypedDict):
    id: str
    status: str
    players: int
    seat: int
    to_move: int | None
    """Whose turn it is in a running game (None otherwise)."""
    created: str
    won: bool | None
    scores: list[int] | None
    opponents: list[Opponent]
    """The game's other seats, in seat order."""
    epoch: int
    decisions: int
    """Decisions made so far."""
    away: bool
    """The account's seat is played by the stand-in bot (its clock ran out)."""
    forfeited: bool
    """The account's seat forfeited (its clock ran out at a forfeit table, or its deadline passed)."""


class Tally(TypedDict):
    played: int
    won: int


class Profile(TypedDict):
    name: str
    since: str
    rating: Rating
    games: list[PlayedGame]
    by_players: dict[str, Tally]
    """Finished games and wins by number of players ("2" to "5")."""


def _iso(t: datetime) -> str:
    """A stored moment as ISO 8601 in UTC (SQLite hands back naive datetimes: every one is UTC)."""
    t = t.replace(tzinfo=UTC) if t.tzinfo is None else t
    return t.isoformat(timespec="seconds").replace("+00:00", "Z")


async def read_profile(profiles: ProfileStorage, name: str) -> Profile:
    """The public profile of the account named ``name``: its last 200 games with their other seats,
    its wins by number of players and its rating; 404 if there is no such account."""
    stored = await profiles.profile(name_key(name))
    if stored is None:
        raise ApiError(404, "not_found", f"no player {name!r}")
    played = [_played(g) for g in stored.games]
    tally: dict[str, Tally] = {}
    for g in played:
        if g["won"] is not None:  # finished
            t = tally.setdefault(str(g["players"]), {"played": 0, "won": 0})
            t["played"] += 1
            t["won"] += int(g["won"])
    r = stored.standing
    return {
        "name": stored.name,
        "since": _iso(stored.created_at),
        "rating": rating(r.mu, r.sigma, r.games),
        "games": played,
        "by_players": tally,
    }


def _played(g: SatGame) -> PlayedGame:
    """A game on a profile, from the account's seat (its opponents: the other seats)."""
    over = g.status == "finished"
    return {
        "id": g.id,
        "status": g.status,
        "players": g.players,
        "seat": g.seat,
        "to_move": g.to_move if g.status == "running" else None,
        "created": _iso(g.created_at),
        "won": (g.winner == g.seat) if over else None,
        "scores": g.scores if over else None,
        "opponents": [
            {"seat": o.seat, "kind": o.kind, "name": o.name, "level": o.level if o.kind == "bot" else None}
            for o in g.seats
            if o.seat != g.seat
        ],
        "epoch": g.epoch,
        "decisions": g.decisions,
        "away": g.away,
        "forfeited": g.forfeited,
    }


__all__ = ["Opponent", "PlayedGame", "Profile", "Tally", "read_profile"]
