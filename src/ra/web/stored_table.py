"""A table from its stored game: built when a room opens, caught up when another worker or the
lobby changed the game.

The table (:class:`ra.table.Table`) is the one source of a game's facts at a room: its seats,
options and clock, its decisions, the seats that forfeited or are away, the decisions a stand-in
took.  Here it is read from a game's storage (:class:`ra.web.store.game_storage.GameStorage`): the stored row
keeps only what the table does not (tokens, presence, the seats' clocks).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Protocol

from ra.clock import MOVE_DEADLINE
from ra.engine import Game
from ra.errors import RaError
from ra.table import Seat, TableOptions, record_facts
from ra.web.audience import Audience
from ra.web.hints import HintTable
from ra.web.ledger import away_seats, forfeited_seats, mirror
from ra.web.pubsub import GameChanged
from ra.web.store import GameRow, StoredDecision
from ra.web.store.game_storage import GameStorage

log = logging.getLogger("ra.web")

Caught = tuple[GameRow, HintTable | None, int | None]
"""A game caught up: its row, its table (None while its seats are open) and the first log entry
the clients must be sent again (None: their logs only grow; 0: all of it)."""


def build_game(row: GameRow, decisions: Sequence[str]) -> Game:
    """The game of a stored row after ``decisions``."""
    if row.record is not None:
        game = Game.from_record({**row.record, "decisions": [], "result": None})
    else:
        game = Game(
            players=[s.name or f"Seat {s.seat + 1}" for s in row.seats],
            seed=row.seed,
            variant=row.variant,
            suns_per_player=row.suns_per_player,
            hidden_scores=row.hidden_scores,
            disaster_timing=row.disaster_timing,
        )
    for d in decisions:
        game.apply(d)
    return game


def stood_in(stored: Sequence[StoredDecision], first: int = 0) -> set[int]:
    """The numbers of the stored decisions (``stored[0]`` is decision ``first``) a stand-in took."""
    return {first + k for k, d in enumerate(stored) if d.stand_in}


def table_seats(row: GameRow) -> list[Seat]:
    """A stored game's seats as the table knows them: people by name, bots by level."""
    return [
        Seat(s.name or f"Seat {s.seat + 1}", (s.level or "easy") if s.kind == "bot" else None)
        for s in row.seats
    ]


def table_for(
    row: GameRow, game: Game, stand_ins: Collection[int] = (), deadline: float = MOVE_DEADLINE
) -> HintTable:
    """The table of a stored game: its seats (people, or bots by level), its options and clock
    (``deadline``: the site's per decision without one), the seats that forfeited and the
    decisions (``stand_ins``) a stand-in took."""
    options = TableOptions(
        hints=row.hints,
        pace=row.bot_delay,
        edition=row.edition,
        undo=row.record is None,
        stand_in=row.stand_in_level,
        clock=row.clock(deadline),
    )
    return HintTable(game, table_seats(row), options, forfeited_seats(row), stand_ins, away_seats(row))


async def load(store: GameStorage, game_id: str, deadline: float) -> tuple[GameRow, HintTable | None] | None:
    """A stored game's row and table (None while its seats are open; an imported game's from its
    record); None if there is no such game."""
    row = await store.game(game_id)
    if row is None:
        return None
    if row.record is not None:  # an imported game: its record states its facts
        game = Game.from_record(row.record)
        return row, table_for(row, game, record_facts(row.record, game)[1], deadline)
    if row.status == "open":
        return row, None
    stored = await store.decisions(game_id)
    return row, table_for(row, build_game(row, [d.action for d in stored]), stood_in(stored), deadline)


async def noted(store: GameStorage, note: GameChanged) -> list[StoredDecision]:
    """The decisions another worker's note says it stored (read back if it does not carry them)."""
    if note.action is not None:
        return [StoredDecision(note.seat or 0, note.action, note.stand_in)]
    return await store.decisions(note.game_id, since=note.appended or 0)


