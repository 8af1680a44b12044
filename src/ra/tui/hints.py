"""Hints in the terminal game: each legal action with its win chance, the best one marked
and a short reason (:mod:`ra.bots.evaluate`, :mod:`ra.bots.explain`), in the command line's
language (``ra --lang``; the words in ``ra/locale/hints.pot``)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

from rich.text import Text

import ra
from ra.bots.advisor import HINT_BUDGET as ADVISOR_HINT_BUDGET
from ra.bots.evaluate import ActionValue, Budget, Evaluation
from ra.bots.explain import action_msg, reason, signed
from ra.events import you_seat
from ra.labels import action_label
from ra.state import State
from ra.table import Table, advise
from ra.tui.render import percent
from ra.words import DEFAULT_LANG, Seat, Words, msg, words

HINT_BUDGET = ADVISOR_HINT_BUDGET
"""The work behind the hints (the advisor's default for hints: the hard level's search)."""


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
) -> Text:
    """The hints panel: one line per legal action (key, label, win chance, expected margin: the
    title says once what ± is),
    best first and starred, then why the best is best (the mover addressed as "you").  Given
    a ``width``, four actions or more go in two columns where they fit, best first down the
    first: the panel then leaves the log its room (at 80×24, five bids leave four log lines)."""
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
    if evaluation.source == "flat":
        text.append("\n" + w("hint.panel.weaker"), style="dim")
    return text


def _row(value: ActionValue, best: bool, seat: int, key: str, label: str, w: Words) -> Text:
    """One action's line: star, key, label, win chance and margin."""
    chance = percent(round(100 * value.chances[seat]), w.lang)
    line = f"{'★' if best else ' '} {key:>2} {label} {chance:>5} {signed(value.margin):>3}"
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


HintAnswer = tuple[int, Evaluation]
"""A finished evaluation and the decision number of the position it is for."""


class HintWork:
    """The hints panel's work: whether it is open, and the evaluation of the person's position —
    run in the background while the panel is open, kept for that position only, stopped as soon
    as the position goes (a decision, undo, quit)."""

    def __init__(self, budget: Budget | str | int = HINT_BUDGET) -> None:
        self.budget = budget if isinstance(budget, Budget) else Budget.parse(budget)
        self.open = False
        self.result: Evaluation | None = None
        """The evaluation of the position now, once done."""
        self.position = -1
        """The decision number the hints are (being) worked out for; -1 for none."""
        self._cancel = threading.Event()

    def start(self, table: Table[Any]) -> Callable[[], HintAnswer] | None:
        """The work for the position of ``table`` (whose mover must be a person), to run in a
        thread that only waits: the table's hint job (:meth:`ra.table.Table.hint_job`) through
        the one hint pipeline, in a process of its own (:func:`ra.table.advise`); None when it
        is already under way or done."""
        game = table.game
        if self.position == game.num_decisions:
            return None
        assert game.to_move is not None
        job = table.hint_job(game.to_move, self.budget)
        self._cancel.set()
        self._cancel = cancel = threading.Event()
        self.position = position = game.num_decisions
        self.result = None
        return lambda: (position, advise(job, cancel, apart=True))

    def stop(self) -> None:
        """Stop the work under way and forget its position."""
        self._cancel.set()
        self.position = -1
        self.result = None

    def done(self, answer: HintAnswer, now: int) -> bool:
        """Keep a finished evaluation if it is of the position now (decision number ``now``);
        whether it was kept."""
        position, evaluation = answer
        if position != self.position or position != now:
            return False
        self.result = evaluation
        return True
