"""A table's bot driver: its bots' turns, its clock, and the stand-ins and forfeits a clock
brings — the one place a server decides that a bot moves (:func:`ra.table.decide`, the
table's bot pipeline), kept beside the :class:`ra.web.hub.Room` that holds the sockets.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Protocol

from ra.master import Back, HintAnswered, Intent, Later, Leave, StandIn, TimeOut
from ra.table import BotJob, decide
from ra.web.audience import Audience
from ra.web.errors import ClientError
from ra.web.hints import HintTable
from ra.web.ledger import Ledger
from ra.web.protocol import HintReply
from ra.web.store import GameRow
from ra.web.store.game_storage import GameStorage

log = logging.getLogger("ra.web")

INLINE_BOTS = ("easy", "random", "greedy")
"""Levels fast enough to run on the event loop (the others search in a worker process)."""
BOT_CLAIM_HEARTBEAT = 2.0
"""Seconds between two renewals of a claim on a bot's turn while its worker thinks."""
BOT_CLAIM_STALE = 8.0
"""Seconds a claim on a bot's turn lives unrenewed: then its worker is taken for dead and
another takes the turn over (a thinking worker renews it every :data:`BOT_CLAIM_HEARTBEAT`)."""


class BotHost(Protocol):
    """What a bot driver needs of the worker that holds its table (:class:`ra.web.hub.Hub`)."""

    @property
    def store(self) -> GameStorage: ...
    @property
    def bot_slots(self) -> asyncio.Semaphore: ...
    @property
    def now(self) -> Callable[[], datetime]: ...
    @property
    def sleep(self) -> Callable[[float], Awaitable[None]]: ...
    async def think(self, room: BotRoom, job: BotJob) -> str: ...


class BotRoom(Protocol):
    """What a bot driver needs of its table's room (:class:`ra.web.hub.Room`): the table and its
    stored row, and the room's one way to carry an intent out (defined here, below the room)."""

    bot_budget: float

    @property
    def hub(self) -> BotHost: ...
    @property
    def id(self) -> str: ...
    @property
    def row(self) -> GameRow: ...
    @property
    def table(self) -> HintTable | None: ...
    @property
    def lock(self) -> asyncio.Lock: ...
    @property
    def ledger(self) -> Ledger: ...
    def table_now(self) -> HintTable: ...
    @property
    def audience(self) -> Audience: ...
    async def act(
        self, seat: int, text: str, n: int, by_bot: bool = False, stand_in: bool = False
    ) -> None: ...
    async def intent(self, intent: Intent | HintAnswered[HintReply]) -> list[Later]: ...
    async def perform(self, intent: Intent | HintAnswered[HintReply]) -> list[Later]: ...


