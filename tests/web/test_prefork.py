"""The test servers forked from a helper that has imported the server (``ra.web.prefork``): a
forked ``ra serve`` is the command line's own, with its own environment, log and exit status."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import httpx
import pytest

from ra.web.prefork import Forked, Forker
from ra.web.testing import Server


def forker() -> Forker:
    mine = Forker.mine()
    if mine is None:
        pytest.skip("forking is off here (RA_TEST_FORK=0, or no os.fork)")
    return mine


def test_a_refused_command_line_exits_with_its_status_and_says_why_in_its_log(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    child = forker().fork("ra.cli:main", ["serve", "--workers", "0"], {**os.environ, "LANG": "C.UTF-8"}, log)
    assert child.wait(30) == 2
    assert child.poll() == 2 and child.returncode == 2
    assert "error: " in log.read_text() and "--workers" in log.read_text()


def test_the_childs_environment_is_its_own(tmp_path: Path) -> None:
    """What one server's environment says (here the language of its command line's messages) is
    that server's alone: the helper it is forked from has the test process's environment."""
    log = tmp_path / "serve.log"
    child = forker().fork(
        "ra.cli:main", ["serve", "--workers", "0"], {**os.environ, "LANG": "ru_RU.UTF-8"}, log
    )
    assert child.wait(30) == 2
    assert "ошибка: " in log.read_text()  # the test above, in English: the same helper


@pytest.mark.slow
def test_a_forked_server_serves_stops_on_sigterm_and_dies_on_kill_9(tmp_path: Path, sqlite_url: str) -> None:
    forker()
    server = Server(sqlite_url, tmp_path / "server.log", env={"RA_MESSAGE_RATE": "1000"}).start()
    try:
        assert isinstance(server.proc, Forked)
        assert httpx.get(server.url + "/health").status_code == 200
        with pytest.raises(subprocess.TimeoutExpired):
            server.proc.wait(0.1)  # still serving
        server.kill9()
        assert server.proc.returncode == -signal.SIGKILL
        server.start()  # the same database, a new child
        assert httpx.get(server.url + "/api/games").status_code == 200
        os.killpg(server.proc.pid, signal.SIGTERM)
        assert server.proc.wait(30) in (0, -signal.SIGTERM)  # uvicorn re-raises SIGTERM
    finally:
        server.stop()
