"""A modal page of the terminal game (help, epoch scoring, the end of the game, the hot seat's
hand-over): it scrolls, and its last line says which key closes it."""

from __future__ import annotations

from typing import ClassVar

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

from ra.tui.bindings import translate_bindings
from ra.words import DEFAULT_LANG, words

HANDOVER = "handover"
"""The name of the hot-seat hand-over screen."""
BODY_LINES = 19
"""The most lines a modal page's text takes before it scrolls (the page is 22 high at most)."""
PAGE_WIDTH = 78
"""A modal page's width where the window allows (the CSS's ``width: 78``)."""


def page_width(window: int) -> int:
    """The width of a modal page's text in a window ``window`` columns wide (inside its border,
    padding and scroll bar)."""
    return min(PAGE_WIDTH, window) - 6


class TextScreen(ModalScreen[None]):
    """A modal page (help, epoch scoring): Esc, Enter or q closes it; arrows and pages scroll."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,q", "close", "Close"),
        Binding("up,k", "scroll(-1)", "Up", show=False),
        Binding("down,j", "scroll(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown,space", "page(1)", "Page down", show=False),
        Binding("home", "home", "Top", show=False),
        Binding("end", "end", "Bottom", show=False),
    ]
    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > Vertical { width: 78; max-width: 100%; max-height: 22; height: auto; border: thick $primary;
                            background: $surface; padding: 0 1; }
    TextScreen #body { height: auto; max-height: 19; }
    TextScreen #hint { height: 1; color: $text-muted; }
    """

    KEYS: ClassVar[dict[str, str]] = {
        "close": "tui.key.close",
        "scroll(-1)": "tui.key.up",
        "scroll(1)": "tui.key.down",
        "page(-1)": "tui.key.page_up",
        "page(1)": "tui.key.page_down",
        "home": "tui.key.top",
        "end": "tui.key.bottom",
    }
    """The catalogue keys of the bindings' descriptions."""

    def __init__(
        self,
        body: object,
        hint: str | None = None,
        markdown: bool = False,
        name: str | None = None,
        lang: str = DEFAULT_LANG,
    ) -> None:
        super().__init__(name=name)
        w = words(lang)
        translate_bindings(self, w, self.KEYS)
        self._body = body
        self._hint = w("tui.modal.continue") if hint is None else hint
        self._markdown = markdown

    def compose(self) -> ComposeResult:
        with Vertical():
            with VerticalScroll(id="body"):
                if self._markdown:
                    yield Markdown(str(self._body))
                else:
                    yield Static(self._body)  # type: ignore[arg-type]
            yield Static(self._hint, id="hint")

    def _body_scroll(self) -> VerticalScroll:
        return self.query_one("#body", VerticalScroll)

    def on_resize(self) -> None:
        """In a small window (60×20) the page keeps its last line, the keys, whole and in view:
        that line wraps where it must, and the text takes what is left (19 lines at 80×24)."""
        inner = max(1, page_width(self.size.width) + 2)  # the last line has no scroll bar beside it
        hint_lines = max(1, -(-cell_len(self._hint) // inner))
        self.query_one("#hint", Static).styles.height = hint_lines
        room = min(BODY_LINES + 1 - hint_lines, self.size.height - 4 - hint_lines)
        self._body_scroll().styles.max_height = max(3, room)

    def action_scroll(self, lines: int) -> None:
        self._body_scroll().scroll_relative(y=lines, animate=False)

    def action_page(self, direction: int) -> None:
        body = self._body_scroll()
        body.scroll_relative(y=direction * max(1, body.size.height - 1), animate=False)

    def action_home(self) -> None:
        self._body_scroll().scroll_home(animate=False)

    def action_end(self) -> None:
        self._body_scroll().scroll_end(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
