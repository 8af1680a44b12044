"""``ra play``: the full-screen terminal game (Textual).

The game is built in layers, one concept each: :mod:`ra.tui.play_view` (the screen and what it
shows), :mod:`ra.tui.flow` (whose turn, bots, the epoch's scoring, the hot seat),
:mod:`ra.tui.controls` (a person's keys, buttons and command line) and :mod:`ra.tui.saving`
(save, quit, signals); here: the key bindings and the game's own actions.
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import BindingType

from ra.table import UndoError
from ra.tui import render
from ra.tui.bindings import PLAY_BINDINGS, PLAY_KEYS, next_pace
from ra.tui.board import BASE_CSS
from ra.tui.controls import Controls
from ra.tui.help import help_text
from ra.tui.pages import TextScreen
from ra.tui.saving import Saving


class PlayApp(Controls, Saving):
    """Play Ra against bots or friends at one keyboard."""

    TITLE = "Ra"
    ENABLE_COMMAND_PALETTE = False
    AUTO_FOCUS = None  # keys go to the game; "/" opens the command line
    CSS = BASE_CSS
    BINDINGS: ClassVar[list[BindingType]] = PLAY_BINDINGS
    KEYS: ClassVar[dict[str, str]] = PLAY_KEYS
    """The catalogue keys of the bindings' descriptions (the footer)."""

    def on_mount(self) -> None:
        self.catch_signals()
        self.refresh_screen(rebuild_log=True)
        self.call_later(self.step)

    def action_help(self) -> None:
        game = self.session.game
        text = help_text(self.edition, self.lang, game.disaster_timing)
        self.push_screen(TextScreen(text, hint=self.w("tui.help.hint"), markdown=True, lang=self.lang))

    def action_fast_forward(self) -> None:
        """Play the bots at once until a person must act or the epoch ends."""
        if self.session.human_to_move() or self.session.game.is_over():
            self.say(self.w("tui.fast.yours"))
            return
        self.fast = True
        self.say(self.w("tui.fast.on"))
        self.refresh_screen()
        if not self.bots.thinking and not self.modal:
            self.step()

    def action_pace(self, direction: int) -> None:
        """Change the seconds between bot moves."""
        self.delay = next_pace(self.delay, direction)
        self.say(self.w("tui.pace", seconds=f"{self.delay:g}"))

    def action_undo(self) -> None:
        """Take back the last decision of the person shown, under the table's one undo
        policy (:data:`ra.table.UNDO_RULE`); a refusal says why."""
        session = self.session
        seat = session.perspective()
        try:
            taken = session.undo(seat)
        except UndoError as err:
            self.say(render.undo_refusal(err, session.game.names, self.lang), error=True)
            return
        self.bots.forget()  # forget a bot that is thinking, and stop its search
        self.hints.forget()
        self.fast = False
        self.typed = ""
        self.shown_epochs = len(session.game.epoch_scores)
        self.say(render.undone(session.game.names[seat], taken, self.edition, self.lang))
        self.refresh_screen(rebuild_log=True)
        self.step()
