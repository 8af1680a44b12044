"""A bot's turn at the terminal table: its search runs in a worker thread, and an answer to a
position that has gone since (undo, quit) is forgotten, its search stopped."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from ra.actions import Action
from ra.table import Table, decide

BotAnswer = tuple[int, Action]
"""A bot's decision and the turn number it answers."""


class BotWorker:
    """Whether a bot is thinking, and which of its answers still counts."""

    def __init__(self) -> None:
        self.thinking = False
        self.cancel = threading.Event()
        """Stops the search under way."""
        self._turn = 0  # bumps to forget a pending answer

    def start(self, table: Table[Any], seat: int) -> Callable[[], BotAnswer]:
        """The work of the bot in ``seat`` deciding, to run in a thread."""
        self.thinking = True
        self._turn += 1
        turn = self._turn
        self.cancel = threading.Event()
        job = table.bot_job(seat, cancel=self.cancel)
        return lambda: (turn, decide(job))

    def forget(self) -> None:
        """Stop the search under way and forget its answer (undo, quit)."""
        self._turn += 1
        self.cancel.set()
        self.thinking = False

    def answer(self, result: BotAnswer) -> Action | None:
        """The decision of a finished search, or None if it answers a position since gone."""
        turn, action = result
        if turn != self._turn:
            return None
        self.thinking = False
        return action

    def failed(self) -> None:
        """The search ended with an error: nobody is thinking any more."""
        self.thinking = False
