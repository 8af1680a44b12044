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
import signal
import threading
from collections.abc import Callable
from multiprocessing.context import SpawnContext
from multiprocessing.pool import Pool
from typing import Final

START_METHOD: Final = "spawn"
"""How every worker process of the package starts (see the module's docstring)."""


def context() -> SpawnContext:
    """The multiprocessing context of :data:`START_METHOD` (for a pool or an executor)."""
    return multiprocessing.get_context(START_METHOD)


def ignore_interrupts() -> None:
    """A worker's first step: Ctrl-C is the parent's to handle (it stops the workers cleanly)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def worker_pool(jobs: int, initializer: Callable[[], None] = ignore_interrupts) -> Pool:
    """A pool of ``jobs`` fresh worker processes that leave Ctrl-C to this one.

    From the main thread, Ctrl-C is ignored while they start: a process started with it ignored
    keeps it ignored, so a Ctrl-C during their first fraction of a second (Python starting, the
    package imported) prints no traceback from them either."""
    previous = signal.getsignal(signal.SIGINT)  # None: set outside Python, not to be touched
    if threading.current_thread() is not threading.main_thread() or previous is None:
        return context().Pool(processes=jobs, initializer=initializer)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return context().Pool(processes=jobs, initializer=initializer)
    finally:
        signal.signal(signal.SIGINT, previous)
