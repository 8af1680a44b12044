"""The lobby: creating, joining, leaving and rematching tables, records and replays.

The business of the HTTP API, apart from its routes (:mod:`ra.web.app` only maps a
request to one of these methods and an :class:`ApiError` to a response).  Setup is
checked by the engine (:func:`ra.setup.make_setup`), never re-implemented here.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import timedelta
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator, model_validator
from sqlalchemy.ext.asyncio import AsyncConnection
from typing_extensions import TypedDict

from ra.engine import Game
from ra.errors import RaError, SetupError
from ra.setup import DISASTER_TIMINGS, MAX_PLAYERS, MIN_PLAYERS, VARIANTS, make_setup, new_seed
from ra.table import (
    TABLE_BOTS,
    Seat,
    Table,
    TableOptions,
    default_hints,
    record_facts,
    record_stand_in,
    seat_labels,
)
from ra.tiles import EDITIONS
from ra.web.db import now
from ra.web.hub import Hub, build_game
from ra.web.ledger import game_state, result_columns
from ra.web.limit_store import lock_key
from ra.web.limits import AddressBucket
from ra.web.lobby_feed import LobbyLists
from ra.web.mail import BY_TURNS_SECONDS
from ra.web.names import clean_name, name_key
from ra.web.protocol import EventData, GameSummary, ViewData
from ra.web.rating_policy import RatingPolicyError, table_choice
from ra.web.settings import Settings
from ra.web.store import GameRow, Store, active_games_on, games_created_on, new_token
from ra.web.waiting import deserted

MAX_RECORD_BYTES = 256 * 1024
"""The largest game record the server imports."""
IMPORTS_PER_MINUTE = 5
"""Record imports one address may make in a minute (a burst of as many, then one every 12 s)."""
LIST_CACHE_SECONDS = 1.0
"""How long the lobby's list is served from memory (it is read by every open lobby page)."""
MIN_MOVE_SECONDS = 5
MAX_MOVE_SECONDS = 3 * 24 * 3600
MIN_GAME_SECONDS = 10
MAX_GAME_SECONDS = 3 * 3600
ON_TIMEOUT = ("stand_in", "second", "forfeit")
"""When a clock runs out: a stand-in until the person is back; a stand-in the first time and a
forfeit the second; or a forfeit at once."""
"""What a table does when a person's clock runs out."""
"""A clock gives each decision 5 s (a blitz) to 3 days (a game by turns)."""
FINISHED_LISTED = 30
"""Finished games the live lobby lists (the page shows five, then the rest on demand)."""
LISTS_PER_SECOND = 5.0
"""Lobby list requests one address may make a second (bursts of 4×)."""


class ApiError(Exception):
    """A refused request: the HTTP status, a stable code and the reason in words."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _clock_columns(body: NewGame) -> dict[str, Any]:
    """The clock's columns of a new table (the stand-in and the timeout rule only with a clock)."""
    clocked = body.move_seconds is not None or body.game_seconds is not None
    return {
        "stand_in": body.stand_in if clocked else None,
        "game_seconds": body.game_seconds,
        "increment": body.increment if body.game_seconds is not None else None,
        "on_timeout": body.on_timeout if clocked else None,
    }


def _one_of(value: str, allowed: tuple[str, ...], what: str) -> str:
    if value not in allowed:
        raise ValueError(f"unknown {what} {value!r}; {what}s are: {', '.join(allowed)}")
    return value


class SeatSpec(BaseModel):
    kind: Literal["human", "bot"]
    level: str | None = None

    @field_validator("level")
    @classmethod
    def _level(cls, v: str | None) -> str | None:
        return None if v is None else _one_of(v, TABLE_BOTS, "bot level")


