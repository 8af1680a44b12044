"""A game as the lobby and its pages list it: its options, its seats (who sits there, whether they
are here, their rating and clock), its progress and its result."""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, datetime

from ra.web.protocol import GameSummary
from ra.web.ratings import level_rating
from ra.web.store import GameRow


def game_summary(
    row: GameRow,
    now: datetime,
    connected: list[bool],
    watching: int,
    away: Collection[int] | None = None,
    forfeited: Collection[int] | None = None,
) -> GameSummary:
    """``row`` at ``now`` as the lobby lists it; ``connected``: which seats are here,
    ``watching``: how many spectators; ``away`` and ``forfeited``: the seats so, by the game's
    table where it is open (:class:`ra.table.Table`: the one source), else as stored."""
    finished = row.status == "finished"
    away = {s.seat for s in row.seats if s.away} if away is None else away
    forfeited = {s.seat for s in row.seats if s.forfeited} if forfeited is None else forfeited
    return {
        "id": row.id,
        "status": row.status,
        "created": _iso(row.created_at),
        "options": row.options(),
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "level": s.level,
                "name": s.name,
                "taken": s.kind == "bot" or s.token_hash is not None,
                "connected": bool(connected[s.seat]) if s.seat < len(connected) else False,
                "away": s.seat in away,
                "forfeited": s.seat in forfeited,
                "rating": s.rating if s.kind == "human" else level_rating(s.level),
                "provisional": s.provisional,
                "account": s.account,
                "clock": seat_clock(row, s.seat, now, s.seat in away) if row.status == "running" else None,
            }
            for s in row.seats
        ],
        "decisions": row.num_decisions,
        "epoch": row.epoch,
        "to_move": row.to_move if row.status == "running" else None,
        "winner": row.winner if finished else None,
        "scores": row.scores if finished else None,
        "imported": row.imported,
        "rematch": row.rematch_id,
        "spectators": watching,
    }


def seat_clock(row: GameRow, seat: int, now: datetime, away: bool | None = None) -> float | None:
    """A seat's game clock at ``now`` (the mover's running down unless ``away``: default, as
    stored); None without one."""
    s = row.seats[seat]
    if s.kind == "bot":
        return None
    away = s.away if away is None else away
    return row.clock().shown(s.bank, row.to_move == seat and not away, row.updated_at, now)


def _iso(t: datetime) -> str:
    """UTC time as ISO 8601 with a Z (SQLite hands back naive datetimes, all UTC here)."""
    if t.tzinfo is not None:
        t = t.astimezone(UTC).replace(tzinfo=None)
    return t.isoformat(timespec="seconds") + "Z"


__all__ = ["game_summary", "seat_clock"]