class BotDriver:
    """When a bot moves at one table: the seat's own bot, or a stand-in for a person whose
    clock ran out (or who is away), and the forfeit at a forfeit table — each when the table's
    rules say (:meth:`ra.table.Table.bot_to_move`, :meth:`ra.table.Table.turn_wait`), each
    decision an intent of the table carried out by the room."""

    def __init__(self, room: BotRoom) -> None:
        self.room = room
        self.hub = room.hub
        self.id = room.id
        self.bot_task: asyncio.Task[None] | None = None
        self.bot_task_n = -1
        self.clock_task: asyncio.Task[None] | None = None
        self.clock_task_n = -1

    def tasks(self) -> list[asyncio.Task[None]]:
        """The turns under way (a stopping server cancels them)."""
        return [t for t in (self.bot_task, self.clock_task) if t is not None]

    def busy(self) -> bool:
        """A bot is thinking here now."""
        return self.bot_task is not None and not self.bot_task.done()

    def _playing(self) -> HintTable | None:
        """The table, while its game is played here (not over, not an imported record's replay)."""
        table = self.room.table
        if table is None or table.game.is_over() or self.room.row.record is not None:
            return None
        return table

    def schedule_bot(self, remote: bool = False) -> None:
        """Start the bot's turn if a bot is to move.

        The worker that committed the last decision plays the bot's reply (``remote``: another
        worker committed it); each first claims the turn in the database and renews the claim
        while it thinks, so a bot rarely thinks twice, never moves twice, and a worker that
        died mid-thought is replaced within seconds (:data:`BOT_CLAIM_STALE`).
        """
        self.schedule_clock()
        table = self._playing()
        seat = table.bot_to_move() if table is not None else None
        if table is None or seat is None:
            return
        n = table.game.num_decisions
        if self.busy() and self.bot_task_n == n:
            return
        if remote:
            return  # the committing worker plays it; the sweeper covers a dead worker
        self.bot_task_n = n
        self.bot_task = asyncio.create_task(self._bot_turn(table, seat, n))

    async def _bot_turn(self, table: HintTable, seat: int, n: int) -> None:
        gid = self.id
        try:
            delay = table.options.pace
            starts_at = self.room.row.starts_at  # an event's table: its bots wait for the start
            if starts_at is not None:
                delay = max(delay, (starts_at - self.hub.now()).total_seconds())
            await self.hub.sleep(delay)
            if self._decision() != n:
                return
            # Claimed even by the worker that committed the last decision: the claim's heartbeat
            # tells the other workers it still thinks (after a crash, they take over within seconds).
            if not await self.hub.store.claims.claim(gid, n, BOT_CLAIM_STALE):
                return
            await self._play_bot(seat, n)
        except ClientError as err:
            log.debug("bot move at %s:%d dropped: %s", gid, n, err.message)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot move failed in game %s at decision %d", gid, n)

    def _decision(self, seat: int | None = None) -> int | None:
        """The decision the table is at (None: no table; -1: ``seat``, given, is not to move)."""
        table = self.room.table
        if table is None:
            return None
        return -1 if seat is not None and table.game.to_move != seat else table.game.num_decisions

    async def _play_bot(self, seat: int, n: int, stand_in: str | None = None) -> None:
        """The table's one bot pipeline: the bot in ``seat`` — or, for an absent person, a
        ``stand_in`` of that level — takes decision ``n`` from the seat's view
        (:func:`ra.table.decide`): a search in a worker process outside the bot slots, a quick
        level inline; its decision is then an intent of the table, as a person's would be."""
        job = self.room.table_now().bot_job(seat, stand_in)
        action = None
        if job.spec not in INLINE_BOTS:  # a search: in a worker process, outside the slots
            heartbeat = asyncio.create_task(self._hold(n))
            try:
                action = await self.hub.think(self.room, job)
            finally:
                heartbeat.cancel()
        # Bots' moves are admitted a few at a time: on a busy server each one goes through
        # in milliseconds and people's moves are never queued behind a crowd of bots'.
        async with self.hub.bot_slots:
            if action is None:
                action = str(decide(job))
            await self.room.act(seat, action, n, by_bot=True, stand_in=stand_in is not None)

    async def _hold(self, n: int) -> None:
        """Renew the claim on decision ``n`` until cancelled (the search is over)."""
        while True:
            await asyncio.sleep(BOT_CLAIM_HEARTBEAT)
            try:
                await self.hub.store.claims.hold(self.id, n)
            except Exception:  # a database hiccup: the next beat tries again
                log.warning("could not renew the claim on %s:%d", self.id, n, exc_info=True)

    # --- the clock ---------------------------------------------------------------

    def schedule_clock(self) -> None:
        """At a table with a clock, wait for the person to move until their time is up (or, for
        a seat marked away, the table's pace), then let the stand-in bot decide.  Every worker
        with the table open waits; the one that claims the decision in the database decides."""
        table = self._playing()
        seat = table.game.to_move if table is not None else None
        if table is None or seat is None or not table.is_human(seat):
            return
        n = table.game.num_decisions
        task = self.clock_task
        if task is not None and not task.done():
            if self.clock_task_n == n:
                return
            if task is not asyncio.current_task():  # not the stand-in that is deciding now
                task.cancel()
        self.clock_task_n = n
        self.clock_task = asyncio.create_task(self._clock_turn(seat, n, self._wait(table)))

    def clock_left(self) -> float | None:
        """Seconds the person to move has left for this decision, as the state shows them
        (:meth:`ra.table.Table.clock_left`; None: no clock runs)."""
        table, row = self.room.table, self.room.row
        seat = table.game.to_move if table is not None else None
        if table is None or seat is None:
            return None
        return table.clock_left(row.seats[seat].bank, row.updated_at, self.hub.now())

    def _wait(self, table: HintTable) -> float:
        """Seconds until the stand-in decides for the person to move (:meth:`ra.table.Table.turn_wait`)."""
        row, seat = self.room.row, table.game.to_move
        bank = row.seats[seat].bank if seat is not None else None
        return table.turn_wait(bank, row.updated_at, self.hub.now())

    async def _clock_turn(self, seat: int, n: int, delay: float) -> None:
        try:
            if not await self._out_of_time(seat, n, delay):
                return
            if not await self.hub.store.claims.claim(self.id, n, BOT_CLAIM_STALE):
                return
            later = await self.room.intent(TimeOut(seat, n))  # the table's rule: a forfeit, or a stand-in
            for effect in later:
                if isinstance(effect, StandIn):
                    await self._play_bot(effect.seat, effect.n, effect.level)
                else:
                    await self.set_away(effect.seat, True)
        except ClientError as err:
            log.debug("stand-in move at %s:%d dropped: %s", self.id, n, err.message)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("stand-in move failed in game %s at decision %d", self.id, n)

    async def _out_of_time(self, seat: int, n: int, delay: float) -> bool:
        """Wait ``delay``, then as long as the seat's clock says (woken early, or its person came
        back); whether decision ``n`` is still ``seat``'s when its time is up."""
        while True:
            await self.hub.sleep(delay)
            table = self.room.table
            if table is None or self._decision(seat) != n:
                return False
            if seat in table.away:
                return True  # a stand-in decides at the table's pace
            if table.options.clock.per_game:  # another worker may have charged the seat's clock
                await self.room.ledger.read_clock(self.room.row, seat)
            left = self._wait(table)
            if not left:
                return True
            delay = left + 0.05

    async def set_away(self, seat: int, away: bool) -> None:
        """Mark ``seat`` away (a bot decides for it) or back (its person decides again, with
        their full time if it is their turn; under a game clock what the clock had plus its
        increment, never more: a clock that ran out stays run out, issue 40's finding 8);
        everyone at the table is told."""
        async with self.room.lock:
            if self.room.table is None:
                return  # not started: nobody is away yet
            await self.room.perform(Leave(seat) if away else Back(seat, self.room.row.seats[seat].bank))
