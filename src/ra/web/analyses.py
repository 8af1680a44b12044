"""Analysis at the table: a finished game judged decision by decision, stored with the game.

The "Analyse" button of a finished game asks for it once; the server judges each decision in the
bot workers (:func:`ra.analysis.game.judge_decision`, the ``ra analyze`` code), one at a time
through the fair scheduler so that live tables' bots keep their turns, writes its progress to the
database (any worker can report it; a run whose worker died is taken over) and the finished
analysis with the game, so the next viewer gets it at once.  Only finished games are analysed:
under hidden scores nothing of it shows before the end (R9.1); each decision is judged from its
mover's view (R9.3).

Beside "with best play from here", the chart draws each player's chance *given who is playing*
(:mod:`ra.analysis.chances`, as ``ra analyze --strengths``): the strengths are the bots' levels and
the people's ratings (:mod:`ra.web.strengths`), and each point carries what moved it (a tile, a bid, the
scoring), which the page shows on hover and focus.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from typing import Any, Literal

from typing_extensions import TypedDict

from ra.analysis.game import (
    DecisionReport,
    GameAnalysis,
    fill_analysis,
    given_curve,
    judge_decision,
    new_analysis,
    point_reasons,
)
from ra.analysis.report import svg_chart
from ra.bots.advisor import ADVICE_SEED
from ra.bots.evaluate import Budget
from ra.engine import Game
from ra.table import seat_labels
from ra.web.hub import Hub, table_seats
from ra.web.lobby import ApiError
from ra.web.rating_policy import assists_refusal
from ra.web.settings import Settings
from ra.web.store import GameRow, Store
from ra.web.strengths import seat_strengths
from ra.words import MsgJson

log = logging.getLogger("ra.web")

STALE_AFTER = 60.0
"""Seconds without progress after which another worker takes a running analysis over."""
PROGRESS_EVERY = 1.0
"""Seconds between the progress written to the database."""
MISTAKES_SHOWN = 3
"""A player's costliest decisions shown with their reasons."""

Curve = list[tuple[int, tuple[float, ...]]]
"""Every player's chance at the start and after each decision (:func:`ra.analysis.game.given_curve`)."""


def given_view(record: dict[str, Any], strengths: tuple[float, ...]) -> tuple[Curve, list[str]]:
    """The chart's chances given who is playing and what moved each point (in a worker process:
    the chances model reads every position of the game)."""
    game = Game.from_record(record)
    return given_curve(game, strengths), point_reasons(game)


class Mistake(TypedDict):
    decision: int
    epoch: int
    label: str
    loss: float
    why: MsgJson | None


class PlayerAnalysis(TypedDict):
    seat: int
    name: str
    accuracy: float | None
    judged: int
    mistakes: list[Mistake]


class AnalysisReply(TypedDict):
    status: Literal["none", "running", "done"]
    done: int
    total: int
    budget: str
    chart: str | None
    """The win-chance chart (``ra analyze``'s SVG) in the asked language, once done."""
    players: list[PlayerAnalysis]


def player_summaries(analysis: GameAnalysis) -> list[PlayerAnalysis]:
    """Each player's accuracy and costliest labelled decisions, reasons as messages."""
    out: list[PlayerAnalysis] = []
    for seat in analysis.seats:
        judged = [d for d in analysis.decisions if d.seat == seat]
        costly = sorted((d for d in judged if d.label), key=lambda d: -d.loss)[:MISTAKES_SHOWN]
        mistakes: list[Mistake] = [
            {
                "decision": d.index,
                "epoch": d.epoch,
                "label": d.label or "",
                "loss": round(d.loss, 4),
                "why": d.why,
            }
            for d in costly
        ]
        out.append(
            {
                "seat": seat,
                "name": analysis.names[seat],
                "accuracy": analysis.accuracy(seat),
                "judged": len(judged),
                "mistakes": mistakes,
            }
        )
    return out


