"""``ra learn`` in the terminal, headless with Textual's pilot (issue 24): the guided game to its
end by keys, a wrong move per chapter refused with the state unchanged, resumed after leaving."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from textual.widgets import Static
from typer.testing import CliRunner

from ra.cli import app as cli
from ra.learn import Lesson, load_chapters
from ra.tiles import Tile
from ra.tui.learn import LearnApp, load_progress, save_progress
from tests.tui.test_app import screen_text

CHAPTERS = load_chapters()


def key_of(app: LearnApp, action: str) -> str:
    """The key of a move, as ``ra play`` has it (a bid's key is its sun's number)."""
    return {str(a): k for a, k in app.moves().by_action().items()}[action]


def flat(app: LearnApp) -> str:
    """The screen's words on one line (a wrapped sentence whole)."""
    return " ".join(screen_text(app).split())  # type: ignore[arg-type]


def moves_of(app: LearnApp) -> list[str]:
    return [str(a) for a in app.moves().by_action()]


def test_the_guided_game_by_keys_to_the_offer_of_a_real_game(tmp_path: Path) -> None:
    save = tmp_path / "learn.json"
    app = LearnApp(Lesson(CHAPTERS[0]), save)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for n, chapter in enumerate(CHAPTERS):
                assert f"Chapter {n + 1} of {len(CHAPTERS)}" in screen_text(app)  # type: ignore[arg-type]
                wrong_tried = False
                for step in chapter.steps:
                    moves = moves_of(app)
                    wrong = next((a for a in moves if not step.accepts(a)), None)
                    if wrong is not None and not wrong_tried:
                        before = (app.lesson.done, app.lesson.game.to_record())
                        await pilot.press(key_of(app, wrong))
                        assert (app.lesson.done, app.lesson.game.to_record()) == before
                        hint = app.w(chapter.key(f"{app.lesson.done}.hint"))
                        assert str(app.message) == hint
                        wrong_tried = True
                    await pilot.press(key_of(app, next(a for a in moves if step.accepts(a))))
                    assert str(app.message).startswith("Right!")
                assert wrong_tried and app.lesson.finished
                await pilot.press("enter")
            await pilot.pause()

    asyncio.run(main())
    assert app.play_next  # the last Enter asks for a game against easy bots


def test_leaving_and_resuming_keeps_the_chapter_and_its_moves(tmp_path: Path) -> None:
    save = tmp_path / "learn.json"
    app = LearnApp(Lesson(CHAPTERS[0]), save)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("c", "6")  # the chapter list: skip ahead to Unrest
            await pilot.press(key_of(app, "ra"))
            await pilot.press("q")

    asyncio.run(main())
    lesson = load_progress(save, CHAPTERS)
    assert (lesson.chapter.id, lesson.made) == ("unrest", ["ra"])
    assert json.loads(save.read_text())["format"] == "ra-learn"


def test_the_footer_names_the_keys_that_work_in_any_case(tmp_path: Path) -> None:
    """Issue 41: the footer said "C: chapters; R: …; Q: quit" and capital C, R and Q did nothing;
    now r invokes Ra as in the game, so the chapter starts again with x."""
    save = tmp_path / "learn.json"
    app = LearnApp(Lesson(CHAPTERS[0]), save)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            footer = str(app.query_one("#keys", Static).render())
            assert "c: chapters" in footer and "x: start the chapter again" in footer and "q: quit" in footer
            await pilot.press("C", "6")
            assert app.lesson.chapter.id == "unrest"
            await pilot.press("R")  # Shift does not matter: invoke Ra
            assert app.lesson.made == ["ra"]
            await pilot.press("X")  # the chapter again, from its start
            assert app.lesson.made == []
            await pilot.press("Q")

    asyncio.run(main())
    assert not app.is_running


