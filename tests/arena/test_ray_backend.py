"""``ra arena --backend ray``: a local Ray with 2 workers plays exactly the process backend's games."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ra import arena
from ra.arena.runner import GameResult
from ra.cli import app

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'ra-boardgame[cluster]')")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    except Exception as err:  # any reason at all: this machine cannot run Ray
        pytest.skip(f"a local Ray cannot start here: {type(err).__name__}: {err}")
    yield
    ray.shutdown()


def key(r: GameResult) -> tuple[Any, ...]:
    # Everything but the thinking times.
    return (r.index, r.seed, r.rotation, r.seats, r.names, r.scores, r.winner, r.decisions, r.record, r.error)


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
