"""``ra rules`` in a terminal: paged with colours that ``less`` renders (``LESS=-R`` unless the user
set ``LESS`` or a pager of their own), plain text where colours cannot be shown (a pipe,
``NO_COLOR``, ``TERM=dumb``). Run in a real pseudo-terminal against a fake pager that records what
it was given."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

ESC = "\x1b["
RECORDER = """#!/bin/sh
# pydoc probes the pager with "(less) 2>/dev/null" on the terminal: say it exists.
[ -t 0 ] && exit 0
printf 'LESS=%s\\nargs=%s\\n' "${LESS-<unset>}" "$*" > "$RA_TEST_RECORD.env"
cat > "$RA_TEST_RECORD.text"
"""
RULES = [sys.executable, "-c", "from ra.cli import main; main(['rules'])"]


@pytest.fixture
def fake_pagers(tmp_path: Path) -> Path:
    """A folder of recording pagers: ``less``, ``mypager``, and ``pager`` (Debian's Python asks
    for ``pager`` before ``less``: a real one on the test's terminal would wait for keys)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("less", "mypager", "pager"):
        script = bin_dir / name
        script.write_text(RECORDER, encoding="utf-8")
        script.chmod(0o755)
    return bin_dir


def terminal_env(bin_dir: Path, record: Path, **extra: str) -> dict[str, str]:
    """A colour terminal's environment with no pager settings of the user's, plus ``extra``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("LESS", "PAGER", "MANPAGER", "NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "COLUMNS")
    }
    env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", TERM="xterm-256color")
    env.update(RA_TEST_RECORD=str(record), **extra)
    return env


def run_in_terminal(env: dict[str, str]) -> tuple[int, str]:
    """``ra rules`` with stdin, stdout and stderr on a pseudo-terminal; its status and screen."""
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen(RULES, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
    finally:
        os.close(slave)
    screen = b""
    deadline = time.monotonic() + 60
    try:
        while select.select([master], [], [], max(0.0, deadline - time.monotonic()))[0]:
            chunk = os.read(master, 65536)
            if not chunk:
                break
            screen += chunk
    except OSError:  # EIO: the terminal's other end closed
        pass
    finally:
        os.close(master)
    if proc.poll() is None and time.monotonic() >= deadline:
        proc.kill()  # a pager waiting for keys on the terminal: say so, never hang
        raise AssertionError(f"ra rules still ran after 60 s: {screen[-500:]!r}")
    return proc.wait(timeout=60), screen.decode("utf-8", "replace")


def test_less_gets_minus_r_and_the_colours(fake_pagers: Path, tmp_path: Path) -> None:
    record = tmp_path / "record"
    code, screen = run_in_terminal(terminal_env(fake_pagers, record))
    assert code == 0, screen
    assert "LESS=-R\n" in Path(f"{record}.env").read_text(encoding="utf-8")
    paged = Path(f"{record}.text").read_text(encoding="utf-8")
    assert ESC in paged and "R1" in paged  # the rules, styled
    assert "R1" not in screen  # all of it went through the pager


def test_the_users_less_settings_win(fake_pagers: Path, tmp_path: Path) -> None:
    record = tmp_path / "record"
    code, _ = run_in_terminal(terminal_env(fake_pagers, record, LESS="-X"))
    assert code == 0
    assert "LESS=-X\n" in Path(f"{record}.env").read_text(encoding="utf-8")


def test_a_pager_of_the_users_own_is_left_alone(fake_pagers: Path, tmp_path: Path) -> None:
    record = tmp_path / "record"
    code, _ = run_in_terminal(terminal_env(fake_pagers, record, PAGER=str(fake_pagers / "mypager")))
    assert code == 0
    assert "LESS=<unset>\n" in Path(f"{record}.env").read_text(encoding="utf-8")
    assert "R1" in Path(f"{record}.text").read_text(encoding="utf-8")


def test_less_named_in_pager_still_gets_colours(fake_pagers: Path, tmp_path: Path) -> None:
    record = tmp_path / "record"
    env = terminal_env(fake_pagers, record, PAGER=f"{fake_pagers / 'less'} -S")
    code, _ = run_in_terminal(env)
    assert code == 0
    assert Path(f"{record}.env").read_text(encoding="utf-8") == "LESS=-R\nargs=-S\n"


@pytest.mark.parametrize("extra", [{"NO_COLOR": "1"}, {"TERM": "dumb"}], ids=["NO_COLOR", "TERM=dumb"])
def test_no_colours_means_plain_text_and_no_pager(
    fake_pagers: Path, tmp_path: Path, extra: dict[str, str]
) -> None:
    record = tmp_path / "record"
    code, screen = run_in_terminal(terminal_env(fake_pagers, record, **extra))
    assert code == 0
    assert "## R1" in screen and ESC not in screen  # the Markdown source as it is
    assert not Path(f"{record}.env").exists()


def test_a_pipe_gets_plain_text(fake_pagers: Path, tmp_path: Path) -> None:
    record = tmp_path / "record"
    out = subprocess.run(
        RULES, env=terminal_env(fake_pagers, record), capture_output=True, text=True, timeout=60, check=True
    )
    assert "## R1" in out.stdout and ESC not in out.stdout
    assert not Path(f"{record}.env").exists()
