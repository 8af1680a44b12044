"""The terminal game (``ra play``, ``ra replay``), built with Textual on the engine and the bots."""

from ra.tui.app import PlayApp
from ra.tui.replay import ReplayApp
from ra.tui.session import Seat, Session, default_save_path, plan_seats

__all__ = ["PlayApp", "ReplayApp", "Seat", "Session", "default_save_path", "plan_seats"]
