"""Hints at the browser table: each legal action's win chance, the best one and why (issue 13).

Computed in a bot worker process (a search is CPU-bound) from the asking seat's view only
(R9.3: never the bag order), with the evaluator of :mod:`ra.bots.evaluate` the terminal
game uses, and sent to that seat alone.
"""

from __future__ import annotations

from typing import Any

from ra.bots.evaluate import Evaluator
from ra.bots.explain import reason
from ra.engine import Game
from ra.web.protocol import HintReply


def hint_for(record: dict[str, Any], seat: int, budget: str, seed: int, edition: str) -> HintReply:
    """The ``hint`` message for ``seat`` to move in the game of ``record`` (runs in a worker)."""
    game = Game.from_record(record)
    view = game.view(seat)
    evaluation = Evaluator(budget, seed=seed).evaluate(view)
    best = evaluation.best
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
        "reason": reason(view, best.action, edition),
        "playouts": evaluation.playouts,
    }


__all__ = ["hint_for"]
