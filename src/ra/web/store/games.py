"""Reading and writing games in the database (async SQLAlchemy Core).

Every write that changes a game is a compare-and-set on ``games.num_decisions``
in the same transaction as the decision rows, so two workers racing for one
decision end with exactly one of them applied (the primary key of
``decisions`` is the second guard).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal, NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from typing_extensions import TypedDict

from ra.clock import MOVE_DEADLINE, Clock
from ra.web.db import (
    accounts,
    as_utc,
    async_url,
    decisions,
    games,
    is_sqlite,
    now,
    seats,
    sync_url,
)
from ra.web.names import name_key
from ra.web.protocol import TableSettings
from ra.web.pubsub import GameChanged, Note, notify_sql
from ra.web.rating_policy import provisional
from ra.web.store.accounts import AccountStorage, AccountStore
from ra.web.store.addresses import AddressStorage, AddressStore
from ra.web.store.analyses import AnalysisStorage, AnalysisStore
from ra.web.store.bot_claims import BotClaims
from ra.web.store.chat import ChatStorage, ChatStore
from ra.web.store.events import EventStorage, EventStore
from ra.web.store.limits import Holds, Levels, MemoryHolds, MemoryLevels, StoredHolds, StoredLevels, lock_key
from ra.web.store.profiles import ProfileStorage, ProfileStore
from ra.web.store.puzzles import PuzzleStorage, PuzzleStore
from ra.web.store.ratings import RatingStorage, RatingStore
from ra.web.store.seat_clocks import SeatClocks
from ra.web.store.tokens import hash_token, new_id
from ra.web.store.turn_mail import TurnMailStorage, TurnMailStore


@dataclass
class SeatRow:
    seat: int
    kind: str
    level: str | None
    name: str | None
    token_hash: str | None
    away: bool = False
    """The seat's clock ran out: a bot (the table's ``stand_in``) decides for it until its
    person comes back."""
    bank: float | None = None
    """Under a game clock: the seconds left when the seat's current (or next) decision became due."""
    forfeited: bool = False
    """Its time ran out at a forfeit table: a bot plays it to the end and it ranks last."""
    rating: float | None = None
    """Its account's rating as shown (mu - 3 sigma), once the account has a rated game."""
    account: bool = False
    """An account holds the seat under its own name (by key; the pages link it to its profile):
    a guest's seat an account claimed later keeps showing as a guest's."""
    provisional: bool = False
    """Its account's rating is provisional (:func:`ra.web.rating_policy.provisional`)."""
    gone_at: datetime | None = None
    """At an open table: since when its person has had no page open there (None: here now)."""


