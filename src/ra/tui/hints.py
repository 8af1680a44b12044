"""Hints in the terminal game: each legal action with its win chance, the best one marked
and a short reason (:mod:`ra.bots.evaluate`, :mod:`ra.bots.explain`)."""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text

import ra
from ra.bots.advisor import DEFAULT_BUDGET
from ra.bots.evaluate import Evaluation
from ra.bots.explain import action_words, reason, signed
from ra.state import State
from ra.tui.render import action_label

HINT_BUDGET = DEFAULT_BUDGET
"""The work behind the hints (the advisor's default: the expert level's search)."""


def hints_text(
    evaluation: Evaluation, state: State, keys: Mapping[ra.Action, str], edition: str = "original"
) -> Text:
    """The hints panel: one line per legal action (key, label, win chance, expected margin),
    best first and starred, then why the best is best."""
    seat = evaluation.mover
    best = evaluation.best
    text = Text()
    text.append(f"Hints for {state.names[seat]}", style="bold")
    text.append(
        f" (win chance with the best action: {round(100 * best.chances[seat])}%; h hides)\n", style="dim"
    )
    for v in evaluation.actions:
        star = "★" if v is best else " "
        key = keys.get(v.action, "")
        line = f"{star} {key:>2} {action_label(v.action, edition):<16} {round(100 * v.chances[seat]):>3}%"
        line += f"  margin {signed(v.margin)}"
        text.append(line + "\n", style="bold green" if v is best else "")
    why = reason(state, best.action, edition, evaluation=evaluation)
    text.append(f"Why {action_words(best.action, edition)}: {why}", style="italic")
    if evaluation.source == "flat":
        text.append(
            "\n(weaker advice: the native core is not built, so the hints come from quick playouts)",
            style="dim",
        )
    return text
