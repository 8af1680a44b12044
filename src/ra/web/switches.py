"""Switches that stop a search running in a worker process (a hint whose decision is past).

An event does not travel to a process that is already running, so the server shares one small
array of flags with its bot processes when it starts them (:func:`worker_start`, the pools'
initializer): the fair scheduler (:mod:`ra.web.scheduler`) gives each running search that can
be stopped a flag of its own, and sets it when nobody wants the answer any more.  The search
reads its flag through :func:`switch`, a ``threading.Event`` the advisor checks every few
hundred iterations (:meth:`ra.bots.advisor.Advisor.evaluate`), and ends with
``EvaluationCancelledError``: its process is free a moment later.

Processes started without the flags (a Ray cluster's) get a switch that never trips: their
searches run to the end, the scheduler no longer waits for them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from ra.processes import context

_SHARED: list[Any] = []
"""In a worker process: the flags shared with the server (kept by :func:`worker_start`)."""


class SwitchBoard:
    """``size`` flags in shared memory, one per search slot (the server's side)."""

    def __init__(self, size: int) -> None:
        self.size = max(1, size)
        self.flags: Any = context().RawArray("b", self.size)

    def trip(self, index: int) -> None:
        """Stop the search holding flag ``index``."""
        self.flags[index] = 1

    def reset(self, index: int) -> None:
        """Make flag ``index`` ready for the next search."""
        self.flags[index] = 0

    def tripped(self, index: int) -> bool:
        return bool(self.flags[index])


def worker_start(flags: Any, then: Callable[[], None] | None = None) -> None:
    """A bot process's initializer: keep the shared ``flags``, then run ``then`` (the pool's
    own initializer)."""
    _SHARED[:] = [flags]
    if then is not None:
        then()


def install(flags: Any) -> None:
    """Use ``flags`` in this process (tests running searches in threads)."""
    worker_start(flags)


class _Switch(threading.Event):
    """A ``threading.Event`` that reads one shared flag (the advisor's ``cancel``)."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self._index = index

    def is_set(self) -> bool:
        if not _SHARED:
            return False
        flags = _SHARED[0]
        return 0 <= self._index < len(flags) and bool(flags[self._index])


def switch(index: int) -> threading.Event:
    """The switch of flag ``index`` in this worker process (never trips without the flags)."""
    return _Switch(index)


__all__ = ["SwitchBoard", "install", "switch", "worker_start"]
