"""A real ``ra serve`` on loopback for the web tests (SQLite by default, PostgreSQL when available)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``ra serve`` in a subprocess: start, kill -9, start again on the same database."""

    def __init__(
        self, db_url: str, log_path: Path, workers: int = 1, env: dict[str, str] | None = None
    ) -> None:
        # Scripted clients act much faster than people: the rate limit has its own test.
        self.env = {**os.environ, "RA_MESSAGE_RATE": "1000", **(env or {})}
        self.db_url = db_url
        self.port = free_port()
        self.workers = workers
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Server:
        cmd = [sys.executable, "-c", "from ra.cli import main; main()", "serve", "--port", str(self.port),
               "--db", self.db_url, "--workers", str(self.workers), "--log-level", "warning"]
        log = open(self.log_path, "ab")  # noqa: SIM115 - the child keeps it
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

    def kill9(self) -> None:
        """Kill the server and all its processes at once, as a crash would."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[type[Server]]:
    started: list[Server] = []

    class Tracked(Server):
        def start(self) -> Server:
            started.append(self)
            return super().start()

    yield Tracked
    for s in started:
        s.stop()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'ra.db'}"


@pytest.fixture
def server(server_factory: type[Server], sqlite_url: str, tmp_path: Path) -> Server:
    return server_factory(sqlite_url, tmp_path / "server.log").start()


@pytest.fixture
def live_server(server: Server) -> str:
    """The base URL of a running server (for the browser tests)."""
    return server.url


# --- PostgreSQL -----------------------------------------------------------------


def _pg_url() -> str | None:
    """A PostgreSQL database for the tests: RA_TEST_PG, or the local cluster CI starts."""
    url = os.environ.get("RA_TEST_PG")
    if url:
        return url
    if shutil.which("psql") is None:
        return None
    try:
        import psycopg

        with psycopg.connect("postgresql://ra:ra@127.0.0.1/postgres", connect_timeout=2) as conn:
            conn.execute("SELECT 1")
    except Exception:
        return None
    return "postgresql+psycopg://ra:ra@127.0.0.1/{db}"


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL database; skips with the reason when no server is reachable."""
    template = _pg_url()
    if template is None:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL is not reachable in CI (.ci/run starts it)")
        pytest.skip("no PostgreSQL reachable (set RA_TEST_PG or run .ci/run, which starts one)")
    import psycopg

    name = f"ra_test_{os.getpid()}_{int(time.time() * 1000) % 10**8}"
    admin = template.format(db="postgres").replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    try:
        yield template.format(db=name)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
