"""``ra play``: the full-screen terminal game (Textual)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import signal
from collections.abc import Mapping
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.dom import DOMNode
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Markdown, RichLog, Static
from textual.worker import Worker, WorkerState

import ra
from ra.bots.evaluate import Budget
from ra.state import State
from ra.table import UndoError
from ra.tui import render
from ra.tui.bot_worker import BotWorker
from ra.tui.help import help_text
from ra.tui.hint_panel import HintsPanel
from ra.tui.hints import HINT_BUDGET
from ra.tui.keys import MoveKeys, Pressed, typed_action
from ra.tui.session import SearchCancelledError, Session, system_reason
from ra.tui.widgets import GameLog, KeyBar, MessageLine, action_buttons
from ra.words import DEFAULT_LANG, Words, words

PACES = (0.0, 0.2, 0.4, 0.7, 1.0, 1.5, 2.5, 4.0)
"""Seconds between bot moves that ``+`` and ``-`` step through."""
HANDOVER = "handover"
"""The name of the hot-seat hand-over screen."""

BASE_CSS = """
Screen { layout: vertical; }
#board { height: 1; padding: 0 1; background: $boost; }
#auction { height: auto; padding: 0 1; }
#players { height: auto; padding: 0 1; border-top: solid $primary-darken-2; }
#log { height: 1fr; min-height: 3; padding: 0 1; border-top: solid $primary-darken-2;
       overflow-x: hidden; scrollbar-size-horizontal: 0; }
#status { height: auto; padding: 0 1; background: $primary-darken-3; }
#actions { height: 1; padding: 0 1; }
#actions Button { min-width: 3; height: 1; border: none; margin: 0 1 0 0; padding: 0; }
#actions .label { width: auto; height: 1; margin: 0 1 0 0; }
#message { height: auto; min-height: 1; max-height: 2; padding: 0 1; }
#message.error { color: $error; }
#command { height: 1; border: none; padding: 0 1; display: none; }
#command.open { display: block; }
#hints { height: auto; max-height: 12; padding: 0 1; display: none; border-top: solid $primary-darken-2;
         overflow-y: auto; scrollbar-size-vertical: 1; }
#hints.open { display: block; }
"""


SMALLEST = (60, 20)
"""The smallest window every screen fits (columns, lines)."""


def board_widgets() -> ComposeResult:
    """The widgets shared by the game and the replay: board line, auction track,
    players, log and status line (filled by :mod:`ra.tui.render`)."""
    yield Static(id="board")
    yield Static(id="auction")
    yield Static(id="players")
    log = GameLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=20)
    log.can_focus = False  # keys belong to the game; PageUp/PageDown and the mouse wheel scroll
    yield log
    yield Static(id="status")


def log_width(log: RichLog) -> int | None:
    """The log's own width for wrapping (a wide window uses its width; None before layout)."""
    width = log.scrollable_content_region.width
    return width if width > 0 else None


def show_board(
    app: App[None], state: State, edition: str, perspective: int | None = None, lang: str = DEFAULT_LANG
) -> None:
    """Fill the board line, the auction track and the players of :func:`board_widgets`
    for the screen's width (``perspective``: the player shown in bold).  In a window smaller
    than :data:`SMALLEST` the board line says so instead: nothing would fit whole."""
    width = max(20, app.size.width - 2)
    cols, rows = app.size
    if cols < SMALLEST[0] or rows < SMALLEST[1]:
        too_small = words(lang)("tui.too_small", width=cols, height=rows, least="×".join(map(str, SMALLEST)))
        app.query_one("#board", Static).update(Text(too_small, style="bold red"))
    else:
        app.query_one("#board", Static).update(render.board_line(state, edition, lang, width))
    app.query_one("#auction", Static).update(render.auction_line(state, edition, width, lang))
    app.query_one("#players", Static).update(render.players_table(state, perspective, edition, width, lang))


def translate_bindings(node: DOMNode, w: Words, keys: Mapping[str, str]) -> None:
    """Give a node's key bindings their descriptions (the footer's words) in ``w``'s language:
    ``keys`` maps each binding's action to its catalogue key."""
    table = node._bindings.key_to_bindings
    for key, bindings in table.items():
        table[key] = [
            dataclasses.replace(b, description=w(keys[b.action])) if b.action in keys else b for b in bindings
        ]


