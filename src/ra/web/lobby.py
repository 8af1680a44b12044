"""The lobby: creating, joining, leaving and rematching tables, records and replays.

The business of the HTTP API, apart from its routes (:mod:`ra.web.app` only maps a
request to one of these methods and an :class:`ApiError` to a response).  Setup is
checked by the engine (:func:`ra.setup.make_setup`), never re-implemented here.
"""

from __future__ import annotations

import contextlib
from datetime import timedelta
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from ra.errors import SetupError
from ra.setup import DISASTER_TIMINGS, MAX_PLAYERS, MIN_PLAYERS, VARIANTS, make_setup, new_seed
from ra.table import (
    TABLE_BOTS,
    Seat,
    default_hints,
    seat_labels,
)
from ra.tiles import EDITIONS
from ra.web.db import now
from ra.web.errors import ApiError
from ra.web.game_records import GameRecords
from ra.web.hub import Hub, build_game
from ra.web.ledger import game_state
from ra.web.listing import Listing, Seated
from ra.web.mail import BY_TURNS_SECONDS
from ra.web.names import clean_name, name_key
from ra.web.rating_policy import RatingPolicyError, table_choice
from ra.web.settings import Settings
from ra.web.store import Caps, GameRow, OverCapError, new_token
from ra.web.store.games import Linker
from ra.web.store.lobby import LobbyStorage

MIN_MOVE_SECONDS = 5
MAX_MOVE_SECONDS = 3 * 24 * 3600
MIN_GAME_SECONDS = 10
MAX_GAME_SECONDS = 3 * 3600
ON_TIMEOUT = ("stand_in", "second", "forfeit")
"""When a clock runs out: a stand-in until the person is back; a stand-in the first time and a
forfeit the second; or a forfeit at once."""
"""What a table does when a person's clock runs out."""
"""A clock gives each decision 5 s (a blitz) to 3 days (a game by turns)."""


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
    """The lobby's operations over one store and this worker's rooms: tables made, joined, sought,
    left and played again here; their lists (:attr:`listing`) and records (:attr:`records`)."""

    def __init__(self, store: LobbyStorage, hub: Hub, settings: Settings) -> None:
        self.store = store
        self.hub = hub
        self.settings = settings
        self.listing = Listing(store, hub, settings)
        """The tables as the lobby lists them."""
        self.records = GameRecords(store, hub, self.listing, settings)
        """The games' records and replays, and records imported."""

    # --- tables ---------------------------------------------------------------------

    async def create(
        self, body: NewGame, addr: str, then: Linker | None = None, capped: bool = True
    ) -> Seated:
        """A new table; its creator takes the first human seat unless ``join`` is false;
        ``then`` runs in the creation's transaction with the new id (an event's table is linked
        and its seats given in the same step, :meth:`ra.web.store.events.EventStorage.linker`);
        ``capped``: counted against ``addr``'s caps (an event's tables of people alone are not:
        :meth:`ra.web.events.Events.capped`)."""
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
        names, n_bots = bot_names(body.seats), sum(s.kind == "bot" for s in body.seats)
        self.listing.forget()  # the lobby shows a change made here at once
        game_id = await self._create(
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
            Caps(addr, self.settings.max_open_games_per_addr, self.settings.max_bot_seats_per_addr, n_bots)
            if capped
            else None,
            then,
        )
        if body.join:
            assert body.name is not None
            return await self.seat_in(await self.listing.row(game_id), Join(name=body.name))
        await self.maybe_start(game_id)
        return {"game": await self.listing.summary(game_id)}

    async def _create(
        self, values: dict[str, Any], seat_rows: list[dict[str, Any]], caps: Caps | None, then: Linker | None
    ) -> str:
        """Store a new table, unless its address is past its caps (:class:`ra.web.store.Caps`);
        ``then`` links it in the same transaction (an event's table)."""
        try:
            return await self.store.create_game(values, seat_rows, caps, then)
        except OverCapError as over:
            assert caps is not None  # only a capped creation is refused for a cap
            if over.cap == "bot_seats":
                raise ApiError(
                    429,
                    "too_many_bots",
                    f"your games already have {over.held} bot seats; at most {caps.bot_seats} at once",
                ) from None
            raise ApiError(
                429,
                "too_many_games",
                f"you already have {caps.active} games waiting or running; finish or leave some first",
            ) from None

    async def join(self, game_id: str, body: Join) -> Seated:
        return await self.seat_in(await self.listing.row(game_id), body)

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
        self.listing.forget()
        if not await self.store.take_seat(row.id, free[0], join.name, token):
            raise ApiError(409, "seat_taken", "that seat was just taken; try again")
        if not await self.maybe_start(row.id):
            await self.hub.changed(row.id)  # a seat taken: the waiting room's clients see it
        return {
            "game": await self.listing.summary(row.id),
            "seat": free[0],
            "token": token,
            "link": link(row.id, free[0], token),
        }

    async def seek(self, body: Seek, addr: str) -> Seated:
        """A seat at the open table of ``body.players`` seats and that pace that has waited
        longest (one whose seats were all taken meanwhile, or that has this name, is passed
        over); if none waits, a new open table with the seeker seated: the seek waits there, in
        the lobby's list, for the next person who seeks the same (leaving it cancels the seek)."""
        await self.listing.allow(addr)
        found = await self._waiting_seat(body)
        if found is not None:
            return found
        return await self.create(seek_table(body), addr)

    async def _waiting_seat(self, body: Seek) -> Seated | None:
        """A seat at the table that waited longest for this seek, or None."""
        waiting = [
            r
            for r in reversed(await self.listing.listed("open"))
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
        row = await self.listing.row(game_id)
        if row.status != "open" or any(s.kind == "human" and s.token_hash is None for s in row.seats):
            return False
        state = game_state(build_game(row, []), row)
        self.listing.forget()
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
        row = await self.listing.row(game_id)
        seat = await self.token_seat(game_id, token)
        if row.status != "open":
            raise ApiError(409, "started", "the game has started; a seat can be left only before")
        self.listing.forget()
        await self.store.free_seat(game_id, seat)
        await self.hub.changed(game_id)  # resync: the seat's connections are dropped
        left = await self.listing.summary(game_id)
        await self.store.close_if_empty(game_id)
        return {"game": left}

    async def rematch(self, game_id: str, token: str) -> Seated:
        """The same table again (once: two players asking at once share one new table)."""
        row = await self.listing.row(game_id)
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
            row = await self.listing.row(game_id)
            room = self.hub.rooms.get(game_id)
            if room is not None and row.rematch_id is not None:
                room.row.rematch_id = row.rematch_id
                room.audience.tell_all({"type": "rematch", "game": row.rematch_id})
        assert row.rematch_id is not None
        name = row.seats[seat].name or f"Player {seat + 1}"
        return await self.seat_in(await self.listing.row(row.rematch_id), Join(name=name, seat=seat))


__all__ = [
    "ApiError",
    "Join",
    "Lobby",
    "NewGame",
    "SeatSpec",
    "Seated",
    "Seek",
    "TokenBody",
    "bot_names",
    "link",
    "seek_table",
    "speed_of",
    "table_seats_of",
]
