"""Fair turns for every search (bot moves and hints): one queue per table, tables grouped by
who made them, served round robin, people first; at most one hint in flight per seat.

Searches run in worker processes, at most one per process at a time, so no work waits inside
the process pool where it would be served in arrival order.  Each table has one queue for its
bots' moves and its hints alike, so they share that table's turn; the tables of one *owner*
(the address, an IPv6 /64, that created them) share one turn among the owners.  A table where
a person is present goes before one where nobody is — asked when a search *starts*, not when it
was queued, so a table its person left falls back, and one they came back to moves up: fifty
tables of one address get one turn like one table of anybody else's (issue 40, finding 1).

A search can say who it is for (``seat``: a newer search for the same seat replaces it) and
whether its answer is still wanted (``wanted``: asked before it starts and, while it runs,
every :data:`WATCH_EVERY` seconds).  One nobody wants any more is dropped from its queue, or,
running, stopped by its switch (:mod:`ra.web.switches`): its worker is free again within a few
hundred iterations, and its caller gets :class:`ra.table.SearchCancelledError` at once (issue 52:
a player asking a hint at every decision once queued 45 searches, and stand-ins waited 90 s).

The share of its budget a search gets (:func:`budget_scale`) is decided when it starts, from its
own lane's demand: a present person's search is not shrunk by the tables nobody watches (they
have processes of their own, at a lower priority), nor by hints already stopped.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ra.table import SearchCancelledError
from ra.web.switches import SwitchBoard

T = TypeVar("T")

BUDGET_FLOOR = 0.25
"""Under load the searches shrink, to this share of their level's budget at least."""
WATCH_EVERY = 0.05
"""Seconds between two checks that a running search's answer is still wanted."""
PATIENCE = 3.0
"""Seconds a table where nobody is present waits before it takes every other turn from the
present people's (a person asking hints non-stop never holds its stand-ins for long)."""


def budget_scale(waiting: int, running: int, slots: int) -> float:
    """The share of their budget searches get now: all of it while every search has a slot,
    less as they queue up (``slots / searches``), never below :data:`BUDGET_FLOOR`."""
    demand = waiting + running
    return 1.0 if demand <= slots else max(BUDGET_FLOOR, slots / demand)


@dataclass(frozen=True)
class Start:
    """What a search learns as it starts: its lane and the share of its budget it gets."""

    person: bool
    scale: float


def _always() -> bool:
    return True


@dataclass(eq=False)
class _Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    done: asyncio.Future[Any] = field(repr=False)
    prepare: Callable[[Start], tuple[Any, ...]] | None = None
    wanted: Callable[[], bool] = _always
    seat: Hashable | None = None
    switched: bool = False  # ``fn`` takes the index of its switch as its last argument
    queued: float = field(default_factory=time.monotonic)
    owner: str = ""  # where it waits: its owner's ring, its table's queue
    table: str = ""
    person: bool = True  # the lane it runs in, decided when it starts
    index: int = -1  # its switch while it runs
    stopped: bool = False  # its switch was tripped (its worker ends it)


@dataclass(eq=False)
class _Table:
    present: Callable[[], bool]
    jobs: deque[_Job] = field(default_factory=deque)


