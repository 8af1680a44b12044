"""Hints in the terminal game: each legal action with its win chance, the best one marked
and a short reason (:mod:`ra.bots.evaluate`, :mod:`ra.bots.explain`), in the command line's
language (``ra --lang``; the words in ``ra/locale/hints.pot``)."""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text

import ra
from ra.bots.advisor import DEFAULT_BUDGET
from ra.bots.evaluate import Evaluation
from ra.bots.explain import action_msg, label_msg, reason, signed
from ra.events import you_seat
from ra.state import State
from ra.words import DEFAULT_LANG, Seat, msg, words

HINT_BUDGET = DEFAULT_BUDGET
"""The work behind the hints (the advisor's default: the expert level's search)."""


def hints_text(
    evaluation: Evaluation,
    state: State,
    keys: Mapping[ra.Action, str],
    edition: str = "original",
    lang: str = DEFAULT_LANG,
) -> Text:
    """The hints panel: one line per legal action (key, label, win chance, expected margin),
    best first and starred, then why the best is best (the mover addressed as "you")."""
    code = lang
    w = words(code)
    seat = evaluation.mover
    best = evaluation.best
    text = Text()
    title = w.render(msg("hint.panel.title", p=Seat(seat)), state.names, you_seat(state.names))
    text.append(title, style="bold")
    chance = round(100 * best.chances[seat])
    text.append(" " + w("hint.panel.best", chance=chance) + "\n", style="dim")
    for v in evaluation.actions:
        star = "★" if v is best else " "
        key = keys.get(v.action, "")
        label = w.render(label_msg(v.action, edition))
        line = f"{star} {key:>2} {label:<16} {round(100 * v.chances[seat]):>3}%"
        line += "  " + w("hint.panel.margin", margin=signed(v.margin))
        text.append(line + "\n", style="bold green" if v is best else "")
    why = reason(state, best.action, edition, evaluation=evaluation, lang=code)
    text.append(w("hint.panel.why", action=action_msg(best.action, edition), why=why), style="italic")
    if evaluation.source == "flat":
        text.append("\n" + w("hint.panel.weaker"), style="dim")
    return text