@dataclass
class GameRow:
    """One ``games`` row with its seats."""

    id: str
    created_at: datetime
    status: str
    players: int
    variant: str
    suns_per_player: int | None
    hidden_scores: bool
    edition: str
    bot_delay: float
    seed: int
    record: dict[str, Any] | None
    num_decisions: int
    to_move: int | None
    epoch: int
    winner: int | None
    scores: list[int] | None
    rematch_id: str | None
    starts_at: datetime | None = None
    hints: bool = False
    casual: bool = False
    """Not rated, chosen when the table was made (:mod:`ra.web.rating_policy`)."""
    disaster_timing: str = "immediate"
    """R3.5: "immediate" or "2008" (the variant "2008 disaster timing")."""
    move_seconds: int | None = None
    """The clock: seconds each person has for a decision (None: no clock)."""
    stand_in: str | None = None
    """The level of the bot that decides for a seat whose time ran out."""
    game_seconds: int | None = None
    """A game clock: seconds each person has for the whole game (None: none)."""
    increment: int | None = None
    """Seconds added to a person's game clock after each of their decisions."""
    on_timeout: str | None = None
    """Under a clock, when time runs out: "stand_in" (back later possible) or "forfeit"."""
    updated_at: datetime | None = None
    """When the game last changed: in a running game, when the decision now due became due."""
    creator_addr: str | None = None
    """The address that created the table (its bots' work is counted to it)."""
    seats: list[SeatRow] = field(default_factory=list)

    @property
    def imported(self) -> bool:
        return self.record is not None

    @property
    def stand_in_level(self) -> str:
        """The level of the bot that decides for an absent person here (the lobby's default)."""
        return self.stand_in or "medium"

    @property
    def clocked(self) -> bool:
        """Whether the table has a clock (per decision or per game)."""
        return self.move_seconds is not None or self.game_seconds is not None

    def clock(self, deadline: float = MOVE_DEADLINE) -> Clock:
        """The table's clock (:class:`ra.clock.Clock`: every rule of time is there), with the
        site's ``deadline`` per decision for a table without one."""
        return Clock(
            self.move_seconds, self.game_seconds, self.increment or 0, self.on_timeout or "stand_in", deadline
        )

    def allowed(self, seat: int) -> float | None:
        """The seconds ``seat`` had for its decision now due (None: no clock)."""
        return self.clock().allowed(self.seats[seat].bank)

    def options(self) -> TableSettings:
        """The table's options, as the lobby shows them and a rematch copies them."""
        return {
            "players": self.players,
            "variant": self.variant,
            "suns_per_player": self.suns_per_player,
            "hidden_scores": self.hidden_scores,
            "edition": self.edition,
            "bot_delay": self.bot_delay,
            "hints": self.hints,
            "casual": self.casual,
            "disaster_timing": self.disaster_timing,
            "move_seconds": self.move_seconds,
            "stand_in": self.stand_in,
            "game_seconds": self.game_seconds,
            "increment": self.increment,
            "on_timeout": self.on_timeout,
        }


class ResultColumns(TypedDict):
    """The columns of ``games`` that show how far a game is (scores only once it is over)."""

    epoch: int
    winner: int | None
    scores: list[int] | None


class GameColumns(ResultColumns):
    """The columns of ``games`` that mirror a game in play (for the lobby and the bot sweeper)."""

    status: str
    to_move: int | None
    to_move_bot: bool


class StoredDecision(NamedTuple):
    """One accepted decision as stored: who took it, its notation, and whether a stand-in
    bot took it for the absent person in that seat."""

    seat: int
    action: str
    stand_in: bool = False


class ConflictError(Exception):
    """The game changed under us (another worker or client decided first)."""


POOL_SIZE = 30
"""The connections a worker keeps to PostgreSQL at most (:func:`pool_options`)."""
WORKER_CONNECTIONS = POOL_SIZE + 1
"""A worker's connections to PostgreSQL at most: its pool's, and the one on which it hears the
other workers (:meth:`ra.web.pubsub.PostgresPubSub.notes`)."""


def pool_options(sqlite: bool) -> dict[str, Any]:
    """How a worker's connections to its database are pooled."""
    if sqlite:
        # Decisions are written by the BatchWriter; these connections serve reads and the lobby.
        return {"connect_args": {"timeout": 30}, "pool_size": 2, "max_overflow": 2, "pool_timeout": 60}
    # Up to POOL_SIZE connections, each opened when first needed and then kept: no overflow,
    # which the pool would close as it comes back. A new connection costs the worker about 4 ms
    # of processor for the password exchange, and PostgreSQL a process: a pool of 10 with 20 of
    # overflow opened 5,326 connections in one 200-game run of benchmarks/web_load.py, where a
    # quarter of the worker's samples were in opening them (tests/web/test_store_pool.py checks
    # that a later burst reuses the first's connections).
    return {"pool_size": POOL_SIZE, "max_overflow": 0, "pool_recycle": 1800}


