"""Bots' searches and hints on a Ray cluster (``ra serve --bot-backend ray --ray-address ADDR``).

:class:`RayExecutor` is a ``concurrent.futures.Executor`` whose work runs as Ray tasks, so the
server's fair scheduler (:mod:`ra.web.scheduler`) drives local processes and a cluster alike.
A search is a pure function of its record, seat, level and seed: the cluster gives the same
move as the local pool, and when a worker dies mid-search Ray runs the task again elsewhere
(``max_retries``).  A move is applied once whatever happens: the store accepts decision *n*
only while the game is at *n* decisions (a compare-and-set).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

from ra.arena.ray_backend import check_reachable, reason
from ra.words import worded

T = TypeVar("T")

RETRIES = 3
"""How often Ray runs a search again after the worker running it died."""


class RayExecutor(Executor):
    """Run functions as Ray tasks on the cluster at ``address`` (None: a local Ray)."""

    def __init__(self, address: str | None, local_cpus: int = 1) -> None:
        self.address = address
        self.local_cpus = local_cpus
        self._lock = threading.Lock()
        self._remote: dict[Callable[..., Any], Any] = {}
        self._started = False

    def connect(self) -> None:
        """Join (or start) the cluster now rather than at the first search (it takes seconds)."""
        with self._lock:
            self._connect()

    def _connect(self) -> Any:
        import ray

        if not ray.is_initialized():
            options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if self.address:
                check_reachable(self.address)
                try:
                    ray.init(address=self.address, **options)
                except Exception as err:  # Ray raises ConnectionError, RuntimeError, auth errors...
                    where = f"cannot connect to the Ray cluster at {self.address}"
                    raise ConnectionError(f"{where}: {reason(err)}") from None
            else:
                ray.init(num_cpus=self.local_cpus, **options)
            self._started = True
        return ray

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        with self._lock:
            ray = self._connect()
            task = self._remote.get(fn)
            if task is None:
                task = self._remote[fn] = ray.remote(num_cpus=1, max_retries=RETRIES)(fn)
        future: Future[T] = task.remote(*args, **kwargs).future()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if self._started:
            import ray

            ray.shutdown()
            self._started = False


def check_ray() -> None:
    """Raise ``ValueError`` naming the extra to install when Ray is missing."""
    try:
        import ray  # noqa: F401
    except ImportError:
        raise worded(ValueError, "serve.err.no_ray", install="pip install 'ra-boardgame[cluster]'") from None
