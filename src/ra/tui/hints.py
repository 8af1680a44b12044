"""Hints in the terminal game: each legal action with its win chance, the best one marked
and a short reason (:mod:`ra.bots.evaluate`, :mod:`ra.bots.explain`), in the command line's
language (``ra --lang``; the words in ``ra/locale/hints.pot``)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from datetime import UTC, datetime

from rich.text import Text

import ra
from ra.bots.advisor import HINT_BUDGET
from ra.bots.evaluate import ActionValue, Budget, Evaluation
from ra.bots.explain import action_msg, reason, signed
from ra.events import you_seat
from ra.labels import action_label
from ra.master import (
    AskHint,
    CancelHint,
    Effect,
    HintAnswered,
    HintKey,
    PageGone,
    RefusedError,
    SendHint,
    StartHint,
)
from ra.state import State
from ra.table import Table, advise
from ra.tui.render import chance
from ra.words import DEFAULT_LANG, Seat, Words, msg, words

COLUMN_GAP = 3
"""Columns between the two columns of a long hints table."""
LABEL_WIDTH = 16
"""The actions' labels are padded to the longest, at most this wide."""
HIDES = msg("hint.panel.hides")
"""The panel's one note that ``h`` hides it: in its title and in its notes alike."""


def hints_text(
    evaluation: Evaluation,
    state: State,
    keys: Mapping[ra.Action, str],
    edition: str = "original",
    lang: str = DEFAULT_LANG,
    width: int | None = None,
    given: float | None = None,
) -> Text:
    """The hints panel: one line per legal action (key, label, win chance, expected margin: the
    title says once what ± is),
    best first and starred, then why the best is best (the mover addressed as "you").  Given
    a ``width``, four actions or more go in two columns where they fit, best first down the
    first: the panel then leaves the log its room (at 80×24, five bids leave four log lines).
    ``given``: the mover's chance given who is playing (:mod:`ra.analysis.chances`), after the
    reason (on its last line, where it mostly fits: the panel takes no line more)."""
    w = words(lang)
    seat = evaluation.mover
    best = evaluation.best
    starred = evaluation.starred
    text = Text()
    title = w.render(msg("hint.panel.title", p=Seat(seat)), state.names, you_seat(state.names))
    text.append(title, style="bold")
    text.append(" " + w("hint.panel.legend", hides=HIDES) + "\n", style="dim")  # margin, once
    labels = [action_label(v.action, edition, lang) for v in evaluation.actions]
    size = min(LABEL_WIDTH, max(map(len, labels), default=0))
    rows = [
        _row(v, v is starred, seat, keys.get(v.action, ""), f"{label:<{size}}", w)
        for v, label in zip(evaluation.actions, labels, strict=True)
    ]
    for line in _columns(rows, width):
        text.append_text(line)
        text.append("\n")
    why = reason(state, best.action, edition, evaluation=evaluation, lang=lang)
    text.append(w("hint.panel.why", action=action_msg(best.action, edition), why=why), style="italic")
    if given is not None:  # the chance given who is playing, after the best play's reason
        text.append(" · " + w("hint.panel.given", chance=chance(given, w.lang)), style="dim")
    if evaluation.source == "flat":
        text.append("\n" + w("hint.panel.weaker"), style="dim")
    return text


def _row(value: ActionValue, best: bool, seat: int, key: str, label: str, w: Words) -> Text:
    """One action's line: star, key, label, win chance and margin."""
    shown = chance(value.chances[seat], w.lang)
    line = f"{'★' if best else ' '} {key:>2} {label} {shown:>5} {signed(value.margin):>3}"
    return Text(line, style="bold green" if best else "")


def _columns(rows: list[Text], width: int | None) -> list[Text]:
    """The rows in two columns (down the first, then the second) where ``width`` allows and
    there are four or more, else one under another."""
    size = max((len(r) for r in rows), default=0)
    if width is None or len(rows) < 4 or 2 * size + COLUMN_GAP > width:
        return rows
    half = (len(rows) + 1) // 2
    lines = []
    for i, left in enumerate(rows[:half]):
        right = rows[half + i] if half + i < len(rows) else None
        lines.append(
            left if right is None else Text.assemble(left, " " * (size + COLUMN_GAP - len(left)), right)
        )
    return lines


HintAnswer = tuple[HintKey, Evaluation]
"""A finished evaluation and the key (seat and history) of the position it is for."""


class HintWork:
    """The hints panel's work: whether it is open, and the hint of the person's position, by
    the table's hint intents (:mod:`ra.master`, :mod:`ra.steps`) as on the web — asked for
    (:class:`AskHint`: from the table's cache at once, or a search), answered
    (:class:`HintAnswered`), or no longer waited for when the position goes (a decision, undo,
    quit: :class:`PageGone`, which cancels the search)."""

    def __init__(self, table: Table[Evaluation], budget: Budget | str | int = HINT_BUDGET) -> None:
        self.table = table
        self.budget = budget if isinstance(budget, Budget) else Budget.parse(budget)
        self.open = False
        self.result: Evaluation | None = None
        """The evaluation of the position now, once done."""
        self.position = -1
        """The decision number the hints are (being) worked out for; -1 for none."""
        self._searches: dict[HintKey, threading.Event] = {}  # each search's stop switch

    def start(self) -> Callable[[], HintAnswer] | None:
        """Ask for the hint of the position now (whose mover must be a person): the table's
        cache answers at once, or its hint job (:meth:`ra.table.Table.hint_job`) is returned as
        the work to run in a thread that only waits, through the one hint pipeline in a process
        of its own (:func:`ra.table.advise`); None when it is already under way or done."""
        game = self.table.game
        if self.position == game.num_decisions or game.to_move is None:
            return None
        self.position, self.result = game.num_decisions, None
        try:
            effects = self._step(AskHint(game.to_move, game.num_decisions, self))
        except RefusedError:
            return None
        return next((self._search(e.key) for e in effects if isinstance(e, StartHint)), None)

    def _search(self, key: HintKey) -> Callable[[], HintAnswer]:
        job = self.table.hint_job(key[0], self.budget)
        self._searches[key] = cancel = threading.Event()
        return lambda: (key, advise(job, cancel, apart=True))

    def stop(self) -> None:
        """The position went: wait for its hint no more (its search is stopped) and forget it."""
        if self.table.hints_asked:
            self._step(PageGone(self))
        self.position = -1
        self.result = None

    def done(self, answer: HintAnswer) -> bool:
        """A search's answer: kept in the table's cache (an undo may bring its position back),
        and shown if the panel still waits for it; whether it is shown."""
        key, evaluation = answer
        self._searches.pop(key, None)
        effects = self._step(HintAnswered(key, evaluation))
        return any(isinstance(e, SendHint) and e.asker is self for e in effects)

    def _step(self, intent: AskHint | PageGone | HintAnswered[Evaluation]) -> list[Effect]:
        """The table's step for ``intent``: its hints in flight kept, its effects carried out."""
        effects = self.table.hint_step(intent, datetime.now(UTC))
        for effect in effects:
            if isinstance(effect, CancelHint):
                self._searches.pop(effect.key, threading.Event()).set()
            elif isinstance(effect, SendHint) and effect.asker is self:
                self.result = self.table.hint_cache.get(effect.key)
        return effects