class Store:
    """The database behind the server."""

    def __init__(self, url: str, worker_id: str = "") -> None:
        self.worker_id = worker_id
        self.sqlite = is_sqlite(url)
        self.engine: AsyncEngine = create_async_engine(async_url(url), **pool_options(self.sqlite))
        self.accounts: AccountStorage = AccountStore(self.engine, self.notify_game)
        """Accounts, their sessions and password links, and which account holds a seat."""
        self.addresses: AddressStorage = AddressStore(self.engine)
        """The accounts' e-mail addresses and the links mailed about them."""
        self.chat: ChatStorage = ChatStore(self.engine)
        """The chat's lines and reports (their own aggregate, on the same database)."""
        self.events: EventStorage = EventStore(self.engine)
        """Events: their players, rounds and tables."""
        self.analyses: AnalysisStorage = AnalysisStore(self.engine)
        """The finished games' analyses."""
        self.ratings: RatingStorage = RatingStore(self.engine)
        """What rating a finished game reads, the accounts' ratings and the leaderboard."""
        self.profiles: ProfileStorage = ProfileStore(self.engine)
        """The accounts as their public profiles read them, with their games."""
        self.puzzles: PuzzleStorage = PuzzleStore(self.engine)
        """The accounts' puzzle ratings and first answers."""
        self.turn_mail: TurnMailStorage = TurnMailStore(self.engine)
        """Who gets "your turn" mail, and the games where it is their turn."""
        self.levels: Levels = MemoryLevels() if self.sqlite else StoredLevels(self.engine)
        """The site-wide rate limits' levels: in memory for one SQLite worker (the only kind it
        allows), in PostgreSQL when workers share it."""
        self.holds: Holds = MemoryHolds() if self.sqlite else StoredHolds(self.engine, worker_id)
        """What the clients hold at once per key (sockets, pages), counted likewise."""
        self.claims = BotClaims(self.engine, self.sqlite)
        """Which worker computes each bot's turn."""
        self.seat_clocks = SeatClocks(self.engine, self.notify_game, lambda: self.on_change())  # noqa: PLW0108 (set later)
        """The seats' away and forfeit flags and game clocks, and the clock sweep's query."""
        self._writer: BatchWriter | None = None
        self._creating: contextlib.AbstractAsyncContextManager[object] = (
            asyncio.Lock() if self.sqlite else contextlib.nullcontext()
        )
        """Creations one at a time where no lock of the database's serializes a cap's check
        (SQLite's single worker; PostgreSQL's caps take an advisory lock: ra.web.store.limits)."""
        self.on_change: Callable[[], None] = _nothing
        """Called after every write this worker commits (the live lobby: :mod:`ra.web.lobby_feed`)."""
        if self.sqlite:
            sa.event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
            self._writer = BatchWriter(url)

    async def close(self) -> None:
        await self.holds.close()
        if self._writer is not None:
            await self._writer.close()
        await self.engine.dispose()

    async def ping(self) -> None:
        async with self.engine.connect() as conn:
            await conn.execute(sa.text("SELECT 1"))

    # --- reading ---------------------------------------------------------------

    async def game(self, game_id: str) -> GameRow | None:
        async with self.engine.connect() as conn:
            return await self._game(conn, game_id)

    async def _game(self, conn: AsyncConnection, game_id: str) -> GameRow | None:
        row = (await conn.execute(sa.select(games).where(games.c.id == game_id))).mappings().first()
        if row is None:
            return None
        q = (
            sa.select(*_SEAT_COLUMNS)
            .select_from(seats.outerjoin(accounts, accounts.c.id == seats.c.account_id))
            .where(seats.c.game_id == game_id)
            .order_by(seats.c.seat)
        )
        g = _game_row(row)
        g.seats = [_seat_row(r) for r in (await conn.execute(q)).mappings()]
        return g

    async def list_games(self, status: str | None, limit: int = 100) -> list[GameRow]:
        """The newest ``limit`` games (of one ``status``) with their seats: one query."""
        newest = sa.select(games).order_by(games.c.created_at.desc()).limit(limit)
        if status is not None:
            newest = newest.where(games.c.status == status)
        g = newest.subquery()
        q = (
            sa.select(g, *_SEAT_COLUMNS)
            .select_from(
                g.outerjoin(seats, seats.c.game_id == g.c.id).outerjoin(
                    accounts, accounts.c.id == seats.c.account_id
                )
            )
            .order_by(g.c.created_at.desc(), g.c.id, seats.c.seat)
        )
        out: list[GameRow] = []
        async with self.engine.connect() as conn:
            for r in (await conn.execute(q)).mappings():
                if not out or out[-1].id != r["id"]:
                    out.append(_game_row(r))
                if r["s_seat"] is not None:
                    out[-1].seats.append(_seat_row(r))
        return out

    async def decisions(self, game_id: str, since: int = 0) -> list[StoredDecision]:
        """The accepted decisions of a game from number ``since`` on, in order."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(decisions.c.seat, decisions.c.action, decisions.c.stand_in)
                .where(decisions.c.game_id == game_id, decisions.c.n >= since)
                .order_by(decisions.c.n)
            )
            return [StoredDecision(r[0], r[1], bool(r[2])) for r in rows]

    async def seat_for_token(self, game_id: str, token: str) -> int | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(seats.c.seat).where(
                        seats.c.game_id == game_id, seats.c.token_hash == hash_token(token)
                    )
                )
            ).first()
            return None if row is None else int(row[0])

    async def count_by_status(self) -> dict[str, int]:
        """How many games are open (waiting for players) and running (for ``/metrics``)."""
        q = (
            sa.select(games.c.status, sa.func.count())
            .where(games.c.status.in_(("open", "running")))
            .group_by(games.c.status)
        )
        async with self.engine.connect() as conn:
            counts = {str(r[0]): int(r[1]) for r in await conn.execute(q)}
        return {status: counts.get(status, 0) for status in ("open", "running")}

    # --- writing ---------------------------------------------------------------

    async def create_game(
        self,
        values: dict[str, Any],
        seat_rows: Sequence[dict[str, Any]],
        caps: Caps | None = None,
        then: Linker | None = None,
    ) -> str:
        """A new game, unless its creator is past one of ``caps`` (:class:`OverCapError`):
        counted in the creation's own transaction under the creator's lock, one creation at a
        time on SQLite's single worker, so 60 requests at once, or on two workers, still create
        at most the cap.  ``then`` runs last in the same transaction with the new id (an event
        links its table: what it raises undoes the game too)."""
        game_id = new_id()
        t = now()
        async with self._creating, self.engine.begin() as conn:
            if caps is not None:
                await _check_caps(conn, caps)
            await conn.execute(
                sa.insert(games).values(
                    id=game_id, created_at=t, updated_at=t, **{"num_decisions": 0, **values}
                )
            )
            await conn.execute(sa.insert(seats), [{"game_id": game_id, **s} for s in seat_rows])
            if then is not None:
                await then(conn, game_id)
            await self._notify(conn, game_id)  # the other workers' lobbies list it
        self.on_change()
        return game_id

    async def delete_game(self, game_id: str) -> None:
        """Remove a game that never started (a rematch table that lost a race)."""
        async with self.engine.begin() as conn:
            await conn.execute(sa.delete(seats).where(seats.c.game_id == game_id))
            await conn.execute(sa.delete(games).where(games.c.id == game_id, games.c.status == "open"))
            await self._notify(conn, game_id)
        self.on_change()

    async def close_if_empty(self, game_id: str) -> bool:
        """Remove an open table nobody is seated at (its last person left); False if someone
        is (a person who joined meanwhile keeps it)."""
        seated = sa.exists().where(seats.c.game_id == game_id, seats.c.token_hash.is_not(None))
        async with self.engine.begin() as conn:
            gone = await conn.execute(
                sa.delete(games).where(games.c.id == game_id, games.c.status == "open", ~seated)
            )
            if gone.rowcount != 1:
                return False
            await conn.execute(sa.delete(seats).where(seats.c.game_id == game_id))
            await self._notify(conn, game_id)
        self.on_change()
        return True

    async def take_seat(self, game_id: str, seat: int, name: str, token: str) -> bool:
        """Give a free human seat a name and a token; False if it was taken meanwhile."""
        async with self.engine.begin() as conn:
            res = await conn.execute(
                sa.update(seats)
                .where(
                    seats.c.game_id == game_id,
                    seats.c.seat == seat,
                    seats.c.kind == "human",
                    seats.c.token_hash.is_(None),
                )
                .values(name=name, token_hash=hash_token(token), gone_at=now())
            )
            await self._notify(conn, game_id)
        self.on_change()
        return res.rowcount == 1

    async def free_seat(self, game_id: str, seat: int) -> bool:
        async with self.engine.begin() as conn:
            res = await conn.execute(
                sa.update(seats)
                .where(seats.c.game_id == game_id, seats.c.seat == seat)
                .values(name=None, token_hash=None, gone_at=None)
            )
            await self._notify(conn, game_id)
        self.on_change()
        return res.rowcount == 1

    async def start(self, game_id: str, to_move: int | None, to_move_bot: bool) -> bool:
        """Mark an open game running once every seat is taken (once: a compare-and-set)."""
        async with self.engine.begin() as conn:
            res = await conn.execute(
                sa.update(games)
                .where(games.c.id == game_id, games.c.status == "open")
                .values(status="running", to_move=to_move, to_move_bot=to_move_bot, updated_at=now())
            )
            await self._notify(conn, game_id)
        self.on_change()
        return res.rowcount == 1

    async def set_rematch(self, game_id: str, rematch_id: str) -> bool:
        async with self.engine.begin() as conn:
            res = await conn.execute(
                sa.update(games)
                .where(games.c.id == game_id, games.c.rematch_id.is_(None))
                .values(rematch_id=rematch_id)
            )
            await self._notify(conn, game_id)
        self.on_change()
        return res.rowcount == 1

    async def append(
        self, game_id: str, n: int, seat: int, action: str, state: GameColumns, stand_in: bool = False
    ) -> None:
        """Store decision ``n`` (``stand_in``: a stand-in bot took it for the absent person);
        :class:`ConflictError` if the game is no longer at ``n`` decisions."""
        if self.sqlite:
            await self._write(n, _append, game_id, n, seat, action, state, stand_in)
            self.on_change()
            return
        # PostgreSQL: the compare-and-set, the decision row and the other workers' note (with the
        # decision in it: they need not read it back) in one statement, one round trip.
        note = GameChanged(game_id, self.worker_id, n, seat, action, stand_in)
        params = _append_params(note, n, state)
        try:
            async with self.engine.connect() as conn:
                conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
                applied = (await conn.execute(_APPEND_PG, params)).first()
        except IntegrityError:
            raise ConflictError(game_id) from None
        if applied is None:
            raise ConflictError(game_id)
        self.on_change()

    async def truncate(self, game_id: str, n: int, keep: int, state: GameColumns) -> None:
        """Take decisions ``keep``.. back (undo); :class:`ConflictError` if the game moved on."""
        await self._write(None, _truncate, game_id, n, keep, state)
        self.on_change()

    async def _write(self, appended: int | None, fn: Any, *args: Any) -> None:
        if self._writer is not None:
            await self._writer.submit(fn, args)
            return
        try:
            async with self.engine.begin() as conn:
                await conn.run_sync(fn, *args)
                await self._notify(conn, args[0], appended)
        except IntegrityError:
            raise ConflictError(args[0]) from None

    async def notify(self, note: Note) -> None:
        """Publish ``note`` to the other workers (PostgreSQL; one SQLite worker has none)."""
        if self.sqlite:
            return
        async with self.engine.begin() as conn:
            await conn.execute(sa.select(sa.func.pg_notify(*notify_sql(note))))

    async def notify_game(self, conn: AsyncConnection, game_id: str) -> None:
        """Tell the other workers a game changed, with a write made outside this store."""
        await self._notify(conn, game_id)

    async def _notify(self, conn: AsyncConnection, game_id: str, appended: int | None = None) -> None:
        """Tell the other workers (PostgreSQL delivers it when the transaction commits, in order);
        ``appended``: the number of the one decision appended (they read just that row)."""
        if not self.sqlite:
            note = GameChanged(game_id, self.worker_id, appended)
            await conn.execute(sa.select(sa.func.pg_notify(*notify_sql(note))))


@dataclass(frozen=True)
class Caps:
    """What one creator (``addr``) may have when it creates a game (None: no such cap)."""

    addr: str
    active: int | None = None
    """Games waiting or running at most (bot-only tables too)."""
    bot_seats: int | None = None
    """Bot seats at those games at most, the new game's ``new_bots`` counted."""
    new_bots: int = 0
    today: int | None = None
    """Games (tables and imported records) created in the last 24 hours at most."""


