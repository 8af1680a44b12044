"""The flow of play in the terminal game: whose turn, a bot's move in a thread, the epoch's
scoring page, the hot seat's hand-over (``ra play``)."""

from __future__ import annotations

from rich.text import Text
from textual.worker import Worker, WorkerState

import ra
from ra.tui import render
from ra.tui.pages import HANDOVER, TextScreen, page_width
from ra.tui.play_view import PlayView
from ra.tui.session import SearchCancelledError


class PlayFlow(PlayView):
    """Let each player act in turn: wait for a person, ask a bot, show each epoch's scoring."""

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
        if finished > self.shown_epochs:
            self.shown_epochs = finished
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