class FairScheduler:
    """Run blocking functions in ``executor`` with at most ``slots`` at once, fairly by table."""

    def __init__(
        self,
        executor: Callable[[bool], Executor],
        slots: int,
        on_run: Callable[[Callable[..., object], float], None] | None = None,
        on_change: Callable[[int, int], None] | None = None,
        switches: SwitchBoard | None = None,
    ) -> None:
        self._executor = executor
        self._on_run = on_run  # told each finished job's function and its running time
        self._on_change = on_change  # told the jobs waiting and running after every change
        self.slots = max(1, slots)
        self.bot_slots = self.slots - 1 if self.slots >= 2 else self.slots
        self.switches = switches if switches is not None else SwitchBoard(self.slots)
        self._free = list(range(self.switches.size))
        # owner -> table -> its queue; the lane of a table is asked when one of its jobs starts.
        self._owners: OrderedDict[str, OrderedDict[str, _Table]] = OrderedDict()
        self._running: set[_Job] = set()
        self._seats: dict[Hashable, _Job] = {}  # the search in flight for each seat that has one
        self._last_person = False  # the lane of the last job started

    @property
    def running(self) -> int:
        """Searches in a worker now (a stopped one until its worker has let it go)."""
        return len(self._running)

    @property
    def running_bots(self) -> int:
        """Of which for tables where nobody is present."""
        return sum(not j.person for j in self._running)

    @property
    def waiting(self) -> int:
        """Jobs queued and not yet started (for metrics and load shedding)."""
        return sum(len(t.jobs) for tables in self._owners.values() for t in tables.values())

    async def run(
        self,
        table: str,
        person: bool | Callable[[], bool],
        fn: Callable[..., T],
        *args: Any,
        owner: str | None = None,
        prepare: Callable[[Start], tuple[Any, ...]] | None = None,
        wanted: Callable[[], bool] | None = None,
        seat: Hashable | None = None,
        switched: bool = False,
    ) -> T:
        """``fn(*args)`` in a worker process, when ``table``'s turn comes.

        ``person``: whether a person is present at the table (asked when the job starts);
        ``owner``: who made the table, whose tables share one turn (default: the table alone);
        ``prepare``: the arguments, made as the job starts (its lane and budget share known);
        ``wanted``: whether the answer is still wanted; ``seat``: a newer job for the same seat
        replaces this one; ``switched``: ``fn`` takes its switch's index last and stops when it
        trips.  A job dropped or stopped raises :class:`SearchCancelledError`."""
        present = person if callable(person) else (lambda: person)
        job = _Job(fn, args, asyncio.get_running_loop().create_future(), prepare, wanted or _always)
        job.seat, job.switched, job.owner, job.table = seat, switched, owner or table, table
        if seat is not None:
            self._replace(seat, job)
        tables = self._owners.setdefault(job.owner, OrderedDict())
        tables.setdefault(table, _Table(present)).jobs.append(job)
        tables[table].present = present
        self._start_next()
        try:
            result: T = await job.done
        except asyncio.CancelledError:
            self._stop(job)
            if self._on_change is not None:
                self._on_change(self.waiting, self.running)
            raise
        return result

    # --- choosing the next job ---------------------------------------------------------

    def _next(self) -> _Job | None:
        """The next job to start: a present person's table first, round robin by owner, then
        (while a slot is left for them) the tables where nobody is — or these first, every
        other time, once one has waited :data:`PATIENCE` seconds."""
        lanes = [True]
        if self.running_bots < self.bot_slots:
            lanes = [False, True] if self._last_person and self._overdue() else [True, False]
        for person in lanes:
            job = self._pick(person)
            if job is not None:
                self._last_person = person
                return job
        return None

    def _overdue(self) -> bool:
        """Whether a table where nobody is present has waited :data:`PATIENCE` seconds."""
        since = time.monotonic() - PATIENCE
        return any(
            t.jobs and t.jobs[0].queued <= since and not t.present()
            for tables in self._owners.values()
            for t in tables.values()
        )

    def _pick(self, people: bool) -> _Job | None:
        for owner, tables in list(self._owners.items()):
            for name, table in list(tables.items()):
                self._prune(table)
                if not table.jobs:
                    del tables[name]
                elif table.present() == people:
                    job = table.jobs.popleft()
                    job.person = people
                    tables.move_to_end(name)  # round robin among the owner's tables
                    if not table.jobs:
                        del tables[name]
                    self._owners.move_to_end(owner)  # and among the owners
                    return job
            if not tables:
                del self._owners[owner]
        return None

    def _prune(self, table: _Table) -> None:
        """Drop the queued jobs whose caller left or whose answer nobody wants any more."""
        for job in [j for j in table.jobs if j.done.done() or not j.wanted()]:
            table.jobs.remove(job)
            self._drop(job)

    # --- stopping ----------------------------------------------------------------------

    def _replace(self, seat: Hashable, job: _Job) -> None:
        """``job`` is the seat's search from now on: the one before it is stopped."""
        old = self._seats.get(seat)
        self._seats[seat] = job
        if old is not None:
            self._stop(old)

    def _stop(self, job: _Job) -> None:
        """Nobody wants ``job``'s answer: drop it from its queue, or trip its switch."""
        if job in self._running:
            if job.index >= 0 and not job.stopped:
                self.switches.trip(job.index)
            job.stopped = True
        else:
            tables = self._owners.get(job.owner)
            queue = tables.get(job.table) if tables is not None else None
            if queue is not None and job in queue.jobs:
                queue.jobs.remove(job)
        self._drop(job)

    def _drop(self, job: _Job) -> None:
        if self._seats.get(job.seat) is job:
            del self._seats[job.seat]
        if not job.done.done():
            job.done.set_exception(SearchCancelledError())
            job.done.exception()  # retrieved: a caller already gone is not warned about it

    # --- running -----------------------------------------------------------------------

    def _start_next(self) -> None:
        while self.running < self.slots:
            job = self._next()
            if job is None:
                break
            self._running.add(job)
            if job.switched and self._free:  # (a switch for every slot: one is always free)
                job.index = self._free.pop()
                self.switches.reset(job.index)
            task = asyncio.ensure_future(self._run(job, self._start(job)))
            task.add_done_callback(lambda _: None)
        if self._on_change is not None:
            self._on_change(self.waiting, self.running)

    def _start(self, job: _Job) -> float:
        """The share of its budget ``job`` gets: from its lane's demand, now."""
        lane = [j for j in self._running if j.person == job.person and not j.stopped]
        waiting = sum(
            len(t.jobs)
            for tables in self._owners.values()
            for t in tables.values()
            if t.present() == job.person
        )
        return budget_scale(waiting, len(lane), self.slots if job.person else self.bot_slots)

    async def _run(self, job: _Job, scale: float) -> None:
        loop = asyncio.get_running_loop()
        started = time.perf_counter()
        try:
            args = job.prepare(Start(job.person, scale)) if job.prepare is not None else job.args
            args = (*args, job.index) if job.switched else args
            work = loop.run_in_executor(self._executor(job.person), job.fn, *args)
            result = await self._watch(job, work)
            if self._on_run is not None:
                self._on_run(job.fn, time.perf_counter() - started)
        except BaseException as err:  # the caller gets the error; the scheduler goes on
            if not job.done.done():
                job.done.set_exception(SearchCancelledError() if job.stopped else err)
        else:
            if not job.done.done():
                job.done.set_result(result)
        finally:
            self._finish(job)

    async def _watch(self, job: _Job, work: asyncio.Future[Any]) -> Any:
        """``work``'s result, stopping it as soon as its answer is not wanted any more."""
        if not job.switched:  # nothing can stop it: its answer is simply not sent
            return await work
        while True:
            finished, _ = await asyncio.wait({work}, timeout=WATCH_EVERY)
            if finished:
                return work.result()
            if not job.stopped and (job.done.done() or not job.wanted()):
                self._stop(job)

    def _finish(self, job: _Job) -> None:
        self._running.discard(job)
        if self._seats.get(job.seat) is job:
            del self._seats[job.seat]
        if job.index >= 0:
            self.switches.reset(job.index)
            self._free.append(job.index)
            job.index = -1
        self._start_next()


__all__ = ["BUDGET_FLOOR", "FairScheduler", "Start", "budget_scale"]