def after_decisions(table: HintTable, stored: Sequence[StoredDecision]) -> HintTable | None:
    """``table`` after decisions another worker stored (the next ones), or None if they do not
    apply (then the storage is read again)."""
    first = table.game.num_decisions
    game = table.game.clone()
    try:
        for d in stored:
            game.apply(d.action)
    except RaError:  # a note that does not fit: trust the database instead
        log.warning("another worker's decisions did not apply at decision %d; reading the game again", first)
        return None
    return table.replaced(game, table.stand_ins | stood_in(stored, first))


async def caught_up(
    store: GameStorage, game_id: str, table: HintTable | None, deadline: float
) -> Caught | None:
    """The stored game now (:data:`Caught`), from ``table`` as this worker knows it: a seat's
    name, another worker's forfeit, away seats and decisions; None if the game is gone."""
    row = await store.game(game_id)
    if row is None:
        return None
    stored = await store.decisions(game_id)
    if row.status == "open":
        return row, None, 0
    texts = [d.action for d in stored]
    if table is None:
        return row, table_for(row, build_game(row, texts), stood_in(stored), deadline), 0
    table = table.replaced(seats=table_seats(row), forfeited=forfeited_seats(row), away=away_seats(row))
    mine = [str(a) for a in table.game.decisions]
    if texts[: len(mine)] == mine:
        grown = table.game.clone()
        for t in texts[len(mine) :]:
            grown.apply(t)
        return row, table.replaced(grown, stood_in(stored)), None
    common = 0
    while common < min(len(mine), len(texts)) and mine[common] == texts[common]:
        common += 1
    floor = len(build_game(row, texts[:common]).events) if common else 0
    return row, table.replaced(build_game(row, texts), stood_in(stored)), floor


# --- a room following the storage: another worker's decision, or anything else changed ----------


class Follower(Protocol):
    """What catching up changes of a room (:class:`ra.web.hub.Room`): its stored row and table
    (held under its lock), and what it tells its clients and its bots after."""

    row: GameRow
    table: HintTable | None
    decided_at: float | None

    @property
    def id(self) -> str: ...
    @property
    def lock(self) -> asyncio.Lock: ...
    @property
    def audience(self) -> Audience: ...
    def broadcast(self, floor: int | None = None) -> None: ...
    def schedule_bot(self, remote: bool = False) -> None: ...


async def catch_up(room: Follower, store: GameStorage, deadline: float) -> int | None:
    """Catch ``room`` up with the storage (hold its lock); the first log entry its clients must
    be sent again."""
    caught = await caught_up(store, room.id, room.table, deadline)
    if caught is None:
        return None
    room.row, room.table, floor = caught
    return floor


async def follow(
    room: Follower, note: GameChanged, store: GameStorage, deadline: float, now: datetime
) -> None:
    """Another worker committed: apply the decision its note carries when ``room`` is one
    behind (no database read); anything else, catch up from the database."""
    async with room.lock:
        table = room.table
        if note.appended is not None and table is not None and table.game.num_decisions == note.appended:
            stored = await noted(store, note)
            new = after_decisions(table, stored) if stored else None
            if new is not None:
                mirror(room.row, new, now)
                room.table, room.decided_at = new, None
                room.broadcast()
                return
        room.broadcast(floor=await catch_up(room, store, deadline))
        room.schedule_bot(remote=True)


async def resync(room: Follower, store: GameStorage, deadline: float) -> None:
    """Catch ``room`` up with the database (another worker, or the lobby, changed the game)."""
    async with room.lock:
        floor = await catch_up(room, store, deadline)
        room.audience.drop_lost_seats()
        room.broadcast(floor=floor)
        room.schedule_bot(remote=True)


__all__ = [
    "Caught",
    "Follower",
    "after_decisions",
    "build_game",
    "catch_up",
    "caught_up",
    "follow",
    "load",
    "resync",
    "stood_in",
    "table_for",
    "table_seats",
]
