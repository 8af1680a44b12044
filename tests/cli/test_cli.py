"""The command line's error paths and texts: one-line messages, exit status 2, never a traceback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

import ra
from ra.cli import app as cli
from ra.tui import Session, plan_seats


@pytest.fixture(autouse=True)
def no_terminal_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """A command that would open the full-screen game must not (the tests check what comes before)."""
    from ra.tui import app as tui_app

    def refuse(self: object, **kw: object) -> None:
        raise AssertionError("the terminal game was started")

    monkeypatch.setattr(tui_app.PlayApp, "run", refuse)


def invoke(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), env=env)
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def saved_session(tmp_path: Path) -> dict[str, object]:
    s = Session.new(plan_seats(3, [], ["greedy"], "Ann"), seed=2, save_path=tmp_path / "ok.json")
    s.apply("draw")
    return s.to_document()


def bad_files(tmp_path: Path) -> dict[str, tuple[bytes, str]]:
    good = saved_session(tmp_path)
    wrong_seats = json.loads(json.dumps(good))
    wrong_seats["session"]["seats"] = wrong_seats["session"]["seats"][:2]
    bot_not_text = json.loads(json.dumps(good))
    bot_not_text["session"]["seats"][1]["bot"] = 7
    wrong_types = json.loads(json.dumps(good))
    wrong_types["decisions"] = [1, 2, 3]
    return {
        "latin1": (b"\xff\xfe\x00caf\xe9", "not UTF-8"),
        "nested": (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        "hugeint": (b'{"seed": ' + b"9" * 5000 + b"}", "not a game record"),
        "types": (json.dumps(wrong_types).encode(), "decision 1"),
        "seats": (json.dumps(wrong_seats).encode(), "2 saved seats for a 3-player game"),
        "botspec": (json.dumps(bot_not_text).encode(), "not a bot spec"),
        "list": (b"[1, 2]", "does not hold a game record"),
        "players": (json.dumps({**good, "players": "Ann"}).encode(), "players"),
    }


@pytest.mark.parametrize(
    "case", ["latin1", "nested", "hugeint", "types", "seats", "botspec", "list", "players"]
)
@pytest.mark.parametrize("command", ["replay", "play"])
def test_a_bad_file_gets_one_line_and_status_2(tmp_path: Path, case: str, command: str) -> None:
    data, message = bad_files(tmp_path)[case]
    path = tmp_path / f"{case}.json"
    path.write_bytes(data)
    args = ["replay", str(path)] if command == "replay" else ["play", "--load", str(path)]
    if command == "replay" and case in ("seats", "botspec"):
        return  # a replay reads only the game record, not the seats
    code, output = invoke(*args, env={"XDG_DATA_HOME": str(tmp_path)})
    assert code == 2, output
    assert output.startswith("error: ") and message in output, output
    assert len(output.strip().splitlines()) <= 2  # one message (wrapped at most once)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--players", "7"], "2 to 5 players, not 7"),
        (["play", "--players", "2", "--bots", "hard,hard"], "2 bots but 1 seat left for bots after 1 person"),
        (["play", "--humans", "A,B,C", "--players", "2"], "3 people for 2 seats"),
        (["play", "--humans", ",,"], "--humans ',,' has an empty name"),
        (["play", "--humans", "Ann, ,Bob"], "has an empty name"),
        (["play", "--seed", "-1"], "--seed must be 0 or more"),
        (["play", "--players", "2", "--suns-per-player", "5"], "--suns-per-player: with 2 players"),
        (["play", "--load", "a.json", "--resume"], "not both"),
        (["play", "--resume"], "no unfinished game"),
        (["play", "--save", "/etc/hostname/x.json"], "cannot save to"),
        (["demo", "--seed", "-1"], "--seed must be 0 or more, not -1"),
        (["demo", "--save", "/proc/no/such/dir/x.json"], "cannot save"),
        (["arena", "-n", "2", "--seed", "-1"], "--seed must be 0 or more, not -1"),
        (["arena", "-n", "2", "-j", "2", "--seed", "-1"], "--seed must be 0 or more, not -1"),
        (["arena", "-n", "2", "--out", "/proc/x.json"], "--out: cannot write"),
        (["arena", "-n", "2", "--csv", "/no/such/folder/x.csv"], "does not exist"),
        (["arena", "-n", "2", "--records", "/proc/games"], "--records: cannot write"),
        (["arena", "-p", "6"], "2 to 5 players, not 6"),
        (["play", "--disaster-timing", "2016"], "--disaster-timing: unknown disaster_timing '2016'"),
        (["play", "--load", "a.json", "--disaster-timing", "2008"], "its disaster timing (R3.5) comes from"),
    ],
)
def test_cli_errors_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    code, output = invoke(*args, env={"XDG_DATA_HOME": str(tmp_path)})
    assert code == 2, output
    assert message in output, output
    assert "variant='" not in output and "seat(s)" not in output


def test_arena_checks_output_paths_before_playing(tmp_path: Path) -> None:
    # 10,000 greedy games would take minutes: the check must come first.
    start = time.perf_counter()
    code, output = invoke("arena", "-n", "10000", "-q", "--out", str(tmp_path / "missing" / "r.json"))
    assert code == 2 and "does not exist" in output
    assert time.perf_counter() - start < 10


def test_arena_caps_its_workers_at_the_number_of_games(tmp_path: Path) -> None:
    code, output = invoke(
        "arena", "-n", "2", "-j", "1000", "-q", "-b", "random", "--out", str(tmp_path / "r.json")
    )
    assert code == 0, output
    assert "with 2 job(s)" in output or "with 2 jobs" in output
    config = json.loads((tmp_path / "r.json").read_text())["config"]
    assert config["jobs"] == 2


def start_parallel_arena(out: Path) -> subprocess.Popen[str]:
    """``ra arena -j 2`` of fast games in a process group of its own, once its workers are up (its
    SIGTERM handler is set before they start)."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ra.cli",
            "arena",
            "-n",
            "5000",
            "-j",
            "2",
            "-q",
            "-b",
            "greedy",
            "--out",
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
    deadline = time.monotonic() + 60
    while len(children.read_text().split()) < 3:  # the resource tracker and two workers
        assert proc.poll() is None and time.monotonic() < deadline, "the arena's workers never started"
        time.sleep(0.1)
    time.sleep(2)  # games finish and their results flow back
    return proc


