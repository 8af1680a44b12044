"""The lobby's API: tables (create, list, seek, join, leave, again), the lobby chat, records,
replays and analyses, the bot levels and the leaderboard.  The business is
:mod:`ra.web.lobby`'s; a name that is an account's is used only by that account (the
:class:`~ra.web.routes.accounts.Gate`)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from ra.setup import MAX_PLAYERS
from ra.web.analyses import AnalysisReply
from ra.web.chat import LobbyLine
from ra.web.game_records import Replay
from ra.web.lobby import ApiError, Join, NewGame, Seated, Seek, TokenBody
from ra.web.protocol import ChatLine, GameSummary, WsSchema, ws_schema
from ra.web.ratings import Leader, LevelInfo, RatingNote, leaders, levels, rating_note
from ra.web.routes.accounts import Gate
from ra.web.security import client_address
from ra.web.services import Services
from ra.web.sessions import COOKIE
from ra.words import DEFAULT_LANG, normalize


def router(services: Services, gate: Gate) -> APIRouter:
    """The lobby's routes and the chat's (the tables' own words go over their WebSockets)."""
    api = APIRouter()
    lobby, chat, guard = services.lobby, services.chat, services.accounts.guard_name

    async def bound(seated: Seated, request: Request) -> Seated:
        """The seat token made for a signed-in page is its session's (ends with it)."""
        if "token" in seated:
            await services.accounts.sessions.bind_seat(
                request.cookies.get(COOKIE), seated["game"]["id"], seated["token"]
            )
        return seated

    @api.post("/api/games")
    async def create(body: NewGame, request: Request) -> Seated:
        await guard(body.name, request)  # an account's name only signed in as it
        return await bound(await lobby.create(body, client_address(request)), request)

    @api.get("/api/games")
    async def list_games(
        request: Request,
        status: Annotated[Literal["open", "running", "finished"] | None, Query()] = None,
    ) -> dict[str, list[GameSummary]]:
        return {"games": await lobby.listing.list(status, client_address(request))}

    @api.get("/api/games/{game_id}")
    async def get_game(game_id: str) -> GameSummary:
        return await lobby.listing.summary(game_id)

    @api.get("/api/games/{game_id}/rating")
    async def get_rating(game_id: str) -> RatingNote:
        """Whether the game counts for its people's ratings, and why not (the rating policy's)."""
        note = await rating_note(services.store.ratings, game_id)
        if note is None:
            raise ApiError(404, "not_found", f"no game {game_id!r}")
        return note

    @api.post("/api/lobby/chat")
    async def lobby_chat(body: LobbyLine, request: Request) -> ChatLine:
        """Say a line in the lobby chat (every lobby page gets it over /ws/lobby)."""
        gate.same_site(request)
        account = await guard(body.name, request)
        return await chat.post_lobby(body, client_address(request), account)

    @api.post("/api/lobby/chat/{chat_id}/report")
    async def report_lobby_line(chat_id: int, request: Request) -> dict[str, int]:
        gate.same_site(request)
        await chat.report_lobby(chat_id, client_address(request))
        return {"reported": chat_id}

    @api.post("/api/seek")
    async def seek(body: Seek, request: Request) -> Seated:
        """A seat at the open table of that many players that has waited longest."""
        await guard(body.name, request)
        return await bound(await lobby.seek(body, client_address(request)), request)

    @api.post("/api/games/{game_id}/join")
    async def join(game_id: str, body: Join, request: Request) -> Seated:
        await guard(body.name, request)
        return await bound(await lobby.join(game_id, body), request)

    @api.post("/api/games/{game_id}/leave")
    async def leave(game_id: str, body: TokenBody) -> Seated:
        return await lobby.leave(game_id, body.token)

    @api.post("/api/games/{game_id}/again")
    async def again(game_id: str, body: TokenBody, request: Request) -> Seated:
        return await bound(await lobby.rematch(game_id, body.token), request)

    records(api, services)
    rankings(api, services)
    return api


def records(api: APIRouter, services: Services) -> None:
    """A game's record (download and import), its replay and its analysis."""
    lobby, analyses = services.lobby, services.analyses

    @api.get("/api/games/{game_id}/record")
    async def record(game_id: str) -> JSONResponse:
        headers = {"Content-Disposition": f'attachment; filename="ra-{game_id}.json"'}
        return JSONResponse(await lobby.records.record(game_id), headers=headers)

    @api.post("/api/records")
    async def import_record(request: Request) -> Seated:
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            # A form or text/plain body could be sent by any site's page: JSON only.
            raise ApiError(
                415, "bad_content_type", "send the record as JSON (Content-Type: application/json)"
            )
        return await lobby.records.import_record(await request.body(), client_address(request))

    @api.get("/api/games/{game_id}/replay")
    async def replay(
        game_id: str,
        n: Annotated[int, Query(ge=0)] = 0,
        seat: Annotated[int | None, Query(ge=0, lt=MAX_PLAYERS)] = None,
    ) -> Replay:
        return await lobby.records.replay(game_id, n, seat)

    @api.get("/api/games/{game_id}/analysis")
    async def analysis(game_id: str, lang: str = DEFAULT_LANG) -> AnalysisReply:
        """A finished game's analysis: not asked for yet, its progress, or its result."""
        return await analyses.status(game_id, normalize(lang) or DEFAULT_LANG)

    @api.post("/api/games/{game_id}/analysis")
    async def analyse(game_id: str, lang: str = DEFAULT_LANG) -> AnalysisReply:
        """Start a finished game's analysis (once: asking again reports it)."""
        return await analyses.start(game_id, normalize(lang) or DEFAULT_LANG)


def rankings(api: APIRouter, services: Services) -> None:
    """The bot levels, the leaderboard and the WebSocket messages' schema."""

    @api.get("/api/levels")
    async def bot_levels() -> dict[str, list[LevelInfo]]:
        """The bot levels with their fixed ratings and how each fares against the one below."""
        return {"levels": levels()}

    @api.get("/api/leaderboard")
    async def leaderboard() -> dict[str, list[Leader]]:
        """The rated accounts, best conservative rating (mu - 3 sigma) first."""
        return {"players": await leaders(services.store.ratings)}

    @api.get("/api/ws-schema")
    async def schema() -> WsSchema:
        """The JSON Schema of every WebSocket message, both ways (see docs/web-api.md)."""
        return ws_schema()
