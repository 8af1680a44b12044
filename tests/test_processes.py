"""Worker processes start fresh (ra.processes): a lock another thread holds here at the moment a
pool starts is not held forever in its workers (a forked worker whose stderr lock another thread
held hung at its exit, and the caller waiting for the pool with it: a hang of the kind that stalled
stop 49's CI)."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ra import processes

HELD = threading.Lock()
"""Held in this process while a pool starts (as a stream's lock is, by a thread writing to it)."""


def lock_is_free() -> bool:
    """In a worker: whether :data:`HELD` can be taken (a forked worker's copy stays held)."""
    got = HELD.acquire(timeout=2)
    if got:
        HELD.release()
    return got


def test_a_lock_held_here_is_free_in_a_worker() -> None:
    with HELD:
        pool = processes.worker_pool(1)
        try:
            assert pool.apply(lock_is_free) is True
            pool.close()
        finally:
            pool.join()


def sigint_ignored() -> bool:
    """In a worker: whether Ctrl-C is ignored."""
    return signal.getsignal(signal.SIGINT) == signal.SIG_IGN


def nothing() -> None:
    """An initializer that does nothing (so what a worker was born with shows)."""


def test_workers_are_born_ignoring_ctrl_c_and_this_process_keeps_its_handler() -> None:
    """A Ctrl-C while the workers start (Python starting, the package imported, before any
    initializer runs) would print their tracebacks: they start with it ignored."""
    before = signal.getsignal(signal.SIGINT)
    pool = processes.worker_pool(1, initializer=nothing)
    try:
        assert signal.getsignal(signal.SIGINT) is before
        assert pool.apply(sigint_ignored) is True
        pool.close()
    finally:
        pool.join()


def test_signals_held_off_are_ignored_then_handled_again() -> None:
    """What :func:`ra.processes.stop` relies on: a SIGTERM during the block is dropped, the
    handler is back after it."""
    import os

    seen: list[int] = []
    before = signal.signal(signal.SIGTERM, lambda signum, frame: seen.append(signum))
    try:
        with processes.held_off(signal.SIGINT, signal.SIGTERM):
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.1)
        assert seen == []
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.1)
        assert seen == [signal.SIGTERM]
    finally:
        signal.signal(signal.SIGTERM, before)


LOCK_IN_HAND = """
import multiprocessing, signal, sys, time
from multiprocessing import synchronize
from ra import processes

processes.worker_signals()
handler = signal.getsignal(signal.SIGTERM)
lock = multiprocessing.get_context("spawn").Lock()

def profile(frame, event, arg):
    # SIGTERM's handler, run where the signal can land: the lock just taken, inside its __enter__
    if event == "c_return" and frame.f_code.co_filename == synchronize.__file__:
        sys.setprofile(None)
        handler(signal.SIGTERM, frame)

try:
    sys.setprofile(profile)
    with lock:
        time.sleep(5)
    print("not ended")
except SystemExit as e:
    print("ended", e.code, "free" if lock.acquire(block=False) else "taken")
"""


