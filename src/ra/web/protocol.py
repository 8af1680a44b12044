"""What the server sends: a seat's view, the log as data and words, game summaries.

Everything a client receives is built here from a :class:`ra.PlayerView`, so
no message can carry the seed, the bag order or (under hidden scores, R9.1)
another player's score before the end.  See ``docs/web-api.md``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from ra.engine import Game
from ra.events import Event
from ra.scoring import ScoreBreakdown
from ra.tiles import TILE_IDS, Tile

MAX_MESSAGE_BYTES = 4096
"""The largest message a client may send (an action is a few dozen bytes)."""


def _json_detail(detail: Any) -> Any:
    if isinstance(detail, ScoreBreakdown):
        out = dataclasses.asdict(detail)
        out["total"] = detail.total
        return out
    if isinstance(detail, tuple):
        return list(detail)
    if isinstance(detail, Tile):
        return TILE_IDS[detail]
    return detail


def event_dict(i: int, event: Event, names: Sequence[str], edition: str, hide_score: bool) -> dict[str, Any]:
    """One log entry as JSON-able data plus its English text (``hide_score`` masks a score event)."""
    if hide_score and event.kind == "score":
        event = event._replace(detail=None)
    return {
        "i": i,
        "kind": event.kind,
        "seat": event.seat,
        "tile": TILE_IDS[event.tile] if event.tile is not None else None,
        "sun": event.sun,
        "tiles": [TILE_IDS[t] for t in event.tiles],
        "auto": event.auto,
        "detail": _json_detail(event.detail),
        "text": event.text(names, edition),
    }


def seat_payload(game: Game, seat: int | None, edition: str, events_from: int = 0) -> dict[str, Any]:
    """The view of ``seat`` (``None``: a spectator) and the log from ``events_from`` on.

    A spectator sees what every player sees; under hidden scores no score at all
    until the game ends (R9.1).
    """
    view = game.view(0 if seat is None else seat)
    data = view.to_dict()
    del data["decisions"]
    legal = data.pop("legal_actions")
    over = game.is_over()
    hide_all = seat is None and game.hidden_scores and not over
    if hide_all:
        for p in data["players"]:
            p["score"] = None
    data["seat"] = seat
    data["pending_disaster"] = view.pending_disaster
    data["discards_left"] = view.discards_left
    data["num_decisions"] = game.num_decisions
    data["winner"] = game.winner if over else None
    events = view.events
    names = game.names
    start = max(0, min(events_from, len(events)))
    return {
        "view": data,
        "legal": legal if seat is not None and game.to_move == seat and not over else [],
        "events_from": start,
        "events": [event_dict(i, events[i], names, edition, hide_all) for i in range(start, len(events))],
        "num_events": len(events),
    }
