"""Hints at the browser table: each legal action's win chance, the best one and why.

Computed in a bot worker process (a search is CPU-bound: :func:`ra.web.bot_work.hint_for`)
from the asking seat's view only (R9.3: never the bag order), by the table's one hint pipeline
(:func:`ra.table.advise`, which the terminal game uses too), and sent to that seat alone.  The
reason travels as a message (:func:`ra.bots.explain.reason_msg`, players by seat): the browser
renders it in its language.

The hint lifecycle is the table's (:mod:`ra.steps`): one search per position and seat (asking
again gets the same answer), at most one in flight per seat, cancelled as soon as its decision is
past or every page that asked for it is gone (issue 52: one player's hint at every decision once
held everyone's bots).  A table's :class:`HintDesk` carries out those effects: it starts and
stops the searches and sends the answers.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Hashable, Sequence

from ra.analysis.chances import default_model
from ra.master import (
    AskHint,
    CancelHint,
    Effect,
    HintAnswered,
    HintFailed,
    HintFailedFor,
    HintKey,
    Intent,
    PageGone,
    SendHint,
    StartHint,
)
from ra.steps import hint_wanted
from ra.table import HintJob, SearchCancelledError, Table
from ra.views import PlayerView
from ra.web.clients import Client
from ra.web.errors import ClientError
from ra.web.protocol import ErrorMessage, HintReply, error
from ra.web.rating_policy import assists_refusal

log = logging.getLogger("ra.web")

HintTable = Table[HintReply]
"""A table at the web: its hint cache holds the ``hint`` messages found."""


def given_too(reply: HintReply, view: PlayerView, strengths: Sequence[float]) -> HintReply:
    """``reply`` with the seat's chance *given who is playing* (:mod:`ra.analysis.chances`, the
    one calibrated source the analysis' chart reads too, from the seat's view only) beside the
    search's, which assumes everyone plays like the search from here (issue 53)."""
    chance = default_model().chances(view, strengths)[reply["seat"]]
    return {**reply, "given": round(chance, 4)}


Search = Callable[[HintJob, HintKey], Awaitable[HintReply]]
"""How a table's hint search runs (the hub's fair scheduler, in a worker process)."""
Settle = Callable[[Intent | HintAnswered[HintReply]], Awaitable[object]]
"""How a hint's ask, a page gone or a search's end goes to the table: as an intent (the room
carries it out)."""


class HintDesk:
    """The hint effects of one table (:class:`ra.web.hub.Room`): its searches under way, by key."""

    def __init__(
        self, search: Search, settle: Settle, table: Callable[[], HintTable | None], trace: str = ""
    ) -> None:
        self._search = search
        self._settle = settle
        self._table = table
        self._trace = trace
        self.searches: dict[HintKey, asyncio.Future[HintReply]] = {}
        self._ending: set[asyncio.Future[object]] = set()  # held: a task nobody holds may vanish

    async def ask(self, client: Client, n: int, rated: bool) -> None:
        """``client`` (the seat to move at decision ``n``) asks for its hints: refused at a
        ``rated`` table until it ends (the rating policy's), else the table's step
        (:class:`ra.master.AskHint`) says whether a search starts (a refusal raises
        :class:`ClientError`); it runs in a worker process, moves are never held up by it."""
        table = self._table()
        refused = assists_refusal(rated, table is not None and table.game.is_over())
        if refused is not None:
            raise ClientError("no_hints", refused)
        if client.seat is None:
            raise ClientError("not_your_turn", "hints are for the player to move")
        await self._settle(AskHint(client.seat, n, client))

    async def page_gone(self, client: Client) -> None:
        """``client``'s page closed: the hints it waited for may be cancelled (the table's rule)."""
        table = self._table()
        if table is not None and table.hints_asked:
            await self._settle(PageGone(client))

    def wanted(self, key: HintKey) -> bool:
        """Whether the hint of ``key`` is still worth its search (:func:`ra.steps.hint_wanted`)."""
        table = self._table()
        return table is not None and hint_wanted(table, key)

    def carry_out(self, table: HintTable, effects: list[Effect], budget: str) -> None:
        """Carry out the hint effects of a step (``table``: the table after it)."""
        for effect in effects:
            if isinstance(effect, StartHint):
                self._start(table.hint_job(effect.key[0], budget), effect.key)
            elif isinstance(effect, CancelHint):
                search = self.searches.pop(effect.key, None)
                if search is not None:
                    search.cancel()
            elif isinstance(effect, SendHint):
                answer = table.hint_cache.get(effect.key)
                if answer is not None:
                    _tell(effect.asker, answer)
            elif isinstance(effect, HintFailedFor):
                _tell(effect.asker, error("server_error", "the hint failed; try again"))

    def _start(self, job: HintJob, key: HintKey) -> None:
        search = asyncio.ensure_future(self._search(job, key))
        self.searches[key] = search
        search.add_done_callback(lambda done: self._ended(key, done))

    def _ended(self, key: HintKey, search: asyncio.Future[HintReply]) -> None:
        """A search ended: unless the table already let it go, tell the table how."""
        if self.searches.get(key) is not search:
            return  # cancelled by the table, or replaced
        del self.searches[key]
        ended: HintAnswered[HintReply] | HintFailed
        if search.cancelled() or isinstance(search.exception(), SearchCancelledError):
            ended = HintFailed(key)  # stopped: its decision is past, or nobody is left to tell
        elif search.exception() is not None:
            log.error("hint at %s:%d failed", self._trace, len(key[1]), exc_info=search.exception())
            ended = HintFailed(key, error=True)
        else:
            ended = HintAnswered(key, search.result())
        task = asyncio.ensure_future(self._settle(ended))
        self._ending.add(task)
        task.add_done_callback(self._ended_told)

    def _ended_told(self, task: asyncio.Future[object]) -> None:
        """A search's end that its table could not take (a table closed meanwhile) is logged."""
        self._ending.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a hint's end could not be told to its table", exc_info=task.exception())

    def stop(self) -> None:
        """Stop every search (the server stops)."""
        for search in self.searches.values():
            search.cancel()
        self.searches.clear()


def _tell(asker: Hashable, message: HintReply | ErrorMessage) -> None:
    """Send a hint (or its failure) to the page that asked, if it is still open."""
    if isinstance(asker, Client) and not asker.closed:
        asker.put(message)


__all__ = ["HintDesk", "HintTable", "given_too"]
