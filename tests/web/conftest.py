"""A real ``ra serve`` on loopback for the web tests (SQLite by default, PostgreSQL when available)."""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed")

from ra.web.testing import Server

TEST_ENV = {"RA_MESSAGE_RATE": "1000", "RA_HINT_BUDGET": "40", "RA_ANALYSIS_BUDGET": "200"}
"""Scripted clients act much faster than people (the rate limit has its own test); hints and
analyses get a small fixed budget (iterations), so they are quick and deterministic."""


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[type[Server]]:
    started: list[Server] = []

    class Tracked(Server):
        def __init__(
            self,
            db_url: str,
            log_path: Path,
            workers: int = 1,
            env: dict[str, str] | None = None,
            args: tuple[str, ...] = (),
            log_level: str = "warning",
        ) -> None:
            super().__init__(db_url, log_path, workers, {**TEST_ENV, **(env or {})}, args, log_level)

        def start(self) -> Server:
            started.append(self)
            return super().start()

    yield Tracked
    for s in started:
        s.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's Chromium through Playwright, one per module of browser tests."""
    from tests.web.chromium import CHROMIUM
    from tests.web.test_browser import ARGS, sync_api

    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture
def empty_sqlite_url(tmp_path: Path) -> str:
    """A new SQLite file, no table in it (for the migrations' own tests)."""
    return f"sqlite:///{tmp_path / 'ra.db'}"


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file with every migration applied, made once per test process: each server's
    database starts as a copy (the migrations from nothing cost a second a server)."""
    from ra.web import db

    path = tmp_path_factory.mktemp("migrated") / "ra.db"
    db.upgrade(f"sqlite:///{path}")
    return path


@pytest.fixture
def sqlite_url(tmp_path: Path, migrated_sqlite: Path) -> str:
    """A database for one test's server: a copy of :func:`migrated_sqlite` (``ra serve`` finds
    it up to date)."""
    shutil.copyfile(migrated_sqlite, tmp_path / "ra.db")
    return f"sqlite:///{tmp_path / 'ra.db'}"


@pytest.fixture
def server(server_factory: type[Server], sqlite_url: str, tmp_path: Path) -> Server:
    return server_factory(sqlite_url, tmp_path / "server.log").start()


@pytest.fixture
def live_server(server: Server) -> str:
    """The base URL of a running server (for the browser tests)."""
    return server.url


@pytest.fixture(scope="module")
def module_server(tmp_path_factory: pytest.TempPathFactory, migrated_sqlite: Path) -> Iterator[str]:
    """One server for a whole module of browser tests that read pages or make tables of their
    own (a server's start costs seconds; the language × screen-size variants are many).  Its
    per-address limits on tables are raised: every test's tables come from one address."""
    folder = tmp_path_factory.mktemp("module-server")
    roomy = {"RA_MAX_OPEN_GAMES": "1000", "RA_MAX_BOT_SEATS": "1000", "RA_MAX_GAMES_PER_DAY": "10000"}
    shutil.copyfile(migrated_sqlite, folder / "ra.db")
    s = Server(f"sqlite:///{folder / 'ra.db'}", folder / "server.log", env={**TEST_ENV, **roomy}).start()
    yield s.url
    s.stop()


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
    with _fresh_pg_database() as url:
        yield url


@pytest.fixture(scope="module")
def pg_module_url() -> Iterator[str]:
    """One fresh PostgreSQL database for a whole module (its tests clear what they wrote)."""
    with _fresh_pg_database() as url:
        yield url


@contextlib.contextmanager
def _fresh_pg_database() -> Iterator[str]:
    """Create a database, yield its URL, drop it; skips with the reason when no server is reachable."""
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
        # FORCE ends the test's connections; a superuser's autovacuum worker on the database
        # cannot be ended by the test's role: wait for it a moment, then leave the database.
        for attempt in range(10):
            try:
                with psycopg.connect(admin, autocommit=True) as conn:
                    conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
                break
            except psycopg.errors.InsufficientPrivilege:
                time.sleep(0.5 * (attempt + 1))
