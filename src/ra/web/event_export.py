"""An event's crosstable and its downloads (issue 55): the crosstable the page shows, the same
as a CSV file, and the event's game records as a JSON lines file.

The crosstable is read from :meth:`ra.web.events.Events.view` and the stored results through
:mod:`ra.tournament` (each seat's place and match points), never worked out a second way.  The
files are made only for a finished event (they no longer change), once per worker, and kept
(a few events at most); each address may ask for a few a minute (guests and accounts alike):
a link shared widely costs the site one build, a flood gets "rate_limited".
"""

from __future__ import annotations

import csv
import io
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from fractions import Fraction
from typing import Any

from ra.tournament import Bye, Entrant, FinishedTable, Settings, match_points, standings
from ra.tournament.results import places
from ra.web.events import Events, results_of
from ra.web.hub import Hub
from ra.web.limits import AddressBucket, Levels
from ra.web.lobby import ApiError, Lobby

DOWNLOADS_PER_MINUTE = 6
"""Event files (crosstable or records) one address may download in a minute."""
KEPT_FILES = 16
"""Built files kept in this worker's memory (the least recently asked for go first)."""


class EventExport:
    """An event's crosstable (JSON for the page, CSV to download) and its records (JSON lines)."""

    def __init__(self, events: Events, lobby: Lobby, hub: Hub, levels: Levels) -> None:
        self.events, self.lobby, self.hub = events, lobby, hub
        self._bucket = AddressBucket(
            levels, "event-downloads", DOWNLOADS_PER_MINUTE / 60.0, DOWNLOADS_PER_MINUTE
        )
        self._kept: OrderedDict[tuple[str, str], bytes] = OrderedDict()

    async def crosstable(self, event_id: str) -> dict[str, Any]:
        """Each player's line (by standing) with a cell per round: place, table size, match
        points and game, a bye, or nothing (not seated)."""
        view = await self.events.view(event_id)
        played = await self.events.store.played(event_id)
        cells = crosstable_cells(played)
        rounds = max((t["round"] for t in view["tables"]), default=0)
        return {
            "id": view["id"],
            "name": view["name"],
            "status": view["status"],
            "rounds": rounds,
            "lines": [
                {
                    "rank": s["rank"],
                    "name": s["name"],
                    "points": s["points"],
                    "cells": [cells.get((r, s["player"])) for r in range(1, rounds + 1)],
                }
                for s in view["standings"]
            ],
        }

    async def crosstable_csv(self, event_id: str, addr: str) -> bytes:
        """The finished event's crosstable as CSV (one line a player, a column a round)."""
        return await self._file(event_id, "csv", addr, self._csv)

    async def records(self, event_id: str, addr: str) -> bytes:
        """The finished event's game records, one JSON object a line: round, table, players and
        the game's public record (the site's ``/api/games/{id}/record``)."""
        return await self._file(event_id, "jsonl", addr, self._records)

    async def _file(
        self, event_id: str, kind: str, addr: str, build: Callable[[str], Awaitable[bytes]]
    ) -> bytes:
        row = await self.events.row(event_id)
        if row["status"] != "finished":
            raise ApiError(409, "event_not_finished", "an event's files are ready once it has finished")
        if not await self._bucket.allow(addr):
            raise ApiError(
                429, "rate_limited", f"at most {DOWNLOADS_PER_MINUTE} event files a minute; wait a little"
            )
        key = (event_id, kind)
        if key not in self._kept:
            self._kept[key] = await build(event_id)
            while len(self._kept) > KEPT_FILES:
                self._kept.popitem(last=False)
        self._kept.move_to_end(key)
        return self._kept[key]

    async def _csv(self, event_id: str) -> bytes:
        table = await self.crosstable(event_id)
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["rank", "player", "points", *(f"round {r}" for r in range(1, table["rounds"] + 1))])
        for line in table["lines"]:
            writer.writerow(
                [line["rank"], csv_cell(line["name"]), line["points"], *map(_cell_text, line["cells"])]
            )
        return out.getvalue().encode()

    async def _records(self, event_id: str) -> bytes:
        view = await self.events.view(event_id)
        names = {p["account"]: p["name"] for p in view["players"]}
        lines = []
        for t in view["tables"]:
            if t["game"] is None or len(t["players"]) < 2:
                continue
            players = [names.get(p, "bot") if p is not None else "bot" for p in t["players"]]
            record = await self.lobby.records.record(t["game"])
            await self._let_go(t["game"])
            lines.append(
                json.dumps(
                    {
                        "round": t["round"],
                        "table": t["table"],
                        "game": t["game"],
                        "players": players,
                        "record": record,
                    },
                    ensure_ascii=False,
                )
            )
        return "".join(line + "\n" for line in lines).encode()

    async def _let_go(self, game_id: str) -> None:
        """Forget the game's room again if nobody uses it (the hub rebuilds an idle room from the
        database when next asked): a file of hundreds of games holds one at a time in memory."""
        room = await self.hub.room(game_id)
        if room is not None:
            self.hub.release(room)


def crosstable_cells(played: list[dict[str, Any]]) -> dict[tuple[int, str], dict[str, Any]]:
    """Each (round, player)'s result: place and match points at a finished table, or a bye."""
    cells: dict[tuple[int, str], dict[str, Any]] = {}
    for t in played:
        for result in results_of([t]):  # nothing for a table still being played
            if isinstance(result, FinishedTable):
                points, place = match_points(result), places(result)
                for p in result.players:
                    cells[(result.round, p)] = {
                        "place": _number(place[p]),
                        "of": len(result.seats),
                        "points": _number(points[p]),
                        "table": t["table_no"],
                        "game": t["game_id"],
                    }
            else:
                cells[(result.round, result.player)] = {"bye": True, "points": _number(bye_points(result))}
    return cells


def bye_points(bye: Bye) -> Fraction:
    """What a bye scores, as :func:`ra.tournament.standings` counts it (a first place)."""
    (line,) = standings([Entrant(bye.player)], [bye], Settings())
    return line.match_points


def _number(x: Fraction) -> str:
    """A place or points as a person writes it: 2, 1.5, 0.5."""
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


def _cell_text(cell: dict[str, Any] | None) -> str:
    if cell is None:
        return ""
    if cell.get("bye"):
        return f"bye ({cell['points']})"
    return f"{cell['place']}/{cell['of']} ({cell['points']})"


def csv_cell(text: str) -> str:
    """A name as a CSV cell a spreadsheet does not run as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
