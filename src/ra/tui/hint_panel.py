"""The terminal game's hints panel: each legal action's win chance for the person to move,
worked out in the background while the panel is open (:class:`ra.tui.hints.HintWork`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rich.text import Text
from textual.message import Message
from textual.widgets import Static
from textual.worker import Worker, WorkerState

import ra
from ra.analysis.chances import default_model, spec_strength
from ra.analysis.report import budget_text
from ra.bots.evaluate import Budget, EvaluationCancelledError
from ra.table import Table
from ra.tui.hints import HIDES, HintAnswer, HintWork, hints_text
from ra.words import words

LOG_LINES = 3
"""The lines of the log the panel always leaves (with its border), however small the window."""


class HintsPanel(Static):
    """Open or closed (``h``); while open, the hints of the position now, or a note that they
    are being worked out (input is never waited on)."""

    class Shown(Message):
        """The panel was filled again: its height may have changed."""

    def __init__(
        self,
        table: Table[Any],
        budget: Budget | str | int,
        edition: str,
        lang: str,
        say: Callable[[str], None],
    ) -> None:
        super().__init__(id="hints")
        self.table = table
        self.work = HintWork(table, budget)
        self.edition = edition
        self.w = words(lang)
        self.keys: Mapping[ra.Action, str] = {}
        """Each action's keys, shown beside it."""
        self._say = say  # where a failure is told

    @property
    def wanted(self) -> bool:
        """Whether there are hints to work out: the panel is open and a person is to move."""
        return self.work.open and self.table.human_to_move() and not self.table.game.is_over()

    def toggle(self) -> None:
        """Open or close the panel (a closed one does no work)."""
        self.work.open = not self.work.open
        if not self.work.open:
            self.work.stop()
        self.follow(self.keys)

    def follow(self, keys: Mapping[ra.Action, str]) -> None:
        """The position may have changed: start its work if wanted, and show the panel."""
        self.keys = keys
        work = self.work.start() if self.wanted else None
        if work is not None:
            self.run_worker(work, thread=True, group="hints", exit_on_error=False)
        self.show()

    def forget(self) -> None:
        """The position went (a decision, undo): stop its work."""
        self.work.stop()
        self.show()

    def show(self) -> None:
        """Fill the panel (when open): the table, or a note that it is being worked out."""
        self.set_class(self.work.open, "open")
        if not self.work.open:
            return
        result, w = self.work.result, self.w
        if not self.table.human_to_move() or self.table.game.is_over():
            self.update(Text(w("tui.hints.not_yours", hides=HIDES), style="dim"))
        elif result is None:
            budget = budget_text(str(self.work.budget), w.lang)
            self.update(Text(w("tui.hints.working", budget=budget, hides=HIDES), style="dim"))
        else:
            view = self.table.game.view(result.mover)
            width = self.app.size.width - 2  # inside the panel's padding
            given = self.given(view, result.mover)
            self.update(hints_text(result, view, self.keys, self.edition, w.lang, width, given))
        self.post_message(self.Shown())
        self.call_after_refresh(self._fit)

    def given(self, view: ra.PlayerView, seat: int) -> float:
        """The mover's chance given who is playing: the bots by their levels, each person as
        one nobody knows yet (:func:`ra.analysis.chances.spec_strength`), from ``view`` only."""
        strengths = [spec_strength(s.bot) for s in self.table.seats]
        return default_model().chances(view, strengths)[seat]

    def _fit(self) -> None:
        """Take at most the height the other widgets leave, keeping :data:`LOG_LINES` of the
        log: a panel taller than that scrolls (the best action and the table first)."""
        siblings = self.parent.children if self.parent is not None else ()
        taken = sum(w.outer_size.height for w in siblings if w is not self and w.id != "log" and w.display)
        room = self.app.size.height - taken - LOG_LINES - 1  # and the log's border
        self.styles.max_height = max(LOG_LINES, room)

    def on_resize(self) -> None:
        """Lay the table out again for a new width (two columns where they fit)."""
        self.show()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.SUCCESS:
            answer: HintAnswer = event.worker.result  # type: ignore[assignment]
            if self.work.done(answer):
                self.show()
        elif event.state == WorkerState.ERROR:
            if not isinstance(event.worker.error, EvaluationCancelledError):  # else: stopped on purpose
                self._say(self.w("tui.error.hints", error=str(event.worker.error)))
