"""The baseline pipeline: a tiny run end to end (needs torch), and a run cut off continues."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from rich.progress import Progress

import ra
from ra.bots.policy import load

pytest.importorskip("numpy", reason="the pipeline stores its rows with numpy (the train extra)")
if not ra.native_available():
    pytest.skip("the pipeline needs the native core", allow_module_level=True)

from ra.train import net
from ra.train.measure import read_log
from ra.train.pipeline import Run, RunConfig
from ra.train.workers import Local

TINY = RunConfig(
    seed=3,
    generations=1,
    games=4,
    chunk=2,
    iterations=40,
    epochs=2,
    hidden=(16,),
    match_games=2,
    match_games_3p=3,
    ladder_games=2,
    ladder=("random", "expert"),
)


def test_a_tiny_run_end_to_end(tmp_path: Path) -> None:
    """Self-play, a fitted policy, matches, results and the curve: one generation, from nothing."""
    pytest.importorskip("torch", reason="fitting needs torch: pip install torch==2.13.0 (the train extra)")
    progress = Progress(disable=True)
    report = Run(tmp_path, TINY, progress).all()
    said = [task.description for task in progress.tasks]
    assert "self-play gen 0 (in this process)" in said
    where = {"cpu": "the CPU", "cuda": "the GPU"}[net.fit_device()]  # the GPU when torch finds one
    assert any(line.startswith("fit gen 1 (") and line.endswith(f" rows, on {where})") for line in said)
    policy = load(tmp_path / "gen1" / "policy.json")
    assert policy.sizes == (370, 16, 54) and policy.info["generation"] == 1
    assert policy.info["device"] == net.fit_device()
    assert policy.info["rows"] == len(net.load_rows(sorted((tmp_path / "gen0").glob("rows_*.npz")))["obs"])
    gen1 = report["generations"]["1"]
    assert set(gen1) == {"previous_2p", "expert_2p", "expert_3p", "ladder_random", "ladder_expert"}
    assert gen1["expert_3p"]["pairs"] == 2 * gen1["expert_3p"]["games"]  # two expert seats a game
    assert set(report["generations"]["0"]) == {"ladder_random", "ladder_expert"}
    assert json.loads((tmp_path / "results.json").read_text(encoding="utf-8")) == report
    assert (tmp_path / "curve.svg").read_text(encoding="utf-8").startswith("<svg")
    assert "| 1 | expert_3p (`expert:iterations=40`) | 3 |" in (tmp_path / "results.md").read_text(
        encoding="utf-8"
    )
    # Everything is there: a second run does nothing and reports the same.
    assert Run(tmp_path, TINY).all() == report


def test_a_run_fits_a_value_net_beside_the_policy(tmp_path: Path) -> None:
    """With value_hidden, a generation's fit also writes its value net, with its held-out numbers
    and the 1/N baseline's (issue 53); without it, none."""
    pytest.importorskip("torch", reason="fitting needs torch: pip install torch==2.13.0 (the train extra)")
    from ra.bots.value_net import load as load_value

    run = Run(tmp_path, replace(TINY, value_hidden=(8,)))
    run.selfplay(0)
    run.fit(1)
    value = load_value(tmp_path / "gen1" / "value_net.json")
    assert value.sizes == (370, 8, 1) and value.info["generation"] == 1
    for key in ("held_out_log_loss", "baseline_log_loss", "held_out_calibration", "baseline_calibration"):
        assert 0.0 <= value.info[key] < 10.0
    assert (tmp_path / "gen1" / "policy.json").exists()
    plain = Run(tmp_path / "plain", TINY)
    plain.selfplay(0)
    plain.fit(1)
    assert not (tmp_path / "plain" / "gen1" / "value_net.json").exists()