Linker = Callable[[AsyncConnection, str], Awaitable[None]]
"""A step of a game's creation, in its own transaction, with the new id (an event's table links its
game: :meth:`ra.web.store.events.EventStorage.linker`)."""


class OverCapError(Exception):
    """A creation refused: its creator holds ``held`` already of ``cap`` (a name of :class:`Caps`)."""

    def __init__(self, cap: Literal["active", "bot_seats", "today"], held: int) -> None:
        super().__init__(f"{cap}: {held}")
        self.cap, self.held = cap, held


async def _check_caps(conn: AsyncConnection, caps: Caps) -> None:
    """Raise :class:`OverCapError` if the creation would pass one of ``caps``, counted under the
    creator's lock (:func:`ra.web.store.limits.lock_key`) until the transaction ends."""
    await lock_key(conn, f"tables\n{caps.addr}")
    if caps.active is not None or caps.bot_seats is not None:
        active, bot_seats = await active_games_on(conn, caps.addr)
        if caps.active is not None and active >= caps.active:
            raise OverCapError("active", active)
        if caps.bot_seats is not None and bot_seats + caps.new_bots > caps.bot_seats:
            raise OverCapError("bot_seats", bot_seats)
    if caps.today is not None:
        today = await games_created_on(conn, caps.addr)
        if today >= caps.today:
            raise OverCapError("today", today)


