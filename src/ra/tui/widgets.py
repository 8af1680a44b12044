"""Lines of the terminal game's screen: the action buttons, the message line and the key bar."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.events import Resize
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Button, Footer, RichLog, Static

from ra.tui.keys import MoveKeys
from ra.tui.render import action_labels
from ra.words import Words

MESSAGE_SECONDS = 8.0
"""How long a message stays."""


ActionPart = tuple[str, int | None]
"""One piece of the action bar: a button's text and the index of the action it chooses, or a
label's text and None."""


def action_parts(moves: MoveKeys, w: Words, edition: str, width: int) -> list[ActionPart]:
    """The buttons of the person's actions, each with its key, to fit one line of ``width``:
    the suns that may be bid by their numbers, then the other actions by name."""
    parts: list[ActionPart] = []
    if moves.bids:
        parts.append((w("tui.actions.bid"), None))
    for sun, action in moves.bids.items():  # the keys that work: "1⏎" when 10-16 may follow
        parts.append((moves.bid_keys(sun), action.index))
    lead, labels = action_labels([a for _, a in moves.named], edition, width, w.lang)
    for (key, action), label in zip(moves.named, labels, strict=True):
        if lead and action.tile is not None:
            parts.append((lead, None))
            lead = ""
        parts.append(((f"{key} " if key else "") + label, action.index))
    return parts


class ActionButton(Button):
    """The button of one action (``choice``: its index, :meth:`ra.Action.from_index`)."""

    def __init__(self, label: str, choice: int) -> None:
        super().__init__(label, compact=True)
        self.choice = choice


class ActionBar(Horizontal):
    """The person's action buttons on one line.  New actions are shown in the widgets already
    there, as far as they are of the same kinds in the same order (an update in place: mounting
    new widgets costs far more than a new label); while nobody may act they are hidden, not
    removed."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.parts: list[ActionPart] = []
        """What the bar's widgets show (hidden while the bar is empty)."""
        self._widgets: list[Widget] = []

    def show(self, parts: list[ActionPart], remake: bool = False) -> None:
        """Show ``parts`` (none: an empty bar); ``remake``: in new widgets in any case."""
        if not parts and not remake:
            for widget in self._widgets:
                widget.display = False
            return
        keep = 0 if remake else _alike(self.parts, parts)
        for widget, old, new in zip(self._widgets[:keep], self.parts, parts, strict=False):
            if new != old:
                _refill(widget, new)
            widget.display = True
        if self._widgets[keep:]:
            self.remove_children(self._widgets[keep:])
        added = [_part_widget(part) for part in parts[keep:]]
        if added:
            self.mount_all(added)
        self._widgets = self._widgets[:keep] + added
        self.parts = list(parts)


def _alike(old: list[ActionPart], new: list[ActionPart]) -> int:
    """How many parts from the start are of the same kinds (a label, a button) in both."""
    count = 0
    for (_, a), (_, b) in zip(old, new, strict=False):
        if (a is None) != (b is None):
            break
        count += 1
    return count


def _part_widget(part: ActionPart) -> Widget:
    text, choice = part
    return Static(text, classes="label") if choice is None else ActionButton(text, choice)


def _refill(widget: Widget, part: ActionPart) -> None:
    """Show ``part`` in the widget that showed a part of its kind."""
    text, choice = part
    if isinstance(widget, ActionButton) and choice is not None:
        widget.label = text
        widget.choice = choice
        widget.refresh(layout=True)  # its width follows its label
    elif isinstance(widget, Static):
        widget.update(text)


class Line(Static):
    """A line of the board (the board line, the auction track, the players, the status) that is
    filled again only when what it shows changed: an update asks Textual for a new layout of
    the whole screen, and most refreshes (a bot thinking, a key) leave most lines as they were."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.shown: Text | str | None = None
        """What the line shows now (None before its first fill)."""

    def show(self, content: Text | str) -> None:
        """Show ``content``, unless it is what the line shows already; the screen is laid out
        again only when the line's height may change."""
        before = self.shown
        if before is not None and same_text(before, content):
            return
        width = self.content_region.width
        height = lines_within(content, width)
        layout = before is None or height is None or height != lines_within(before, width)
        self.shown = content.copy() if isinstance(content, Text) else content
        self.update(content, layout=layout)


def lines_within(content: Text | str, width: int) -> int | None:
    """The lines ``content`` takes in ``width`` columns when none of its lines is wrapped, else
    None (a wrapped text's height is left to Textual's layout)."""
    lines = (content.plain if isinstance(content, Text) else content).split("\n")
    return len(lines) if all(cell_len(line) <= width for line in lines) else None


def same_text(a: Text | str, b: Text | str) -> bool:
    """Whether ``a`` and ``b`` look the same: the same characters with the same styles (Rich's
    own ``==`` on texts leaves out their base style and layout)."""
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    attributes = ("style", "justify", "overflow", "no_wrap", "end", "tab_size")
    return (
        a.plain == b.plain and a.spans == b.spans and all(getattr(a, n) == getattr(b, n) for n in attributes)
    )


class MessageLine(Static):
    """A message on its own line (never over the board); it fades after a while."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.text = ""
        """The message shown ('' for none)."""
        self._timer: Timer | None = None

    def say(self, message: str, error: bool = False) -> None:
        if message != self.text:
            self.text = message
            self.update(Text(message))
        self.set_class(error, "error")
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(MESSAGE_SECONDS, self.clear)

    def clear(self) -> None:
        if self.text:  # an empty line stays as it is: no new layout
            self.text = ""
            self.update("")


class KeyBar(Footer):
    """Textual's footer kept to its one line: where its keys do not all fit the width, the
    groups of ``optional`` actions are left out first, in order (their keys still work, and
    the help lists every key)."""

    def __init__(self, optional: Sequence[Sequence[str]] = ()) -> None:
        super().__init__()
        self.optional = tuple(tuple(group) for group in optional)
        self._width = 0

    def compose(self) -> ComposeResult:
        shown: list[Widget] = list(super().compose())  # one key each: no binding groups here
        width = self.app.size.width
        for group in self.optional:
            if sum(_cells(key) for key in shown) <= width:
                break
            shown = [key for key in shown if getattr(key, "action", None) not in group]
        yield from shown

    def on_resize(self, event: Resize) -> None:
        """Choose the keys again for a new width."""
        if self.app.size.width != self._width:
            self._width = self.app.size.width
            self.call_after_refresh(self.recompose)


def _cells(key: Widget) -> int:
    """The columns a footer key takes: `` k Description `` (Textual's padding)."""
    return cell_len(str(getattr(key, "key_display", ""))) + cell_len(str(getattr(key, "description", ""))) + 3


class GameLog(RichLog):
    """The game's log: its lines are wrapped when written, so a new width is told to the screen
    (:class:`GameLog.Rewrap`), which writes them again — a log shown at 60 columns keeps no
    narrow lines in a wider window."""

    class Rewrap(Message):
        """The log's width changed: write its lines again."""

    width = 0
    """The width its lines were last laid out for (0: not yet)."""

    def on_resize(self, event: Resize) -> None:
        super().on_resize(event)
        if self.width and event.size.width != self.width:
            self.post_message(self.Rewrap())
        self.width = event.size.width
