"""Worker processes for work in parallel (the arena's games, a game's analysis, the server's bots).

They are started fresh (``spawn``), never forked: a process that forks while another of its
threads holds a lock (a stream being written, a library's mutex: Ray's, a test runner's, a
server's) gives the child that lock held forever, and the child hangs when it takes it, at the
latest when it flushes its output on the way out, so the parent waiting for it hangs too. A fresh
process costs an import of the package (a fraction of a second) and inherits nothing but the
environment.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from multiprocessing import synchronize
from multiprocessing.connection import wait
from multiprocessing.context import SpawnContext
from multiprocessing.pool import Pool
from multiprocessing.process import BaseProcess
from types import FrameType
from typing import Any, Final

START_METHOD: Final = "spawn"
"""How every worker process of the package starts (see the module's docstring)."""


def context() -> SpawnContext:
    """The multiprocessing context of :data:`START_METHOD` (for a pool or an executor)."""
    return multiprocessing.get_context(START_METHOD)


def worker_signals() -> None:
    """A worker's first step: Ctrl-C is the parent's to handle (it stops the workers cleanly), and
    SIGTERM ends the worker by an exception, so the locks it holds are let go on the way out (one
    that comes as a lock is taken ends it a moment later, inside the ``with`` that lets it go).

    A SIGTERM sent to the whole process group (``timeout``, ``kill -- -PGID``, a service manager)
    reaches the workers too; a worker that died of it at once while it held the lock of the queue
    its results go through (the default action) left that lock taken for ever, and the parent,
    stopping the pool, waited on it for ever (seen: ``timeout 8 ra arena -j 2 -b greedy``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _exit_by_exception)


def _exit_by_exception(signum: int, frame: FrameType | None) -> None:
    """End the worker by ``SystemExit``, unless the signal came as a lock was taken or let go,
    inside the lock's own ``__enter__``/``__exit__`` with the lock in hand: there it is outside the
    ``with`` that lets it go, and an exception would leave it taken for ever (seen: the parent
    stopping the pool waited on its results queue's lock, held by a worker ended there). Then try
    again a moment later (SIGALRM), inside the ``with`` or past it."""
    if _lock_in_hand(frame) and hasattr(signal, "setitimer"):  # no timers on Windows
        signal.signal(signal.SIGALRM, _exit_by_exception)
        signal.setitimer(signal.ITIMER_REAL, AGAIN_AFTER)
        return
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second one, on the way out, just ends it
    raise SystemExit(128 + signal.SIGTERM)


LOCK_STEPS: Final = frozenset({synchronize.SemLock.__enter__.__code__, synchronize.SemLock.__exit__.__code__})
"""Where ``multiprocessing``'s locks are taken and let go, outside the caller's ``with``."""
AGAIN_AFTER: Final = 0.001
"""Seconds until a worker that could not end at once (a lock in hand) tries again."""


def _lock_in_hand(frame: FrameType | None) -> bool:
    """Whether ``frame`` is a lock's ``__enter__``/``__exit__`` and this process holds the lock
    (just taken, or not yet let go); one waiting there for a lock holds nothing and may end."""
    if frame is None or frame.f_code not in LOCK_STEPS:
        return False
    mine = getattr(getattr(frame.f_locals.get("self"), "_semlock", None), "_is_mine", None)
    return bool(mine()) if callable(mine) else False


class WorkerPool(Pool):
    """A pool of fresh worker processes that knows them, so that :func:`stop` can tell a worker
    again to end (see :data:`TELL_AGAIN_AFTER`)."""

    def __init__(self, jobs: int, initializer: Callable[[], None]) -> None:
        self.workers: Final[list[BaseProcess]] = []
        """Every worker process it started: the first ones and any that replaced one that ended."""
        super().__init__(processes=jobs, initializer=initializer, context=context())

    def Process(self, ctx: Any, *args: Any, **kwds: Any) -> BaseProcess:  # type: ignore[override]  # noqa: N802
        """The pool's hook for each worker it starts (the standard library's name): noted."""
        worker: BaseProcess = ctx.Process(*args, **kwds)
        self.workers.append(worker)
        return worker


def worker_pool(jobs: int, initializer: Callable[[], None] = worker_signals) -> WorkerPool:
    """A pool of ``jobs`` fresh worker processes that leave Ctrl-C to this one.

    Ctrl-C is ignored while they start: a process started with it ignored keeps it ignored, so a
    Ctrl-C during their first fraction of a second (Python starting, the package imported) prints
    no traceback from them either. (Not SIGTERM: :func:`stop` ends the workers with it.)"""
    with held_off(signal.SIGINT):
        return WorkerPool(jobs, initializer)


@contextmanager
def running(jobs: int) -> Iterator[WorkerPool]:
    """A :func:`worker_pool` for the block: closed and waited for when the block ends, stopped at
    once (:func:`stop`) when it raises (Ctrl-C, a worker's error), which goes on up."""
    pool = worker_pool(jobs)
    try:
        yield pool
        pool.close()
    except BaseException:
        stop(pool)
        raise
    finally:
        pool.join()


def stop(pool: WorkerPool) -> None:
    """End ``pool``'s workers now and wait for them, with Ctrl-C and SIGTERM dropped meanwhile:
    a second one arriving while the pool stops (``timeout`` signals a process twice, people press
    Ctrl-C twice) broke off the stopping half done, and the wait for the pool never ended.

    Dropped by a handler that does nothing, not ignored: a worker the pool starts meanwhile (in
    place of one that ended) is born with the default, so it can still be ended."""
    with held_off(signal.SIGINT, signal.SIGTERM, handler=_dropped), telling_again(pool):
        pool.terminate()
        pool.join()


TELL_AGAIN_AFTER: Final = 1.0
"""Seconds between two SIGTERMs to a worker that has not ended. A signal runs its Python handler
at the next check between two steps of the worker's code; one that comes just after the last check
before the worker blocks in a wait (for its tasks' queue's lock, which the parent stopping the pool
holds) runs it only when another signal ends that wait. Told once, such a worker waited for ever,
and the parent with it (seen once in a run of the suite: ``test_interrupting_keeps_finished_games``).
A worker still ending its first time told (its handler has run) is ended by the next at once."""


@contextmanager
def telling_again(pool: WorkerPool) -> Iterator[None]:
    """For the block (a pool stopping), a SIGTERM every :data:`TELL_AGAIN_AFTER` seconds to each
    of ``pool``'s workers still running. Whether one still runs is read from its sentinel, never
    by waiting for it: the pool waits for its workers itself, and a process waited for here could
    have its number given to another."""
    done = threading.Event()

    def again() -> None:
        while not done.wait(TELL_AGAIN_AFTER):
            for worker in list(pool.workers):  # a copy: the pool may add a replacement meanwhile
                _tell_if_running(worker)

    teller = threading.Thread(target=again, name="ra-tell-again", daemon=True)
    teller.start()
    try:
        yield
    finally:
        done.set()
        teller.join()


def _tell_if_running(worker: BaseProcess) -> None:
    """SIGTERM to ``worker`` if it has started and not ended (its sentinel not yet readable)."""
    try:
        ended = bool(wait([worker.sentinel], 0))
    except ValueError:  # not started yet (or closed): nothing to tell
        return
    if not ended and worker.pid is not None:
        with suppress(ProcessLookupError):
            os.kill(worker.pid, signal.SIGTERM)


def _dropped(signum: int, frame: object) -> None:
    """A signal that arrives while a pool stops: nothing to do (see :func:`stop`)."""


@contextmanager
def held_off(
    *signums: signal.Signals, handler: Callable[[int, object], None] | signal.Handlers = signal.SIG_IGN
) -> Iterator[None]:
    """The signals given to ``handler`` (default: ignored) for the block, then their handlers
    back; only from the main thread (the only one that may set them), and never one whose handler
    was set outside Python."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: dict[signal.Signals, Any] = {}
    try:
        for signum in signums:
            previous = signal.getsignal(signum)
            if previous is not None:
                signal.signal(signum, handler)
                held[signum] = previous
        yield
    finally:
        for signum, previous in held.items():
            signal.signal(signum, previous)
