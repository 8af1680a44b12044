"""Who is at one table: this worker's connections, the other workers' reports of theirs, and
who is connected at each seat — the presence the pages show.  (A room's audience; the match
itself, the table and its decisions, is :class:`ra.web.hub.Room`'s.)"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from ra.table import Table
from ra.web.clients import Client
from ra.web.protocol import Outgoing, PresenceMessage, error
from ra.web.store import SeatRow

R = TypeVar("R")

SEAT_LOST = 4401
"""The close code of a seat's connection whose token no longer holds the seat."""


class Audience:
    """The connections to one table on this worker, and the presence across workers."""

    def __init__(self, seats: Callable[[], Sequence[SeatRow]]) -> None:
        self._seats = seats
        self.clients: set[Client] = set()
        self.remote_presence: dict[str, list[bool]] = {}
        """Each other worker's connected seats (it told us)."""
        self.remote_watching: dict[str, int] = {}
        """Each other worker's spectators."""
        self.published: tuple[tuple[bool, ...], int] | None = None
        """What this worker last told the others (told again only when it changes)."""
        self._sent: list[bool] | None = None

    # --- seats and tokens ------------------------------------------------------

    def holds_seat(self, client: Client) -> bool:
        """Whether ``client``'s token still holds its seat (re-checked before every action)."""
        if client.seat is None:
            return True
        seats = self._seats()
        return client.seat < len(seats) and seats[client.seat].token_hash == client.token_hash

    def drop_lost_seats(self) -> None:
        """Close every connection whose token stopped holding its seat (left, or taken over)."""
        for c in list(self.clients):
            if not self.holds_seat(c):
                c.put(error("seat_lost", "you no longer hold this seat (you left it, or it was taken)"))
                c.finish(SEAT_LOST)
                self.clients.discard(c)

    # --- presence --------------------------------------------------------------

    def local_presence(self) -> list[bool]:
        here = [False] * len(self._seats())
        for c in self.clients:
            if c.seat is not None:
                here[c.seat] = True
        return here

    def heard(self, worker: str, connected: tuple[bool, ...], watching: int) -> None:
        """Another worker's connections on this table now. One with none left is forgotten: it
        forgets the table too (:meth:`ra.web.hub.Hub.release`), and when it opens it again it
        is a newcomer to be told who is connected here (kept, it was told nothing, and showed
        this worker's players offline to its spectators)."""
        if any(connected) or watching:
            self.remote_presence[worker] = list(connected)
            self.remote_watching[worker] = watching
        else:
            self.remote_presence.pop(worker, None)
            self.remote_watching.pop(worker, None)

    def local_watching(self) -> int:
        return sum(c.seat is None for c in self.clients)

    def watching(self) -> int:
        """Spectators' connections on every worker that has this table open."""
        return self.local_watching() + sum(self.remote_watching.values())

    def has_person(self, table: Table[R] | None) -> bool:
        """Whether a person is here now: a person's seat not away whose page is open on some
        worker (their bots' moves are served first; a seat played by its stand-in is not)."""
        here = self.presence()
        return table is not None and any(here[s] and s not in table.away for s in table.humans)

    def presence(self) -> list[bool]:
        """Each seat: a person connected on some worker, or a bot (always there)."""
        out = self.local_presence()
        for other in self.remote_presence.values():
            out = [a or b for a, b in zip(out, other, strict=False)]
        for s in self._seats():
            if s.kind == "bot":
                out[s.seat] = True
        return out

    # --- telling -----------------------------------------------------------------

    def send_presence(self) -> None:
        """Tell the clients who is connected — once per change, not once per connection (a
        newcomer learns it from its first ``state``)."""
        connected = self.presence()
        if connected == self._sent:
            return
        self._sent = connected
        msg: PresenceMessage = {"type": "presence", "connected": connected}
        for c in self.clients:
            c.put(msg)

    def tell_all(self, message: Outgoing) -> None:
        for c in self.clients:
            c.put(message)


__all__ = ["SEAT_LOST", "Audience"]
