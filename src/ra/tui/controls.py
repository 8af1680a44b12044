"""A person's input in the terminal game: the action buttons, the move keys and a typed bid,
the command line (``/``), the hints key and the log's scroll keys (``ra play``)."""

from __future__ import annotations

from textual import on
from textual.events import Key
from textual.widgets import Button, Input, RichLog

import ra
from ra.tui import render
from ra.tui.flow import PlayFlow
from ra.tui.keys import Pressed, typed_action
from ra.tui.widgets import ActionButton, MessageLine


class Controls(PlayFlow):
    """What a person's keys, buttons and typed notation do; a choice out of turn says why not."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer offers only what this table has: no "h Hints" where hints are off."""
        return action != "hints" or self.session.hints

    def action_hints(self) -> None:
        """Show or hide each legal action's win chance (a table option: ra play --hints)."""
        if not self.session.hints:
            self.say(self.w("tui.hints.off"), error=True)
            return
        self.hints.toggle()

    @on(Button.Pressed, "#actions Button")
    def _button(self, event: Button.Pressed) -> None:
        if isinstance(event.button, ActionButton):
            self.choose(ra.Action.from_index(event.button.choice))

    def choose(self, action: ra.Action) -> None:
        """A person's choice (button, key or typed notation)."""
        self.typed = ""
        if not self.session.human_to_move() or self.bots.thinking or self.modal:
            self.say(self.w("tui.error.not_your_turn"), error=True)
            return
        if self.session.game.why_illegal(action) is not None:
            self.say(self.why_not(action), error=True)
            return
        self.query_one("#message", MessageLine).clear()
        self.play(action)

    def on_key(self, event: Key) -> None:
        if isinstance(self.focused, Input):
            return
        pressed = self.moves.press(event.key, self.typed)
        if pressed is not None:
            event.stop()
            self._pressed(pressed)
        elif event.key == "h" and not self.session.hints:  # not in the footer, but still answered
            event.stop()
            self.action_hints()

    def _pressed(self, pressed: Pressed) -> None:
        """Do what a key of the actions did: choose, wait for the next digit, or say why not."""
        if pressed.action is not None:
            self.choose(pressed.action)
            return
        self.typed = pressed.typed
        if pressed.refusal is not None:
            self.say(self.w.render(pressed.refusal), error=True)
        self.refresh_screen()

    @on(Input.Submitted, "#command")
    def _typed(self, event: Input.Submitted) -> None:
        text = event.value.strip().lstrip("/:").strip()
        self._close_command()
        if not text:
            return
        try:
            action = typed_action(text, self.lang)
        except ra.NotationError:
            self.say(render.notation_error(text, self.lang), error=True)
            return
        self.choose(action)  # says why if it is not possible now

    def _close_command(self) -> None:
        box = self.query_one("#command", Input)
        box.value = ""
        box.remove_class("open")
        self.query_one("#message", MessageLine).display = True
        self.set_focus(None)  # back to the keys

    def action_escape(self) -> None:
        """Esc leaves the command line, or forgets a half-typed bid."""
        if isinstance(self.focused, Input):
            self._close_command()
        elif self.typed:
            self.typed = ""
            self.refresh_screen()

    def action_scroll_log(self, direction: int) -> None:
        log = self.query_one("#log", RichLog)
        log.scroll_page_down() if direction > 0 else log.scroll_page_up()

    def action_type(self) -> None:
        box = self.query_one("#command", Input)
        box.add_class("open")
        self.query_one("#message", MessageLine).display = False
        box.focus()
