"""The terminal game's screen and what it shows: the board, the log, the person's action buttons,
the message line, the hints panel, the command line and the key bar (``ra play``)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.widgets import Input, RichLog

import ra
from ra.bots.advisor import HINT_BUDGET
from ra.bots.evaluate import Budget
from ra.tui import render
from ra.tui.bindings import FOOTER_OPTIONAL, translate_bindings
from ra.tui.board import board_widgets, log_width, show_board
from ra.tui.bot_worker import BotWorker
from ra.tui.hint_panel import HintsPanel
from ra.tui.keys import MoveKeys
from ra.tui.session import Session
from ra.tui.widgets import ActionBar, GameLog, KeyBar, Line, MessageLine, action_parts
from ra.words import DEFAULT_LANG, words


class PlayView(App[None]):
    """The game's screen over a :class:`Session`: what the person shown may see, and the state of
    the screen (a modal page open, a bot thinking, fast-forward, a half-typed bid)."""

    KEYS: ClassVar[dict[str, str]] = {}
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
        self._buttons: tuple[tuple[tuple[int, ...], tuple[str, ...]], int] | None = None
        """What the action buttons shown were made for (:meth:`MoveKeys.signature`, width)."""
        self.shown_epochs = len(session.game.epoch_scores)
        """The epochs whose scoring page has been shown."""
        self.error: str | None = None

    def compose(self) -> ComposeResult:
        yield from board_widgets()
        yield ActionBar(id="actions")
        yield MessageLine(id="message")
        yield self.hints
        yield Input(placeholder=self.w("tui.command.placeholder"), id="command")
        yield KeyBar(FOOTER_OPTIONAL)

    def on_game_log_rewrap(self, _: GameLog.Rewrap) -> None:
        """Lay the log out again for its new width (its lines were wrapped for the old one)."""
        self.refresh_screen(rebuild_log=True)

    def on_resize(self) -> None:
        """Fit the board to the new size (or say the window is too small)."""
        self.refresh_screen()

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
        """Show the position now: the board, the status, the new events of the log and the
        action buttons, in one batch (one repaint); parts that did not change are left as they are."""
        with self.batch_update():
            self._refresh(rebuild_log)

    def _refresh(self, rebuild_log: bool) -> None:
        view = self.view()
        seat = None if view.spectator else view.seat
        show_board(self, view, self.edition, seat, self.lang)
        self.query_one("#status", Line).show(self._status(view, seat))
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
        """The buttons for the person to move (:mod:`ra.tui.keys`); the buttons shown stay
        when they would be made again alike (the same actions in the same width)."""
        self.moves = MoveKeys()
        if not (self.modal or self.bots.thinking or not self.session.human_to_move()):
            self.moves = MoveKeys.of(self.session.game)
        width = self.size.width - 2
        shown = (self.moves.signature(), width) if self.moves else None
        bar = self.query_one("#actions", ActionBar)
        focused = self.focused is not None and self.focused in bar.children  # a click
        if shown == self._buttons and not focused:
            return
        self._buttons = shown
        parts = action_parts(self.moves, self.w, self.edition, width) if self.moves else []
        bar.show(parts, remake=focused)  # new buttons: the focus leaves with the old ones

    @on(HintsPanel.Shown)
    def _hints_shown(self) -> None:
        self.call_after_refresh(self._log_to_end)  # the panel took room: keep the newest event in view

    def _log_to_end(self) -> None:
        self.query_one("#log", RichLog).scroll_end(animate=False)

    def why_not(self, action: ra.Action) -> str:
        """Why ``action`` is not possible now, in the game's language (:func:`render.why_not`)."""
        return render.why_not(self.session.game, action, self.edition, self.lang)
