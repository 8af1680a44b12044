"""Where the pipeline's games are played (``python -m ra.train --backend ray``, issue 53): a local Ray
of 2 workers stores the very bytes one process does; Ray missing or out of reach is said in one
line; the fit's device is the GPU when torch finds one."""

from __future__ import annotations

import importlib.util
import pickle
import socket
import sys
import zipfile
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import ra

pytest.importorskip("numpy", reason="the pipeline stores its rows with numpy (the train extra)")
if not ra.native_available():
    pytest.skip("self-play runs in the native core", allow_module_level=True)

from ra.train import net
from ra.train.__main__ import main
from ra.train.measure import read_log
from ra.train.pipeline import Run
from ra.train.workers import Local, RayWorkers, make
from tests.train.test_pipeline import TINY

HAS_RAY = importlib.util.find_spec("ray") is not None


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """A local Ray of 2 CPUs, started once for the module (it takes seconds)."""
    if not HAS_RAY:
        pytest.skip("Ray is not installed (pip install 'ra-boardgame[cluster]')")
    import ray

    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    except Exception as err:  # any reason at all: this machine cannot run Ray
        pytest.skip(f"a local Ray cannot start here: {type(err).__name__}: {err}")
    yield
    ray.shutdown()


def stored(run: Run, k: int) -> dict[str, bytes]:
    """Generation ``k``'s rows files, by name, as bytes."""
    return {p.name: p.read_bytes() for p in sorted(run.gen(k).glob("rows_*.npz"))}


def games(log: Path) -> list[tuple[object, ...]]:
    """A match log's games in the log's order, without the thinking times."""
    return [(r.index, r.seed, r.seats, r.scores, r.winner, r.decisions) for r in read_log(log).values()]


def same_as_one_process(tmp_path: Path) -> RayWorkers:
    """Self-play and a match of generation 0 on Ray's workers (2 at a time) and in this process:
    the same rows files byte for byte, the same games in the same order in the match's log (R9.1
    hidden scores; the seeds from generation and index).  The Ray run's workers, still open."""
    here = Run(tmp_path / "here", TINY)
    cluster = Run(tmp_path / "ray", TINY, workers=RayWorkers(jobs=2))
    assert cluster.workers.where() == "on a local Ray, 2 at a time"
    for run in (here, cluster):
        run.selfplay(0)
        run.match(0, "ladder_random", ["gen0", "random"], 4)
    rows = stored(here, 0)
    assert list(rows) == ["rows_0000.npz", "rows_0001.npz"]
    assert stored(cluster, 0) == rows
    logs = [games(run.gen(0) / "match_ladder_random.jsonl") for run in (here, cluster)]
    assert [g[0] for g in logs[1]] == [0, 1, 2, 3]  # in the games' order, whichever ended first
    assert logs[0] == logs[1]
    assert isinstance(cluster.workers, RayWorkers)
    return cluster.workers


def test_ray_with_two_workers_stores_the_bytes_one_process_does(tmp_path: Path, local_ray: None) -> None:
    """On a real local Ray (slow: its start takes seconds); the fast subset runs the same checks
    on a fake one (:func:`test_ray_workers_store_the_bytes_one_process_does_on_a_fake_ray`)."""
    same_as_one_process(tmp_path)


class FakeRay:
    """Ray's calls that :class:`RayWorkers` makes, in this process (a fake transport): each task's
    function and argument cross a pickle, as they cross to Ray's workers, and so does its result;
    the tasks run on 2 threads, as many at a time as the workers send."""

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(2)
        self.started = False
        self.cancelled: list[Future[Any]] = []

    def is_initialized(self) -> bool:
        return self.started

    def init(self, num_cpus: int, **options: object) -> None:
        self.started, self.cpus = True, num_cpus

    def shutdown(self) -> None:
        self.started = False
        self.pool.shutdown()

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": float(self.cpus)}

    def remote(self, num_cpus: int) -> Callable[[Callable[[Any], Any]], SimpleNamespace]:
        def wrap(fn: Callable[[Any], Any]) -> SimpleNamespace:
            def submit(item: Any) -> Future[Any]:
                fn_there, item_there = pickle.loads(pickle.dumps((fn, item)))
                return self.pool.submit(lambda: pickle.loads(pickle.dumps(fn_there(item_there))))

            return SimpleNamespace(remote=submit)

        return wrap

    def get(self, ref: Future[Any]) -> Any:
        return ref.result(timeout=60)

    def cancel(self, ref: Future[Any], force: bool) -> None:
        self.cancelled.append(ref)


