"""``ra serve`` refuses bad options with one line and exit code 2, never a traceback."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # each test starts `ra serve` in a subprocess


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from ra.cli import main; main()", "serve", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--db", "mysql://u@h/db"], "unsupported database 'mysql'"),
        (["--db", "sqlite:///"], "a SQLite database needs a file"),
        (["--db", "sqlite:////proc/no/such/ra.db"], "cannot make the database folder"),
        (["--db", "not a url"], "not a database URL"),
        (["--workers", "2", "--db", "sqlite:///{tmp}/ra.db"], "--workers above 1 needs PostgreSQL"),
        (["--log-level", "loud", "--db", "sqlite:///{tmp}/ra.db"], "unknown log level"),
        (["--log-format", "xml", "--db", "sqlite:///{tmp}/ra.db"], "unknown log format 'xml'"),
        (
            ["--forwarded-allow-ips", "127.0.0.1,nginx", "--db", "sqlite:///{tmp}/ra.db"],
            "--forwarded-allow-ips: 'nginx' is not an IP address or network",
        ),
        (["--metrics-from", "10.0.0.0/33", "--db", "sqlite:///{tmp}/ra.db"], "--metrics-from: '10.0.0.0/33'"),
        (["--db", "postgresql+psycopg://nobody:wrong@127.0.0.1:1/x"], "cannot open the database"),
    ],
)
def test_bad_options_give_one_line(args: list[str], says: str, tmp_path: Path) -> None:
    result = serve(*(a.replace("{tmp}", str(tmp_path)) for a in args))
    assert result.returncode == 2, result.stderr
    assert says in result.stderr
    assert result.stderr.startswith("error: ") and len(result.stderr.splitlines()) == 1, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert "wrong" not in result.stderr  # a password is never echoed


def test_busy_port_is_named(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        result = serve("--port", str(port), "--db", f"sqlite:///{tmp_path}/ra.db")
    assert result.returncode == 2 and "the port is in use" in result.stderr


def test_a_worker_does_not_import_the_migrations_tool() -> None:
    """The server's workers never migrate (``ra serve`` does, before it starts them): a worker
    importing Alembic's autogenerate logged a line per plugin at each start, 14 with two workers."""
    code = "import sys, ra.web.app; print(sorted(m for m in sys.modules if m.split('.')[0] == 'alembic'))"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "[]"
