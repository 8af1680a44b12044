"""Run ``ra serve`` in a subprocess on loopback: for integration tests and load benchmarks.

>>> server = Server("sqlite:////tmp/ra-test.db", Path("/tmp/ra-test.log")).start()  # doctest: +SKIP
>>> server.kill9(); server.start()  # a crash, then the same database again  # doctest: +SKIP
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from ra.web.prefork import Forked, Forker

PORTS = range(20000, 32000)
"""Where :func:`free_port` looks: below Linux's ephemeral range (32768–60999), so no port the
system hands out by itself (a client's end of a connection, another program's ``bind`` to 0)
is ever one of these."""
KILLED_WITHIN = 30.0
"""Seconds a killed server may take to be reported gone (past them: an error, never a wait forever)."""
PORT_HELD_FOR = 3600.0
"""Seconds a port handed out stays promised to its taker (a test run is shorter)."""


def free_port() -> int:
    """A free port on loopback, promised to no other caller on this machine for an hour.

    A server killed and started again on its port (a crash test) needs that port to stay its
    own in between: with the system's choice another process could be handed the freed port
    and answer in its place. Each port taken is marked by a file in the temporary folder,
    made exclusively, so parallel test workers and the benchmarks never share one.
    """
    marks = Path(tempfile.gettempdir()) / "ra-ports"
    marks.mkdir(exist_ok=True)
    first = random.randrange(len(PORTS))
    for i in range(len(PORTS)):
        port = PORTS[(first + i) % len(PORTS)]
        if _promise(marks / str(port)) and _bindable(port):
            return port
    raise RuntimeError(f"no free port in {PORTS.start}–{PORTS.stop - 1} (see {marks})")


def _promise(mark: Path) -> bool:
    """Take ``mark`` (a port's file) if nobody holds it, or its holder's hour is over."""
    try:
        os.close(os.open(mark, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        return True
    except FileExistsError:
        try:
            if time.time() - mark.stat().st_mtime < PORT_HELD_FOR:
                return False
            mark.touch()  # a stale promise: two takers at once are caught by the bind below
            return True
        except FileNotFoundError:
            return False


def _bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


class Server:
    """``ra serve`` in a subprocess: start, kill -9, start again on the same database."""

    def __init__(
        self,
        db_url: str,
        log_path: Path,
        workers: int = 1,
        env: dict[str, str] | None = None,
        args: tuple[str, ...] = (),
        log_level: str = "warning",
    ) -> None:
        self.env = {**os.environ, **(env or {})}
        self.args = args
        self.log_level = log_level
        self.db_url = db_url
        self.port = free_port()
        self.workers = workers
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | Forked | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Server:
        args = [
            "serve",
            "--port",
            str(self.port),
            "--db",
            self.db_url,
            "--workers",
            str(self.workers),
            "--log-level",
            self.log_level,
            *self.args,
        ]
        forker = Forker.mine()
        if forker is not None:
            self.proc = forker.fork("ra.cli:main", args, self.env, self.log_path)
        else:
            cmd = [sys.executable, "-c", "from ra.cli import main; main()", *args]
            with open(self.log_path, "ab") as log:
                self.proc = subprocess.Popen(
                    cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=self.env
                )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"ra serve exited: {self.log_path.read_text()[-2000:]}")
            try:
                if httpx.get(self.url + "/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("ra serve did not answer /health within 60 s")

    def stacks(self) -> str:
        """What the server is doing now (:mod:`ra.web.stacks`): its threads' and tasks' stacks,
        as the end of its log; for a test's message when a page waits too long."""
        assert self.proc is not None
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.proc.pid, signal.SIGUSR1)  # the server, not its bots' processes
            time.sleep(0.5)
            os.kill(self.proc.pid, signal.SIGUSR2)
            time.sleep(1.5)
        return self.log_path.read_text(errors="replace")[-20_000:]

    def kill9(self) -> None:
        """Kill the server and all its processes at once, as a crash would."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(KILLED_WITHIN)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(KILLED_WITHIN)