async def active_games_on(conn: AsyncConnection, addr: str) -> tuple[int, int]:
    """The games this address created that are waiting or running (bot-only tables too), and
    the bot seats at them, read on ``conn`` (inside a creation's transaction: the caps)."""
    active = sa.select(games.c.id).where(
        games.c.creator_addr == addr, games.c.status.in_(("open", "running"))
    )
    bot_seats = sa.select(sa.func.count()).where(seats.c.game_id.in_(active), seats.c.kind == "bot")
    q = sa.select(
        sa.select(sa.func.count()).select_from(active.subquery()).scalar_subquery(),
        bot_seats.scalar_subquery(),
    )
    row = (await conn.execute(q)).one()
    return int(row[0]), int(row[1])


async def games_created_on(conn: AsyncConnection, addr: str, hours: float = 24.0) -> int:
    """Games (tables and imported records) this address created in the last ``hours``, read on
    ``conn`` (inside an import's transaction: the cap per day)."""
    since = now() - timedelta(hours=hours)
    q = sa.select(sa.func.count()).where(games.c.creator_addr == addr, games.c.created_at >= since)
    return int((await conn.execute(q)).scalar_one())


def _nothing() -> None:
    """No one listens for changes (the store without a server around it)."""


def _append(
    conn: Connection, game_id: str, n: int, seat: int, action: str, state: GameColumns, stand_in: bool
) -> None:
    res = conn.execute(
        sa.update(games)
        .where(games.c.id == game_id, games.c.num_decisions == n)
        .values(num_decisions=n + 1, updated_at=now(), **state)
    )
    if res.rowcount != 1:
        raise ConflictError(game_id)
    conn.execute(
        sa.insert(decisions).values(
            game_id=game_id, n=n, seat=seat, action=action, created_at=now(), stand_in=stand_in
        )
    )


