"""The terminal game (``ra play``, ``ra replay``), built with Textual on the engine and the bots.

The Textual apps are imported on first use, so the command line (and ``ra arena``)
can use the sessions and renderers without loading Textual.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ra.tui.session import Seat, Session, default_save_path, plan_seats

if TYPE_CHECKING:
    from ra.tui.app import PlayApp
    from ra.tui.replay import ReplayApp

__all__ = ["PlayApp", "ReplayApp", "Seat", "Session", "default_save_path", "plan_seats"]


def __getattr__(name: str) -> Any:
    if name == "PlayApp":
        from ra.tui.app import PlayApp

        return PlayApp
    if name == "ReplayApp":
        from ra.tui.replay import ReplayApp

        return ReplayApp
    raise AttributeError(f"module 'ra.tui' has no attribute {name!r}")