def assert_stopped_like_ctrl_c(proc: subprocess.Popen[str], out: Path) -> None:
    try:
        stdout, stderr = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        raise AssertionError("ra arena did not stop within 60 s of SIGTERM") from None
    assert proc.returncode == 130, stdout + stderr
    assert "Interrupted" in stdout and "Traceback" not in stderr, stdout + stderr
    document = json.loads(out.read_text())
    assert document["interrupted"] is True and document["games_played"] > 0


@pytest.mark.slow
def test_arena_sigterm_prints_and_saves_like_ctrl_c(tmp_path: Path) -> None:
    proc = start_parallel_arena(tmp_path / "r.json")
    proc.send_signal(signal.SIGTERM)
    assert_stopped_like_ctrl_c(proc, tmp_path / "r.json")


def help_at_80(*args: str) -> str:
    env = {**os.environ, "COLUMNS": "80"}
    result = subprocess.run(
        [sys.executable, "-m", "ra.cli", *args, "--help"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_help_texts_fit_80_columns() -> None:
    root = help_at_80()
    assert "intervals, scores" not in root  # no stray line break in the arena summary
    assert "ra rules" in root
    play = help_at_80("play")
    assert "…" not in play  # nothing cut, the save location included
    assert "--open-scores" in play and "--resume" in play
    assert all(len(line) <= 80 for line in (root + play).splitlines())


def test_long_2p_alone_assumes_two_players(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ra.tui import app as tui_app

    seen: list[Session] = []
    monkeypatch.setattr(tui_app.PlayApp, "run", lambda self, **kw: seen.append(self.session))
    code, output = invoke(
        "play", "--variant", "long-2p", "--bots", "greedy", env={"XDG_DATA_HOME": str(tmp_path)}
    )
    assert code == 0, output
    game = seen[0].game
    assert game.num_players == 2 and game.setup.variant == "long-2p"
    assert game.setup.hidden_scores  # the rulebooks' default (R9.1)


def test_open_scores_option(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ra.tui import app as tui_app

    seen: list[Session] = []
    monkeypatch.setattr(tui_app.PlayApp, "run", lambda self, **kw: seen.append(self.session))
    code, output = invoke("play", "--open-scores", "-p", "2", env={"XDG_DATA_HOME": str(tmp_path)})
    assert code == 0, output
    assert not seen[0].game.setup.hidden_scores


def test_disaster_timing_option(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # R3.5: the variant "2008 disaster timing"; without the option, the default timing.
    from ra.tui import app as tui_app

    seen: list[Session] = []
    monkeypatch.setattr(tui_app.PlayApp, "run", lambda self, **kw: seen.append(self.session))
    env = {"XDG_DATA_HOME": str(tmp_path)}
    code, output = invoke("play", "--disaster-timing", "2008", "-p", "2", env=env)
    assert code == 0, output
    assert seen[0].game.setup.disaster_timing == "2008"
    code, output = invoke("play", "-p", "2", env=env)
    assert code == 0, output
    assert seen[1].game.setup.disaster_timing == "immediate"
    code, output = invoke("play", "--help", env=env)
    assert "--disaster-timing" in output


def test_rules_command_prints_the_packaged_reference() -> None:
    code, output = invoke("rules", "--plain")
    assert code == 0
    for section in range(1, 10):
        assert f"## R{section} " in output
    assert "R4.3" in output


def test_games_lists_saves_and_resume_picks_the_latest_unfinished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = {"XDG_DATA_HOME": str(tmp_path)}
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    older = Session.new(plan_seats(2, [], ["greedy"], "Ann"), seed=1)
    older.save()
    newer = Session.new(plan_seats(2, [], ["greedy"], "Bob"), seed=2)
    newer.apply("draw")
    newer.save()
    os.utime(older.save_path, (time.time() - 100, time.time() - 100))
    finished = Session.new(plan_seats(2, [], ["random"], "Cy"), seed=3)
    while not finished.game.is_over():
        finished.apply(finished.game.legal_actions()[0])
    finished.save()
    assert len({older.save_path, newer.save_path, finished.save_path}) == 3  # one file per game
    code, output = invoke("games", env=env)
    assert code == 0
    assert "Ann" in output and "Bob" in output and "finished" in output
    flat = output.replace("\n", "")
    assert f"ra replay {finished.save_path}" in flat  # a finished game is watched, not played on
    assert f"ra play --load {newer.save_path}" in flat
    # Loading a finished game says where to watch it and writes no copy of it.
    saves = sorted(p.name for p in finished.save_path.parent.iterdir())
    code, output = invoke("play", "--load", str(finished.save_path), env=env)
    assert code == 2 and "finished game" in output and "ra replay" in output, output
    assert sorted(p.name for p in finished.save_path.parent.iterdir()) == saves

    from ra.tui import app as tui_app

    seen: list[Session] = []
    monkeypatch.setattr(tui_app.PlayApp, "run", lambda self, **kw: seen.append(self.session))
    code, output = invoke("play", "--resume", env=env)
    assert code == 0, output
    assert seen[0].game.names[0] == "Bob" and seen[0].save_path == newer.save_path


def test_resume_keeps_the_edition_the_game_was_started_with(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 41: ``ra play --edition 2023`` then ``--resume`` showed the Ra track, not the sun boat."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    env = {"XDG_DATA_HOME": str(tmp_path)}
    from ra.tui import app as tui_app

    seen: list[tui_app.PlayApp] = []
    monkeypatch.setattr(tui_app.PlayApp, "run", lambda self, **kw: seen.append(self))
    code, output = invoke("play", "--edition", "2023", "-p", "2", "--bots", "greedy", env=env)
    assert code == 0, output
    assert (
        seen[0].edition == "2023"
        and json.loads(seen[0].session.save_path.read_text())["session"]["edition"] == "2023"
    )
    code, output = invoke("play", "--resume", env=env)
    assert code == 0, output
    assert seen[1].edition == "2023" and seen[1].session.edition == "2023"
    code, output = invoke("play", "--resume", "--edition", "2016", env=env)  # asked for: shown so
    assert code == 0, output
    assert seen[2].edition == "2016"
    # A save whose edition is not one is refused with the file and the editions named.
    data = json.loads(seen[0].session.save_path.read_text())
    data["session"]["edition"] = "1999"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    code, output = invoke("play", "--load", str(bad), env=env)
    assert code == 2 and "'1999'" in output and "original" in output and "Traceback" not in output, output


def test_a_damaged_save_is_listed_and_said_never_passed_over_in_silence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 41: a damaged save was left out of ``ra games`` and ``--resume`` took another game
    without a word."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    env = {"XDG_DATA_HOME": str(tmp_path)}
    good = Session.new(plan_seats(2, [], ["greedy"], "Ann"), seed=1)
    good.save()
    os.utime(good.save_path, (time.time() - 100, time.time() - 100))
    damaged = good.save_path.parent / "newer.json"
    damaged.write_text('{"format": "ra-record"')  # cut off mid-write
    code, output = invoke("games", env=env)
    assert code == 0 and "damaged" in output and "newer.json" in output.replace("\n", "") and "Ann" in output
    from ra.tui import app as tui_app

    seen: list[Session] = []
    monkeypatch.setattr(tui_app.PlayApp, "run", lambda self, **kw: seen.append(self.session))
    code, output = invoke("play", "--resume", env=env)
    assert code == 0, output
    assert "cannot be opened and was passed over" in output and "newer.json" in output.replace("\n", "")
    assert seen[0].game.names[0] == "Ann"


def test_load_never_overwrites_the_loaded_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    s = Session.new(plan_seats(2, [], ["greedy"], "Ann"), seed=1, save_path=tmp_path / "mine.json")
    s.save()
    before = (tmp_path / "mine.json").read_text()
    from ra.tui import app as tui_app

    seen: list[Session] = []
    monkeypatch.setattr(tui_app.PlayApp, "run", lambda self, **kw: seen.append(self.session))
    code, output = invoke("play", "--load", str(tmp_path / "mine.json"), env={"XDG_DATA_HOME": str(tmp_path)})
    assert code == 0, output
    assert seen[0].save_path != tmp_path / "mine.json"
    assert (tmp_path / "mine.json").read_text() == before
    assert str(seen[0].save_path) in output.replace("\n", "")


def test_ra_module_entry_point_runs() -> None:
    assert ra.__version__
    result = subprocess.run(
        [sys.executable, "-m", "ra.cli", "--version"], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0 and ra.__version__ in result.stdout


def run_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``ra ARGS`` through the console script's entry point (as a shell runs it)."""
    from ra.cli import main

    with pytest.raises(SystemExit) as done:
        main(list(args))
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    code = done.value.code
    return code if isinstance(code, int) else 1, out.out, out.err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--bogus"], "no such option: --bogus (did you mean --bots?)"),
        (["play", "--players", "x"], "--players: 'x' is not a whole number"),
        (["replay"], "missing argument FILE (see ra replay --help)"),
        (["nosuchcommand"], "No such command"),
        (["play", "--players", "9"], "Ra is for 2 to 5 players, not 9"),
        (["play", "--resume", "true"], "unexpected extra argument"),  # a flag takes no value
        (["replay", "no/such/game.json"], "cannot read 'no/such/game.json'"),
        (["analyze", "no/such/game.json"], "cannot read 'no/such/game.json'"),
        (["play", "--load", "no/such/game.json"], "cannot read 'no/such/game.json'"),
        (["demo", "--seed", "-1"], "--seed must be 0 or more"),
        (["arena", "--games", "0"], "--games must be at least 1"),
        (["arena", "--bots", "nobot"], "unknown bot 'nobot'"),
        (["play", "--suns-per-player", "3"], "--suns-per-player:"),  # a setup error, by its option
    ],
)
def test_every_error_is_one_line_with_status_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    # The parser's errors and the commands' own look alike: "error: ...", one line, status 2.
    code, _out, err = run_main(capsys, *args)
    assert code == 2, err
    assert err.startswith("error: ") and message in err, err
    assert len(err.strip().splitlines()) == 1, err
    assert "╭" not in err and ". (see" not in err


def test_help_shows_flags_as_flags_and_arguments_by_name(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    code, out, _ = run_main(capsys, "play", "--help")
    assert code == 0
    assert "--resume" in out and "<bool>" not in out
    assert "<int>" in out  # options that take a value still say which
    code, out, _ = run_main(capsys, "replay", "--help")
    assert "Usage: ra replay [OPTIONS] FILE" in out and "{" not in out.splitlines()[1]
    code, out, _ = run_main(capsys)
    assert code == 0 and "Commands" in out  # no command: the help, not an error


def test_every_command_has_plain_help(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    group = typer.main.get_command(cli)
    assert isinstance(group, typer.core.TyperGroup)
    names = sorted(group.commands)
    assert {"demo", "play", "replay", "serve", "arena", "analyze"} <= set(names)
    for name in names:
        code, out, _ = run_main(capsys, name, "--help")
        usage = next(line for line in out.splitlines() if "Usage:" in line)
        assert code == 0 and "<bool>" not in out, out
        assert usage.split() == ["Usage:", "ra", name, "[OPTIONS]", *usage.split()[4:]]
        assert "{" not in usage and all(word.isupper() for word in usage.split()[4:]), usage


def test_the_rules_pager_shows_colours(monkeypatch: pytest.MonkeyPatch) -> None:
    from ra.cli.common import pager_with_colours

    monkeypatch.delenv("LESS", raising=False)
    monkeypatch.delenv("PAGER", raising=False)
    with pager_with_colours():
        assert os.environ["LESS"] == "-R"  # less renders the escape codes as colours
    assert "LESS" not in os.environ
    monkeypatch.setenv("LESS", "-X")
    with pager_with_colours():
        assert os.environ["LESS"] == "-X"  # the user's own settings win
    monkeypatch.delenv("LESS")
    monkeypatch.setenv("PAGER", "more")
    with pager_with_colours():
        assert "LESS" not in os.environ


def test_version_is_the_installed_packages(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    code, out, _ = run_main(capsys, "--version")
    assert code == 0
    assert (
        out.splitlines()[0] == f"ra-boardgame {version('ra-boardgame')}" == f"ra-boardgame {ra.__version__}"
    )
    assert out.splitlines()[1].startswith("native core:")


def test_the_resume_hint_names_a_command_that_works_in_a_new_shell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ra.cli.common import ra_command

    script = tmp_path / "venv" / "bin" / "ra"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    monkeypatch.setattr(sys, "argv", [str(script)])
    monkeypatch.setenv("PATH", "/usr/bin:/bin")  # the environment is not activated
    assert ra_command() == str(script.resolve())
    monkeypatch.setenv("PATH", f"{script.parent}:/usr/bin:/bin")  # activated: plain "ra" works
    assert ra_command() == "ra"