def test_a_run_cut_off_continues_where_it_stopped(tmp_path: Path) -> None:
    """A lost chunk of self-play and a half-played match are made again, the same as before."""
    run = Run(tmp_path, TINY)
    run.selfplay(0)
    run.ladder(0)
    chunks = sorted((tmp_path / "gen0").glob("rows_*.npz"))
    assert len(chunks) == 2
    before = net.load_rows(chunks)
    chunks[1].unlink()
    log = tmp_path / "gen0" / "match_ladder_expert.jsonl"
    games = read_log(log)
    log.write_text(log.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    again = Run(tmp_path, TINY)
    again.selfplay(0)
    again.ladder(0)
    after = net.load_rows(chunks)
    assert all((before[k] == after[k]).all() for k in before)
    replayed = read_log(log)
    for result in (*replayed.values(), *games.values()):
        result.seconds = []  # the clock's, not the game's
    assert replayed == games


def test_a_run_refuses_other_settings(tmp_path: Path) -> None:
    Run(tmp_path, TINY)
    with pytest.raises(ValueError, match="other settings"):
        Run(tmp_path, RunConfig(seed=4))


def test_a_run_started_from_a_policy_searches_with_it_from_generation_0(tmp_path: Path) -> None:
    """``start``: generation 0 is the policy's search (its self-play and its matches), not the plain
    search; the policy is kept in the run's folder."""
    from ra.bots.policy import PolicySearchBot, default_policy

    shipped = default_policy()
    assert shipped is not None
    run = Run(tmp_path, replace(TINY, start="shipped", c_puct=0.5))
    assert json.loads((tmp_path / "gen0" / "policy.json").read_text(encoding="utf-8")) == shipped.to_dict()
    view = ra.Game(players=2, seed=1, hidden_scores=True).view(0)
    options = run.search_options(0)(view)
    assert options["prior"] == shipped.flat and options["c_puct"] == 0.5
    assert isinstance(run.lineup.make("gen0", seed=1), PolicySearchBot)
    plain = Run(tmp_path / "plain", TINY)
    assert "prior" not in plain.search_options(0)(view)
    assert not isinstance(plain.lineup.make("gen0", seed=1), PolicySearchBot)


def test_self_play_in_worker_processes_stores_the_same_rows(tmp_path: Path) -> None:
    """Each game's seed is its own: two workers store the rows one process does."""
    one, two = Run(tmp_path / "one", TINY), Run(tmp_path / "two", TINY, workers=Local(2))
    one.selfplay(0)
    two.selfplay(0)
    for name in ("rows_0000.npz", "rows_0001.npz"):
        a, b = (net.load_rows([run.gen(0) / name]) for run in (one, two))
        assert a.keys() == b.keys() and all((a[k] == b[k]).all() for k in a)


def test_a_run_made_before_a_setting_existed_continues(tmp_path: Path) -> None:
    """A ``config.json`` without a later setting (``start``) holds that setting's default."""
    Run(tmp_path, TINY)
    saved = json.loads((tmp_path / "config.json").read_text(encoding="utf-8"))
    del saved["start"]
    (tmp_path / "config.json").write_text(json.dumps(saved), encoding="utf-8")
    Run(tmp_path, TINY)
    assert "start" in json.loads((tmp_path / "config.json").read_text(encoding="utf-8"))
    with pytest.raises(ValueError, match="other settings"):
        Run(tmp_path, replace(TINY, start="shipped"))


def test_a_run_made_again_leaves_its_settings_file_alone(tmp_path: Path) -> None:
    """A worker makes the run again from its folder per chunk: the same settings are not rewritten."""
    Run(tmp_path, TINY)
    before = (tmp_path / "config.json").stat()
    Run(tmp_path, TINY)
    after = (tmp_path / "config.json").stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--start", "nowhere/policy.json"], "cannot read the policy nowhere/policy.json"),
        (["--jobs", "0"], "--jobs must be 1 or more, got 0"),
        (["--seed", "9"], "was made with other settings"),
    ],
)
def test_the_command_refuses_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    from ra.train.__main__ import main

    folder = tmp_path / "run"
    if argv[0] == "--seed":
        Run(folder, RunConfig())
    with pytest.raises(SystemExit) as stop:
        main([str(folder), "--quiet", *argv])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
    if argv[0] == "--start":
        assert not (folder / "config.json").exists()  # nothing made: the right path may follow


def test_a_run_started_from_a_file_continues_without_it(tmp_path: Path) -> None:
    """The policy is copied into the run when it is made; the file may go afterwards."""
    from ra.bots.policy import SHIPPED_POLICY

    source = tmp_path / "start.json"
    source.write_bytes(SHIPPED_POLICY.read_bytes())
    config = replace(TINY, start=str(source))
    Run(tmp_path / "run", config)
    source.unlink()
    assert "prior" in Run(tmp_path / "run", config).search_options(0)(ra.Game(2, seed=1).view(0))
