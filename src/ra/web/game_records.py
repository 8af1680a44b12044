"""Game records and replays: a game's public record, a finished game imported from its record
(kept as a replay; limited per address), and a finished game shown at any decision."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from typing_extensions import TypedDict

from ra.engine import Game
from ra.errors import RaError
from ra.table import Seat, Table, TableOptions, record_facts, record_stand_in
from ra.web.errors import ApiError
from ra.web.hub import Hub
from ra.web.ledger import result_columns
from ra.web.limits import AddressBucket
from ra.web.listing import Listing, Seated
from ra.web.protocol import EventData, GameSummary, ViewData
from ra.web.settings import Settings
from ra.web.store import Caps, OverCapError
from ra.web.store.lobby import LobbyStorage

MAX_RECORD_BYTES = 256 * 1024
"""The largest game record the server imports."""
IMPORTS_PER_MINUTE = 5
"""Record imports one address may make in a minute (a burst of as many, then one every 12 s)."""


class Replay(TypedDict):
    n: int
    total: int
    game: GameSummary
    view: ViewData
    events: list[EventData]
    epochs: list[list[int]]


class GameRecords:
    """The records and replays of the lobby's games."""

    def __init__(self, store: LobbyStorage, hub: Hub, listing: Listing, settings: Settings) -> None:
        self.store, self.hub, self.listing, self.settings = store, hub, listing, settings
        self._imports = AddressBucket(store.levels, "imports", IMPORTS_PER_MINUTE / 60.0, IMPORTS_PER_MINUTE)

    async def record(self, game_id: str) -> dict[str, object]:
        """The game's public record (R9: no seed, bag or hidden score before the end)."""
        await self.listing.row(game_id)
        room = await self.hub.room(game_id)
        if room is None or room.game is None:
            raise ApiError(409, "not_started", "the game has not started: no record yet")
        return room.table_now().record(public=True)

    async def import_record(self, body: bytes, addr: str) -> Seated:
        """A finished game from its record, kept as a replay; limited per address."""
        if len(body) > MAX_RECORD_BYTES:
            raise ApiError(413, "too_large", f"a record is at most {MAX_RECORD_BYTES // 1024} KiB")
        await self._check_import_rate(addr)
        try:
            record = json.loads(body.decode("utf-8"))
            game = Game.from_record(record)
            forfeited, stand_ins = record_facts(record, game)
            level = record_stand_in(record)
        except (RaError, ValueError, TypeError, RecursionError, UnicodeDecodeError) as err:
            raise ApiError(422, "bad_record", f"not a valid Ra game record: {err}") from None
        self.listing.forget()  # the lobby shows a change made here at once
        game_id = await self._create(
            {
                "status": "finished",
                "players": game.num_players,
                "variant": game.setup.variant,
                "suns_per_player": game.setup.suns_per_player,
                "hidden_scores": game.hidden_scores,
                "disaster_timing": game.setup.disaster_timing,
                "edition": "original",
                "bot_delay": 0.0,
                "seed": 0,
                "stand_in": level,
                "casual": True,  # an imported record is never rated (ra.web.rating_policy)
                "record": Table(
                    game, [Seat(n) for n in game.names], TableOptions(stand_in=level), forfeited, stand_ins
                ).record(),
                "creator_addr": addr,
                "num_decisions": game.num_decisions,
                **result_columns(game, forfeited),
            },
            [
                {
                    "seat": i,
                    "kind": "human",
                    "level": None,
                    "name": nm,
                    "token_hash": None,
                    "forfeited": i in forfeited,
                }
                for i, nm in enumerate(game.names)
            ],
            caps=Caps(addr, today=self.settings.max_games_per_addr),
        )
        return {"game": await self.listing.summary(game_id)}

    async def _check_import_rate(self, addr: str) -> None:
        if not await self._imports.allow(addr):
            raise ApiError(
                429, "rate_limited", f"at most {IMPORTS_PER_MINUTE} imports a minute; wait a little"
            )

    async def replay(self, game_id: str, n: int, seat: int | None) -> Replay:
        """A finished game at decision ``n``, followed from ``seat`` (``None``: a spectator).

        The game is over, so nothing of it is hidden any more (R9.1): every score and every
        epoch's breakdown shows at every decision, as at the end of the game itself."""
        row = await self.listing.row(game_id)
        if row.status != "finished":
            raise ApiError(409, "not_finished", "replays are for finished or imported games")
        room = await self.hub.room(game_id)
        assert room is not None and room.game is not None
        full = room.game
        if seat is not None and seat >= full.num_players:
            raise ApiError(422, "bad_request", f"seat: 0-{full.num_players - 1}")
        decisions = full.decisions
        k = min(n, len(decisions))
        game = Game.from_setup(dataclasses.replace(full.setup, hidden_scores=False))
        game.replay(decisions[:k])
        payload = room.feed.payload(game, seat, 0)
        return {
            "n": k,
            "total": len(decisions),
            "game": self.hub.summary(row),
            "view": payload["view"],
            "events": payload["events"],
            "epochs": [[e, d] for e, d in room.table_now().epoch_starts()],
        }

    async def _create(self, values: dict[str, Any], seats: list[dict[str, Any]], caps: Caps) -> str:
        """Store an imported game, unless its address has stored its games of the day."""
        try:
            return await self.store.create_game(values, seats, caps)
        except OverCapError:
            raise ApiError(
                429,
                "too_many_games",
                f"this address has {self.settings.max_games_per_addr} games stored today; try tomorrow",
            ) from None