class Analyses:
    """Start, run and report the analyses of finished games."""

    def __init__(self, store: Store, hub: Hub, settings: Settings) -> None:
        self.store = store
        self.hub = hub
        self.settings = settings
        self.budget = Budget.parse(settings.analysis_budget)
        self._running: dict[str, asyncio.Task[None]] = {}

    async def _finished_game(self, game_id: str) -> tuple[Game, GameRow]:
        row = await self.store.game(game_id)
        if row is None:
            raise ApiError(404, "not_found", "no such game")
        if row.status != "finished":
            raise ApiError(409, "not_finished", "a game is analysed once it is over")
        room = await self.hub.room(game_id)
        assert room is not None and room.game is not None
        refused = assists_refusal(not row.casual, room.game.is_over(), analysis=True)
        if refused is not None:  # an imported record of a game still going on (rating_policy)
            raise ApiError(409, "not_finished", refused)
        return room.game, row

    async def start(self, game_id: str, lang: str) -> AnalysisReply:
        """Start the game's analysis unless it is done or under way (here or elsewhere)."""
        game, row = await self._finished_game(game_id)
        edition = row.edition
        stored = await self.store.analyses.get(game_id)
        stale = stored is not None and time.time() - stored.updated_at.timestamp() > STALE_AFTER
        if (stored is None or (stored.status == "running" and stale)) and game_id not in self._running:
            if len(self._running) >= self.settings.max_analyses:
                raise ApiError(503, "busy", "the server is analysing other games; try again in a minute")
            if await self.store.analyses.claim(game_id, game.num_decisions, str(self.budget), STALE_AFTER):
                strengths = await seat_strengths(row, self.store.analyses)
                task = asyncio.create_task(self._run(game_id, game, edition, strengths))
                self._running[game_id] = task
                task.add_done_callback(lambda _: self._running.pop(game_id, None))
        return await self.status(game_id, lang)

    async def status(self, game_id: str, lang: str) -> AnalysisReply:
        """Where the game's analysis is: not asked for, its progress, or its result."""
        _, row = await self._finished_game(game_id)
        stored = await self.store.analyses.get(game_id)
        if stored is None:
            return {
                "status": "none",
                "done": 0,
                "total": 0,
                "budget": str(self.budget),
                "chart": None,
                "players": [],
            }
        if stored.status != "done" or stored.data is None:
            return {
                "status": "running",
                "done": stored.done,
                "total": stored.total,
                "budget": stored.budget,
                "chart": None,
                "players": [],
            }
        # The seats' names in the reader's language (a bot is "Бот (сильный)" on a Russian page).
        labels = tuple(seat_labels(table_seats(row), lang))
        analysis = dataclasses.replace(GameAnalysis.from_dict(stored.data), names=labels)
        return {
            "status": "done",
            "done": stored.total,
            "total": stored.total,
            "budget": stored.budget,
            "chart": svg_chart(analysis, lang),
            "players": player_summaries(analysis),
        }

    async def _run(self, game_id: str, game: Game, edition: str, strengths: tuple[float, ...]) -> None:
        analysis, chosen = new_analysis(game, None, self.budget, ADVICE_SEED)
        analysis.strengths = strengths
        record = game.to_record()
        results: dict[int, tuple[DecisionReport | None, tuple[float, ...]]] = {}
        last = time.monotonic()
        try:
            for index in range(game.num_decisions):
                _, report, chances = await self.hub.scheduler.run(
                    f"analysis:{game_id}",
                    False,
                    judge_decision,
                    record,
                    index,
                    index in chosen,
                    self.budget,
                    ADVICE_SEED,
                    edition,
                )
                results[index] = (report, chances)
                if time.monotonic() - last >= PROGRESS_EVERY:
                    await self.store.analyses.progress(game_id, index + 1)
                    last = time.monotonic()
            fill_analysis(analysis, results)
            analysis.given, analysis.reasons = await self.hub.scheduler.run(
                f"analysis:{game_id}", False, given_view, record, strengths
            )
            await self.store.analyses.finish(game_id, analysis.to_dict())
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the analysis of %s failed", game_id)
            await self.store.analyses.finish(game_id, None)

    async def stop(self) -> None:
        """Cancel the analyses under way (the server stops; another start takes them over)."""
        for task in list(self._running.values()):
            task.cancel()
        await asyncio.gather(*self._running.values(), return_exceptions=True)


__all__ = ["Analyses", "AnalysisReply", "given_view", "player_summaries"]
