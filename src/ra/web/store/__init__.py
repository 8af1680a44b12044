"""All the SQL of the site, one module per aggregate, each an interface (a Protocol) with its
SQL store and an in-memory twin, so the services above take the interface and are tested
without a database (``tests/web/test_store_contract.py`` runs each twin and its SQL store
through the same scenarios):

- :mod:`.games`: tables, seats and decisions (:class:`Store`, the database behind the server,
  which opens every other aggregate on its engine), and the caps a creation is counted against;
  the games' interface and twin are :mod:`.game_storage`'s, the claims of bots' turns
  :mod:`.bot_claims`'s, the seats' clocks and the clock sweep's query :mod:`.seat_clocks`'s.
- :mod:`.accounts`: accounts and their names, sessions, password links, and which account and
  session hold a seat.
- :mod:`.addresses`: the accounts' e-mail addresses and the links mailed about them
  (:mod:`.mail_links`).
- :mod:`.lobby`: the tables as the lobby makes, lists, seats and closes them.
- :mod:`.chat`: the tables' and the lobby's chat lines and the reports on them.
- :mod:`.events`: events, their players, their rounds (each claimed once) and their tables.
- :mod:`.analyses`: finished games' analyses, and the ratings their chances are given.
- :mod:`.ratings`: what a finished game's rating reads, the accounts' ratings, the leaderboard.
- :mod:`.profiles`: the accounts as their public profiles read them, with their games.
- :mod:`.puzzles`: the accounts' puzzle ratings and their first answer to each puzzle.
- :mod:`.turn_mail`: who gets "your turn" mail, and the games where it is their turn.
- :mod:`.limits`: the rate limits' levels and what clients hold at once.
- :mod:`.tokens`: ids and tokens, and how a token is stored (hashed).

``from ra.web.store import Store`` (and the other names of :mod:`.games`) keep working.
"""

from __future__ import annotations

from ra.web.store.games import (
    BatchWriter,
    Caps,
    ConflictError,
    GameColumns,
    GameRow,
    OverCapError,
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
    "Caps",
    "ConflictError",
    "GameColumns",
    "GameRow",
    "OverCapError",
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
