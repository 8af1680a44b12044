"""Saving the terminal game: the save key, quitting (every quit saves), and a save on Ctrl-C,
SIGTERM and SIGHUP, so that closing the terminal loses nothing (``ra play``, ``--resume``)."""

from __future__ import annotations

import asyncio
import contextlib
import signal

from ra.tui.play_view import PlayView
from ra.tui.session import system_reason

SIGNALS = (signal.SIGTERM, signal.SIGHUP)
"""The signals that save and quit the game."""


class Saving(PlayView):
    """Save on request and on every way out."""

    def catch_signals(self) -> None:
        """Save and quit on :data:`SIGNALS` (not possible outside the main thread or on Windows:
        then only the keys save)."""
        loop = asyncio.get_running_loop()
        for sig in SIGNALS:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, self.action_quit_game)

    def on_unmount(self) -> None:
        self.bots.cancel.set()
        self.hints.work.stop()
        self.autosave()
        loop = asyncio.get_running_loop()
        for sig in SIGNALS:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(sig)

    def action_save(self) -> None:
        try:
            path = self.session.save()
        except OSError as err:
            self.say(self.w("tui.save.failed", error=self.w.render(system_reason(err))), error=True)
            return
        self.saved_to = str(path)
        self.say(self.w("tui.save.done", path=str(path)))

    def action_quit_game(self) -> None:
        """Save at once and quit; a bot's search is stopped, not waited for."""
        self.bots.forget()
        self.hints.work.stop()
        self.autosave()
        self.exit()

    def autosave(self) -> None:
        """Save quietly (on quit, Ctrl-C, SIGTERM, SIGHUP and unmount): nothing is lost."""
        try:
            self.saved_to = str(self.session.save())
        except OSError as err:
            self.error = self.w("tui.save.failed", error=self.w.render(system_reason(err)))
