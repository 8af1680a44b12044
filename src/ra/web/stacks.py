"""What a running server is doing, on request: ``kill -USR1 <pid>`` writes every thread's stack
to the server's log (even when its event loop is stuck), ``kill -USR2 <pid>`` every asyncio
task's (what each request and background job waits on).  For an operator facing a request that
never answers, and for the tests, which ask for both when a page waits too long."""

from __future__ import annotations

import asyncio
import faulthandler
import logging
import signal
import sys
from typing import Any

log = logging.getLogger("ra.web")


def listen_for_dumps(loop: asyncio.AbstractEventLoop) -> None:
    """Dump the threads on SIGUSR1 and the tasks on SIGUSR2 (where the platform has them)."""
    if not hasattr(signal, "SIGUSR1"):
        return
    faulthandler.register(signal.SIGUSR1, file=sys.stderr, all_threads=True)
    loop.add_signal_handler(signal.SIGUSR2, log_tasks)


def log_tasks() -> None:
    """Log each task of the running loop with the chain of awaits it is waiting in."""
    tasks = asyncio.all_tasks()
    log.warning("%d asyncio tasks:\n%s", len(tasks), "\n".join(awaiting(t) for t in tasks))


def awaiting(task: asyncio.Task[object]) -> str:
    """The task's name and, outermost first, each coroutine it awaits in (file, line, function):
    a request's task shows the handler and the query or lock it waits on, not uvicorn's frame."""
    lines = [f"task {task.get_name()}:"]
    step: object = task.get_coro()
    while step is not None and len(lines) < 40:
        frame = (
            getattr(step, "cr_frame", None)
            or getattr(step, "ag_frame", None)
            or getattr(step, "gi_frame", None)
        )
        if frame is not None:
            lines.append(f"  {frame.f_code.co_filename}:{frame.f_lineno} in {frame.f_code.co_name}")
        step = (
            getattr(step, "cr_await", None)
            or getattr(step, "ag_await", None)
            or getattr(step, "gi_yieldfrom", None)
        )
    return "\n".join(lines)


def _first(step: object, *names: str) -> Any:
    """The first of a coroutine's, async generator's or generator's attributes that is set."""
    return next((v for n in names if (v := getattr(step, n, None)) is not None), None)


__all__ = ["awaiting", "listen_for_dumps", "log_tasks"]