def _append_params(note: GameChanged, n: int, state: GameColumns) -> dict[str, object]:
    """The parameters of :data:`_APPEND_PG` for decision ``n`` that ``note`` tells of."""
    channel, payload = notify_sql(note)
    return {
        "gid": note.game_id,
        "n": n,
        "n1": n + 1,
        "t": now(),
        "seat": note.seat,
        "action": note.action,
        "stand_in": note.stand_in,
        "channel": channel,
        "payload": payload,
        **state,
        "scores": json.dumps(state["scores"]) if state["scores"] is not None else None,
    }


_APPEND_PG = sa.text(
    """
    WITH upd AS (
        UPDATE games SET num_decisions = :n1, updated_at = :t, status = :status, to_move = :to_move,
            to_move_bot = :to_move_bot, epoch = :epoch, winner = :winner, scores = CAST(:scores AS JSON)
        WHERE id = :gid AND num_decisions = :n
        RETURNING id
    ), ins AS (
        INSERT INTO decisions (game_id, n, seat, action, created_at, stand_in)
        SELECT id, :n, :seat, :action, :t, :stand_in FROM upd
        RETURNING n
    )
    SELECT pg_notify(:channel, :payload) FROM ins
    """
)
"""Decision ``n`` stored on PostgreSQL in one statement (see :meth:`Store.append`)."""


