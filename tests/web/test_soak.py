"""A short soak (issue 40, finding 7: "a game that silently stops"): games between scripted
people and bots on a real server, killed with SIGKILL mid-play and started again, on one SQLite
process and on two PostgreSQL workers; no turn may reach its mover's page later than the stall
limit.  The long runs are ``benchmarks/soak.py``'s (their numbers are in the CHANGELOG)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


STALL = ("--stall", "10")
"""The silence that counts as a stall here: ten seconds, not the benchmarks' five. A game that
silently stops stays silent, whatever the limit; a turn merely slowed by the test run's own load
(four workers, Chromium and several servers on two cores) must not count as one: under such load
a two-hosts soak once saw one wait of five seconds among 1,200 decisions whose next slowest was
0.2 s; three more runs under the same load, at ten, saw none (issue 39)."""


SOAK_WITHIN = 280
"""Seconds a soak may run (a short one takes about 20): under the suite's 300 s a test, so a soak
that hangs is ended here, its processes with it, and says so."""


def soak(*args: str) -> dict[str, Any]:
    command = [sys.executable, str(ROOT / "benchmarks" / "soak.py"), "--json", *STALL, *args]
    run = subprocess.run(command, capture_output=True, text=True, timeout=SOAK_WITHIN, check=False)
    assert run.stdout, run.stderr
    result: dict[str, Any] = json.loads(run.stdout)
    assert result["stalls"] == [], f"stalls: {result['stalls']}"
    assert run.returncode == 0, result
    return result


def assert_every_game_played(result: dict[str, Any], tables: int) -> None:
    """Every table played to its end, with no stall, across at least one crash. A table whose
    set-up a crash cut (a join the server made, its answer lost: a seat nobody holds) is not
    played, as the soak counts it (``lost_in_set_up``); one such in a short soak is allowed (a CI
    run had one), as the two hosts' soak below allows it."""
    assert result["games"] + result["lost_in_set_up"] == tables, result
    assert result["lost_in_set_up"] <= 1, result
    assert result["finished"] == result["games"], result
    assert result["stalls"] == [] and result["crashes"] >= 1, result


@pytest.mark.slow
def test_a_short_soak_on_sqlite_with_a_crash_has_no_stall() -> None:
    result = soak("--games", "8", "--parallel", "4", "--kill-every", "4")
    assert_every_game_played(result, 8)


@pytest.mark.slow
def test_a_short_soak_on_two_postgresql_workers_with_a_crash_has_no_stall(pg_url: str) -> None:
    result = soak("--db", pg_url, "--workers", "2", "--games", "8", "--parallel", "4", "--kill-every", "4")
    assert_every_game_played(result, 8)


def can_make_hosts() -> bool:
    """Root with network namespaces (CI's machine; a container without CAP_NET_ADMIN has none)."""
    import os
    import shutil

    if os.geteuid() != 0 or not shutil.which("ip") or not shutil.which("nginx"):
        return False
    probe = subprocess.run(["ip", "netns", "add", "ra-probe"], capture_output=True, check=False)
    subprocess.run(["ip", "netns", "del", "ra-probe"], capture_output=True, check=False)
    return probe.returncode == 0


@pytest.mark.slow
def test_a_short_soak_across_two_hosts_with_one_killed_has_no_stall(pg_url: str) -> None:
    """Two hosts (network namespaces, each with two workers) behind one nginx, one PostgreSQL;
    host A is killed whole mid-game and its players carry on through host B."""
    if not can_make_hosts():
        pytest.skip("needs root, ip netns and nginx (CI's machine has them)")
    command = [sys.executable, str(ROOT / "benchmarks" / "two_hosts.py"), "--json"]
    command += ["--games", "12", "--parallel", "6", "--kill-every", "5", *STALL]
    run = subprocess.run(command, capture_output=True, text=True, timeout=SOAK_WITHIN, check=False)
    assert run.stdout, run.stderr
    result = json.loads(run.stdout)
    assert result["stalls"] == [], f"stalls: {result['stalls']}"
    assert run.returncode == 0 and result["crashes"] >= 1, result
    on_both, tables = (int(x) for x in result["tables_on_both_hosts"].split("/"))
    assert tables >= 11 and on_both >= 1