def test_a_worker_told_to_end_as_it_takes_a_lock_lets_the_lock_go() -> None:
    """A SIGTERM handled just after a worker took a lock, still inside the lock's ``__enter__``,
    ends it inside the ``with`` a moment later, so the lock is let go. (The handler is called
    from a profile hook as the lock's C ``__enter__`` returns: the frame and the moment where a
    real signal's handler runs, at the check after that call, without waiting for the chance.)
    Ended at once there, the lock stayed taken for ever: the parent stopping the pool waited on
    its results queue's lock, held by a worker ended so (2 times in 67 ``timeout 8 ra arena -j 2``
    runs)."""
    done = subprocess.run(
        [sys.executable, "-c", LOCK_IN_HAND], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.stdout.split() == ["ended", str(128 + signal.SIGTERM), "free"], done.stderr


LOCK_KEPT = """
import multiprocessing, signal, threading, time
from ra import processes

processes.worker_signals()
lock = multiprocessing.get_context("spawn").Lock()
keeper = threading.Thread(target=lock.acquire)  # kept by another, as a parent stopping a pool
keeper.start()                                  # keeps its tasks' queue's lock
keeper.join()
try:
    threading.Timer(1, signal.pthread_kill, (threading.get_ident(), signal.SIGTERM)).start()
    began = time.monotonic()
    with lock:
        print("took it")
except SystemExit as e:
    print("ended", e.code, round(time.monotonic() - began) < 5)
"""


def test_a_worker_told_to_end_while_it_waits_for_a_lock_ends() -> None:
    """A SIGTERM that comes while a worker waits for a lock another keeps (in the lock's own
    ``__enter__`` too) ends it at once: it holds nothing to let go (a worker that waited for its
    lock to be let go first would wait for ever there)."""
    done = subprocess.run(
        [sys.executable, "-c", LOCK_KEPT], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.stdout.split() == ["ended", str(128 + signal.SIGTERM), "True"], done.stderr


def misses_its_first_sigterm() -> None:
    """A worker's initializer: its first SIGTERM runs no handler, as one that came just before
    the worker blocked in a wait (its handler runs at the next check between two steps of Python,
    and a blocked wait has none until another signal ends it)."""
    processes.worker_signals()
    handler = signal.getsignal(signal.SIGTERM)

    def missed(signum: int, frame: object) -> None:
        signal.signal(signal.SIGTERM, handler)  # the next one is handled as usual

    signal.signal(signal.SIGTERM, missed)


def says_then_sleeps(path: str) -> None:
    """A task: say it runs (a file), then take its time."""
    Path(path).touch()
    time.sleep(60)


def test_a_worker_that_missed_its_sigterm_is_told_again(tmp_path: Path) -> None:
    """Stopping a pool tells each worker still running again, a second later: a worker that missed
    its SIGTERM finished its task and then waited for ever for its tasks' queue's lock, which the
    parent stopping the pool holds, and the parent waited for it (a hang of the suite, once)."""
    pool = processes.worker_pool(1, initializer=misses_its_first_sigterm)
    try:
        begun = tmp_path / "begun"
        pool.apply_async(says_then_sleeps, (str(begun),))
        deadline = time.monotonic() + 30
        while not begun.exists():
            assert time.monotonic() < deadline, "the worker did not take its task"
            time.sleep(0.02)
        stopping = threading.Thread(target=processes.stop, args=(pool,), daemon=True)
        began = time.monotonic()
        stopping.start()
        stopping.join(20)
        assert not stopping.is_alive(), "the pool's stop waits on a worker told once"
        assert time.monotonic() - began < 10
    finally:
        for worker in pool.workers:
            worker.kill()
        pool.terminate()  # nothing more once stopped


CHATTY = """
import os, sys, threading
from ra import arena

def chatter():
    while True:
        sys.stderr.write("." * 4096)

if __name__ == "__main__":
    sys.stderr = open(os.devnull, "w")
    threading.Thread(target=chatter, daemon=True).start()
    specs = arena.schedule(["random", "greedy"], players=2, games=2, seed=1)
    for _ in range(3):
        results, _ = arena.run_games(specs, jobs=2)
    print("played", len(results), flush=True)
    os._exit(0)
"""


@pytest.mark.slow
def test_the_arena_plays_in_parallel_beside_a_thread_that_writes_all_the_time(tmp_path: Path) -> None:
    """Another thread writing to stderr without pause (a chatty library, a test runner's capture):
    the games in worker processes still end and are all reported. (With forked workers this hung
    about once in 60 pools here; the test above is the one that fails every time for them.)"""
    script = tmp_path / "chatty.py"
    script.write_text(CHATTY)
    run = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 0 and run.stdout == "played 2\n", run.stdout + run.stderr
