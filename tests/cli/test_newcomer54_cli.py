"""The command line of issue 54: the system's own errors (a file's, JSON's, Typer's) in our
words, in German and Russian as in English.  In-process: ``main`` chooses the language."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ra.cli import main
from ra.cli.language import choose, lang
from ra.words import Msg, msg, words

LANGS = ("de", "ru")


@pytest.fixture(autouse=True)
def _keep_the_language() -> Iterator[None]:
    """``main`` chooses the command line's language for the process: put it back after."""
    before = lang()
    yield
    choose(before)


def ra_stderr(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """What ``ra args`` writes on stderr; it must end as a one-line error (status 2)."""
    with pytest.raises(SystemExit) as ended:
        main(list(args))
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return " ".join(err.split())


def files(tmp_path: Path) -> dict[str, tuple[Path, Msg, str]]:
    """Files that are no game: the file, our words for why, and the system's English we showed."""
    (tmp_path / "notes.json").write_text("hello", encoding="utf-8")
    (tmp_path / "empty.json").write_text("{}", encoding="utf-8")
    (tmp_path / "folder.json").mkdir()
    return {
        "not JSON": (tmp_path / "notes.json", msg("record.json", line=1, column=1), "Expecting value"),
        "no players": (tmp_path / "empty.json", msg("record.no_field", field="'players'"), "has no"),
        "missing": (tmp_path / "gone.json", msg("os.enoent"), "No such file"),
        "a folder": (tmp_path / "folder.json", msg("os.eisdir"), "Is a directory"),
    }


@pytest.mark.parametrize("lang_", LANGS)
@pytest.mark.parametrize("case", ["not JSON", "no players", "missing", "a folder"])
def test_a_file_that_is_no_game_is_refused_in_the_readers_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lang_: str, case: str
) -> None:
    """ "record is not valid JSON: Expecting value…", "No such file or directory", "Is a
    directory" stood in English inside German and Russian errors."""
    path, why, english = files(tmp_path)[case]
    for command in (["replay"], ["play", "--load"], ["analyze"]):
        err = ra_stderr(capsys, "--lang", lang_, *command, str(path))
        assert words(lang_).render(why) in err, err
        assert english not in err and "record" not in err, err


def test_english_keeps_its_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The English of the same errors says the same facts (and no Python exception's text)."""
    said = {case: ra_stderr(capsys, "replay", str(path)) for case, (path, _, _) in files(tmp_path).items()}
    assert "record is not valid JSON (line 1, column 1)" in said["not JSON"]
    assert "record has no 'players' field" in said["no players"]
    assert said["missing"].endswith("no such file") and said["a folder"].endswith("it is a folder")


@pytest.mark.parametrize("lang_", LANGS)
def test_an_unknown_command_suggests_in_the_readers_words(
    capsys: pytest.CaptureFixture[str], lang_: str
) -> None:
    """Typer appends "Did you mean 'play', 'replay'?" in English to our "unknown command"."""
    err = ra_stderr(capsys, "--lang", lang_, "repla")
    assert "Did you mean" not in err, err
    w = words(lang_)
    assert w("click.no_such_command").replace("{name!r}", "'repla'").rstrip(".") in err  # Click's own format
    assert w("cli.usage.did_you_mean", options="'replay', 'play', 'arena'") in err, err


@pytest.mark.parametrize("args", [["--lang", "de"], ["--lang=ru"], ["--lang", "en"]])
def test_ra_with_only_a_language_prints_the_help(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    """``ra`` alone prints the help; ``ra --lang de`` alone said "missing command"."""
    with pytest.raises(SystemExit) as ended:
        main(args)
    assert ended.value.code == 0
    out = capsys.readouterr()
    assert out.err == ""
    assert "ra rules" in out.out and "replay" in out.out and "--lang" in out.out, out.out


def in_a_terminal(tmp_path: Path, keys: list[bytes], lang_: str = "en") -> tuple[int | None, str]:
    """``ra puzzle --id 1`` in a real terminal (a pseudo-terminal), each of ``keys`` typed once
    a prompt (``…: ``) is shown: the exit status (None: still waiting after 20 s, then ended)
    and everything on screen."""
    import os
    import pty
    import select
    import subprocess
    import sys
    import time

    main_fd, side = pty.openpty()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "COLUMNS": "80", "TERM": "xterm"}
    args = [sys.executable, "-c", "from ra.cli import main; main()", "--lang", lang_, "puzzle", "--id", "1"]
    proc = subprocess.Popen(args, stdin=side, stdout=side, stderr=side, env=env, close_fds=True)
    os.close(side)
    seen, todo, deadline = b"", list(keys), time.monotonic() + 20
    while proc.poll() is None and time.monotonic() < deadline:
        if select.select([main_fd], [], [], 0.1)[0]:
            try:
                seen += os.read(main_fd, 65536)
            except OSError:  # the terminal closed: the program ended
                break
        if todo and seen.endswith(b": "):
            os.write(main_fd, todo.pop(0))
    try:
        code: int | None = proc.wait(timeout=5)
    except subprocess.TimeoutExpired:  # waiting for more keys
        proc.kill()
        proc.wait(timeout=10)
        code = None
    os.close(main_fd)
    return code, seen.decode("utf-8", "replace")


@pytest.mark.parametrize(("lang_", "key"), [("en", b"q"), ("ru", "й".encode())])
def test_q_stops_the_puzzles_at_once_without_enter(tmp_path: Path, lang_: str, key: bytes) -> None:
    """``q`` needed Enter after it: on a terminal it stops at once (``й``, where ``q`` is on a
    Russian keyboard, too), and the rating is still said."""
    code, screen = in_a_terminal(tmp_path, [key], lang_)
    assert code == 0, screen
    assert words(lang_)("puzzle.bye", rating=1500, path=str(tmp_path / "ra" / "puzzles.json"))[:20] in screen
