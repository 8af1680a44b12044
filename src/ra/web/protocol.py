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

MAX_MESSAGE_BYTES = 4096
"""The largest message a client may send (an action is a few dozen bytes)."""


def event_dict(i: int, event: Event, names: Sequence[str], edition: str, hide_score: bool) -> dict[str, Any]:
    """One log entry: the engine's JSON schema (``Event.to_dict``), its index and English text.

    ``hide_score`` masks a score event's breakdown (a spectator under hidden scores, R9.1).
    """
    if hide_score and event.kind == "score":
        event = event._replace(detail=None)
    return {"i": i, **event.to_dict(), "text": event.text(names, edition)}


def seat_payload(game: Game, seat: int | None, edition: str, events_from: int = 0) -> dict[str, Any]:
    """The view of ``seat`` (``None``: a spectator) and the log from ``events_from`` on.

    A spectator sees what every player sees; under hidden scores no score at all
    until the game ends (R9.1).
    """
    view = game.view(0 if seat is None else seat)
    over = game.is_over()
    hide_all = seat is None and game.hidden_scores and not over
    auction = view.auction
    data = {
        "seat": seat,
        "players": [
            {
                "name": p.name,
                "suns": list(p.suns),
                "used_suns": list(p.used_suns),
                "tiles": dict(p.tiles),
                "score": None if hide_all else p.score,
            }
            for p in view.players
        ],
        "variant": game.setup.variant,
        "hidden_scores": game.hidden_scores,
        "epoch": view.epoch,
        "phase": view.phase,
        "to_move": view.to_move,
        "center_sun": view.center_sun,
        "ra_track": view.ra_count,  # Ra tiles on the Ra track
        "ra_track_length": view.ra_track_length,
        "auction_track": view.auction_track,
        "auction": dataclasses.asdict(auction) if auction is not None else None,
        "tiles_in_bag": view.tiles_in_bag,
        "unseen": dict(view.unseen),
        "pending_disaster": view.pending_disaster,
        "discards_left": view.discards_left,
        "num_decisions": game.num_decisions,
        "winner": game.winner if over else None,
    }
    legal = [str(a) for a in view.legal_actions()] if seat is not None and view.to_move == seat else []
    events = view.events
    names = game.names
    start = max(0, min(events_from, len(events)))
    return {
        "view": data,
        "legal": legal if not over else [],
        "events_from": start,
        "events": [event_dict(i, events[i], names, edition, hide_all) for i in range(start, len(events))],
        "num_events": len(events),
    }
