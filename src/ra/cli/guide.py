"""``ra guide``: the strategy guide (``ra/data/guide.md``, ``guide.ru.md``), shown like ``ra rules``."""

from __future__ import annotations

from importlib import resources
from typing import Annotated

import typer
from rich.console import Console

from ra import words as _words
from ra.cli.common import HELP, pager_with_colours, set_lang
from ra.cli.language import lang

POSITION_MARK = "<!-- position:"
"""Where a section's position is placed (the browser draws it; the terminal leaves it out)."""


def guide_text(language: str | None = None) -> str:
    """The strategy guide in a language (English where there is no translation)."""
    code = language or lang()
    if code in _words.PSEUDO_LANGS:  # the English guide, accented like the catalogue
        return "\n".join(
            _words.pseudo_text(line, wrap=False, keep_code=True) for line in guide_text("en").splitlines()
        )
    data = resources.files("ra").joinpath("data")
    name = "guide.md" if code == _words.DEFAULT_LANG else f"guide.{code}.md"
    path = data.joinpath(name)
    return (path if path.is_file() else data.joinpath("guide.md")).read_text(encoding="utf-8")


def reader_text(text: str) -> str:
    """The guide for reading: position markers removed."""
    return "\n".join(line for line in text.splitlines() if not line.startswith(POSITION_MARK))


def guide_command(
    plain: Annotated[bool, typer.Option("--plain", help=HELP("guide.cli.plain"))] = False,
    language: Annotated[str | None, typer.Option("--lang", help=HELP("guide.cli.lang"))] = None,
) -> None:
    """The strategy guide: the value of a lot, suns, the Ra track, races, monuments."""
    if language is not None:
        set_lang(language)
    text = reader_text(guide_text())
    console = Console()
    if plain or not console.is_terminal or console.no_color or not console.color_system:
        typer.echo(text)  # a pipe, NO_COLOR or TERM=dumb: the plain text
        return
    from rich.markdown import Markdown

    with pager_with_colours(), console.pager(styles=True):
        console.print(Markdown(text))
