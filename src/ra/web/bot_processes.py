"""The bot processes of one worker: the pools that search for bots, hints and analyses (or the
Ray cluster), the switches that stop a search in its process, and the fair scheduler that hands
the processes out table by table (:mod:`ra.web.scheduler`)."""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor

from ra.processes import context
from ra.web.bot_work import background_worker, die_with_parent, hint_for
from ra.web.metrics import Metrics
from ra.web.scheduler import FairScheduler
from ra.web.settings import Settings
from ra.web.switches import SwitchBoard, worker_start


class BotProcesses:
    """The searching processes, started on first use, with their switches and scheduler."""

    def __init__(self, settings: Settings, metrics: Metrics) -> None:
        self.settings = settings
        self.metrics = metrics
        self._pool: Executor | None = None
        self._unwatched: Executor | None = None
        """The bot processes for tables where nobody is present (a lower CPU priority)."""
        self.switches = SwitchBoard(max(1, settings.bot_processes))
        """The flags that stop a search in a bot process (:mod:`ra.web.switches`)."""
        self.scheduler = FairScheduler(
            self.executor, settings.bot_processes, self.ran, metrics.bots, self.switches
        )

    async def connect(self) -> None:
        """Join the Ray cluster (if the bots run there) before the first search waits on it."""
        if self.settings.bot_backend != "ray":
            return
        from ra.web.ray_bots import RayExecutor

        executor = self.executor()
        assert isinstance(executor, RayExecutor)
        await asyncio.get_running_loop().run_in_executor(None, executor.connect)

    def ran(self, fn: Callable[..., object], seconds: float) -> None:
        """A bot's search or a hint finished in its process after ``seconds`` (for ``/metrics``)."""
        self.metrics.bot_think.labels("hint" if fn is hint_for else "move").observe(seconds)

    def executor(self, person: bool = True) -> Executor:
        """The bot processes (or the Ray cluster), started on first use: for tables where nobody
        is present, processes of their own at a lower CPU priority (a present person's search
        then gets a core at once, however busy the others keep the machine)."""
        if self._pool is None and self.settings.bot_backend == "ray":
            from ra.web.ray_bots import RayExecutor

            self._pool = RayExecutor(self.settings.ray_address, self.settings.bot_processes)
        if self.settings.bot_backend == "ray":
            assert self._pool is not None
            return self._pool
        ctx = context()  # fresh processes, never forked from the server (ra.processes)
        if person:
            if self._pool is None:
                workers = max(1, self.settings.bot_processes)
                start = (self.switches.flags, die_with_parent)
                self._pool = ProcessPoolExecutor(
                    workers, mp_context=ctx, initializer=worker_start, initargs=start
                )
            return self._pool
        if self._unwatched is None:
            workers = max(1, self.scheduler.bot_slots)
            start = (self.switches.flags, background_worker)
            self._unwatched = ProcessPoolExecutor(
                workers, mp_context=ctx, initializer=worker_start, initargs=start
            )
        return self._unwatched

    def shutdown(self) -> None:
        """Stop the pools and every search under way (the server is stopping)."""
        for pool in (self._pool, self._unwatched):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
        for process in multiprocessing.active_children():  # a search under way stops now
            process.terminate()


__all__ = ["BotProcesses"]
