"""A player's public profile: the games their account played (with the other seats), their wins
by number of players and their rating, read in one place for the profile page and the export."""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection
from typing_extensions import TypedDict

from ra.web.db import accounts, games, seats
from ra.web.lobby import ApiError
from ra.web.names import name_key
from ra.web.ratings import Rating, rating
from ra.web.store import Store


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


async def _seats_of(conn: AsyncConnection, game_ids: list[str]) -> dict[str, list[Opponent]]:
    """Every seat of these games, by game, in seat order (a profile's opponents)."""
    if not game_ids:
        return {}
    q = (
        sa.select(seats.c.game_id, seats.c.seat, seats.c.kind, seats.c.name, seats.c.level)
        .where(seats.c.game_id.in_(game_ids))
        .order_by(seats.c.game_id, seats.c.seat)
    )
    out: dict[str, list[Opponent]] = {}
    for s in (await conn.execute(q)).all():
        bot = s.kind == "bot"
        out.setdefault(s.game_id, []).append(
            {"seat": s.seat, "kind": s.kind, "name": s.name, "level": s.level if bot else None}
        )
    return out


def _iso(t: datetime) -> str:
    """A stored moment as ISO 8601 in UTC (SQLite hands back naive datetimes: every one is UTC)."""
    t = t.replace(tzinfo=UTC) if t.tzinfo is None else t
    return t.isoformat(timespec="seconds").replace("+00:00", "Z")


async def read_profile(store: Store, name: str) -> Profile:
    """The public profile of the account named ``name``: its last 200 games with their other seats,
    its wins by number of players and its rating; 404 if there is no such account."""
    key = name_key(name)
    async with store.engine.connect() as conn:
        acc = (await conn.execute(sa.select(accounts).where(accounts.c.name_key == key))).first()
        if acc is None:
            raise ApiError(404, "not_found", f"no player {name!r}")
        q = (
            sa.select(
                games,
                seats.c.seat.label("my_seat"),
                seats.c.away.label("my_away"),
                seats.c.forfeited.label("my_forfeited"),
            )
            .join(seats, seats.c.game_id == games.c.id)
            .where(seats.c.account_id == acc.id)
            .order_by(games.c.created_at.desc())
            .limit(200)
        )
        rows = (await conn.execute(q)).mappings().all()
        others = await _seats_of(conn, [r["id"] for r in rows])
    played: list[PlayedGame] = []
    tally: dict[str, Tally] = {}
    for r in rows:
        over = r["status"] == "finished"
        won = (r["winner"] == r["my_seat"]) if over else None
        played.append(
            {
                "id": r["id"],
                "status": r["status"],
                "players": r["players"],
                "seat": r["my_seat"],
                "to_move": r["to_move"] if r["status"] == "running" else None,
                "created": _iso(r["created_at"]),
                "won": won,
                "scores": r["scores"] if over else None,
                "opponents": [o for o in others.get(r["id"], []) if o["seat"] != r["my_seat"]],
                "epoch": r["epoch"],
                "decisions": r["num_decisions"],
                "away": bool(r["my_away"]),
                "forfeited": bool(r["my_forfeited"]),
            }
        )
        if over:
            t = tally.setdefault(str(r["players"]), {"played": 0, "won": 0})
            t["played"] += 1
            t["won"] += int(bool(won))
    return {
        "name": acc.name,
        "since": _iso(acc.created_at),
        "rating": rating(acc.rating_mu, acc.rating_sigma, acc.rated_games),
        "games": played,
        "by_players": tally,
    }


__all__ = ["Opponent", "PlayedGame", "Profile", "Tally", "read_profile"]