class NewGame(BaseModel):
    seats: list[SeatSpec] = Field(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS)
    variant: str = "standard"
    suns_per_player: int | None = None
    hidden_scores: bool = True
    edition: str = "original"
    bot_delay: float = Field(default=1.0, ge=0.0, le=5.0)
    start_in: float = Field(default=0.0, ge=0.0, le=3600.0)
    hints: bool | None = None
    """Players may ask for win chances; by default only with one human at the table."""
    rated: bool | None = None
    """Whether the game counts for ratings; unsaid, a table is rated unless it has hints
    (:func:`ra.web.rating_policy.table_choice`: a rated table has none)."""
    disaster_timing: str = "immediate"
    """R3.5: "immediate" or "2008" (the variant "2008 disaster timing")."""
    move_seconds: int | None = Field(default=None, ge=MIN_MOVE_SECONDS, le=MAX_MOVE_SECONDS)
    """A clock: seconds for each decision of a person (5 s to 3 days); None: no clock."""
    stand_in: str = "medium"
    """The level of the bot that decides for a person whose time ran out."""
    game_seconds: int | None = Field(default=None, ge=MIN_GAME_SECONDS, le=MAX_GAME_SECONDS)
    """A game clock instead: seconds each person has for the whole game (10 s to 3 hours)."""
    increment: int = Field(default=0, ge=0, le=60)
    """Seconds added to a person's game clock after each of their decisions."""
    on_timeout: str = "stand_in"
    """When a clock runs out: "stand_in" (a bot decides until the person is back), "second" (so
    the first time; the second time the seat forfeits) or "forfeit" (a bot plays the seat to the
    end, and it ranks last)."""
    name: str | None = None
    join: bool = True

    @field_validator("stand_in")
    @classmethod
    def _stand_in(cls, v: str) -> str:
        return _one_of(v, TABLE_BOTS, "bot level")

    @field_validator("on_timeout")
    @classmethod
    def _on_timeout(cls, v: str) -> str:
        return _one_of(v, ON_TIMEOUT, "timeout rule")

    @model_validator(mode="after")
    def _one_clock(self) -> NewGame:
        if self.move_seconds is not None and self.game_seconds is not None:
            raise ValueError(
                "a table has a clock per decision (move_seconds) or per game (game_seconds), not both"
            )
        return self

    @field_validator("variant")
    @classmethod
    def _variant(cls, v: str) -> str:
        return _one_of(v, VARIANTS, "variant")

    @field_validator("disaster_timing")
    @classmethod
    def _disaster_timing(cls, v: str) -> str:
        return _one_of(v, DISASTER_TIMINGS, "disaster timing")

    @field_validator("edition")
    @classmethod
    def _edition(cls, v: str) -> str:
        return _one_of(v, EDITIONS, "edition")

    @field_validator("name")
    @classmethod
    def _nm(cls, v: str | None) -> str | None:
        return None if v is None else clean_name(v)


class Join(BaseModel):
    name: str
    seat: int | None = None

    @field_validator("name")
    @classmethod
    def _nm(cls, v: str) -> str:
        return clean_name(v)


class Seek(BaseModel):
    """Join the table that has waited longest for a player, among those of ``players`` seats."""

    players: int = Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)
    name: str
    speed: Literal["any", "live", "turns"] = "any"
    """Tables played together ("live": no clock, or less than an hour a move), by turns (an hour
    or more a move), or either."""

    @field_validator("name")
    @classmethod
    def _nm(cls, v: str) -> str:
        return clean_name(v)


def speed_of(row: GameRow) -> str:
    """ "turns" for a game by turns (an hour or more a move), else "live"."""
    return "turns" if (row.move_seconds or 0) >= BY_TURNS_SECONDS else "live"


SEEK_TURN_SECONDS = 86400
"""A seek for a game by turns opens a table with a day a decision."""


def seek_table(body: Seek) -> NewGame:
    """The table a seek opens when nobody waits: all seats people, the seeker's pace (by turns: a
    day a decision; otherwise no clock), the lobby's defaults for the rest."""
    move_seconds = SEEK_TURN_SECONDS if body.speed == "turns" else None
    seats = [SeatSpec(kind="human") for _ in range(body.players)]
    return NewGame(seats=seats, name=body.name, join=True, move_seconds=move_seconds)


class TokenBody(BaseModel):
    token: str = Field(max_length=200)


class Seated(TypedDict, total=False):
    """What creating or joining a table answers (``seat``, ``token``, ``link`` when seated)."""

    game: GameSummary
    seat: int
    token: str
    link: str


class Replay(TypedDict):
    n: int
    total: int
    game: GameSummary
    view: ViewData
    events: list[EventData]
    epochs: list[list[int]]


def table_seats_of(seats: list[SeatSpec]) -> list[Seat]:
    """A new table's seats as the table knows them (people not named yet, bots by level)."""
    return [Seat("", (s.level or "easy") if s.kind == "bot" else None) for s in seats]


def bot_names(seats: list[SeatSpec]) -> list[str | None]:
    """The bots' stored names (:func:`ra.table.seat_labels` in English: pages show them in
    their reader's language from the seat's level), ``None`` for the human seats."""
    table_seats = table_seats_of(seats)
    labels = seat_labels(table_seats)
    return [label if seat.bot is not None else None for seat, label in zip(table_seats, labels, strict=True)]


