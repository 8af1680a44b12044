"""Hints at the browser table: each legal action's win chance, the best one and why.

Computed in a bot worker process (a search is CPU-bound) from the asking seat's view only
(R9.3: never the bag order), by the advisor of :mod:`ra.bots.advisor` the terminal game and
``ra analyze`` use, and sent to that seat alone.  The reason travels as a message
(:func:`ra.bots.explain.reason_msg`, players by seat): the browser renders it in its language.
"""

from __future__ import annotations

from ra.bots.advisor import Advisor
from ra.bots.explain import explain, reason_msg
from ra.views import PlayerView
from ra.web.protocol import HintReply


def hint_for(view: PlayerView, budget: str, seed: int, edition: str) -> HintReply:
    """The ``hint`` message for the seat of ``view``, to move (runs in a worker process: the
    view travels by value, nothing is replayed there)."""
    seat = view.seat
    assert seat is not None, "hints are for a seat, not a spectator"
    evaluation = Advisor(budget, seed=seed).evaluate(view)
    best = evaluation.best
    why = reason_msg(explain(view, best.action, evaluation), edition)
    return {
        "type": "hint",
        "n": view.num_decisions,
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
