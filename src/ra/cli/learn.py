"""``ra learn``: the guided first game (issue 24), then a real game against easy bots."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from ra.cli.common import HELP, error_text, fail, lang, w
from ra.learn import ChapterError, chapter_dir, load_chapters


def learn_command(
    chapter: Annotated[
        int | None,
        typer.Option(
            "--chapter",
            "-c",
            help=HELP("learn.help.chapter", total=len(list(chapter_dir().glob("*.json")))),
            show_default=False,
        ),
    ] = None,
    restart: Annotated[bool, typer.Option("--restart", help=HELP("learn.help.restart"))] = False,
) -> None:
    """A guided first game, chapter by chapter; progress is saved and resumed."""
    from ra.learn import Lesson
    from ra.tui.learn import LearnApp, load_progress, progress_path

    try:
        chapters = load_chapters()
    except ChapterError as err:
        raise fail(str(err)) from None
    if chapter is not None and not 1 <= chapter <= len(chapters):
        raise fail(w()("learn.err.chapter", chapter=chapter, total=len(chapters)))
    path = progress_path()
    note = ""
    lesson = Lesson(chapters[0])
    if chapter is not None:
        lesson = Lesson(chapters[chapter - 1])
    elif path.exists() and not restart:
        try:
            lesson = load_progress(path, chapters)
        except ValueError as err:
            note = w()("learn.bad_progress", path=str(path), why=error_text(err))
    app = LearnApp(lesson, path, lang=lang(), note=note)
    app.run()
    if app.play_next:
        from ra.cli.play import play_command

        Console().print(w()("learn.all_done"), highlight=False)
        play_command(bots_list="easy,easy")
