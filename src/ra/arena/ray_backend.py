"""The arena on a Ray cluster (the ``cluster`` extra: ``pip install 'ra-boardgame[cluster]'``).

``run_games_ray(specs, jobs, address=...)`` plays the same games as the process
backend (:func:`ra.arena.run_games`): every game is fixed by its spec (deal and
bot seeds), so the results are identical whatever runs them.  Without an
address a local Ray with ``jobs`` CPUs is started (and stopped afterwards); with
one, the games go to that cluster, at most ``jobs`` at a time.  Ray is imported
only here, only when asked for.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Sequence
from typing import Any

from ra.arena.runner import GameResult, GameSpec, play_game
from ra.words import worded


def _play(spec: GameSpec, keep_record: bool) -> GameResult:
    return play_game(spec, keep_record=keep_record)


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast with a clear message when nothing listens at a ``host:port`` address.

    Ray itself retries a dead address for about 40 s and then raises a multi-line error;
    ``auto`` and ``ray://`` addresses are left to Ray.
    """
    host, sep, port = address.rpartition(":")
    if not sep or "://" in address or not port.isdigit():
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as err:
        why = str(err.strerror or err)
        raise worded(ConnectionError, "arena.err.unreachable", address=address, why=why) from None


def reason(err: BaseException) -> str:
    """The first line of the innermost cause of a Ray error (the outer ones say only "failed")."""
    while err.__cause__ is not None:
        err = err.__cause__
    lines = str(err).strip().splitlines()
    return lines[0][:300] if lines else type(err).__name__


def connect(address: str | None, jobs: int) -> bool:
    """Join the Ray cluster at ``address``, or start a local Ray with ``jobs`` CPUs; whether this
    call started it (then the caller shuts it down).  A Ray already running here is used as it is.

    Raises ``ValueError`` when Ray is not installed (with the command that installs it) and
    ``ConnectionError`` (one line, naming the address) when the cluster cannot be reached.
    """
    try:
        import ray
    except ImportError:
        raise ValueError("the ray backend needs Ray: pip install 'ra-boardgame[cluster]'") from None
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if address:
        check_reachable(address)
    if ray.is_initialized():
        return False
    options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
    if not address:
        ray.init(num_cpus=jobs, **options)
        return True
    try:
        ray.init(address=address, **options)
    except Exception as err:  # Ray raises ConnectionError, RuntimeError, auth errors...
        why = reason(err)
        raise worded(ConnectionError, "arena.err.ray_init", address=address, why=why) from None
    return True


def run_games_ray(
    specs: Sequence[GameSpec],
    jobs: int = 2,
    keep_records: bool = False,
    on_result: Callable[[GameResult], None] | None = None,
    address: str | None = None,
) -> tuple[list[GameResult], bool]:
    """Play the games as Ray tasks; returns the results (completion order) and whether Ctrl-C stopped it.

    Raises as :func:`connect` does.
    """
    started = connect(address, jobs)
    import ray

    task = ray.remote(num_cpus=1)(_play)
    results: list[GameResult] = []
    interrupted = False
    todo = list(specs)
    todo.reverse()
    pending: list[Any] = []
    try:
        while todo or pending:
            while todo and len(pending) < jobs:
                pending.append(task.remote(todo.pop(), keep_records))
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                r: GameResult = ray.get(ref)
                results.append(r)
                if on_result is not None:
                    on_result(r)
    except KeyboardInterrupt:
        interrupted = True
        for ref in pending:
            ray.cancel(ref, force=True)
    finally:
        if started:
            ray.shutdown()
    return results, interrupted


__all__ = ["check_reachable", "connect", "run_games_ray"]
