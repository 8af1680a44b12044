"""``ra serve`` processes forked from one that has already imported the server (for the tests).

A server's start costs about a second of processor time, three quarters of it importing the
server's modules (FastAPI, SQLAlchemy, alembic, uvicorn, the game); the test suite starts some
two hundred. :class:`Forker` keeps one helper process per test process that imports them once
and then, for each server asked for, forks: the child is a new session with its own log, its own
environment and arguments, and runs ``ra``'s own command line — the same ``serve`` code as a
server started from a shell, only its imports already done (issue 39: CI's time).

The child's exit status comes back through the helper, so a handle (:class:`Forked`) answers
``poll``/``wait``/``returncode`` like :class:`subprocess.Popen`.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import select
import subprocess
import sys
import threading
import time
from pathlib import Path

WARM = (
    "ra.cli",  # the command line's main, named as a string as ra.web.testing names it
    "ra.cli.commands",  # its commands (ra.cli imports them when main runs)
    "ra.cli.serve",
    "ra.web.app",
    "ra.web.db",
    "uvicorn.main",
    "uvicorn.server",
    "uvicorn.lifespan.on",
    "uvicorn.loops.auto",
    "uvicorn.protocols.http.auto",
    "uvicorn.protocols.websockets.auto",
    "sqlalchemy.dialects.sqlite",
    "sqlalchemy.dialects.postgresql.psycopg",
    "alembic.command",
    "alembic.runtime.migration",
)
"""What the helper imports before it forks (a module that is missing is skipped)."""


class Forked:
    """A forked server's handle, as much of :class:`subprocess.Popen` as the tests use."""

    def __init__(self, pid: int, forker: Forker) -> None:
        self.pid = pid
        self._forker = forker

    @property
    def returncode(self) -> int | None:
        return self._forker.status(self.pid)

    def poll(self) -> int | None:
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while (code := self.returncode) is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"ra serve (pid {self.pid})", timeout or 0.0)
            time.sleep(0.02)
        return code


class Forker:
    """The helper process of this test process: started at the first fork, ended with it."""

    _mine: Forker | None = None
    _lock = threading.Lock()

    def __init__(self) -> None:
        self._proc = subprocess.Popen(
            [sys.executable, "-c", "from ra.web.prefork import helper_main; helper_main()"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._to, self._from = self._proc.stdin, self._proc.stdout
        self._statuses: dict[int, int] = {}
        self._replies: list[int] = []
        self._changed = threading.Condition()
        self._asking = threading.Lock()  # one request at a time: its reply is the next one
        ready = self._from.readline()
        if ready.strip() != b"ready":
            raise RuntimeError(f"the server forker did not start: {ready!r}")
        threading.Thread(target=self._listen, daemon=True).start()

    @classmethod
    def mine(cls) -> Forker | None:
        """This process's forker, started if need be; None where forking is off or failed."""
        if os.environ.get("RA_TEST_FORK", "1") == "0" or not hasattr(os, "fork"):
            return None
        with cls._lock:
            if cls._mine is None or cls._mine._proc.poll() is not None:
                try:
                    cls._mine = Forker()
                except (OSError, RuntimeError):
                    return None
            return cls._mine

    def fork(self, entry: str, argv: list[str], env: dict[str, str], log: Path) -> Forked:
        """A child calling ``entry`` (``module:function``, a command line's main) with ``argv``
        as its arguments, ``env`` as its whole environment, its output appended to ``log``."""
        request = {"entry": entry, "argv": argv, "env": env, "log": str(log)}
        with self._asking, self._changed:
            self._to.write(json.dumps(request).encode() + b"\n")
            self._to.flush()
            while not self._replies:
                if not self._changed.wait(30):
                    raise RuntimeError("the server forker did not answer")
            pid = self._replies.pop(0)
        return Forked(pid, self)

    def status(self, pid: int) -> int | None:
        with self._changed:
            return self._statuses.get(pid)

    def _listen(self) -> None:
        for line in self._from:
            kind, pid, *rest = line.split()
            with self._changed:
                if kind == b"forked":
                    self._replies.append(int(pid))
                else:
                    self._statuses[int(pid)] = int(rest[0])
                self._changed.notify_all()


def helper_main() -> None:
    """The helper: import the server, then fork a child for each request read from stdin and
    report each child's pid, then its exit status (negative: the signal that ended it)."""
    for name in WARM:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    out = sys.stdout.buffer
    out.write(b"ready\n")
    out.flush()
    requests = sys.stdin.buffer
    while True:
        readable, _, _ = select.select([requests], [], [], 0.05)
        if readable:
            line = requests.readline()
            if not line:
                return  # the test process is gone
            pid = _fork(json.loads(line))
            out.write(b"forked %d\n" % pid)
        for pid, status in _reaped():
            out.write(b"exited %d %d\n" % (pid, status))
        out.flush()


def _reaped() -> list[tuple[int, int]]:
    done: list[tuple[int, int]] = []
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return done
        if pid == 0:
            return done
        done.append((pid, os.waitstatus_to_exitcode(status)))


def _fork(request: dict[str, object]) -> int:
    sys.stdout.flush()
    pid = os.fork()
    if pid:
        return pid
    code = 1
    try:
        os.setsid()
        log = os.open(str(request["log"]), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        os.close(null)
        env = request["env"]
        assert isinstance(env, dict)
        os.environ.clear()
        os.environ.update(env)
        argv = request["argv"]
        assert isinstance(argv, list)
        sys.argv = ["-c", *argv]
        module, _, function = str(request["entry"]).partition(":")
        getattr(importlib.import_module(module), function)()
        code = 0
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