@pytest.mark.parametrize(
    ("lang", "keys"),
    [
        ("en", ("Keys as in ra play", "x: start the chapter again")),
        ("ru", ("Клавиши как в ra play", "x — начать главу заново")),
        ("de", ("Tasten wie in ra play", "x: Kapitel neu beginnen")),
    ],
)
def test_the_learner_moves_with_the_keys_of_the_real_game(
    tmp_path: Path, lang: str, keys: tuple[str, ...]
) -> None:
    """Issue 41: ``ra learn`` chose moves by menu number (in chapter 2, ``2`` bid sun 5) where
    ``ra play`` has ``d``, ``r``, ``p`` and a sun's own number."""
    app = LearnApp(Lesson(CHAPTERS[1]), tmp_path / "learn.json", lang=lang)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            shown = screen_text(app)  # type: ignore[arg-type]
            assert all(k in shown for k in keys), shown
            assert " d " in shown and " r " in shown  # each move with its key
            await pilot.press("r")
            assert app.lesson.made == ["ra"]
            assert " 2 " in screen_text(app) and " 9 " in screen_text(app)  # type: ignore[arg-type]
            await pilot.press("2")
            assert app.lesson.made == ["ra", "bid 2"]

    asyncio.run(main())


def test_the_intro_is_shown_only_while_it_describes_the_board(tmp_path: Path) -> None:
    """Issue 41: chapter 5's intro ("Three Pharaohs and a Funeral lie on the auction track") stayed
    on screen after the auction had taken them."""
    funeral = next(c for c in CHAPTERS if c.id == "funeral_drought")
    intro = "Three Pharaohs and a Funeral"
    app = LearnApp(Lesson(funeral), tmp_path / "learn.json")

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            assert intro in flat(app)
            await pilot.press("r", "2")
            await pilot.pause()
            assert app.lesson.done == 2 and Tile.FUNERAL not in app.lesson.game.track_tiles()
            assert intro not in flat(app)

    asyncio.run(main())


def test_ctrl_c_quits_the_guided_game_keeping_its_progress(tmp_path: Path) -> None:
    """Issue 41: Ctrl-C showed Textual's own English notice ("Press ctrl+q to quit the app")."""
    save = tmp_path / "learn.json"
    app = LearnApp(Lesson(CHAPTERS[0]), save, lang="ru")

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press(key_of(app, "draw"))
            await pilot.press("ctrl+c")
            await pilot.pause()
            assert app.return_code is not None  # quitting, not a notice about ctrl+q

    asyncio.run(main())
    assert load_progress(save, CHAPTERS).made == ["draw"]


@pytest.mark.parametrize(
    ("content", "why"),
    [
        ("{", "not JSON text"),
        ('{"format": "x"}', "not a ra-learn file"),
        ('{"format": "ra-learn", "chapter": "unrest", "made": ["ra", "x"]}', "move 2"),
    ],
)
def test_a_damaged_progress_file_is_refused_naming_what_is_wrong(
    tmp_path: Path, content: str, why: str
) -> None:
    path = tmp_path / "learn.json"
    path.write_text(content)
    with pytest.raises(ValueError, match=why):
        load_progress(path, CHAPTERS)


def test_progress_round_trip(tmp_path: Path) -> None:
    lesson = Lesson(CHAPTERS[4], ["ra", "bid 6"])
    save_progress(tmp_path / "p" / "learn.json", lesson)
    again = load_progress(tmp_path / "p" / "learn.json", CHAPTERS)
    assert again.game.to_record() == lesson.game.to_record()


def test_cli_help_and_a_bad_chapter_number() -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["learn", "--help"])
    assert result.exit_code == 0 and "--chapter" in result.output and "easy bots" in result.output
    result = runner.invoke(cli, ["learn", "--chapter", "99"])
    assert result.exit_code == 2


@pytest.mark.parametrize("lang", ["en", "ru", "de"])
def test_the_moves_stay_on_screen_at_60_by_20(tmp_path: Path, lang: str) -> None:
    """Issue 41 (German at 60×20): a chapter's text and the board pushed the moves below the
    window, to be scrolled to; now they sit above the keys, always in view."""
    from ra.labels import action_label

    app = LearnApp(Lesson(CHAPTERS[1]), tmp_path / "learn.json", lang=lang)
    seen: list[str] = []

    async def main() -> None:
        async with app.run_test(size=(60, 20)) as pilot:
            await pilot.pause()
            seen.append(screen_text(app))  # type: ignore[arg-type]

    asyncio.run(main())
    labels = [action_label(a, lang=lang) for a in app.moves().by_action()]
    assert labels and all(label in seen[0] for label in labels), seen[0]
