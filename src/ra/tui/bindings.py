"""The game's keys besides its actions' (:mod:`ra.tui.keys`), their words in the footer, and the
pace of the bots that ``+`` and ``-`` change."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from textual.binding import Binding, BindingType
from textual.dom import DOMNode

from ra.words import Words

PACES = (0.0, 0.2, 0.4, 0.7, 1.0, 1.5, 2.5, 4.0)
"""Seconds between bot moves that ``+`` and ``-`` step through."""


def translate_bindings(node: DOMNode, w: Words, keys: Mapping[str, str]) -> None:
    """Give a node's key bindings their descriptions (the footer's words) in ``w``'s language:
    ``keys`` maps each binding's action to its catalogue key."""
    table = node._bindings.key_to_bindings
    for key, bindings in table.items():
        table[key] = [
            dataclasses.replace(b, description=w(keys[b.action])) if b.action in keys else b for b in bindings
        ]


PLAY_BINDINGS: list[BindingType] = [
    Binding("question_mark,f1", "help", "Help"),
    Binding("u", "undo", "Undo"),
    Binding("s", "save", "Save"),
    Binding("slash", "type", "Type"),
    Binding("h", "hints", "Hints"),
    Binding("f", "fast_forward", "Fast"),
    Binding("minus", "pace(-1)", "Faster"),
    Binding("plus,equals_sign", "pace(1)", "Slower"),
    Binding("pageup", "scroll_log(-1)", "Log up", show=False),
    Binding("pagedown", "scroll_log(1)", "Log down", show=False),
    Binding("escape", "escape", "Cancel", show=False),
    Binding("q", "quit_game", "Quit"),
    Binding("ctrl+c,ctrl+q", "quit_game", "Quit", show=False, priority=True),
]
"""The keys of the game besides its actions' (:mod:`ra.tui.keys`)."""
PLAY_KEYS: dict[str, str] = {
    "help": "tui.key.help",
    "undo": "tui.key.undo",
    "save": "tui.key.save",
    "type": "tui.key.type",
    "hints": "tui.key.hints",
    "fast_forward": "tui.key.fast",
    "pace(-1)": "tui.key.faster",
    "pace(1)": "tui.key.slower",
    "scroll_log(-1)": "tui.key.log_up",
    "scroll_log(1)": "tui.key.log_down",
    "escape": "tui.key.cancel",
    "quit_game": "tui.key.quit",
}
"""The catalogue keys of the bindings' descriptions (the footer)."""
FOOTER_OPTIONAL = (("pace(-1)", "pace(1)"), ("type",), ("fast_forward",), ("save",))
"""The footer's keys left out first where they do not all fit (they still work; ``?`` lists them)."""


def next_pace(delay: float, direction: int) -> float:
    """The next of :data:`PACES` from ``delay``: slower (``direction`` > 0) or faster."""
    slower = [p for p in PACES if p > delay]
    faster = [p for p in PACES if p < delay]
    if direction > 0 and slower:
        return slower[0]
    if direction < 0 and faster:
        return faster[-1]
    return delay
