"""Live games: one :class:`Room` per game in play, its clients, its bots.

A room holds the engine's :class:`ra.Game` rebuilt from the stored decisions.
A decision is validated by the engine, committed to the database, and only
then sent to the clients.  With several workers, a commit is announced through
PostgreSQL ``LISTEN``/``NOTIFY``; every worker with clients on that game reads
the new decisions and tells its own clients.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable, Collection, Sequence
from datetime import UTC, datetime

from ra.engine import Game
from ra.master import (
    Broadcast,
    By,
    Decide,
    Effect,
    GameOver,
    HintAnswered,
    HintKey,
    Intent,
    Later,
    MarkAway,
    NextTurn,
    RefusedError,
    StandIn,
    StoreDecision,
    TakeBack,
    TurnOf,
    Undone,
)
from ra.table import BotJob, HintJob, decide
from ra.web.audience import Audience
from ra.web.bot_processes import BotProcesses
from ra.web.bot_work import hint_for
from ra.web.clients import Client
from ra.web.driver import BOT_CLAIM_STALE, BotDriver, BotRoom
from ra.web.errors import ClientError
from ra.web.hints import HintDesk, HintTable, given_too
from ra.web.ledger import Ledger, mirror
from ra.web.limits import table_owner
from ra.web.mail import BY_TURNS_SECONDS
from ra.web.metrics import Metrics
from ra.web.protocol import (
    GameSummary,
    HintReply,
    ShutdownMessage,
)
from ra.web.pubsub import (
    ChatPosted,
    EventChanged,
    GameChanged,
    LocalPubSub,
    Note,
    PostgresPubSub,
    PresenceChanged,
    PubSub,
)
from ra.web.scheduler import Start
from ra.web.settings import Settings
from ra.web.state_feed import StateFeed, undone_message
from ra.web.store import ConflictError, GameRow
from ra.web.store.analyses import AnalysisStorage
from ra.web.store.game_storage import GameStorage
from ra.web.stored_table import build_game, catch_up, follow, load, resync, table_seats
from ra.web.strengths import seat_strengths
from ra.web.summaries import game_summary

log = logging.getLogger("ra.web")

TURN_MAIL_EVERY = 3 * 3600.0
"""Seconds between two "your turn" mails for one seat of one game (finding 3: 22 mails in 20 s)."""
SWEEP_EVERY = 5.0
BOT_SLOTS = 16  # bots' moves being applied and sent at once (see BotDriver._play_bot)


class Room:
    """A game being played or watched on this worker: an interpreter of its table's effects
    (:mod:`ra.master`) over its sockets (:class:`Audience`, :class:`StateFeed`), its storage
    (:class:`Ledger`) and its searches (:class:`BotDriver`, :class:`HintDesk`)."""

    def __init__(self, hub: Hub, row: GameRow, table: HintTable | None) -> None:
        self.hub = hub
        self.row = row
        """The stored game: what its table does not hold (tokens, presence, the seats' clocks)."""
        self.table = table
        """The table: the one source of the game's facts (None while its seats are open)."""
        self.lock = asyncio.Lock()
        self.audience = Audience(lambda: self.row.seats)
        self.joining = 0
        """Connections past their hello, not attached yet (the hub keeps the room meanwhile)."""
        self.bots = BotDriver(self)
        self.ledger = Ledger(hub.store, row.id)
        self.decided_at: float | None = None
        self.hints = HintDesk(
            lambda job, key: hub.hint(self, job, key), self.intent, lambda: self.table, row.id
        )
        """The searches for this table's hints (the table decides which: :mod:`ra.steps`)."""
        self.feed = StateFeed(self, self.bots.clock_left)
        """What each client here is sent (the state messages)."""
        self.bot_budget = 1.0
        """The share of its level's budget the last bot search here had (less under load)."""

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def game(self) -> Game | None:
        return self.table.game if self.table is not None else None

    def can_undo(self, seat: int | None) -> bool:
        return self.table is not None and self.table.can_undo(seat)

    def away(self, seat: int) -> bool:
        """Whether a stand-in decides for ``seat`` now (the table's fact: the row only stores it)."""
        return self.table is not None and seat in self.table.away

    def summary(self) -> GameSummary:
        return self.hub.summary(self.row, self.audience.presence())

    def broadcast(self, floor: int | None = None, to: Collection[Client] | None = None) -> None:
        """Send every client (or those ``to``) its state (:meth:`ra.web.state_feed.StateFeed.broadcast`)."""
        self.feed.broadcast(floor, to)

    def table_now(self) -> HintTable:
        if self.table is None:
            raise ClientError("not_allowed", "the game has not started: every seat must be taken")
        return self.table

    # --- intents: each the table's step, its effects carried out ---------------------------

    async def act(self, seat: int, text: str, n: int, by_bot: bool = False, stand_in: bool = False) -> None:
        """Apply ``text`` for ``seat`` at decision ``n``: the table checks it, then it is committed,
        then everyone is told (``by_bot``: a bot decided; ``stand_in``: for the absent person)."""
        submitted = time.time()
        received = time.perf_counter()
        by: By = "stand_in" if stand_in else "bot" if by_bot else "person"
        async with self.lock:
            new, effects = self.step(Decide(seat, text, n, by))
            await self._store(new, effects)
            self.decided_at = submitted
            self._play_on(new, effects)
        kind = "person" if by == "person" else "bot"
        self.hub.metrics.decisions.labels(kind).inc()
        self.hub.metrics.decision_latency.labels(kind).observe(time.perf_counter() - received)

    async def hint(self, client: Client, n: int) -> None:
        """Start sending ``client`` its hints (:meth:`ra.web.hints.HintDesk.ask`), counted."""
        self.hub.metrics.hints.inc()
        await self.hints.ask(client, n, rated=not self.row.casual)

    async def undo(self, seat: int, n: int) -> None:
        """Take back ``seat``'s last decision (:data:`ra.table.UNDO_RULE`) and tell everyone."""
        await self.intent(TakeBack(seat, n))

    async def intent(self, intent: Intent | HintAnswered[HintReply]) -> list[Later]:
        """Carry ``intent`` out, holding the table's lock (:meth:`perform`)."""
        async with self.lock:
            return await self.perform(intent)

    async def perform(self, intent: Intent | HintAnswered[HintReply]) -> list[Later]:
        """Carry ``intent`` out at this table (hold :attr:`lock`): the table's step, then its
        effects — stored first, then told; what comes later (a stand-in's turn) is returned."""
        new, effects = self.step(intent)
        await self._store(new, effects)
        self._play_on(new, effects)
        return [e for e in effects if isinstance(e, StandIn | MarkAway)]

    def step(self, intent: Intent | HintAnswered[HintReply]) -> tuple[HintTable, list[Effect]]:
        """The table's :meth:`ra.table.Table.step` now; its refusal as the client's error."""
        try:
            return self.table_now().step(intent, self.hub.now())
        except RefusedError as err:
            why = err.why.to_json() if err.why is not None else None
            raise ClientError(err.code, str(err), why) from None

    async def _store(self, new: HintTable, effects: Sequence[Effect]) -> None:
        """Store what the step says must be, before the table plays on with ``new``: another
        worker's first write wins (then catch up, and say so); a decision that could not be
        stored is logged and said."""
        deciding = any(isinstance(e, StoreDecision) for e in effects)
        try:
            await self.ledger.write(self.row, new, effects, self.hub.now())
        except ConflictError:
            await catch_up(self, self.hub.store, self.hub.settings.move_deadline)
            self.broadcast()
            stale = "already decided: another move was made first" if deciding else "the game has moved on"
            raise ClientError("stale", stale) from None
        except Exception:
            if not deciding:
                raise
            n = self.table_now().game.num_decisions
            log.exception("storing decision %d of game %s failed", n, self.id)
            raise ClientError("server_error", "the server could not store your move; try again") from None

    def _play_on(self, new: HintTable, effects: Sequence[Effect]) -> None:
        """Play on with ``new`` and carry out what the step says must be told and started."""
        if new.game is not self.game:
            mirror(self.row, new, self.hub.now())
        self.table = new
        for effect in effects:
            if isinstance(effect, Broadcast):
                self.broadcast(floor=effect.floor)
            elif isinstance(effect, Undone):
                self.audience.tell_all(undone_message(effect, new.game.names))
            elif isinstance(effect, GameOver):
                self.hub.finished(self.id)
            elif isinstance(effect, TurnOf):
                self.hub.tell_turn(self.row, effect.seat)
            elif isinstance(effect, NextTurn):
                self.schedule_bot()
        self.hints.carry_out(new, list(effects), self.hub.settings.hint_budget)

    # --- catching up with the storage (ra.web.stored_table) ------------------------------

    async def remote_change(self, note: GameChanged) -> None:
        """Another worker committed: follow it (:func:`ra.web.stored_table.follow`)."""
        await follow(self, note, self.hub.store, self.hub.settings.move_deadline, self.hub.now())

    async def resync(self) -> None:
        """Catch up with the database (another worker, or the lobby, changed the game)."""
        await resync(self, self.hub.store, self.hub.settings.move_deadline)

    def schedule_bot(self, remote: bool = False) -> None:
        """Start the bot's (or a stand-in's) turn if one is due (:class:`BotDriver`)."""
        self.bots.schedule_bot(remote)


def bot_facts(room: BotRoom) -> tuple[Callable[[], bool], str]:
    """What the scheduler asks of a table: whether a person is here now (their bots' work is
    served first) and who owns it (an owner's tables share one turn: :class:`FairScheduler`)."""
    return (lambda: room.audience.has_person(room.table)), table_owner(room.row.creator_addr, room.id)


def utc_now() -> datetime:
    """The wall clock in UTC (a hub's default :attr:`Hub.now`; tests give a fake one)."""
    return datetime.now(UTC)


class Hub:
    """All rooms of this worker, the bot processes, and the link to the other workers."""

    def __init__(
        self,
        store: GameStorage,
        settings: Settings,
        pubsub: PubSub | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.metrics = metrics or Metrics()
        self.now: Callable[[], datetime] = utc_now
        """The moment the table's clock rules are asked about (:mod:`ra.clock`)."""
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
        """How the bots' pace and the people's clocks wait (the same clock as :attr:`now`: a
        test gives both a fake one, and no clock test waits in real time)."""
        self.pubsub: PubSub = pubsub or _pubsub_for(store, settings)
        self.rooms: dict[str, Room] = {}
        self.bot_slots = asyncio.Semaphore(BOT_SLOTS)
        self._loading: dict[str, asyncio.Lock] = {}
        self.processes = BotProcesses(settings, self.metrics)
        """The bot processes (or the Ray cluster) that search for bots, hints and analyses."""
        self.switches = self.processes.switches
        """The flags that stop a search in a bot process (:mod:`ra.web.switches`)."""
        self.scheduler = self.processes.scheduler
        """Which table's search runs next (:class:`ra.web.scheduler.FairScheduler`)."""
        self._tasks: list[asyncio.Task[None]] = []
        self._note_tasks: set[asyncio.Task[None]] = set()
        self.closing = False
        self.chat_posted: Callable[[Room, ChatPosted], Awaitable[None]] = _unsaid
        self.lobby_said: Callable[[int], Awaitable[None]] = _unsaid_in_lobby
        """Sends on a chat line another worker stored (:mod:`ra.web.chat`)."""
        self.on_finished: Callable[[str], Awaitable[object]] = _unrated
        """Called once a game is over here (the ratings: :mod:`ra.web.ratings`)."""
        self.ratings: AnalysisStorage | None = None
        """The accounts' ratings at a game's seats, for the hints' chance given who is playing
        (set with the site's store; None: every person as a new account)."""
        self.turn_mailer: Callable[[str, int], Awaitable[bool]] | None = None
        self._mailed: dict[tuple[str, int], float] = {}  # (game, seat) -> when "your turn" went
        """Mails a person whose turn it is in a game by turns (set with the accounts' store)."""
        self.event_changed: Callable[[str], None] = _unheard_event
        """Called when another worker changed an event (its live pages: :mod:`ra.web.event_feed`)."""
        self.lobby_changed: Callable[[], None] = _unheard
        """Called when a table's players or watchers change here or on another worker (the live
        lobby: :mod:`ra.web.lobby_feed`)."""

    async def start(self) -> None:
        await self.processes.connect()
        self._tasks.append(asyncio.create_task(self._sweeper()))
        if not self.store.sqlite:  # one SQLite worker has nobody to listen to
            self._tasks.append(asyncio.create_task(self._listen()))

    async def stop(self) -> None:
        self.closing = True
        for t in self._tasks:
            t.cancel()
        for room in self.rooms.values():
            for task in room.bots.tasks():
                if task is not None:
                    task.cancel()
            room.hints.stop()
            for c in room.audience.clients:
                c.put(ShutdownMessage(type="shutdown", message="the server is restarting; reconnecting…"))
                c.finish()
        await asyncio.sleep(0.05)
        self.processes.shutdown()

    # --- rooms -----------------------------------------------------------------

    async def room(self, game_id: str) -> Room | None:
        room = self.rooms.get(game_id)
        if room is not None:
            return room
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        async with lock:
            room = self.rooms.get(game_id)
            if room is not None:
                return room
            loaded = await load(self.store, game_id, self.settings.move_deadline)
            if loaded is None:
                self._loading.pop(game_id, None)
                return None
            room = Room(self, *loaded)
            self.rooms[game_id] = room
            self._loading.pop(game_id, None)
            room.schedule_bot()
            return room

    async def _loaded(self, game_id: str) -> Room | None:
        """The room of ``game_id`` once it has loaded, if it is loading now (else None): a note
        that comes while the room reads the database may tell of a change that read missed
        (committed after it), so it waits for the room and is then followed — dropped, the room
        kept the older game and its page heard nothing (a move, or the start, made on another
        worker while this one opened the table: the arena's silent pages)."""
        lock = self._loading.get(game_id)
        if lock is None:
            return None
        async with lock:
            return self.rooms.get(game_id)

    def release(self, room: Room) -> None:
        """Forget a room nobody watches, nobody is joining and no bot plays (it is rebuilt from
        the database).  A connection between its hello and its attach counts (``joining``): a
        room forgotten then kept that client to itself, deaf to every other worker's and
        connection's decisions — a game that silently stopped (issue 40, finding 7)."""
        if room.audience.clients or room.bots.busy() or room.joining:
            return
        self.rooms.pop(room.id, None)

    async def changed(self, game_id: str) -> None:
        """The game changed in the database (lobby action here, or another worker)."""
        room = self.rooms.get(game_id)
        if room is not None:
            await room.resync()

    def summary(self, row: GameRow, connected: list[bool] | None = None) -> GameSummary:
        """A game as the lobby lists it, with who is here (``connected``: default, this worker's
        room's presence, or the bots alone)."""
        room = self.rooms.get(row.id)
        if connected is None:
            connected = room.audience.presence() if room is not None else [s.kind == "bot" for s in row.seats]
        watching = room.audience.watching() if room is not None else 0
        table = room.table if room is not None and room.row is row else None
        if table is None:
            return game_summary(row, self.now(), connected, watching)
        return game_summary(row, self.now(), connected, watching, table.away, table.forfeited)

    # --- bots ------------------------------------------------------------------

    async def think(self, room: BotRoom, job: BotJob) -> str:
        """Run a search bot in a worker process (MCTS is CPU-bound: never on the event loop),
        when its table's turn comes (:class:`ra.web.scheduler.FairScheduler`); under load with
        a smaller share of its budget (:func:`ra.web.scheduler.budget_scale`, decided as it starts)."""

        def scaled(start: Start) -> tuple[BotJob]:
            room.bot_budget = start.scale  # the table says so (the state's bot_budget)
            return (dataclasses.replace(job, scale=start.scale),)

        here, owner = bot_facts(room)
        action = await self.scheduler.run(room.id, here, decide, owner=owner, prepare=scaled)
        return str(action)

    async def hint(self, room: Room, job: HintJob, key: HintKey) -> HintReply:
        """The hint ``job`` asks for, in a worker process (see :mod:`ra.web.hints`) in its table's
        turn, stopped once the table no longer wants ``key`` (:func:`ra.steps.hint_wanted`)."""
        edition = room.table_now().options.edition
        here, owner = bot_facts(room)
        reply = await self.scheduler.run(
            room.id,
            here,
            hint_for,
            job,
            edition,
            owner=owner,
            wanted=lambda: room.hints.wanted(key),
            switched=True,
        )
        return given_too(reply, job.view, await seat_strengths(room.row, self.ratings))

    async def _sweeper(self) -> None:
        """Resume bots' turns after a restart, or after a worker died mid-thought."""
        first = True
        while not self.closing:
            try:
                stale = 0.0 if first else BOT_CLAIM_STALE
                for gid in await self.store.claims.games_waiting(stale):
                    room = await self.room(gid)
                    if room is not None:
                        room.schedule_bot()
                for gid in await self.store.seat_clocks.games_past_their_clock(
                    self.settings.move_deadline
                ):  # nobody's page open
                    room = await self.room(gid)
                    if room is not None:
                        room.bots.schedule_clock()
                first = False
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bot sweep failed")
            await asyncio.sleep(SWEEP_EVERY)

    async def _listen(self) -> None:
        """Follow the other workers' notes (:mod:`ra.web.pubsub`), reconnecting after a lost link."""
        pubsub = self.pubsub
        while not self.closing:
            try:
                notes = pubsub.notes()
                first = asyncio.ensure_future(anext(notes))
                # Anything missed while not listening: catch up every room, then follow.
                for room in list(self.rooms.values()):
                    await room.resync()
                note: Note | None = await first
                while note is not None:
                    # Each note in a task of its own: one busy room never holds up the others'
                    # notes (a room's lock still applies them in their order: asyncio.Lock is FIFO).
                    task = asyncio.create_task(self.on_note(note))
                    self._note_tasks.add(task)
                    task.add_done_callback(self._note_tasks.discard)
                    note = await anext(notes, None)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("lost the notification link; reconnecting")
                await asyncio.sleep(1.0)

    def tell_turn(self, row: GameRow, seat: int) -> None:
        """In a game by turns, mail the person whose turn it now is (once: from the worker that
        committed the decision, or the lobby that started it; in the background, logged if it fails)."""
        seconds = row.move_seconds
        if self.turn_mailer is None or seconds is None or seconds < BY_TURNS_SECONDS:
            return
        room = self.rooms.get(row.id)
        if row.seats[seat].kind != "human" or (room is not None and room.away(seat)):
            return  # away: the table's fact (a game the lobby just started has nobody away)
        if room is not None and room.audience.presence()[seat]:
            return  # the person has the table open: they see it is their turn
        t, key = time.monotonic(), (row.id, seat)
        if t - self._mailed.get(key, -TURN_MAIL_EVERY) < TURN_MAIL_EVERY:
            return  # one "your turn" a game every few hours is enough (per worker)
        self._mailed[key] = t
        if len(self._mailed) > 10_000:
            self._mailed = {k: w for k, w in self._mailed.items() if t - w < TURN_MAIL_EVERY}
        self._background(self._mail_turn(key))

    async def _mail_turn(self, key: tuple[str, int]) -> None:
        """Mail "your turn"; if nothing went (no confirmed address, mail off), the next turn may."""
        assert self.turn_mailer is not None
        if not await self.turn_mailer(*key):
            self._mailed.pop(key, None)

    def _background(self, job: Awaitable[object]) -> None:
        async def run() -> None:
            try:
                await job
            except Exception:
                log.exception("a background job failed")

        task = asyncio.create_task(run())
        self._note_tasks.add(task)
        task.add_done_callback(self._note_tasks.discard)

    def finished(self, game_id: str) -> None:
        """A game ended with a decision made here: rate it (in the background; logged if it fails)."""

        async def run() -> None:
            try:
                await self.on_finished(game_id)
            except Exception:
                log.exception("rating game %s failed", game_id)

        task = asyncio.create_task(run())
        self._note_tasks.add(task)
        task.add_done_callback(self._note_tasks.discard)

    async def on_note(self, note: Note) -> None:
        """Another worker's note: a game changed, or its connections on a game did (or an event)."""
        if isinstance(note, EventChanged):
            if note.worker != self.settings.worker_id:
                self.event_changed(note.event_id)
            return
        if note.worker != self.settings.worker_id:
            self.lobby_changed()
            if isinstance(note, ChatPosted) and not note.game_id:
                await self.lobby_said(note.chat_id)
                return
        if note.worker == self.settings.worker_id:
            return
        room = self.rooms.get(note.game_id) or await self._loaded(note.game_id)
        if room is None:
            return
        if isinstance(note, GameChanged):
            await room.remote_change(note)
        elif isinstance(note, ChatPosted):
            await self.chat_posted(room, note)
        else:
            newcomer = note.worker not in room.audience.remote_presence
            room.audience.heard(note.worker, note.connected, note.watching)
            room.audience.send_presence()
            if newcomer and room.audience.clients:  # a worker new to this table learns ours
                await self.presence_changed(room, again=True)

    async def presence_changed(self, room: Room, again: bool = False) -> None:
        """Tell this worker's clients, and the other workers, who is connected here (``again``:
        even unchanged, for a worker that has just opened the table: it knew nothing of ours —
        issue 40, finding 11: its spectators saw both players offline)."""
        room.audience.send_presence()
        self.lobby_changed()
        local = (tuple(room.audience.local_presence()), room.audience.local_watching())
        if local == room.audience.published and not again:
            return  # this worker's connections are as they were: nothing to tell the others
        room.audience.published = local
        note = PresenceChanged(room.id, self.settings.worker_id, *local)
        with contextlib.suppress(Exception):
            await self.pubsub.publish(note)


async def _unsaid(room: Room, note: ChatPosted) -> None:
    """No chat on this hub (a hub without an app around it)."""


async def _unrated(game_id: str) -> None:
    """No ratings on this hub (a hub without an app around it)."""


async def _unsaid_in_lobby(chat_id: int) -> None:
    """No lobby chat on this hub."""


def _unheard() -> None:
    """Nobody follows the lobby (a hub without an app around it)."""


def _unheard_event(event_id: str) -> None:
    """Nobody follows an event (a hub without an app around it)."""


def _pubsub_for(store: GameStorage, settings: Settings) -> PubSub:
    """PostgreSQL's ``LISTEN``/``NOTIFY`` between workers; in-process for one SQLite worker."""
    if store.sqlite:
        return LocalPubSub()
    from ra.web.db import sync_url

    url = sync_url(settings.db_url).replace("postgresql+psycopg://", "postgresql://", 1)
    return PostgresPubSub(url, publish=store.notify)


# build_game and table_seats live in ra.web.stored_table; the lobby and the analyses import them from here.
__all__ = ["Hub", "Room", "build_game", "table_seats", "utc_now"]
