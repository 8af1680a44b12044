"""``ra play``: the full-screen terminal game (Textual)."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Markdown, RichLog, Static
from textual.worker import Worker, WorkerState

import ra
from ra.tui import render
from ra.tui.help import HELP_TEXT
from ra.tui.session import Session

# Keys for the fixed actions; the others get digits 1-9, 0.
_LETTERS = {"draw": "d", "ra": "r", "pass": "p", "done": "n"}

BASE_CSS = """
Screen { layout: vertical; }
#board { height: 1; padding: 0 1; background: $boost; }
#auction { height: 1; padding: 0 1; }
#players { height: auto; max-height: 7; padding: 0 1; border-top: solid $primary-darken-2; }
#log { height: 1fr; min-height: 3; padding: 0 1; border-top: solid $primary-darken-2; }
#status { height: 1; padding: 0 1; background: $primary-darken-3; }
#actions { height: 1; padding: 0 1; }
#actions Button { min-width: 4; height: 1; border: none; margin: 0 1 0 0; padding: 0 1; }
#command { height: 1; border: none; padding: 0 1; }
"""


def board_widgets() -> ComposeResult:
    """The widgets shared by the game and the replay: board line, auction track,
    players, log and status line (filled by :mod:`ra.tui.render`)."""
    yield Static(id="board")
    yield Static(id="auction")
    yield Static(id="players")
    log = RichLog(id="log", wrap=True, markup=False, auto_scroll=True)
    log.can_focus = False  # keys belong to the game; the mouse wheel scrolls
    yield log
    yield Static(id="status")


class TextScreen(ModalScreen[None]):
    """A modal page (help, epoch scoring): any of Escape, Enter, q closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,q,space", "close", "Close"),
    ]
    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > Vertical { width: 78; max-height: 22; height: auto; border: thick $primary;
                            background: $surface; padding: 0 1; }
    TextScreen #body { height: auto; max-height: 19; overflow-y: auto; }
    TextScreen #hint { height: 1; color: $text-muted; }
    """

    def __init__(self, body: object, hint: str = "Enter or Esc to continue", markdown: bool = False) -> None:
        super().__init__()
        self._body = body
        self._hint = hint
        self._markdown = markdown

    def compose(self) -> ComposeResult:
        with Vertical():
            if self._markdown:
                yield Markdown(str(self._body), id="body")
            else:
                yield Static(self._body, id="body")  # type: ignore[arg-type]
            yield Static(self._hint, id="hint")

    def action_close(self) -> None:
        self.dismiss(None)


class PlayApp(App[None]):
    """Play Ra against bots or friends at one keyboard."""

    TITLE = "Ra"
    ENABLE_COMMAND_PALETTE = False
    AUTO_FOCUS = None  # keys go to the game; "/" focuses the command line
    CSS = BASE_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark,f1", "help", "Help"),
        Binding("u", "undo", "Undo"),
        Binding("s", "save", "Save"),
        Binding("slash", "type", "Type"),
        Binding("pageup", "scroll_log(-1)", "Log up", show=False),
        Binding("pagedown", "scroll_log(1)", "Log down", show=False),
        Binding("q", "quit_game", "Quit"),
        Binding("ctrl+c,ctrl+q", "quit_game", "Quit", show=False, priority=True),
    ]

    def __init__(self, session: Session, delay: float = 0.7, edition: str = "original") -> None:
        super().__init__()
        self.session = session
        self.delay = delay
        self.edition = edition
        self.saved_to: str | None = None
        self._generation = 0  # bumps to forget a bot's pending answer (undo, quit)
        self._thinking = False
        self._modal = False
        self._logged = 0
        self._log_seat = -1
        self._keys: dict[str, ra.Action] = {}
        self._shown_epochs = len(session.game.epoch_scores)
        self.error: str | None = None

    # --- layout --------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield from board_widgets()
        yield Horizontal(id="actions")
        yield Input(placeholder="/ to type an action (e.g. bid 9), Enter to play", id="command")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_screen(rebuild_log=True)
        self.call_later(self.step)

    # --- what is shown -------------------------------------------------------------

    def view(self) -> ra.PlayerView:
        return self.session.game.view(self.session.perspective())

    def refresh_screen(self, rebuild_log: bool = False) -> None:
        session = self.session
        view = self.view()
        seat = view.seat
        self.query_one("#board", Static).update(render.board_line(view))
        self.query_one("#auction", Static).update(render.auction_line(view, self.edition))
        self.query_one("#players", Static).update(render.players_table(view, seat))
        status = render.status_text(view, view.names, set(session.humans), seat)
        if self._thinking:
            status.append("  (thinking…)", style="dim")
        self.query_one("#status", Static).update(status)
        log = self.query_one("#log", RichLog)
        events = view.events
        if rebuild_log or seat != self._log_seat or len(events) < self._logged:
            log.clear()
            self._logged = 0
            self._log_seat = seat
        for event in events[self._logged :]:
            log.write(render.log_line(event, view.names, self.edition))
        self._logged = len(events)
        self.show_actions()

    def show_actions(self) -> None:
        bar = self.query_one("#actions", Horizontal)
        bar.remove_children()
        self._keys = {}
        game = self.session.game
        if self._modal or self._thinking or not self.session.human_to_move():
            return
        digit = 0
        buttons = []
        for action in game.legal_actions():
            key = _LETTERS.get(action.kind)
            if key is None:
                digit += 1
                key = str(digit % 10) if digit <= 10 else ""
            if key:
                self._keys[key] = action
            label = (f"{key} " if key else "") + render.action_label(action, self.edition)
            buttons.append(Button(label, name=str(action.index), compact=True))
        bar.mount_all(buttons)

    # --- the flow of play ----------------------------------------------------------

    def step(self) -> None:
        """Let the next player act: wait for a person, or ask a bot (in a thread)."""
        game = self.session.game
        if self._modal or self._thinking or game.is_over():
            self.refresh_screen()
            return
        seat = game.to_move
        assert seat is not None
        if self.session.is_human(seat):
            self.refresh_screen()
            return
        self._thinking = True
        self._generation += 1
        generation = self._generation
        view = game.view(seat)
        bot = self.session.bot(seat)
        self.refresh_screen()
        self.run_worker(lambda: (generation, bot.choose(view)), thread=True, group="bot", exit_on_error=False)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.SUCCESS:
            generation, action = event.worker.result  # type: ignore[misc]
            if generation != self._generation:
                return  # answered a position that was undone
            self._thinking = False
            self.play(action)
        elif event.state == WorkerState.ERROR:
            self._thinking = False
            self.error = f"a bot failed: {event.worker.error}"
            self.notify(self.error, severity="error", timeout=10)
            self.refresh_screen()

    def play(self, action: ra.Action) -> None:
        """Apply a decision, show what happened, and move on."""
        game = self.session.game
        try:
            self.session.apply(action)
        except ra.RaError as err:
            self.notify(str(err), severity="error")
            return
        self.refresh_screen()
        finished = len(game.epoch_scores)
        if finished > self._shown_epochs:
            self._shown_epochs = finished
            self._modal = True
            hint = "Enter to continue" if not game.is_over() else "Enter to close; q quits"
            self.push_screen(
                TextScreen(render.epoch_summary(self.view(), finished), hint=hint), callback=self._after_modal
            )
            return
        if self.session.human_to_move() or game.is_over():
            self.step()
        else:
            self.set_timer(self.delay, self.step) if self.delay > 0 else self.call_later(self.step)

    def _after_modal(self, _: object = None) -> None:
        self._modal = False
        self.step()

    # --- input -----------------------------------------------------------------------

    @on(Button.Pressed, "#actions Button")
    def _button(self, event: Button.Pressed) -> None:
        if event.button.name is not None:
            self.choose(ra.Action.from_index(int(event.button.name)))

    def choose(self, action: ra.Action) -> None:
        """A person's choice (button, key or typed notation)."""
        if not self.session.human_to_move() or self._thinking or self._modal:
            self.notify("Not your turn yet.", severity="warning")
            return
        if not self.session.game.is_legal(action):
            self.notify(f"{action} is not possible now.", severity="warning")
            return
        self.play(action)

    def on_key(self, event: Key) -> None:
        if isinstance(self.focused, Input):
            return
        action = self._keys.get(event.key)
        if action is not None:
            event.stop()
            self.choose(action)

    @on(Input.Submitted, "#command")
    def _typed(self, event: Input.Submitted) -> None:
        text = event.value.strip().lstrip("/:").strip()
        event.input.value = ""
        self.set_focus(None)  # back to the keys
        if not text:
            return
        try:
            action = ra.Action.parse(text)
        except ra.NotationError as err:
            self.notify(str(err), severity="error")
            return
        if not self.session.human_to_move():
            self.notify("Not your turn yet.", severity="warning")
            return
        try:
            self.session.game.clone().apply(action)
        except ra.IllegalActionError as err:
            self.notify(str(err), severity="error")
            return
        self.choose(action)

    def action_scroll_log(self, direction: int) -> None:
        log = self.query_one("#log", RichLog)
        log.scroll_page_down() if direction > 0 else log.scroll_page_up()

    def action_type(self) -> None:
        self.query_one("#command", Input).focus()

    def action_help(self) -> None:
        self.push_screen(TextScreen(HELP_TEXT, hint="Esc to close", markdown=True))

    def action_undo(self) -> None:
        if not self.session.can_undo():
            self.notify("Nothing of yours to undo.", severity="warning")
            return
        self._generation += 1  # forget a bot that is thinking
        self._thinking = False
        n = self.session.undo()
        self._shown_epochs = len(self.session.game.epoch_scores)
        self.notify(f"Took back {n} decision(s).")
        self.refresh_screen(rebuild_log=True)
        self.step()

    def action_save(self) -> None:
        try:
            path = self.session.save()
        except OSError as err:
            self.notify(f"Could not save: {err}", severity="error")
            return
        self.saved_to = str(path)
        self.notify(f"Saved to {path}")

    def action_quit_game(self) -> None:
        self._generation += 1
        self.autosave()
        self.exit()

    def autosave(self) -> None:
        """Save quietly (on quit, Ctrl-C and unmount): nothing is lost."""
        try:
            self.saved_to = str(self.session.save())
        except OSError as err:
            self.error = f"could not save the game: {err}"

    def on_unmount(self) -> None:
        self.autosave()
