"""What every front end calls a decision: an action's label in the reader's language.

The terminal's buttons, the browser's guide, puzzles and guided game, the hints and the
analysis all label an action the same way, from the catalogue (``tui.action.*``) and the
edition's tile names (:func:`ra.tiles.display_name`); it lives here, below the front ends,
so none of them imports another's rendering.
"""

from __future__ import annotations

from ra.actions import Action
from ra.tiles import display_name
from ra.words import DEFAULT_LANG, words


def action_label(action: Action, edition: str = "original", lang: str = DEFAULT_LANG) -> str:
    """A button label for an action."""
    w = words(lang)
    if action.kind == "bid":
        return w("tui.action.bid", sun=action.sun or 0)
    if action.tile is None:
        return w(f"tui.action.{action.kind}")
    return w(f"tui.action.{action.kind}", tile=display_name(action.tile, edition, lang))


__all__ = ["action_label"]
