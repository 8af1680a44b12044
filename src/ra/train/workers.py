"""Where the pipeline's games are played: here, in worker processes, or on a Ray cluster.

A task is fixed by its arguments alone (a game's seed comes from its generation and index, the
policies travel with it) and :meth:`Workers.map` gives the results back in the order the tasks
were given, so what a run stores is the same whatever plays it and however many workers there
are.  ``local`` with one job plays in this process; ``ray`` sends each task to a Ray cluster (the
``cluster`` extra), which needs the same package installed on every node (docs/training.md).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol, TypeVar

from ra.processes import running

T = TypeVar("T")
R = TypeVar("R")

BACKENDS = ("local", "ray")


class Workers(Protocol):
    """Plays tasks (a top-level function and picklable arguments) and returns results in order."""

    def where(self) -> str:
        """Where the tasks run, for the progress output."""
        ...

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[R]:
        """``fn(item)`` for each item, in the items' order."""
        ...

    def close(self) -> None:
        """Let go of what :meth:`map` needs (a Ray started here is stopped)."""
        ...


class Local:
    """``jobs`` fresh worker processes of this machine (:mod:`ra.processes`); one: this process."""

    def __init__(self, jobs: int = 1) -> None:
        if jobs < 1:
            raise ValueError(f"--jobs must be 1 or more, got {jobs}")
        self.jobs = jobs

    def where(self) -> str:
        return "in this process" if self.jobs == 1 else f"in {self.jobs} local processes"

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[R]:
        if self.jobs == 1 or len(items) <= 1:
            yield from map(fn, items)
            return
        with running(min(self.jobs, len(items))) as pool:  # Ctrl-C: what was stored stays
            yield from pool.imap(fn, items)

    def close(self) -> None:
        pass


class RayWorkers:
    """Tasks on the Ray cluster at ``address`` (none: a local Ray with ``jobs`` CPUs), at most
    ``jobs`` at a time (none: one per CPU of the cluster).

    Raises ``ValueError`` when Ray is not installed (naming the ``cluster`` extra) and
    ``ConnectionError`` (one line) when the address cannot be reached: the arena's own checks
    (:func:`ra.arena.ray_backend.connect`).
    """

    def __init__(self, address: str | None = None, jobs: int | None = None) -> None:
        from ra.arena.ray_backend import connect

        self.started = connect(address, jobs or _cpus_here())
        import ray

        self.ray: Any = ray
        self.jobs = jobs or max(1, int(self.ray.cluster_resources().get("CPU", 1)))
        self.address = address

    def where(self) -> str:
        cluster = f"the Ray cluster at {self.address}" if self.address else "a local Ray"
        return f"on {cluster}, {self.jobs} at a time"

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[R]:
        task = self.ray.remote(num_cpus=1)(fn)
        todo = deque(items)
        pending: deque[Any] = deque()
        try:
            while todo or pending:
                while todo and len(pending) < self.jobs:
                    pending.append(task.remote(todo.popleft()))
                result: R = self.ray.get(pending.popleft())
                yield result
        finally:  # Ctrl-C, or the caller stopped early: no task goes on for nothing
            for ref in pending:
                self.ray.cancel(ref, force=True)

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()
            self.started = False


def make(backend: str, jobs: int | None = None, address: str | None = None) -> Workers:
    """The workers of ``backend`` (``local`` or ``ray``); ``ValueError``/``ConnectionError`` saying
    what is wrong (an unknown backend, an address for ``local``, Ray missing or out of reach)."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; backends are: {', '.join(BACKENDS)}")
    if jobs is not None and jobs < 1:
        raise ValueError(f"--jobs must be 1 or more, got {jobs}")
    if backend == "local":
        if address is not None:
            raise ValueError("--ray-address is for --backend ray")
        return Local(jobs or 1)
    return RayWorkers(address, jobs)


def _cpus_here() -> int:
    import os

    return os.cpu_count() or 1


__all__ = ["BACKENDS", "Local", "RayWorkers", "Workers", "make"]
