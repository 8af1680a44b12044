"""The board's widgets, shared by the game and the replay: the board line, the auction track,
the players, the log and the status line (filled by :mod:`ra.tui.render`)."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import RichLog

from ra.state import State
from ra.tui import render
from ra.tui.widgets import GameLog, Line
from ra.words import DEFAULT_LANG, words

BASE_CSS = """
Screen { layout: vertical; }
#board { height: 1; padding: 0 1; background: $boost; }
#auction { height: auto; padding: 0 1; }
#players { height: auto; padding: 0 1; border-top: solid $primary-darken-2; }
#log { height: 1fr; min-height: 3; padding: 0 1; border-top: solid $primary-darken-2;
       overflow-x: hidden; scrollbar-size-horizontal: 0; }
#status { height: auto; padding: 0 1; background: $primary-darken-3; }
#actions { height: 1; padding: 0 1; }
#actions Button { min-width: 3; height: 1; border: none; margin: 0 1 0 0; padding: 0; }
#actions .label { width: auto; height: 1; margin: 0 1 0 0; }
#message { height: auto; min-height: 1; max-height: 2; padding: 0 1; }
#message.error { color: $error; }
#command { height: 1; border: none; padding: 0 1; display: none; }
#command.open { display: block; }
#hints { height: auto; max-height: 12; padding: 0 1; display: none; border-top: solid $primary-darken-2;
         overflow-y: auto; scrollbar-size-vertical: 1; }
#hints.open { display: block; }
"""


SMALLEST = (60, 20)
"""The smallest window every screen fits (columns, lines)."""


def board_widgets() -> ComposeResult:
    """The widgets shared by the game and the replay: board line, auction track,
    players, log and status line (filled by :mod:`ra.tui.render`)."""
    yield Line(id="board")
    yield Line(id="auction")
    yield Line(id="players")
    log = GameLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=20)
    log.can_focus = False  # keys belong to the game; PageUp/PageDown and the mouse wheel scroll
    yield log
    yield Line(id="status")


def log_width(log: RichLog) -> int | None:
    """The log's own width for wrapping (a wide window uses its width; None before layout)."""
    width = log.scrollable_content_region.width
    return width if width > 0 else None


def show_board(
    app: App[None], state: State, edition: str, perspective: int | None = None, lang: str = DEFAULT_LANG
) -> None:
    """Fill the board line, the auction track and the players of :func:`board_widgets`
    for the screen's width (``perspective``: the player shown in bold).  In a window smaller
    than :data:`SMALLEST` the board line says so instead: nothing would fit whole."""
    width = max(20, app.size.width - 2)
    cols, rows = app.size
    if cols < SMALLEST[0] or rows < SMALLEST[1]:
        too_small = words(lang)("tui.too_small", width=cols, height=rows, least="×".join(map(str, SMALLEST)))
        app.query_one("#board", Line).show(Text(too_small, style="bold red"))
    else:
        app.query_one("#board", Line).show(render.board_line(state, edition, lang, width))
    app.query_one("#auction", Line).show(render.auction_line(state, edition, width, lang))
    app.query_one("#players", Line).show(render.players_table(state, perspective, edition, width, lang))