def _truncate(conn: Connection, game_id: str, n: int, keep: int, state: GameColumns) -> None:
    res = conn.execute(
        sa.update(games)
        .where(games.c.id == game_id, games.c.num_decisions == n)
        .values(num_decisions=keep, updated_at=now(), bot_claim_n=None, **state)
    )
    if res.rowcount != 1:
        raise ConflictError(game_id)
    conn.execute(sa.delete(decisions).where(decisions.c.game_id == game_id, decisions.c.n >= keep))


class BatchWriter:
    """SQLite's group commit: every decision waiting to be stored goes in one transaction.

    SQLite has one writer at a time; one thread that commits whatever is queued
    (one hop between threads per batch, not per statement) keeps the latency flat
    under load.  A compare-and-set failure fails only its own write.
    """

    def __init__(self, url: str) -> None:
        self.engine = sa.create_engine(
            sync_url(url), connect_args={"timeout": 30}, poolclass=sa.pool.NullPool
        )
        sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ra-sqlite-writer")
        self._queue: asyncio.Queue[tuple[Any, tuple[Any, ...], asyncio.Future[None]]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._conn: Connection | None = None

    async def submit(self, fn: Any, args: tuple[Any, ...]) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run())
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        await self._queue.put((fn, args, done))
        await done

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty():
                batch.append(self._queue.get_nowait())
            try:
                results = await loop.run_in_executor(
                    self._thread, self._commit, [(f, a) for f, a, _ in batch]
                )
            except Exception as err:
                for _, _, done in batch:
                    if not done.done():
                        done.set_exception(
                            ConflictError(str(err)) if isinstance(err, IntegrityError) else err
                        )
                continue
            for (_, _, done), result in zip(batch, results, strict=True):
                if done.done():
                    continue
                if result is None:
                    done.set_result(None)
                else:
                    done.set_exception(result)

    def _commit(self, batch: list[tuple[Any, tuple[Any, ...]]]) -> list[Exception | None]:
        if self._conn is None:
            self._conn = self.engine.connect()
        conn = self._conn
        results: list[Exception | None] = []
        try:
            with conn.begin():
                for fn, args in batch:
                    try:
                        fn(conn, *args)
                        results.append(None)
                    except ConflictError as err:  # raised before the write changed anything
                        results.append(err)
        except Exception:
            conn.close()
            self._conn = None
            raise
        return results

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        conn, self._conn = self._conn, None
        if conn is not None:
            await asyncio.get_running_loop().run_in_executor(self._thread, conn.close)
        self._thread.shutdown(wait=False)
        self.engine.dispose()