BODY_LINES = 19
"""The most lines a modal page's text takes before it scrolls (the page is 22 high at most)."""
PAGE_WIDTH = 78
"""A modal page's width where the window allows (the CSS's ``width: 78``)."""


def page_width(window: int) -> int:
    """The width of a modal page's text in a window ``window`` columns wide (inside its border,
    padding and scroll bar)."""
    return min(PAGE_WIDTH, window) - 6


class TextScreen(ModalScreen[None]):
    """A modal page (help, epoch scoring): Esc, Enter or q closes it; arrows and pages scroll."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,q", "close", "Close"),
        Binding("up,k", "scroll(-1)", "Up", show=False),
        Binding("down,j", "scroll(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown,space", "page(1)", "Page down", show=False),
        Binding("home", "home", "Top", show=False),
        Binding("end", "end", "Bottom", show=False),
    ]
    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > Vertical { width: 78; max-width: 100%; max-height: 22; height: auto; border: thick $primary;
                            background: $surface; padding: 0 1; }
    TextScreen #body { height: auto; max-height: 19; }
    TextScreen #hint { height: 1; color: $text-muted; }
    """

    KEYS: ClassVar[dict[str, str]] = {
        "close": "tui.key.close",
        "scroll(-1)": "tui.key.up",
        "scroll(1)": "tui.key.down",
        "page(-1)": "tui.key.page_up",
        "page(1)": "tui.key.page_down",
        "home": "tui.key.top",
        "end": "tui.key.bottom",
    }
    """The catalogue keys of the bindings' descriptions."""

    def __init__(
        self,
        body: object,
        hint: str | None = None,
        markdown: bool = False,
        name: str | None = None,
        lang: str = DEFAULT_LANG,
    ) -> None:
        super().__init__(name=name)
        w = words(lang)
        translate_bindings(self, w, self.KEYS)
        self._body = body
        self._hint = w("tui.modal.continue") if hint is None else hint
        self._markdown = markdown

    def compose(self) -> ComposeResult:
        with Vertical():
            with VerticalScroll(id="body"):
                if self._markdown:
                    yield Markdown(str(self._body))
                else:
                    yield Static(self._body)  # type: ignore[arg-type]
            yield Static(self._hint, id="hint")

    def _body_scroll(self) -> VerticalScroll:
        return self.query_one("#body", VerticalScroll)

    def on_resize(self) -> None:
        """In a small window (60×20) the page keeps its last line, the keys, whole and in view:
        that line wraps where it must, and the text takes what is left (19 lines at 80×24)."""
        inner = max(1, page_width(self.size.width) + 2)  # the last line has no scroll bar beside it
        hint_lines = max(1, -(-cell_len(self._hint) // inner))
        self.query_one("#hint", Static).styles.height = hint_lines
        room = min(BODY_LINES + 1 - hint_lines, self.size.height - 4 - hint_lines)
        self._body_scroll().styles.max_height = max(3, room)

    def action_scroll(self, lines: int) -> None:
        self._body_scroll().scroll_relative(y=lines, animate=False)

    def action_page(self, direction: int) -> None:
        body = self._body_scroll()
        body.scroll_relative(y=direction * max(1, body.size.height - 1), animate=False)

    def action_home(self) -> None:
        self._body_scroll().scroll_home(animate=False)

    def action_end(self) -> None:
        self._body_scroll().scroll_end(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)


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


class PlayApp(App[None]):
    """Play Ra against bots or friends at one keyboard."""

    TITLE = "Ra"
    ENABLE_COMMAND_PALETTE = False
    AUTO_FOCUS = None  # keys go to the game; "/" opens the command line
    CSS = BASE_CSS
    BINDINGS: ClassVar[list[BindingType]] = PLAY_BINDINGS
    KEYS: ClassVar[dict[str, str]] = PLAY_KEYS
    """The catalogue keys of the bindings' descriptions (the footer)."""

    def __init__(
        self,
        session: Session,
        delay: float = 0.7,
        edition: str = "original",
        hint_budget: Budget | str | int = HINT_BUDGET,
        lang: str = DEFAULT_LANG,
    ) -> None:
        super().__init__()
        self.lang = lang
        self.w = words(lang)
        translate_bindings(self, self.w, self.KEYS)
        self.hints = HintsPanel(session, hint_budget, edition, lang, self._failed)
        self.bots = BotWorker()
        self.session = session
        self.delay = delay
        self.edition = edition
        self.saved_to: str | None = None
        self.fast = False
        """Fast-forward: the bots move at once until a person must act."""
        self.modal = False
        self.moves = MoveKeys()
        """The keys of the person to move now (none while a bot or a modal has the turn)."""
        self.typed = ""
        """The digits of a bid typed so far (``1`` of 13)."""
        self._logged = 0
        self._log_seat: int | None = -1
        self._shown_epochs = len(session.game.epoch_scores)
        self.error: str | None = None

    # --- layout --------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield from board_widgets()
        yield Horizontal(id="actions")
        yield MessageLine(id="message")
        yield self.hints
        yield Input(placeholder=self.w("tui.command.placeholder"), id="command")
        yield KeyBar(FOOTER_OPTIONAL)

    def on_mount(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGHUP):
            # Not possible outside the main thread or on Windows: then only the keys save.
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, self.action_quit_game)
        self.refresh_screen(rebuild_log=True)
        self.call_later(self.step)

    def on_game_log_rewrap(self, _: GameLog.Rewrap) -> None:
        """Lay the log out again for its new width (its lines were wrapped for the old one)."""
        self.refresh_screen(rebuild_log=True)

    def on_resize(self) -> None:
        """Fit the board to the new size (or say the window is too small)."""
        self.refresh_screen()

    def on_unmount(self) -> None:
        self.bots.cancel.set()
        self.hints.work.stop()
        self.autosave()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGHUP):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(sig)

    # --- what is shown -------------------------------------------------------------

    def view(self) -> ra.PlayerView:
        """What the screen may show: the perspective's view — or, while the screen is being
        handed over to the next person (hot seat), only what everyone may see (R9)."""
        if self.session.handover() is not None:
            return self.session.game.view(None)
        return self.session.game.view(self.session.perspective())

    @property
    def message(self) -> str:
        """The message shown ('' for none)."""
        return self.query_one("#message", MessageLine).text

    def say(self, message: str, error: bool = False) -> None:
        """Show a message on its own line (never over the board); it fades after a while."""
        self.query_one("#message", MessageLine).say(message, error)

    def _failed(self, message: str) -> None:
        self.say(message, error=True)

    def refresh_screen(self, rebuild_log: bool = False) -> None:
        view = self.view()
        seat = None if view.spectator else view.seat
        show_board(self, view, self.edition, seat, self.lang)
        self.query_one("#status", Static).update(self._status(view, seat))
        log = self.query_one("#log", RichLog)
        events = view.events
        if rebuild_log or seat != self._log_seat or len(events) < self._logged:
            log.clear()
            self._logged = 0
            self._log_seat = seat
        for event in events[self._logged :]:
            line = render.log_line(event, view.names, self.edition, self.lang)
            log.write(line, width=log_width(log))
        if len(events) > self._logged:
            self.call_after_refresh(self._log_to_end)  # after the layout settles (the hints panel)
        self._logged = len(events)
        self.show_actions()

    def _status(self, view: ra.PlayerView, seat: int | None) -> Text:
        """The status line: whose turn and what, then what the table is doing."""
        w = self.w
        status = render.status_text(view, view.names, set(self.session.humans), seat, self.edition, self.lang)
        if self.bots.thinking:
            status.append("  " + w("tui.status.thinking"), style="dim")
        if self.fast:
            status.append("  " + w("tui.status.fast"), style="dim")
        if self.typed:
            key = "tui.status.digits_enter" if self.typed in self.moves.bids else "tui.status.digits"
            status.append("  " + w(key, sun=self.typed), style="bold yellow")
        return status

    def show_actions(self) -> None:
        """The buttons for the person to move (:mod:`ra.tui.keys`)."""
        bar = self.query_one("#actions", Horizontal)
        bar.remove_children()
        self.moves = MoveKeys()
        if self.modal or self.bots.thinking or not self.session.human_to_move():
            return
        self.moves = MoveKeys.of(self.session.game)
        bar.mount_all(action_buttons(self.moves, self.w, self.edition, self.size.width - 2))

    # --- the flow of play ----------------------------------------------------------

    def step(self) -> None:
        """Let the next player act: wait for a person, or ask a bot (in a thread)."""
        game = self.session.game
        if self.modal or self.bots.thinking or game.is_over():
            self.fast = self.fast and not game.is_over()
            self.refresh_screen()
            return
        seat = game.to_move
        assert seat is not None
        if self.session.is_human(seat):
            self.fast = False
            if self.session.handover() is not None:
                self._hand_over(seat)
                return
            self.refresh_screen()
            self.hints.follow(self.moves.by_action())
            return
        work = self.bots.start(self.session, seat)
        self.refresh_screen()
        self.run_worker(work, thread=True, group="bot", exit_on_error=False)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.SUCCESS:
            action = self.bots.answer(event.worker.result)  # type: ignore[arg-type]
            if action is not None:  # else: it answered a position that was undone
                self.play(action)
        elif event.state == WorkerState.ERROR:
            if isinstance(event.worker.error, SearchCancelledError):
                return  # stopped on purpose (undo, quit)
            self.bots.failed()
            self.error = self.w("tui.error.bot", error=str(event.worker.error))
            self.say(self.error, error=True)
            self.refresh_screen()

    def play(self, action: ra.Action) -> None:
        """Apply a decision, show what happened, and move on."""
        game = self.session.game
        try:
            self.session.apply(action)
        except ra.RaError:
            self.say(self.why_not(action), error=True)
            return
        self.hints.forget()
        self.refresh_screen()
        finished = len(game.epoch_scores)
        if finished > self._shown_epochs:
            self._shown_epochs = finished
            self.modal = True
            self.fast = False  # fast-forward ends with the epoch
            hint = self.w("tui.modal.close_quit" if game.is_over() else "tui.modal.continue")
            summary = render.epoch_summary(self.view(), finished, self.lang, page_width(self.size.width))
            self.push_screen(TextScreen(summary, hint=hint, lang=self.lang), callback=self._after_modal)
            return
        if self.session.human_to_move() or game.is_over() or self.fast or self.delay <= 0:
            self.call_later(self.step)
        else:
            self.set_timer(self.delay, self.step)

    def _after_modal(self, _: object = None) -> None:
        self.modal = False
        self.step()

    def _hand_over(self, seat: int) -> None:
        """Hot seat: hide the board's private parts and wait until the next person has the
        screen (:meth:`ra.table.Table.handover`)."""
        self.modal = True
        self.refresh_screen()  # the public view only, under the hand-over screen
        w = self.w
        name = self.session.game.names[seat]
        hidden = self.session.game.hidden_scores
        body = Text.assemble(
            (w("tui.handover.title", name=name), "bold"),
            "\n\n",
            w("tui.handover.body_hidden" if hidden else "tui.handover.body", name=name),
        )
        screen = TextScreen(body, hint=w("tui.handover.hint", name=name), name=HANDOVER, lang=self.lang)
        self.push_screen(screen, callback=self._handed_over)

    def _handed_over(self, _: object = None) -> None:
        self.session.hand_over()
        self._after_modal()

    # --- hints (ra.tui.hint_panel) ---------------------------------------------------

    @on(HintsPanel.Shown)
    def _hints_shown(self) -> None:
        self.call_after_refresh(self._log_to_end)  # the panel took room: keep the newest event in view

    def _log_to_end(self) -> None:
        self.query_one("#log", RichLog).scroll_end(animate=False)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer offers only what this table has: no "h Hints" where hints are off."""
        return action != "hints" or self.session.hints

    def action_hints(self) -> None:
        """Show or hide each legal action's win chance (a table option: ra play --hints)."""
        if not self.session.hints:
            self.say(self.w("tui.hints.off"), error=True)
            return
        self.hints.toggle()

    # --- input -----------------------------------------------------------------------

    @on(Button.Pressed, "#actions Button")
    def _button(self, event: Button.Pressed) -> None:
        if event.button.name is not None:
            self.choose(ra.Action.from_index(int(event.button.name)))

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
        self._shown_epochs = len(session.game.epoch_scores)
        self.say(render.undone(session.game.names[seat], taken, self.edition, self.lang))
        self.refresh_screen(rebuild_log=True)
        self.step()

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

    def why_not(self, action: ra.Action) -> str:
        """Why ``action`` is not possible now, in the game's language (:func:`render.why_not`)."""
        return render.why_not(self.session.game, action, self.edition, self.lang)
