"""Hints at the browser table: each legal action's win chance, the best one and why.

Computed in a bot worker process (a search is CPU-bound) from the asking seat's view only
(R9.3: never the bag order), by the advisor of :mod:`ra.bots.advisor` the terminal game and
``ra analyze`` use, and sent to that seat alone.  The reason travels as a message
(:func:`ra.bots.explain.reason_msg`, players by seat): the browser renders it in its language.

A table's hints are kept by its :class:`HintDesk`: one search per position and seat (asking
again gets the same answer), at most one in flight per seat (the scheduler replaces the old
one), and stopped, its worker freed, as soon as its decision is past or every page that asked
for it is gone (issue 52: one player's hint at every decision once held everyone's bots).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from ra.bots.advisor import ADVICE_SEED, Advisor
from ra.bots.evaluate import ActionValue, Evaluation
from ra.bots.explain import explain, reason_msg
from ra.table import SearchCancelledError
from ra.views import PlayerView
from ra.web.protocol import ErrorMessage, HintReply, error
from ra.web.switches import switch

if TYPE_CHECKING:
    from ra.web.clients import Client
    from ra.web.hub import Room

log = logging.getLogger("ra.web")

HintKey = tuple[int, tuple[str, ...]]
"""A hint's position: the seat and the whole decision history (:meth:`ra.table.Table.hint_key`)."""


def hint_for(view: PlayerView, budget: str, seed: int, edition: str, index: int = -1) -> HintReply:
    """The ``hint`` message for the seat of ``view``, to move (runs in a worker process: the
    view travels by value, nothing is replayed there); ``index``: the search's switch
    (:mod:`ra.web.switches`), which stops it when its answer is no longer wanted."""
    seat = view.seat
    assert seat is not None, "hints are for a seat, not a spectator"
    cancel = switch(index) if index >= 0 else None
    evaluation = Advisor(budget, seed=seed).evaluate(view, cancel=cancel)
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


def _usable(task: asyncio.Future[HintReply] | None) -> bool:
    """Whether a cached hint can still answer (not stopped, not cancelled)."""
    if task is None or not task.done():
        return task is not None
    return not task.cancelled() and not isinstance(task.exception(), SearchCancelledError)


class HintDesk:
    """The hints of one table (a :class:`ra.web.hub.Room`): who asked for which position."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.replies: set[asyncio.Future[None]] = set()
        self._askers: dict[HintKey, set[Client]] = {}

    def ask(self, client: Client, seat: int) -> None:
        """Send ``client`` the hint for ``seat``, to move now (the caller checked that it may
        ask): from the table's cache, or from a search started now."""
        table = self.room.table_now()
        key = table.hint_key(seat)
        self._askers.setdefault(key, set()).add(client)
        task = table.hint_cache.get(key)
        if task is None or not _usable(task):
            search = self.room.hub.hint(self.room, table.view(seat), self.room.row.edition, ADVICE_SEED, key)
            task = asyncio.ensure_future(search)
            table.hint_cache.put(key, task)
        reply = asyncio.ensure_future(self._send(client, key, task))
        self.replies.add(reply)
        reply.add_done_callback(self.replies.discard)

    def wanted(self, key: HintKey) -> bool:
        """Whether the hint of ``key`` is still worth its search: its seat is to move in that
        very position, and a page that asked for it is still open."""
        table, seat = self.room.table, key[0]
        if table is None or table.game.is_over() or table.game.to_move != seat or table.hint_key(seat) != key:
            return False
        return any(not c.closed for c in self._askers.get(key, ()))

    async def _send(self, client: Client, key: HintKey, task: asyncio.Future[HintReply]) -> None:
        message: HintReply | ErrorMessage
        try:
            message = await asyncio.shield(task)
        except SearchCancelledError:  # its decision is past, or nobody is left to tell
            self._forget(key, task)
            return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("hint at %s:%d failed", self.room.id, len(key[1]))
            self._forget(key, task)
            message = error("server_error", "the hint failed; try again")
        finally:
            self._left(key, client)
        if not client.closed:
            client.put(message)

    def _left(self, key: HintKey, client: Client) -> None:
        askers = self._askers.get(key)
        if askers is not None:
            askers.discard(client)
            if not askers:
                del self._askers[key]

    def _forget(self, key: HintKey, task: asyncio.Future[HintReply]) -> None:
        """Take a failed or stopped search out of the cache: asking again starts a new one."""
        table = self.room.table
        if table is not None and table.hint_cache.get(key) is task:
            table.hint_cache.discard(key)


__all__ = ["HintDesk", "HintKey", "hint_for"]
