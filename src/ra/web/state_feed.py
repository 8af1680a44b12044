"""What each client of a room is sent: its seat's view, the log from what it already holds, and
the table's facts around them (whose turn, the clocks, whether it may take back), in one
``state`` message per client — one encoding shared by the clients of a seat holding the same.
A reconnecting client is sent only the log it lacks, when that log is still a prefix of the
game's (:func:`log_key`)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from ra.engine import Game
from ra.events import DECISION_EVENTS, Event
from ra.master import Undone
from ra.web.clients import Client
from ra.web.protocol import GameSummary, SeatPayload, StateMessage, UndoneMessage, seat_payload

if TYPE_CHECKING:
    from ra.web.hub import Room


def log_key(game: Game, seat: int | None, n: int | None = None) -> str:
    """A short name of the log ``seat`` sees after the first ``n`` decisions (default: all): the
    same seat and the same decisions make the same log (R9 masking depends on nothing else
    until the end, which :meth:`StateFeed.resume` never resumes across)."""
    decisions = game.decisions if n is None else game.decisions[:n]
    text = f"{seat}|" + ",".join(str(a.index) for a in decisions)
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def decisions_before(events: Sequence[Event], k: int) -> int | None:
    """How many decisions the first ``k`` entries of a log hold, when the log can end there
    (after all of a decision's consequences, before the next decision); else None."""
    if k < len(events) and not (events[k].kind in DECISION_EVENTS and not events[k].auto):
        return None
    return sum(1 for e in events[:k] if e.kind in DECISION_EVENTS and not e.auto)


class StateFeed:
    """The state messages of one room's clients (the room's transport: :class:`ra.web.hub.Room`)."""

    def __init__(self, room: Room) -> None:
        self.room = room

    def broadcast(self, floor: int | None = None, to: Collection[Client] | None = None) -> None:
        """Send every client (or those ``to``) its state (the log from what it has, or from
        ``floor`` after an undo)."""
        game = self.room.game
        summary = self.room.summary()
        by_seat: dict[int | None, list[Client]] = {}
        reveal = game is not None and game.is_over() and game.hidden_scores
        for c in self.room.audience.clients if to is None else to:
            if floor is not None:
                c.events_sent = min(c.events_sent, floor)
            if reveal and not c.revealed:
                # At the end hidden scores are revealed (R9.1): resend the log with them.
                c.events_sent = 0
                c.revealed = True
            by_seat.setdefault(c.seat, []).append(c)
        for seat, clients in by_seat.items():
            start = min(c.events_sent for c in clients)
            payload = self.payload(game, seat, start) if game is not None else None
            encoded: dict[int, str] = {}  # clients of one seat mostly share one message
            for c in clients:
                text = encoded.get(c.events_sent)
                if text is None:
                    message = self.state(summary, seat, payload, c.events_sent)
                    text = encoded[c.events_sent] = json.dumps(message, separators=(",", ":"))
                c.put(text)
                c.events_sent = payload["num_events"] if payload is not None else 0
                c.state_n = game.num_decisions if game is not None else None

    def payload(self, game: Game, seat: int | None, start: int) -> SeatPayload:
        """``seat``'s view of ``game`` (this table's, or its replay) and its log from ``start``
        on, the stand-in's decisions marked."""
        table = self.room.table_now()  # a game to show: its table is open
        edition, level = table.options.edition, table.options.stand_in
        return seat_payload(game, seat, edition, start, table.stand_ins, level, table.forfeited)

    def state(
        self, summary: GameSummary, seat: int | None, payload: SeatPayload | None, since: int
    ) -> StateMessage:
        """The ``state`` message for ``seat`` with the log from ``since`` on (``payload``: the
        seat's view and log from at most ``since``; None before the game starts)."""
        game = self.room.game
        if payload is None or game is None:
            view, legal, events, n, since = None, [], [], 0, 0
        else:
            view, legal, n = payload["view"], payload["legal"], game.num_decisions
            events = payload["events"][since - payload["events_from"] :]
        return {
            "type": "state",
            "game": summary,
            "seat": seat,
            "n": n,
            "view": view,
            "legal": legal,
            "can_undo": view is not None and self.room.can_undo(seat),
            "events_from": since,
            "events": events,
            "t": self.room.decided_at if view is not None else None,
            "log_key": log_key(game, seat) if game is not None and view is not None else None,
            "bot_budget": self.room.bot_budget,
            "clock_left": self.room.clock_left() if view is not None else None,
        }

    def resume(self, client: Client, since: int | None, key: str | None) -> None:
        """A reconnecting client holds the first ``since`` log entries of the log ``key`` names:
        send it only the rest — if that log is still a prefix of the game's (no undo since)."""
        game = self.room.game
        if game is None or since is None or key is None or since > len(game.events):
            return
        n = decisions_before(game.events, since)
        if n is not None and key == log_key(game, client.seat, n) and not self._reveals(game):
            client.events_sent = since

    @staticmethod
    def _reveals(game: Game) -> bool:
        return game.is_over() and game.hidden_scores  # the end rewrites the masked log (R9.1)

    def send_state(self, client: Client) -> None:
        """Send ``client`` alone its state; the presence in it is everyone's (issue 54: it was
        reckoned from this client alone, so a spectator saw the seated players offline)."""
        self.broadcast(to=(client,))


def undone_message(undone: Undone, names: Sequence[str]) -> UndoneMessage:
    """The ``undone`` notice everyone at the table is sent when ``undone.seat`` took a decision back."""
    return {
        "type": "undone",
        "seat": undone.seat,
        "name": names[undone.seat],
        "action": undone.action,
        "n": undone.n,
    }


__all__ = ["StateFeed", "decisions_before", "log_key", "undone_message"]
