"""``ra arena --backend ray``: a local Ray with 2 workers plays exactly the process backend's games."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ra import arena
from ra.arena.runner import GameResult
from ra.cli import app
from ra.web.testing import free_port
from tests.ray_head import ray_head

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("ray") is None,
    reason="Ray is not installed (pip install 'ra-boardgame[cluster]')",
)
"""Ray is imported where it is used: at the top it would cost every run's collection a second."""


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    import ray

    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    except Exception as err:  # any reason at all: this machine cannot run Ray
        pytest.skip(f"a local Ray cannot start here: {type(err).__name__}: {err}")
    yield
    ray.shutdown()


def key(r: GameResult) -> tuple[Any, ...]:
    # Everything but the thinking times.
    return (r.index, r.seed, r.rotation, r.seats, r.names, r.scores, r.winner, r.decisions, r.record, r.error)


@pytest.mark.slow
def test_ray_backend_gives_exactly_the_process_backend_results(local_ray: None) -> None:
    specs = arena.schedule(["greedy", "random", "easy"], players=3, games=6, seed=3)
    local, stopped = arena.run_games(specs, jobs=2, keep_records=True)
    seen: list[int] = []
    remote, interrupted = arena.run_games(
        specs, jobs=2, keep_records=True, backend="ray", on_result=lambda r: seen.append(r.index)
    )
    assert not stopped and not interrupted
    assert sorted(seen) == list(range(6))
    assert sorted(map(key, remote)) == sorted(map(key, local))


@pytest.mark.slow
def test_cli_backend_ray_writes_the_same_results(local_ray: None, tmp_path: Path) -> None:
    runner = CliRunner()
    docs = []
    for backend in ("process", "ray"):
        out = tmp_path / f"{backend}.json"
        args = ["arena", "-p", "2", "-b", "greedy,random", "-n", "4", "-j", "2", "--seed", "5", "-q"]
        result = runner.invoke(app, [*args, "--backend", backend, "--out", str(out)])
        assert result.exit_code == 0, result.output
        doc = json.loads(out.read_text())
        docs.append(sorted((g["index"], g["scores"], g["winner"]) for g in doc["games"]))
    assert docs[0] == docs[1]


def test_bad_backend_options_are_refused() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["arena", "-n", "1", "--backend", "slurm"])
    assert result.exit_code == 2 and "unknown backend 'slurm'" in result.output
    result = runner.invoke(app, ["arena", "-n", "1", "--address", "127.0.0.1:6379"])
    assert result.exit_code == 2 and "--address is for --backend ray" in result.output
    with pytest.raises(ValueError, match="unknown backend"):
        arena.run_games([], backend="slurm")


def test_an_unreachable_cluster_address_is_one_clear_line() -> None:
    address = f"127.0.0.1:{free_port()}"
    result = CliRunner().invoke(app, ["arena", "-n", "1", "-q", "--backend", "ray", "--address", address])
    assert result.exit_code == 2, result.output
    assert f"cannot connect to the Ray cluster at {address}" in result.output
    assert "Traceback" not in result.output


@pytest.mark.slow
def test_a_separately_started_cluster_plays_the_same_games() -> None:
    """A Ray head started by `ray start --head` in other processes, reached only by its address."""
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
    with ray_head(cpus=2) as (address, temp):
        docs: list[list[tuple[object, ...]]] = []
        for extra in ([], ["--backend", "ray", "--address", address]):
            out = temp / f"{len(docs)}.json"
            args = ["arena", "-p", "3", "-b", "greedy,random,easy", "-n", "6", "-j", "2", "--seed", "9", "-q"]
            run = subprocess.run(
                [sys.executable, "-m", "ra.cli", *args, *extra, "--out", str(out)],
                check=False,
                env=env,
                capture_output=True,
                text=True,
                timeout=300,
            )
            assert run.returncode == 0, run.stdout + run.stderr
            doc = json.loads(out.read_text())
            docs.append(sorted((g["index"], g["seed"], g["scores"], g["winner"]) for g in doc["games"]))
        assert len(docs[0]) == 6 and docs[0] == docs[1]
