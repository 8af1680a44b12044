"""What runs inside a bot process: its start and the hint search.

A bot process is started fresh (:mod:`ra.processes`) and imports what its pool hands it by name:
its initializers and the functions it runs.  They live here, beside the table and the bots and
apart from the server's own modules (the protocol's models, the clients, the metrics), so a bot
process imports only what it runs: it starts in about half the processor time (a server's first
search for a bot that searches, and its first hint, wait on one).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from typing import TYPE_CHECKING

from ra.bots.evaluate import ActionValue, Evaluation
from ra.bots.explain import explain, reason_msg
from ra.table import HintJob, advise
from ra.web.switches import switch

if TYPE_CHECKING:  # the message's shape only: the protocol's models are the server's to import
    from ra.web.protocol import HintReply

PR_SET_PDEATHSIG = 1
"""Linux's prctl option: the signal a process gets when its parent ends."""
BACKGROUND_NICENESS = 10
"""How much lower the CPU priority of the processes that search for tables where no person is
present: when the cores are busy, a present person's bot still gets one at once."""


def die_with_parent() -> None:
    """In a bot process, first thing: be ended with the server process that started it (Linux's
    parent-death signal), so a server stopped by SIGTERM or killed leaves no search running,
    orphaned (issue 40, finding 10)."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() == 1:  # the server ended before the signal was asked for
        os._exit(0)


def background_worker() -> None:
    """A bot process for tables where nobody is present: ends with the server, and yields the
    CPU to the people's searches (issue 40, finding 1)."""
    die_with_parent()
    os.nice(BACKGROUND_NICENESS)


def hint_for(job: HintJob, edition: str, index: int = -1) -> HintReply:
    """The ``hint`` message for the seat of ``job``'s view, to move (runs in a worker process:
    the job travels by value, nothing is replayed there); ``index``: the search's switch
    (:mod:`ra.web.switches`), which stops it when its answer is no longer wanted."""
    view = job.view
    seat = view.seat
    assert seat is not None, "hints are for a seat, not a spectator"
    evaluation = advise(job, switch(index) if index >= 0 else None)
    best, starred = evaluation.best, evaluation.starred
    # On an exact tie the library stars nothing (issue 53), and no reason says why one is best.
    why = reason_msg(explain(view, best.action, evaluation), edition) if starred is not None else None
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
        "starred": str(starred.action) if starred is not None else None,
        "tied": [] if starred is not None else _level_with(evaluation, best),
        "reason": why.to_json() if why is not None else None,
        "playouts": evaluation.playouts,
        "source": "search" if evaluation.source == "search" else "flat",
    }


def _level_with(evaluation: Evaluation, best: ActionValue) -> list[str]:
    """The actions a hint shows exactly as it shows ``best`` (a tie: nobody is starred)."""
    seat = evaluation.mover
    return [str(v.action) for v in evaluation.actions if v.shown(seat) == best.shown(seat)]


__all__ = ["BACKGROUND_NICENESS", "background_worker", "die_with_parent", "hint_for"]