def test_ray_workers_store_the_bytes_one_process_does_on_a_fake_ray(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What :func:`test_ray_with_two_workers_stores_the_bytes_one_process_does` checks on a real
    Ray, without a Ray's start: the rows files and the match's log in the tasks' order, the tasks
    and their results picklable; and a stop before the end cancels the tasks under way."""
    fake = FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    workers = same_as_one_process(tmp_path)
    assert fake.started
    results = workers.map(abs, [-3, 1, -2, 5, -4])
    assert isinstance(results, Generator) and next(results) == 3
    results.close()  # the caller stops early: the tasks sent and not read are cancelled
    assert len(fake.cancelled) == 1
    workers.close()
    assert not fake.started


def test_the_same_rows_make_the_same_file(tmp_path: Path) -> None:
    """A rows file's bytes hold no date of writing: two chunks of one game compare by their files."""
    run = Run(tmp_path / "one", TINY)
    run.selfplay(0)
    first = stored(run, 0)
    for path in run.gen(0).glob("rows_*.npz"):
        path.unlink()
    Run(tmp_path / "one", TINY, workers=Local(2)).selfplay(0)
    assert stored(run, 0) == first
    for path in run.gen(0).glob("rows_*.npz"):
        with zipfile.ZipFile(path) as archive:
            assert {entry.date_time for entry in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}
    data = net.load_rows(sorted(run.gen(0).glob("rows_*.npz")))
    assert data["obs"].shape[1] == 370 and len(data["obs"]) == len(data["target"]) > 0


def test_local_workers_give_results_in_the_tasks_order() -> None:
    assert list(Local(2).map(abs, [-3, 1, -2, 5, -4])) == [3, 1, 2, 5, 4]
    assert list(Local().map(abs, [-1])) == [1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """What ``python -m ra.train`` says when it refuses ``argv`` (exit 2, one line, no traceback)."""
    with pytest.raises(SystemExit) as stop:
        main([str(tmp_path / "run"), "--quiet", *argv])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err.strip().splitlines()[-1]


def test_ray_not_installed_is_said_with_the_extra_that_brings_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray: ImportError, as where it is missing
    said = refused(tmp_path, capsys, "--backend", "ray")
    assert said.endswith("the ray backend needs Ray: pip install 'ra-boardgame[cluster]'")


def test_a_cluster_out_of_reach_is_said_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if not HAS_RAY:
        pytest.skip("Ray is not installed (pip install 'ra-boardgame[cluster]')")
    address = f"127.0.0.1:{free_port()}"  # nothing listens there
    said = refused(tmp_path, capsys, "--backend", "ray", "--ray-address", address)
    assert f"cannot connect to the Ray cluster at {address}" in said


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--ray-address", "127.0.0.1:6379"], "--ray-address is for --backend ray"),
        (["--backend", "slurm"], "invalid choice: 'slurm'"),
        (["--backend", "ray", "--jobs", "0"], "--jobs must be 1 or more, got 0"),
    ],
)
def test_bad_backend_options_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    assert said in refused(tmp_path, capsys, *argv)


def test_make_names_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="unknown backend 'slurm'; backends are: local, ray"):
        make("slurm")
    assert make("local", 3).where() == "in 3 local processes"
    assert make("local").where() == "in this process"


@pytest.mark.parametrize(("gpu", "device"), [(True, "cuda"), (False, "cpu")])
def test_the_fit_runs_on_the_gpu_when_torch_finds_one(gpu: bool, device: str) -> None:
    """``torch.cuda.is_available()`` decides (no GPU here: torch's answer is given)."""
    torch = SimpleNamespace(cuda=SimpleNamespace(is_available=lambda: gpu))
    assert net.fit_device(torch) == device
    assert net.DEVICES[device] == {"cuda": "the GPU", "cpu": "the CPU"}[device]
