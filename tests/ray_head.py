"""A Ray head started by `ray start --head` in processes of its own, for the tests that need a
cluster reached only by its address (the arena's and the game server's Ray backends)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ra.web.testing import free_port


@contextlib.contextmanager
def ray_head(cpus: int = 2) -> Iterator[tuple[str, Path]]:
    """``(address, its temp folder)`` of a running head; stopped (with its processes) after.

    Its own short session folder (Ray's socket paths must fit in 107 bytes), never the default
    cluster; ``--block`` keeps the head's processes in one process group, so they stop together
    (``ray stop`` would stop every Ray on the machine).  Skips the test where Ray cannot start.
    """
    port = free_port()
    temp = Path(tempfile.mkdtemp(prefix="ra-ray-", dir="/tmp"))
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
    start = [str(Path(sys.executable).with_name("ray")), "start", "--head", "--block", "--port", str(port)]
    start += ["--node-ip-address", "127.0.0.1", "--num-cpus", str(cpus), "--include-dashboard=false"]
    start += ["--temp-dir", str(temp)]
    log = temp / "head.log"
    with log.open("wb") as sink:
        head = subprocess.Popen(start, env=env, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        for _ in range(120):
            if head.poll() is not None:
                pytest.skip(f"`ray start --head` cannot run here: {log.read_text()[-300:]}")
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.5)
        yield f"127.0.0.1:{port}", temp
    finally:
        head.send_signal(signal.SIGINT)  # `ray start --block` stops its processes on Ctrl-C
        with contextlib.suppress(subprocess.TimeoutExpired):
            head.wait(timeout=20)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(head.pid, signal.SIGKILL)  # whatever is left of them
        shutil.rmtree(temp, ignore_errors=True)