async def mark_here(store: Store, game_id: str, seat: int, here: bool) -> None:
    """Note whether the person at ``seat`` of an open table has a page open there (gone since
    now, or here); the lobby hides a table whose people have all gone a while (issue 54).  Told
    to every worker, as any change of a game is."""
    async with store.engine.begin() as conn:
        await conn.execute(
            sa.update(seats)
            .where(seats.c.game_id == game_id, seats.c.seat == seat)
            .values(gone_at=None if here else now())
        )
        await store._notify(conn, game_id)
    store.on_change()


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


_SEAT_COLUMNS = (
    seats.c.seat.label("s_seat"),
    seats.c.kind.label("s_kind"),
    seats.c.level.label("s_level"),
    seats.c.name.label("s_name"),
    seats.c.token_hash.label("s_token_hash"),
    seats.c.away.label("s_away"),
    seats.c.bank.label("s_bank"),
    seats.c.forfeited.label("s_forfeited"),
    accounts.c.rating_mu.label("s_mu"),
    accounts.c.rating_sigma.label("s_sigma"),
    accounts.c.rated_games.label("s_rated"),
    seats.c.account_id.label("s_account"),
    accounts.c.name_key.label("s_account_key"),
    seats.c.gone_at.label("s_gone_at"),
)
"""A seat's columns as the rows of a game read them, with its account's rating."""


def _seat_row(r: Any) -> SeatRow:
    rated = r["s_rated"] is not None and r["s_rated"] > 0
    return SeatRow(
        r["s_seat"],
        r["s_kind"],
        r["s_level"],
        r["s_name"],
        r["s_token_hash"],
        bool(r["s_away"]),
        r["s_bank"],
        bool(r["s_forfeited"]),
        round(r["s_mu"] - 3 * r["s_sigma"], 1) if rated else None,
        r["s_account"] is not None and r["s_account_key"] == _key(r["s_name"] or ""),
        rated and provisional(r["s_rated"]),
        as_utc(r["s_gone_at"]),
    )


@functools.lru_cache(maxsize=4096)
def _key(name: str) -> str:
    """A seat's name's key: the seat's name is its account's only when the keys match (a guest
    seat "Admin…" an account "Bob" claimed later still shows as a guest's, issue 52)."""
    return name_key(name)


def _game_row(r: Any) -> GameRow:
    return GameRow(
        id=r["id"],
        created_at=r["created_at"],
        status=r["status"],
        players=r["players"],
        variant=r["variant"],
        suns_per_player=r["suns_per_player"],
        hidden_scores=bool(r["hidden_scores"]),
        edition=r["edition"],
        bot_delay=float(r["bot_delay"]),
        seed=int(r["seed"]),
        record=r["record"],
        num_decisions=r["num_decisions"],
        to_move=r["to_move"],
        epoch=r["epoch"],
        winner=r["winner"],
        scores=r["scores"],
        rematch_id=r["rematch_id"],
        starts_at=as_utc(r["starts_at"]),
        hints=bool(r["hints"]),
        casual=bool(r["casual"]),
        disaster_timing=r["disaster_timing"],
        move_seconds=r["move_seconds"],
        stand_in=r["stand_in"],
        game_seconds=r["game_seconds"],
        increment=r["increment"],
        on_timeout=r["on_timeout"],
        updated_at=as_utc(r["updated_at"]),
        creator_addr=r.get("creator_addr"),
    )
