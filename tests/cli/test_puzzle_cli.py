"""``ra puzzle`` (issue 24): answer by number or notation, a bad answer asked again, the rating
and streak kept in the data folder after each answer, a damaged file replaced, Russian words."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from ra.cli import app as cli
from ra.puzzles import load_puzzles

PUZZLES = load_puzzles()
BID = next(p for p in PUZZLES if p.answer.startswith("bid") and len(p.actions) >= 2)
NUMBER = PUZZLES.index(BID) + 1


def run(tmp_path: Path, *args: str, keys: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["puzzle", *args], input=keys, env={"XDG_DATA_HOME": str(tmp_path)})
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def saved(tmp_path: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads((tmp_path / "ra" / "puzzles.json").read_text())
    return data


def test_right_then_wrong_answers_move_the_rating_and_are_kept(tmp_path: Path) -> None:
    number = 1 + [str(a) for a in BID.game().legal_actions()].index(BID.answer)
    # The right answer by its number; then, for the next puzzle, a word that is not a move and a
    # number out of range (asked again), then its first move; then stop.
    code, out = run(tmp_path, "--id", BID.id, keys=f"{number}\n\nfly\n99\n1\nq\n")
    assert code == 0
    assert f"Puzzle {NUMBER} of {len(PUZZLES)}" in out and "Find the best move for you." in out
    assert "Right! That is the best move." in out
    assert "“fly” is not a move" in out
    first = saved(tmp_path)
    solver = first["solver"]
    assert isinstance(solver, dict) and solver["tried"] == 2 and BID.id in first["seen"]  # type: ignore[operator]
    ratings = [int(r) for r in re.findall(r"Your puzzle rating: (\d+) \(", out)]
    assert ratings[0] > 1500  # solved: up
    assert out.count("Streak:") == 2 and "Your move (1-" in out


def test_the_same_puzzle_again_is_not_rated(tmp_path: Path) -> None:
    run(tmp_path, "--id", BID.id, keys=f"{BID.answer}\nq\n")
    before = saved(tmp_path)["solver"]
    code, out = run(tmp_path, "--id", BID.id, keys=f"{BID.answer}\nq\n")
    assert code == 0 and "You have answered this puzzle before" in out
    assert saved(tmp_path)["solver"] == before


def test_a_damaged_progress_file_is_named_and_replaced(tmp_path: Path) -> None:
    path = tmp_path / "ra" / "puzzles.json"
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    code, out = run(tmp_path, "--id", BID.id, keys=f"{BID.answer}\nq\n")
    assert code == 0 and "is damaged" in " ".join(out.split())
    assert saved(tmp_path)["seen"] == [BID.id]


def test_bad_options_are_one_line_errors(tmp_path: Path) -> None:
    code, out = run(tmp_path, "--theme", "cooking", keys="")
    assert code == 2 and "There is no theme “cooking”" in out and "gods" in out
    code, out = run(tmp_path, "--id", "0-0", keys="")
    assert code == 2 and "There is no puzzle 0-0" in out


def test_in_russian_with_a_theme(tmp_path: Path) -> None:
    code, out = run(tmp_path, "--theme", "gods", "--lang", "ru", keys="q\n")
    assert code == 0 and "Найдите свой лучший ход." in out and "Жетоны богов" in out
    assert "Find the best" not in out


def test_ctrl_c_at_the_prompt_says_goodbye_on_a_line_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 41: Ctrl-C left the shell's prompt on the prompt's line; it ends with the shell's
    code for Ctrl-C, 130."""

    def interrupted(self: Console, prompt: str = "", **kw: object) -> str:
        self.print(prompt, end="")
        raise KeyboardInterrupt

    monkeypatch.setattr(Console, "input", interrupted)
    code, out = run(tmp_path, "--id", BID.id, keys="")
    assert code == 130
    lines = out.splitlines()
    prompt = next(i for i, line in enumerate(lines) if line.startswith("Your move (1-"))
    assert "Your puzzle rating:" not in lines[prompt] and lines[prompt + 1].startswith("Your puzzle rating:")


@pytest.mark.parametrize(
    ("lang", "heading"),
    [
        ("en", "Puzzle {n} of {total} · "),
        ("ru", "Задача {n} из {total} · "),
        ("de", "Aufgabe {n} von {total} · "),
    ],
)
def test_a_puzzle_is_headed_by_its_number_never_its_internal_id(
    tmp_path: Path, lang: str, heading: str
) -> None:
    """Issue 41: the header said "Puzzle 137-139" (an internal id); it says "Puzzle 12 of 320",
    and that number opens the puzzle again (``--id 12``)."""
    code, out = run(tmp_path, "--id", str(NUMBER), "--lang", lang, keys="q\n")
    assert code == 0 and heading.format(n=NUMBER, total=len(PUZZLES)) in out, out
    assert BID.id not in out
    code, again = run(tmp_path, "--id", BID.id, "--lang", lang, keys="q\n")  # the id still works
    assert code == 0 and heading.format(n=NUMBER, total=len(PUZZLES)) in again