def link(game_id: str, seat: int, token: str) -> str:
    """A seat link: the table's page with the seat's token (dropped from the address bar)."""
    return f"/g/{game_id}?seat={seat}&token={token}"


class Lobby:
    """The lobby's operations over one store and this worker's rooms."""

    def __init__(self, store: Store, hub: Hub, settings: Settings) -> None:
        self.store = store
        self.hub = hub
        self.settings = settings
        self._imports = AddressBucket(store.levels, "imports", IMPORTS_PER_MINUTE / 60.0, IMPORTS_PER_MINUTE)
        self._lists = AddressBucket(store.levels, "lobby-lists", LISTS_PER_SECOND, 4 * LISTS_PER_SECOND)
        self._listed: dict[str | None, tuple[float, list[GameSummary]]] = {}

    async def row(self, game_id: str) -> GameRow:
        row = await self.store.game(game_id) if len(game_id) <= 16 else None
        if row is None:
            raise ApiError(404, "not_found", f"no game {game_id!r}")
        return row

    async def summary(self, game_id: str) -> GameSummary:
        return self.hub.summary(await self.row(game_id))

    async def list(self, status: str | None, addr: str) -> list[GameSummary]:
        """The newest tables (cached for :data:`LIST_CACHE_SECONDS`; limited per address)."""
        if not await self._lists.allow(addr):
            raise ApiError(429, "rate_limited", "the lobby is asked too often from this address; slow down")
        t = time.monotonic()
        cached = self._listed.get(status)
        if cached is not None and t - cached[0] < LIST_CACHE_SECONDS:
            return cached[1]
        listed = [self.hub.summary(r) for r in await self._listed_games(status)]
        self._listed[status] = (t, listed)
        return listed

    async def _listed_games(self, status: str | None) -> Sequence[GameRow]:
        """The newest tables of ``status`` but the open ones whose people have gone (issue 54)."""
        at, wait = now(), self.settings.open_table_wait
        return [r for r in await self.store.list_games(status) if not deserted(r, at, wait)]

    async def lists(self) -> LobbyLists:
        """Every list a lobby page shows, for the live lobby (:mod:`ra.web.lobby_feed`)."""
        summarize = self.hub.summary
        return {
            "type": "lobby",
            "open": [summarize(r) for r in await self._listed_games("open")],
            "running": [summarize(r) for r in await self.store.list_games("running")],
            "finished": [summarize(r) for r in await self.store.list_games("finished", FINISHED_LISTED)],
        }

    # --- tables ---------------------------------------------------------------------

    async def create(
        self, body: NewGame, addr: str, then: Callable[[AsyncConnection, str], Awaitable[None]] | None = None
    ) -> Seated:
        """A new table; its creator takes the first human seat unless ``join`` is false;
        ``then`` runs in the creation's transaction with the new id (an event's table is linked
        and its seats given in the same step, :meth:`ra.web.event_store.EventStore.link_table`)."""
        for s in body.seats:
            if s.kind == "bot" and s.level is None:
                s.level = "medium"
        if body.join and all(s.kind == "bot" for s in body.seats):
            raise ApiError(422, "bad_request", "no human seat to join: make one seat human or set join false")
        if body.join and not body.name:
            raise ApiError(422, "bad_request", "name: give your display name to take a seat")
        n = len(body.seats)
        try:  # the engine checks the setup (R2): one place for its rules
            setup = make_setup(
                [f"p{i}" for i in range(n)],
                seed=0,
                variant=body.variant,
                suns_per_player=body.suns_per_player,
                disaster_timing=body.disaster_timing,
            )
        except SetupError as err:
            where = f"{err.option}: " if err.option and err.option != "players" else ""
            raise ApiError(422, "bad_request", f"{where}{err}") from None
        try:
            rated, hints = table_choice(body.rated, body.hints, default_hints(table_seats_of(body.seats)))
        except RatingPolicyError as err:
            raise ApiError(422, err.code, str(err)) from None
        names = bot_names(body.seats)
        self._listed.clear()  # the lobby shows a change made here at once
        game_id = await self.store.create_game(
            {
                "status": "open",
                "players": n,
                "variant": body.variant,
                "suns_per_player": setup.suns_per_player if body.variant == "long-2p" else None,
                "hidden_scores": body.hidden_scores,
                "edition": body.edition,
                "bot_delay": body.bot_delay,
                "seed": self.settings.fixed_seed if self.settings.fixed_seed is not None else new_seed(),
                "creator_addr": addr,
                "starts_at": now() + timedelta(seconds=body.start_in) if body.start_in else None,
                "hints": hints,
                "casual": not rated,
                "disaster_timing": body.disaster_timing,
                "move_seconds": body.move_seconds,
                **_clock_columns(body),
            },
            [
                {
                    "seat": i,
                    "kind": s.kind,
                    "level": s.level if s.kind == "bot" else None,
                    "name": names[i],
                    "token_hash": None,
                }
                for i, s in enumerate(body.seats)
            ],
            check=functools.partial(self._within_caps, addr, sum(s.kind == "bot" for s in body.seats)),
            then=then,
        )
        if body.join:
            assert body.name is not None
            return await self.seat_in(await self.row(game_id), Join(name=body.name))
        await self.maybe_start(game_id)
        return {"game": await self.summary(game_id)}

    async def _within_caps(self, addr: str, new_bots: int, conn: AsyncConnection) -> None:
        """Refuse a new table past the address's caps, counted inside the creation's own
        transaction under the address's lock (:func:`ra.web.limit_store.lock_key`): 60 requests at
        once, or on two workers, still create at most the cap."""
        limit, bot_limit = self.settings.max_open_games_per_addr, self.settings.max_bot_seats_per_addr
        await lock_key(conn, f"tables\n{addr}")
        active, bot_seats = await active_games_on(conn, addr)
        if active >= limit:
            raise ApiError(
                429,
                "too_many_games",
                f"you already have {limit} games waiting or running; finish or leave some first",
            )
        if bot_seats + new_bots > bot_limit:
            raise ApiError(
                429,
                "too_many_bots",
                f"your games already have {bot_seats} bot seats; at most {bot_limit} at once",
            )

    async def _within_day(self, addr: str, conn: AsyncConnection) -> None:
        """Refuse an import past the address's games of the day, counted like the table caps."""
        await lock_key(conn, f"tables\n{addr}")
        if await games_created_on(conn, addr) >= self.settings.max_games_per_addr:
            raise ApiError(
                429,
                "too_many_games",
                f"this address has {self.settings.max_games_per_addr} games stored today; try tomorrow",
            )

    async def join(self, game_id: str, body: Join) -> Seated:
        return await self.seat_in(await self.row(game_id), body)

    async def seat_in(self, row: GameRow, join: Join) -> Seated:
        """Give ``join`` a free human seat (the one asked for, else the first) and its token."""
        if row.status != "open":
            raise ApiError(409, "not_open", "this game has started: every seat is taken")
        taken = {name_key(s.name) for s in row.seats if s.name}
        if name_key(join.name) in taken:
            raise ApiError(409, "name_taken", f"the name {join.name!r} is taken at this table")
        free = [s.seat for s in row.seats if s.kind == "human" and s.token_hash is None]
        if join.seat is not None:
            if join.seat not in free:
                raise ApiError(409, "seat_taken", f"seat {join.seat} is not a free seat")
            free = [join.seat]
        if not free:
            raise ApiError(409, "full", "no free seat at this table")
        token = new_token()
        self._listed.clear()
        if not await self.store.take_seat(row.id, free[0], join.name, token):
            raise ApiError(409, "seat_taken", "that seat was just taken; try again")
        if not await self.maybe_start(row.id):
            await self.hub.changed(row.id)  # a seat taken: the waiting room's clients see it
        return {
            "game": await self.summary(row.id),
            "seat": free[0],
            "token": token,
            "link": link(row.id, free[0], token),
        }

    async def seek(self, body: Seek, addr: str) -> Seated:
        """A seat at the open table of ``body.players`` seats and that pace that has waited
        longest (one whose seats were all taken meanwhile, or that has this name, is passed
        over); if none waits, a new open table with the seeker seated: the seek waits there, in
        the lobby's list, for the next person who seeks the same (leaving it cancels the seek)."""
        if not await self._lists.allow(addr):
            raise ApiError(429, "rate_limited", "the lobby is asked too often from this address; slow down")
        found = await self._waiting_seat(body)
        if found is not None:
            return found
        return await self.create(seek_table(body), addr)

    async def _waiting_seat(self, body: Seek) -> Seated | None:
        """A seat at the table that waited longest for this seek, or None."""
        waiting = [
            r
            for r in reversed(await self._listed_games("open"))
            if r.players == body.players and body.speed in ("any", speed_of(r))
        ]
        for row in waiting:
            if not any(s.kind == "human" and s.token_hash is None for s in row.seats):
                continue
            with contextlib.suppress(ApiError):
                return await self.seat_in(row, Join(name=body.name))
        return None

    async def maybe_start(self, game_id: str) -> bool:
        """Start the game once every seat is taken; True if it started (its room is told)."""
        row = await self.row(game_id)
        if row.status != "open" or any(s.kind == "human" and s.token_hash is None for s in row.seats):
            return False
        state = game_state(build_game(row, []), row)
        self._listed.clear()
        await self.store.start(game_id, state["to_move"], state["to_move_bot"])
        if state["to_move"] is not None:
            self.hub.tell_turn(row, state["to_move"])
        room = await self.hub.room(game_id)
        if room is not None:
            await room.resync()
            room.schedule_bot()
        return True

    async def token_seat(self, game_id: str, token: str) -> int:
        seat = await self.store.seat_for_token(game_id, token)
        if seat is None:
            raise ApiError(403, "bad_token", "that token holds no seat at this table")
        return seat

    async def leave(self, game_id: str, token: str) -> Seated:
        """Free the token's seat before the game starts; its open connections are closed.  A
        table its last person left is closed (a seek is cancelled so: nobody is seated to wait
        there for a player)."""
        row = await self.row(game_id)
        seat = await self.token_seat(game_id, token)
        if row.status != "open":
            raise ApiError(409, "started", "the game has started; a seat can be left only before")
        self._listed.clear()
        await self.store.free_seat(game_id, seat)
        await self.hub.changed(game_id)  # resync: the seat's connections are dropped
        left = await self.summary(game_id)
        await self.store.close_if_empty(game_id)
        return {"game": left}

    async def rematch(self, game_id: str, token: str) -> Seated:
        """The same table again (once: two players asking at once share one new table)."""
        row = await self.row(game_id)
        seat = await self.token_seat(game_id, token)
        if row.status != "finished":
            raise ApiError(409, "not_over", "a rematch can be asked for once the game is over")
        if row.rematch_id is None:
            new_id = await self.store.create_game(
                {"status": "open", **row.options(), "seed": new_seed(), "creator_addr": None},
                [
                    {
                        "seat": s.seat,
                        "kind": s.kind,
                        "level": s.level,
                        "name": s.name if s.kind == "bot" else None,
                        "token_hash": None,
                    }
                    for s in row.seats
                ],
            )
            if not await self.store.set_rematch(game_id, new_id):
                await self.store.delete_game(new_id)  # another player's request won the race
            row = await self.row(game_id)
            room = self.hub.rooms.get(game_id)
            if room is not None and row.rematch_id is not None:
                room.row.rematch_id = row.rematch_id
                room.audience.tell_all({"type": "rematch", "game": row.rematch_id})
        assert row.rematch_id is not None
        name = row.seats[seat].name or f"Player {seat + 1}"
        return await self.seat_in(await self.row(row.rematch_id), Join(name=name, seat=seat))

    # --- records and replays ------------------------------------------------------------

    async def record(self, game_id: str) -> dict[str, object]:
        """The game's public record (R9: no seed, bag or hidden score before the end)."""
        await self.row(game_id)
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
        self._listed.clear()  # the lobby shows a change made here at once
        game_id = await self.store.create_game(
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
            check=functools.partial(self._within_day, addr),
        )
        return {"game": await self.summary(game_id)}

    async def _check_import_rate(self, addr: str) -> None:
        if not await self._imports.allow(addr):
            raise ApiError(
                429, "rate_limited", f"at most {IMPORTS_PER_MINUTE} imports a minute; wait a little"
            )

    async def replay(self, game_id: str, n: int, seat: int | None) -> Replay:
        """A finished game at decision ``n``, followed from ``seat`` (``None``: a spectator).

        The game is over, so nothing of it is hidden any more (R9.1): every score and every
        epoch's breakdown shows at every decision, as at the end of the game itself."""
        row = await self.row(game_id)
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
        payload = room.payload(game, seat, 0)
        return {
            "n": k,
            "total": len(decisions),
            "game": self.hub.summary(row),
            "view": payload["view"],
            "events": payload["events"],
            "epochs": room.epoch_starts(),
        }
