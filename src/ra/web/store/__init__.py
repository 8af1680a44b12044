"""All the SQL of the site, one module per aggregate, each an interface (a Protocol) with its
SQL store and an in-memory twin, so the services above take the interface and are tested
without a database:

- :mod:`.games`: tables, seats and decisions (:class:`Store`, the database behind the server,
  which also opens every other aggregate on its engine); the interface and its twin are in
  :mod:`ra.web.storage`.
- :mod:`.chat`: the tables' and the lobby's chat lines and reports on them.
- :mod:`.limits`: the rate limits' levels and what clients hold at once.

``from ra.web.store import Store`` (and the other names of :mod:`.games`) keep working.
"""

from __future__ import annotations

from ra.web.store.games import (
    BatchWriter,
    ConflictError,
    GameColumns,
    GameRow,
    ResultColumns,
    SeatRow,
    Store,
    StoredDecision,
    active_games_on,
    games_created_on,
    mark_here,
)
from ra.web.store.tokens import hash_token, new_id, new_token

__all__ = [
    "BatchWriter",
    "ConflictError",
    "GameColumns",
    "GameRow",
    "ResultColumns",
    "SeatRow",
    "Store",
    "StoredDecision",
    "active_games_on",
    "games_created_on",
    "hash_token",
    "mark_here",
    "new_id",
    "new_token",
]
