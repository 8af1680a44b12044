"""Hints at the browser table: each legal action's win chance, the best one and why.

Computed in a bot worker process (a search is CPU-bound) from the asking seat's view only
(R9.3: never the bag order), by the advisor of :mod:`ra.bots.advisor` the terminal game and
``ra analyze`` use, and sent to that seat alone.  The reason travels as a message
(:func:`ra.bots.explain.reason_msg`, players by seat): the browser renders it in its language.
"""

from __future__ import annotations

from typing import Any

from ra.bots.advisor import Advisor
from ra.bots.explain import explain, reason_msg
from ra.engine import Game
from ra.web.protocol import HintReply


def hint_for(record: dict[str, Any], seat: int, budget: str, seed: int, edition: str) -> HintReply:
    """The ``hint`` message for ``seat`` to move in the game of ``record`` (runs in a worker)."""
    game = Game.from_record(record)
    view = game.view(seat)
    evaluation = Advisor(budget, seed=seed).evaluate(view)
    best = evaluation.best
    why = reason_msg(explain(view, best.action, evaluation), edition)
    return {
        "type": "hint",
        "n": game.num_decisions,
        "seat": seat,
        "chances": [round(c, 4) for c in evaluation.chances],
        "actions": [
            {"action": str(v.action), "chance": round(v.chances[seat], 4), "margin": round(v.margin, 1)}
            for v in evaluation.actions
        ],
        "best": str(best.action),
        "reason": why.to_json() if why is not None else None,
        "playouts": evaluation.playouts,
        "source": "search" if evaluation.source == "search" else "flat",
    }


__all__ = ["hint_for"]
