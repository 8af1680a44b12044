"""The ASGI app of ``ra serve``: lobby API, game WebSocket, pages (see ``docs/web-api.md``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import AsyncIterator
from datetime import timedelta
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, field_validator
from starlette.exceptions import HTTPException as StarletteHTTPException

from ra.engine import Game
from ra.errors import RaError
from ra.setup import LONG_2P_GROUPS, MAX_PLAYERS, MIN_PLAYERS, VARIANTS, new_seed
from ra.tiles import EDITIONS
from ra.web.hub import (
    BOT_LEVELS,
    Client,
    ClientError,
    Hub,
    Settings,
    build_game,
    game_state,
    result_columns,
)
from ra.web.protocol import MAX_MESSAGE_BYTES, seat_payload
from ra.web.store import GameRow, Store, new_token, now

log = logging.getLogger("ra.web")
STATIC = Path(str(files("ra.web") / "static"))
MAX_RECORD_BYTES = 256 * 1024
HELLO_TIMEOUT = 15.0


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _name(value: str) -> str:
    name = " ".join(value.split())
    if not 1 <= len(name) <= 20:
        raise ValueError("a name has 1 to 20 characters")
    if not name.isprintable():
        raise ValueError("a name may not contain control characters")
    return name


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
        return None if v is None else _one_of(v, BOT_LEVELS, "bot level")


class NewGame(BaseModel):
    seats: list[SeatSpec] = Field(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS)
    variant: str = "standard"
    suns_per_player: int | None = None
    hidden_scores: bool = True
    edition: str = "original"
    bot_delay: float = Field(default=1.0, ge=0.0, le=5.0)
    start_in: float = Field(default=0.0, ge=0.0, le=3600.0)
    hints: bool | None = None
    """Players may ask for win chances (issue 13); by default only with one human at the table."""
    name: str | None = None
    join: bool = True

    @field_validator("variant")
    @classmethod
    def _variant(cls, v: str) -> str:
        return _one_of(v, VARIANTS, "variant")

    @field_validator("edition")
    @classmethod
    def _edition(cls, v: str) -> str:
        return _one_of(v, EDITIONS, "edition")

    @field_validator("name")
    @classmethod
    def _nm(cls, v: str | None) -> str | None:
        return None if v is None else _name(v)


class Join(BaseModel):
    name: str
    seat: int | None = None

    @field_validator("name")
    @classmethod
    def _nm(cls, v: str) -> str:
        return _name(v)


class TokenBody(BaseModel):
    token: str = Field(max_length=200)


def _bot_names(seats: list[SeatSpec]) -> list[str | None]:
    names: list[str | None] = []
    used: dict[str, int] = {}
    for s in seats:
        if s.kind != "bot":
            names.append(None)
            continue
        base = f"{(s.level or 'easy').title()} bot"
        used[base] = used.get(base, 0) + 1
        names.append(base if used[base] == 1 else f"{base} {used[base]}")
    return names


def create_app(settings: Settings) -> FastAPI:
    """The server for one database; ``ra serve`` runs it under uvicorn."""
    store = Store(settings.db_url, settings.worker_id)
    hub = Hub(store, settings)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        yield
        await hub.stop()
        await store.close()

    app = FastAPI(title="Ra", version="1", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.hub = hub

    @app.exception_handler(ApiError)
    async def _api_error(_: Request, err: ApiError) -> JSONResponse:
        return JSONResponse({"error": err.code, "message": err.message}, status_code=err.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, err: RequestValidationError) -> JSONResponse:
        parts = []
        for e in err.errors()[:3]:
            where = ".".join(str(x) for x in e.get("loc", ()) if x != "body")
            parts.append(f"{where}: {e.get('msg', 'invalid')}" if where else str(e.get("msg")))
        return JSONResponse({"error": "bad_request", "message": "; ".join(parts)}, status_code=422)

    @app.exception_handler(Exception)
    async def _crash(_: Request, err: Exception) -> JSONResponse:
        log.exception("request failed", exc_info=err)
        return JSONResponse({"error": "server_error", "message": "the server failed; try again"}, 500)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, err: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": "http", "message": str(err.detail)}, status_code=err.status_code)

    async def game_row(game_id: str) -> GameRow:
        row = await store.game(game_id) if len(game_id) <= 16 else None
        if row is None:
            raise ApiError(404, "not_found", f"no game {game_id!r}")
        return row

    def link(game_id: str, seat: int, token: str) -> str:
        return f"/g/{game_id}?seat={seat}&token={token}"

    async def seat_in(row: GameRow, join: Join) -> dict[str, Any]:
        if row.status != "open":
            raise ApiError(409, "not_open", "this game has started: every seat is taken")
        taken = {(s.name or "").casefold() for s in row.seats if s.name}
        if join.name.casefold() in taken:
            raise ApiError(409, "name_taken", f"the name {join.name!r} is taken at this table")
        free = [s.seat for s in row.seats if s.kind == "human" and s.token_hash is None]
        if join.seat is not None:
            if join.seat not in free:
                raise ApiError(409, "seat_taken", f"seat {join.seat} is not a free seat")
            free = [join.seat]
        if not free:
            raise ApiError(409, "full", "no free seat at this table")
        token = new_token()
        if not await store.take_seat(row.id, free[0], join.name, token):
            raise ApiError(409, "seat_taken", "that seat was just taken; try again")
        if not await maybe_start(row.id):
            await hub.changed(row.id)  # a seat taken: the waiting room's clients see it
        fresh = await game_row(row.id)
        return {
            "game": hub.summary(fresh),
            "seat": free[0],
            "token": token,
            "link": link(row.id, free[0], token),
        }

    async def maybe_start(game_id: str) -> bool:
        """Start the game once every seat is taken; True if it started (its room is told)."""
        row = await game_row(game_id)
        if row.status != "open" or any(s.kind == "human" and s.token_hash is None for s in row.seats):
            return False
        game = build_game(row, [])
        state = game_state(game, row)
        await store.start(game_id, state["to_move"], state["to_move_bot"])
        room = await hub.room(game_id)
        if room is not None:
            await room.resync()
            room.schedule_bot()
        return True

    # --- pages -------------------------------------------------------------------

    def page(name: str) -> FileResponse:
        path = STATIC / name
        if not path.is_file():
            raise ApiError(404, "not_found", f"page {name} is missing")
        return FileResponse(path, headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return page("index.html")

    @app.get("/g/{game_id}", include_in_schema=False)
    async def table(game_id: str) -> FileResponse:
        return page("table.html")

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: str) -> FileResponse:
        return page("replay.html")

    @app.get("/rules", include_in_schema=False)
    async def rules_page() -> FileResponse:
        return page("rules.html")

    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/health")
    async def health() -> JSONResponse:
        try:
            await asyncio.wait_for(store.ping(), 5)
        except Exception as err:
            return JSONResponse({"ok": False, "error": type(err).__name__}, status_code=503)
        return JSONResponse({"ok": True})

    # --- lobby -------------------------------------------------------------------

    @app.post("/api/games")
    async def create(body: NewGame, request: Request) -> dict[str, Any]:
        addr = request.client.host if request.client else "?"
        if await store.open_games_from(addr) >= settings.max_open_games_per_addr:
            raise ApiError(
                429,
                "too_many_games",
                f"you already have {settings.max_open_games_per_addr} games waiting for players; "
                "start or leave some first",
            )
        n = len(body.seats)
        if body.variant == "long-2p":
            if n != 2:
                raise ApiError(422, "bad_request", "the long two-player game is for 2 players (R2.3)")
            spp = body.suns_per_player or 6
            if spp not in LONG_2P_GROUPS:
                raise ApiError(
                    422, "bad_request", f"suns per player: {min(LONG_2P_GROUPS)}-{max(LONG_2P_GROUPS)}"
                )
        else:
            if body.suns_per_player is not None:
                raise ApiError(422, "bad_request", "suns per player is only for the long two-player game")
            spp = None
        for s in body.seats:
            if s.kind == "bot" and s.level is None:
                s.level = "medium"
        if body.join and all(s.kind == "bot" for s in body.seats):
            raise ApiError(422, "bad_request", "no human seat to join: make one seat human or set join false")
        if body.join and not body.name:
            raise ApiError(422, "bad_request", "name: give your display name to take a seat")
        names = _bot_names(body.seats)
        humans = sum(s.kind == "human" for s in body.seats)
        seat_rows = [
            {
                "seat": i,
                "kind": s.kind,
                "level": s.level if s.kind == "bot" else None,
                "name": names[i],
                "token_hash": None,
            }
            for i, s in enumerate(body.seats)
        ]
        game_id = await store.create_game(
            {
                "status": "open",
                "players": n,
                "variant": body.variant,
                "suns_per_player": spp,
                "hidden_scores": body.hidden_scores,
                "edition": body.edition,
                "bot_delay": body.bot_delay,
                "seed": settings.fixed_seed if settings.fixed_seed is not None else new_seed(),
                "creator_addr": addr,
                "starts_at": now() + timedelta(seconds=body.start_in) if body.start_in else None,
                "hints": body.hints if body.hints is not None else humans == 1,
            },
            seat_rows,
        )
        if body.join:
            assert body.name is not None
            return await seat_in(await game_row(game_id), Join(name=body.name))
        await maybe_start(game_id)
        return {"game": hub.summary(await game_row(game_id))}

    @app.get("/api/games")
    async def list_games(
        status: Annotated[Literal["open", "running", "finished"] | None, Query()] = None,
    ) -> dict[str, Any]:
        return {"games": [hub.summary(r) for r in await store.list_games(status)]}

    @app.get("/api/games/{game_id}")
    async def get_game(game_id: str) -> dict[str, Any]:
        return hub.summary(await game_row(game_id))

    @app.post("/api/games/{game_id}/join")
    async def join(game_id: str, body: Join) -> dict[str, Any]:
        return await seat_in(await game_row(game_id), body)

    async def token_seat(game_id: str, token: str) -> int:
        seat = await store.seat_for_token(game_id, token)
        if seat is None:
            raise ApiError(403, "bad_token", "that token holds no seat at this table")
        return seat

    @app.post("/api/games/{game_id}/leave")
    async def leave(game_id: str, body: TokenBody) -> dict[str, Any]:
        row = await game_row(game_id)
        seat = await token_seat(game_id, body.token)
        if row.status != "open":
            raise ApiError(409, "started", "the game has started; a seat can be left only before")
        await store.free_seat(game_id, seat)
        await hub.changed(game_id)
        return {"game": hub.summary(await game_row(game_id))}

    @app.post("/api/games/{game_id}/again")
    async def again(game_id: str, body: TokenBody) -> dict[str, Any]:
        row = await game_row(game_id)
        seat = await token_seat(game_id, body.token)
        if row.status != "finished":
            raise ApiError(409, "not_over", "a rematch can be asked for once the game is over")
        if row.rematch_id is None:
            new_id = await store.create_game(
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
            await store.set_rematch(game_id, new_id)
            row = await game_row(game_id)
            room = hub.rooms.get(game_id)
            if room is not None:
                room.row.rematch_id = row.rematch_id
                for c in room.clients:
                    c.put({"type": "rematch", "game": row.rematch_id})
        assert row.rematch_id is not None
        name = row.seats[seat].name or f"Player {seat + 1}"
        return await seat_in(await game_row(row.rematch_id), Join(name=name, seat=seat))

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str) -> JSONResponse:
        row = await game_row(game_id)
        room = await hub.room(game_id)
        if room is None or room.game is None:
            raise ApiError(409, "not_started", "the game has not started: no record yet")
        rec = room.game.to_record()
        if not room.game.is_over() and row.record is None:
            # The seed and the bag order would reveal the tiles still to come (R9).
            for key in ("seed", "bag", "bag_counts"):
                rec.pop(key, None)
            rec["result"] = {"over": False}
        headers = {"Content-Disposition": f'attachment; filename="ra-{game_id}.json"'}
        return JSONResponse(rec, headers=headers)

    @app.post("/api/records")
    async def import_record(request: Request) -> dict[str, Any]:
        body = await request.body()
        if len(body) > MAX_RECORD_BYTES:
            raise ApiError(413, "too_large", f"a record is at most {MAX_RECORD_BYTES // 1024} KiB")
        try:
            data = json.loads(body.decode("utf-8"))
            game = Game.from_record(data)
        except (RaError, ValueError, TypeError, RecursionError, UnicodeDecodeError) as err:
            raise ApiError(422, "bad_record", f"not a valid Ra game record: {err}") from None
        rec = game.to_record()
        game_id = await store.create_game(
            {
                "status": "finished",
                "players": game.num_players,
                "variant": game.setup.variant,
                "suns_per_player": game.setup.suns_per_player,
                "hidden_scores": game.hidden_scores,
                "edition": "original",
                "bot_delay": 0.0,
                "seed": 0,
                "record": rec,
                "creator_addr": request.client.host if request.client else None,
                "num_decisions": game.num_decisions,
                **result_columns(game),
            },
            [
                {"seat": i, "kind": "human", "level": None, "name": nm, "token_hash": None}
                for i, nm in enumerate(game.names)
            ],
        )
        return {"game": hub.summary(await game_row(game_id))}

    @app.get("/api/games/{game_id}/replay")
    async def replay(
        game_id: str,
        n: Annotated[int, Query(ge=0)] = 0,
        seat: Annotated[int | None, Query(ge=0, lt=MAX_PLAYERS)] = None,
    ) -> dict[str, Any]:
        row = await game_row(game_id)
        if row.status != "finished":
            raise ApiError(409, "not_finished", "replays are for finished or imported games")
        room = await hub.room(game_id)
        assert room is not None and room.game is not None
        full = room.game
        if seat is not None and seat >= full.num_players:
            raise ApiError(422, "bad_request", f"seat: 0-{full.num_players - 1}")
        decisions = full.decisions
        k = min(n, len(decisions))
        game = build_game(row, [str(a) for a in decisions[:k]])
        payload = seat_payload(game, seat, row.edition, 0)
        return {
            "n": k,
            "total": len(decisions),
            "game": hub.summary(row),
            "view": payload["view"],
            "events": payload["events"],
            "epochs": room.epoch_starts(),
        }

    # --- playing -------------------------------------------------------------------

    @app.websocket("/ws/games/{game_id}")
    async def play(ws: WebSocket, game_id: str) -> None:
        await ws.accept()

        async def refuse(code: str, message: str, close: int) -> None:
            with contextlib.suppress(Exception):
                await ws.send_json({"type": "error", "code": code, "message": message})
                await ws.close(close)

        try:
            first = await asyncio.wait_for(ws.receive_text(), HELLO_TIMEOUT)
        except (TimeoutError, WebSocketDisconnect, KeyError, RuntimeError):
            await refuse("bad_message", 'say hello first: {"type": "hello", "token": ...}', 4400)
            return
        hello = _parse(first)
        if hello is None or hello.get("type") != "hello":
            await refuse("bad_message", 'the first message must be {"type": "hello"}', 4400)
            return
        room = await hub.room(game_id) if len(game_id) <= 16 else None
        if room is None:
            await refuse("not_found", f"no game {game_id!r}", 4404)
            return
        token = hello.get("token")
        seat: int | None = None
        if token is not None:
            if not isinstance(token, str) or len(token) > 200:
                await refuse("bad_token", "the token is not valid for this game", 4401)
                return
            seat = await store.seat_for_token(game_id, token)
            if seat is None:
                await refuse("bad_token", "the token is not valid for this game", 4401)
                return

        client = Client(seat, ws.send_text, settings)
        room.clients.add(client)
        sender = asyncio.create_task(client.run_sender())
        try:
            room.send_state(client)
            await hub.presence_changed(room)
            while True:
                text = await ws.receive_text()
                if len(text.encode("utf-8", "replace")) > MAX_MESSAGE_BYTES:
                    client.put(
                        {
                            "type": "error",
                            "code": "too_large",
                            "message": f"messages are at most {MAX_MESSAGE_BYTES} bytes",
                        }
                    )
                    continue
                if not client.allow():
                    client.put(
                        {"type": "error", "code": "rate_limited", "message": "too many messages: slow down"}
                    )
                    continue
                await _handle(room, client, _parse(text))
                if client.closed or sender.done():
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            room.clients.discard(client)
            client.finish()
            sender.cancel()
            if not hub.closing:
                with contextlib.suppress(Exception):
                    await hub.presence_changed(room)
                hub.release(room)

    return app


def _parse(text: str) -> dict[str, Any] | None:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


async def _handle(room: Any, client: Client, msg: dict[str, Any] | None) -> None:
    """One client message: an action, an undo, a hint request or a ping; errors go to this client only."""
    if msg is None:
        client.put({"type": "error", "code": "bad_message", "message": "messages are JSON objects"})
        return
    kind = msg.get("type", "action" if "action" in msg else None)
    try:
        if kind == "ping":
            client.put({"type": "pong"})
            return
        if kind not in ("action", "undo", "hint"):
            raise ClientError("bad_message", f"unknown message type {kind!r}: action, undo, hint or ping")
        if client.seat is None:
            raise ClientError("spectator", "spectators watch; join a seat to play")
        n = msg.get("n")
        if not isinstance(n, int) or isinstance(n, bool):
            raise ClientError("bad_message", 'give the decision number you saw: "n": <int>')
        if kind == "undo":
            await room.undo(client.seat, n)
            return
        if kind == "hint":
            room.hint(client, n)
            return
        action = msg.get("action")
        if not isinstance(action, str) or len(action) > 40:
            raise ClientError("bad_message", 'give the action as text, e.g. "action": "bid 9"')
        await room.act(client.seat, action, n)
    except ClientError as err:
        client.put({"type": "error", "code": err.code, "message": err.message})
        if err.code == "stale":
            room.send_state(client)


def app_from_env() -> FastAPI:
    """The app for uvicorn's ``--factory`` (the workers read the settings from the environment)."""
    url = os.environ.get("RA_DB_URL")
    if not url:
        raise RuntimeError("RA_DB_URL is not set (ra serve sets it)")
    return create_app(
        Settings(
            db_url=url,
            bot_processes=int(os.environ.get("RA_BOT_PROCESSES", "1")),
            max_open_games_per_addr=int(os.environ.get("RA_MAX_OPEN_GAMES", "20")),
            messages_per_second=float(os.environ.get("RA_MESSAGE_RATE", "20")),
            message_burst=2 * float(os.environ.get("RA_MESSAGE_RATE", "20")),
            fixed_seed=int(os.environ["RA_GAME_SEED"]) if os.environ.get("RA_GAME_SEED") else None,
            hint_budget=os.environ.get("RA_HINT_BUDGET", Settings.hint_budget),
        )
    )
