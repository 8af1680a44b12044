"""``ra guide``: the strategy guide (``ra/data/guide.md``, ``guide.ru.md``), shown like ``ra rules``."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

import ra
from ra.cli.common import HELP, pager_with_colours, set_lang
from ra.cli.language import lang
from ra.guide import POSITION_MARK, Position, guide_text, positions
from ra.labels import action_label
from ra.tui.render import auction_line, board_line, chance, players_table
from ra.words import languages, words


def position_text(position: Position, language: str) -> str:
    """A guide position in text: who is to move and what it shows, the board as the terminal game
    draws it (board line, auction track, players), and the advisor's win chance for each legal
    action (the best starred)."""
    w = words(language)
    game = position.game(language)
    view = game.view(position.mover)
    board = (
        board_line(view, lang=language).plain,
        auction_line(view, lang=language).plain,
        players_table(view, position.mover, lang=language).plain,
    )
    chances = " · ".join(
        f"{action_label(ra.Action.parse(a.action), lang=language)}"
        f"{' ★' if a.action == position.best else ''} {chance(a.win, language)}"
        for a in position.actions
    )
    return "\n".join(
        (
            f"**{w('guide.position', name=game.names[position.mover])}** "
            f"*{w(f'guide.caption.{position.name}')}*",
            "",
            "```",
            *board,
            "```",
            "",
            f"{w('guide.advisor')}: {chances}",
        )
    )


def with_positions(text: str, language: str) -> str:
    """The guide with each position marker replaced by the position in text."""
    stored = positions()
    return POSITION_MARK.sub(lambda m: position_text(stored[m.group(1)], language), text)


def guide_command(
    plain: Annotated[bool, typer.Option("--plain", help=HELP("guide.cli.plain"))] = False,
    language: Annotated[
        str | None, typer.Option("--lang", help=HELP("guide.cli.lang", langs=", ".join(languages())))
    ] = None,
) -> None:
    """The strategy guide: the value of a lot, suns, the Ra track, races, monuments."""
    if language is not None:
        set_lang(language)
    text = with_positions(guide_text(lang()), lang())
    console = Console()
    if plain or not console.is_terminal or console.no_color or not console.color_system:
        typer.echo(text)  # a pipe, NO_COLOR or TERM=dumb: the plain text
        return
    from rich.markdown import Markdown

    with pager_with_colours(), console.pager(styles=True):
        console.print(Markdown(text))
