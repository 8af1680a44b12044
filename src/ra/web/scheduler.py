"""Fair turns for the bots' thinking: one queue per table, tables grouped by who made them,
served round robin, people first.

Searches (bot moves and hints) run in worker processes, at most one per process at a time,
so no work waits inside the process pool where it would be served in arrival order.  Each
table has its own queue; the tables of one *owner* (the address, an IPv6 /64, that created
them) share one turn among the owners, and a table where a person is present always goes
before one where nobody is: fifty tables of one address, each with a seat of its own on a
short clock played by its stand-in, get one turn like one table of anybody else's (issue 40,
finding 1: a present person's bot once waited 20.8 s behind such a flood instead of 0.03 s).
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass
class _Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    done: asyncio.Future[Any] = field(repr=False)
    person: bool = True


class FairScheduler:
    """Run blocking functions in ``executor`` with at most ``slots`` at once, fairly by table."""

    def __init__(
        self,
        executor: Callable[[bool], Executor],
        slots: int,
        on_run: Callable[[Callable[..., object], float], None] | None = None,
        on_change: Callable[[int, int], None] | None = None,
    ) -> None:
        self._executor = executor
        self._on_run = on_run  # told each finished job's function and its running time
        self._on_change = on_change  # told the jobs waiting and running after every change
        self.slots = max(1, slots)
        self.running = 0
        self.running_bots = 0  # of which for tables of bots only
        self.bot_slots = self.slots - 1 if self.slots >= 2 else self.slots
        # owner -> table -> its waiting jobs; one ring for tables with a person present, one for
        # the others (bots only, or a person away whose stand-in plays).
        self._people: OrderedDict[str, OrderedDict[str, deque[_Job]]] = OrderedDict()
        self._bots: OrderedDict[str, OrderedDict[str, deque[_Job]]] = OrderedDict()

    @property
    def waiting(self) -> int:
        """Jobs queued and not yet started (for metrics and load shedding)."""
        return sum(
            len(q) for ring in (self._people, self._bots) for tables in ring.values() for q in tables.values()
        )

    async def run(
        self, table: str, person: bool, fn: Callable[..., T], *args: Any, owner: str | None = None
    ) -> T:
        """``fn(*args)`` in a worker process, when ``table``'s turn comes (``owner``: who made the
        table, whose tables share one turn; default: the table alone)."""
        job = _Job(fn, args, asyncio.get_running_loop().create_future(), person)
        ring = self._people if person else self._bots
        ring.setdefault(owner or table, OrderedDict()).setdefault(table, deque()).append(job)
        self._start_next()
        result: T = await job.done
        return result

    def _next(self) -> _Job | None:
        rings = [self._people]
        if self.running_bots < self.bot_slots:
            rings.append(self._bots)
        for ring in rings:
            while ring:
                owner, tables = next(iter(ring.items()))
                ring.move_to_end(owner)  # round robin: this owner goes to the back
                job = self._take(tables)
                if not tables:
                    del ring[owner]
                if job is not None:
                    return job
        return None

    @staticmethod
    def _take(tables: OrderedDict[str, deque[_Job]]) -> _Job | None:
        """The next job of one owner's tables, round robin among them (cancelled ones skipped)."""
        while tables:
            table, queue = next(iter(tables.items()))
            tables.move_to_end(table)
            while queue:
                job = queue.popleft()
                if not queue:
                    del tables[table]
                if not job.done.cancelled():
                    return job
            tables.pop(table, None)
        return None

    def _start_next(self) -> None:
        while self.running < self.slots:
            job = self._next()
            if job is None:
                break
            self.running += 1
            self.running_bots += not job.person
            task = asyncio.ensure_future(self._run(job))
            task.add_done_callback(lambda _: None)
        if self._on_change is not None:
            self._on_change(self.waiting, self.running)

    async def _run(self, job: _Job) -> None:
        loop = asyncio.get_running_loop()
        started = time.perf_counter()
        try:
            result = await loop.run_in_executor(self._executor(job.person), job.fn, *job.args)
            if self._on_run is not None:
                self._on_run(job.fn, time.perf_counter() - started)
        except BaseException as err:  # the caller gets the error; the scheduler goes on
            if not job.done.done():
                job.done.set_exception(err)
        else:
            if not job.done.done():
                job.done.set_result(result)
        finally:
            self.running -= 1
            self.running_bots -= not job.person
            self._start_next()
