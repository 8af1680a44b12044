"""``ra guide``: the strategy guide (``ra/data/guide.md``, ``guide.ru.md``), shown like ``ra rules``."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from ra.cli.common import HELP, pager_with_colours, set_lang
from ra.cli.language import lang
from ra.guide import guide_text, reader_text


def guide_command(
    plain: Annotated[bool, typer.Option("--plain", help=HELP("guide.cli.plain"))] = False,
    language: Annotated[str | None, typer.Option("--lang", help=HELP("guide.cli.lang"))] = None,
) -> None:
    """The strategy guide: the value of a lot, suns, the Ra track, races, monuments."""
    if language is not None:
        set_lang(language)
    text = reader_text(guide_text(lang()))
    console = Console()
    if plain or not console.is_terminal or console.no_color or not console.color_system:
        typer.echo(text)  # a pipe, NO_COLOR or TERM=dumb: the plain text
        return
    from rich.markdown import Markdown

    with pager_with_colours(), console.pager(styles=True):
        console.print(Markdown(text))
