"""The ASGI app of ``ra serve``: routes for the lobby, the game WebSocket and the pages.

Thin by design: the lobby's business is :mod:`ra.web.lobby`, a game's is
:class:`ra.web.hub.Room` around a :class:`ra.table.Table`, the messages are
:mod:`ra.web.protocol`'s and the browser-facing defences :mod:`ra.web.security`'s.
See ``docs/web-api.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Literal

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from ra.setup import MAX_PLAYERS
from ra.web.accounts import (
    COOKIE,
    SESSION_DAYS,
    Accounts,
    Claim,
    Credentials,
    Me,
    Password,
    Profile,
    Session,
    SignUp,
)
from ra.web.addresses import Addresses, confirmer
from ra.web.addresses import make_router as make_address_router
from ra.web.analyses import Analyses, AnalysisReply
from ra.web.assets import LONG_CACHE, NO_CACHE, CachedStatic, Pages
from ra.web.chat import Chat, LobbyLine
from ra.web.clients import Client
from ra.web.errors import ClientError
from ra.web.guide import router as guide_router
from ra.web.hub import Hub, Room
from ra.web.learn import router as learn_router
from ra.web.limits import AddressLimiter
from ra.web.lobby import ApiError, Join, Lobby, NewGame, Replay, Seated, Seek, TokenBody
from ra.web.lobby_feed import LobbyFeed
from ra.web.mail import turn_mailer
from ra.web.metrics import CONTENT_TYPE, Metrics
from ra.web.protocol import (
    MAX_MESSAGE_BYTES,
    ActionMessage,
    BackMessage,
    BadMessageError,
    ChatLine,
    ChatRequest,
    GameSummary,
    Hello,
    HintMessage,
    PingMessage,
    ReportRequest,
    UndoMessage,
    WsSchema,
    catalogue_data,
    error,
    parse_client_message,
    ws_schema,
)
from ra.web.puzzles import make_router as make_puzzle_router
from ra.web.ratings import Leader, LevelInfo, leaders, levels, rate_game
from ra.web.security import (
    BodyLimit,
    HostCheck,
    Network,
    SecurityHeaders,
    address_in,
    client_address,
    origin_allowed,
    parse_networks,
)
from ra.web.settings import Settings
from ra.web.store import Store, hash_token
from ra.words import DEFAULT_LANG, LOCALE_DIR, normalize

log = logging.getLogger("ra.web")
STATIC = Path(str(files("ra.web") / "static"))
HELLO_TIMEOUT = 15.0
UNSUPPORTED_DATA = 1003
"""The WebSocket close code for a binary frame (the protocol is JSON text)."""


def metrics_allowed(conn: HTTPConnection, networks: tuple[Network, ...]) -> bool:
    """``/metrics`` is for a scraper on the machine (or ``--metrics-from``), asking directly:
    never through a proxy (any ``X-Forwarded-For``), so a public reverse proxy cannot expose it."""
    if "x-forwarded-for" in conn.headers:
        return False
    return address_in(client_address(conn), networks)


PAGES: dict[str, str] = {
    "/": "index.html",
    "/g/{game_id}": "table.html",
    "/replay/{game_id}": "replay.html",
    "/account": "account.html",
    "/players": "leaderboard.html",
    "/u/{name}": "profile.html",
    "/rules": "rules.html",
    "/learn": "learn.html",
    "/guide": "guide.html",
    "/puzzles": "puzzles.html",
}
"""The site's pages by path: static HTML that its script fills from the API."""


def html_page(pages: Pages, name: str, status_code: int = 200) -> Response:
    """A page of the site, never cached (it names this build's static files)."""
    body = pages.html(name)
    if body is None:
        raise ApiError(404, "not_found", f"page {name} is missing")
    return Response(body, status_code, media_type="text/html", headers={"Cache-Control": NO_CACHE})


def page_endpoint(pages: Pages, name: str) -> Callable[[], Awaitable[Response]]:
    """The endpoint that answers a path of :data:`PAGES` with its page."""

    async def endpoint() -> Response:
        return html_page(pages, name)

    return endpoint


def answer_errors(app: FastAPI, metrics: Metrics, pages: Pages) -> None:
    """Every refusal and failure as the API's JSON (``error``, ``message``), counted by code; an
    unknown page's address gets the site's 404 page."""

    @app.exception_handler(ApiError)
    async def _api_error(_: Request, err: ApiError) -> JSONResponse:
        metrics.errors.labels(err.code).inc()
        return JSONResponse({"error": err.code, "message": err.message}, status_code=err.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, err: RequestValidationError) -> JSONResponse:
        parts = []
        for e in err.errors()[:3]:
            where = ".".join(str(x) for x in e.get("loc", ()) if x != "body")
            parts.append(f"{where}: {e.get('msg', 'invalid')}" if where else str(e.get("msg")))
        metrics.errors.labels("bad_request").inc()
        return JSONResponse({"error": "bad_request", "message": "; ".join(parts)}, status_code=422)

    @app.exception_handler(Exception)
    async def _crash(_: Request, err: Exception) -> JSONResponse:
        log.exception("request failed", exc_info=err)
        metrics.errors.labels("server_error").inc()
        return JSONResponse({"error": "server_error", "message": "the server failed; try again"}, 500)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, err: StarletteHTTPException) -> Response:
        if err.status_code == 404 and not request.url.path.startswith(("/api/", "/ws/", "/static/")):
            return html_page(pages, "404.html", status_code=404)
        return JSONResponse({"error": "http", "message": str(err.detail)}, status_code=err.status_code)


def add_middleware(app: FastAPI, settings: Settings) -> None:
    """Compression, the security headers, the body limit, the host check and, when a proxy is
    trusted, its client addresses (outermost: everything inside sees the client's address)."""
    app.add_middleware(GZipMiddleware, minimum_size=1024)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(BodyLimit)
    app.add_middleware(HostCheck, hosts=settings.allowed_hosts or ("*",))
    if settings.forwarded_allow_ips:
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(settings.forwarded_allow_ips))


def create_app(settings: Settings) -> FastAPI:
    """The server for one database; ``ra serve`` runs it under uvicorn."""
    store = Store(settings.db_url, settings.worker_id)
    metrics = Metrics()
    metrics_from = parse_networks(",".join(settings.metrics_from))
    hub = Hub(store, settings, metrics=metrics)
    hub.turn_mailer = turn_mailer(store, settings.smtp_url, settings.public_url)  # reads the accounts

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        feed.start()
        yield
        await feed.stop()
        await analyses.stop()
        await hub.stop()
        await store.close()
        accounts_.passwords.close()
        metrics.close()

    app = FastAPI(title="Ra", version="1", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.hub = hub
    lobby = Lobby(store, hub, settings)
    analyses = Analyses(store, hub, settings)
    addresses = Addresses(store, confirmer(settings.smtp_url, settings.public_url))
    accounts_ = Accounts(store, addresses)
    chat = Chat(store, hub)
    feed = LobbyFeed(lobby.lists, greeting=chat.lobby_history)
    chat.lobby = feed.say
    chat.account_names = accounts_.is_anothers
    hub.lobby_said = chat.lobby_posted
    hub.on_finished = lambda game_id: rate_game(store, game_id)
    hub.chat_posted = chat.posted
    store.on_change = hub.lobby_changed = feed.touch
    add_middleware(app, settings)

    pages = Pages(STATIC, LOCALE_DIR)
    answer_errors(app, metrics, pages)

    # --- pages -------------------------------------------------------------------

    for path, name in PAGES.items():  # one table of paths: each a static page its script fills
        app.add_api_route(path, page_endpoint(pages, name), methods=["GET"], include_in_schema=False)
    app.include_router(learn_router)
    app.include_router(guide_router)

    @app.get("/static/{build}/catalogue/{lang}.json", include_in_schema=False)
    async def catalogue_json(build: str, lang: str) -> Response:
        """The words of a language and the tiles' facts (``ra.words``): this build's for a year,
        any other build's (an old page) always checked.  An unknown language gets English."""
        data = catalogue_data(normalize(lang) or DEFAULT_LANG)
        cache = LONG_CACHE if build == pages.build else NO_CACHE
        return JSONResponse(data, headers={"Cache-Control": cache})

    @app.get("/static/catalogue/{lang}.json", include_in_schema=False)
    async def catalogue_json_unversioned(lang: str) -> Response:
        """The same for a page loaded from the plain ``/static/`` names."""
        return await catalogue_json("", lang)

    if STATIC.is_dir():
        # This build's files for a year; the plain names (an old page's links) always checked.
        app.mount(pages.prefix.rstrip("/"), CachedStatic(STATIC, LONG_CACHE), name="build")
        app.mount("/static", CachedStatic(STATIC, NO_CACHE), name="static")

    @app.get("/health")
    async def health() -> JSONResponse:
        try:
            await asyncio.wait_for(store.ping(), 5)
        except Exception as err:
            return JSONResponse({"ok": False, "error": type(err).__name__}, status_code=503)
        return JSONResponse({"ok": True})

    @app.get("/metrics", include_in_schema=False)
    async def metrics_page(request: Request) -> Response:
        """The Prometheus text format (docs/hosting.md lists the names); from the machine only."""
        if not metrics_allowed(request, metrics_from):
            raise ApiError(
                403,
                "forbidden",
                "metrics are for the server's machine (its operator: ra serve --metrics-from)",
            )
        for status, count in (await store.count_by_status()).items():
            metrics.games.labels(status).set(count)
        return Response(metrics.render(), media_type=CONTENT_TYPE, headers={"Cache-Control": NO_CACHE})

    # --- lobby -------------------------------------------------------------------

    @app.post("/api/games")
    async def create(body: NewGame, request: Request) -> Seated:
        await accounts_.guard_name(body.name, request)  # an account's name only signed in as it
        return await lobby.create(body, client_address(request))

    @app.get("/api/games")
    async def list_games(
        request: Request,
        status: Annotated[Literal["open", "running", "finished"] | None, Query()] = None,
    ) -> dict[str, list[GameSummary]]:
        return {"games": await lobby.list(status, client_address(request))}

    @app.get("/api/games/{game_id}")
    async def get_game(game_id: str) -> GameSummary:
        return await lobby.summary(game_id)

    @app.post("/api/lobby/chat")
    async def lobby_chat(body: LobbyLine, request: Request) -> ChatLine:
        """Say a line in the lobby chat (every lobby page gets it over /ws/lobby)."""
        same_site(request)
        await accounts_.guard_name(body.name, request)
        return await chat.post_lobby(body, client_address(request))

    @app.post("/api/lobby/chat/{chat_id}/report")
    async def report_lobby_line(chat_id: int, request: Request) -> dict[str, int]:
        same_site(request)
        await chat.report_lobby(chat_id, client_address(request))
        return {"reported": chat_id}

    @app.post("/api/seek")
    async def seek(body: Seek, request: Request) -> Seated:
        """A seat at the open table of that many players that has waited longest."""
        await accounts_.guard_name(body.name, request)
        return await lobby.seek(body, client_address(request))

    @app.post("/api/games/{game_id}/join")
    async def join(game_id: str, body: Join, request: Request) -> Seated:
        await accounts_.guard_name(body.name, request)
        return await lobby.join(game_id, body)

    @app.post("/api/games/{game_id}/leave")
    async def leave(game_id: str, body: TokenBody) -> Seated:
        return await lobby.leave(game_id, body.token)

    @app.post("/api/games/{game_id}/again")
    async def again(game_id: str, body: TokenBody) -> Seated:
        return await lobby.rematch(game_id, body.token)

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str) -> JSONResponse:
        headers = {"Content-Disposition": f'attachment; filename="ra-{game_id}.json"'}
        return JSONResponse(await lobby.record(game_id), headers=headers)

    @app.post("/api/records")
    async def import_record(request: Request) -> Seated:
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            # A form or text/plain body could be sent by any site's page: JSON only.
            raise ApiError(
                415, "bad_content_type", "send the record as JSON (Content-Type: application/json)"
            )
        return await lobby.import_record(await request.body(), client_address(request))

    @app.get("/api/games/{game_id}/replay")
    async def replay(
        game_id: str,
        n: Annotated[int, Query(ge=0)] = 0,
        seat: Annotated[int | None, Query(ge=0, lt=MAX_PLAYERS)] = None,
    ) -> Replay:
        return await lobby.replay(game_id, n, seat)

    @app.get("/api/games/{game_id}/analysis")
    async def analysis(game_id: str, lang: str = DEFAULT_LANG) -> AnalysisReply:
        """A finished game's analysis: not asked for yet, its progress, or its result."""
        return await analyses.status(game_id, normalize(lang) or DEFAULT_LANG)

    @app.post("/api/games/{game_id}/analysis")
    async def analyse(game_id: str, lang: str = DEFAULT_LANG) -> AnalysisReply:
        """Start a finished game's analysis (once: asking again reports it)."""
        return await analyses.start(game_id, normalize(lang) or DEFAULT_LANG)

    # --- accounts (optional) -----------------------------------------------------------

    async def signed_in(request: Request) -> Session:
        s = await accounts_.session(request.cookies.get(COOKIE))
        if s is None:
            raise ApiError(401, "sign_in", "sign in first")
        return s

    async def changing(request: Request) -> Session:
        """The session of a request that changes something: from this site, with its CSRF token."""
        same_site(request)
        s = await signed_in(request)
        if not secrets.compare_digest(request.headers.get("x-csrf-token", ""), s.csrf):
            raise ApiError(403, "csrf", "this request lacks the page's X-CSRF-Token")
        return s

    def same_site(request: Request) -> None:
        if not origin_allowed(
            request.headers.get("origin"), request.headers.get("host"), settings.allowed_origins
        ):
            raise ApiError(403, "origin", "another site may not sign in or change an account here")

    def with_cookie(body: Me | dict[str, object], request: Request, token: str | None) -> JSONResponse:
        """The answer, setting (a new session's token) or clearing (None) the session cookie."""
        response = JSONResponse(body, headers={"Cache-Control": NO_CACHE})
        if token is None:
            response.delete_cookie(COOKIE, path="/")
        else:
            response.set_cookie(
                COOKIE,
                token,
                max_age=SESSION_DAYS * 86400,
                httponly=True,
                samesite="lax",
                secure=request.url.scheme == "https",
                path="/",
            )
        return response

    @app.post("/api/account/signup")
    async def sign_up(body: SignUp, request: Request) -> JSONResponse:
        same_site(request)
        token, me = await accounts_.sign_up(body, client_address(request))
        return with_cookie(me, request, token)

    @app.post("/api/account/login")
    async def sign_in(body: Credentials, request: Request) -> JSONResponse:
        same_site(request)
        token, me = await accounts_.sign_in(body, client_address(request))
        return with_cookie(me, request, token)

    @app.post("/api/account/logout")
    async def sign_out(request: Request) -> JSONResponse:
        await accounts_.close(await changing(request))
        return with_cookie({"ok": True}, request, None)

    @app.get("/api/account")
    async def me(request: Request) -> Me:
        s = await signed_in(request)
        return {"name": s.name, "csrf": s.csrf, "claimed": 0}

    @app.post("/api/account/claim")
    async def claim(body: Claim, request: Request) -> dict[str, int]:
        s = await changing(request)
        return {"claimed": await accounts_.claim(s.account_id, body.seats)}

    @app.post("/api/account/seats/{game_id}/{seat}/here")
    async def play_here(game_id: str, seat: int, request: Request) -> dict[str, object]:
        """Play an account's seat on this device: a new seat token (the old one's pages close)."""
        s = await changing(request)
        token = await accounts_.play_here(s.account_id, game_id[:40], seat)
        await hub.changed(game_id)  # the old token's connections are dropped here (the note: elsewhere)
        return {"game": game_id, "seat": seat, "token": token}

    @app.get("/api/account/export")
    async def export(request: Request) -> JSONResponse:
        """Everything the account holds: its profile and its games' public records."""
        s = await signed_in(request)
        profile = await accounts_.profile(s.name)
        records = [await lobby.record(g["id"]) for g in profile["games"]]
        body = {
            "account": {"name": profile["name"], "since": profile["since"]},
            "games": profile["games"],
            "records": records,
        }
        headers = {"Content-Disposition": 'attachment; filename="ra-account.json"', "Cache-Control": NO_CACHE}
        return JSONResponse(body, headers=headers)

    @app.post("/api/account/delete")
    async def delete_account(body: Password, request: Request) -> JSONResponse:
        s = await changing(request)
        await accounts_.check_password(s, body.password)
        await accounts_.delete(s)
        return with_cookie({"ok": True}, request, None)

    async def account_of(request: Request) -> tuple[str, str] | None:
        s = await accounts_.session(request.cookies.get(COOKIE))
        return None if s is None else (s.account_id, s.name)

    async def changing_account(request: Request) -> tuple[str, str] | None:
        s = await changing(request)
        return s.account_id, s.name

    app.include_router(make_puzzle_router(store, account_of, changing_account))
    app.include_router(make_address_router(addresses, account_of, changing_account))

    @app.get("/api/levels")
    async def bot_levels() -> dict[str, list[LevelInfo]]:
        """The bot levels with their fixed ratings and how each fares against the one below."""
        return {"levels": levels()}

    @app.get("/api/leaderboard")
    async def leaderboard() -> dict[str, list[Leader]]:
        """The rated accounts, best conservative rating (mu - 3 sigma) first."""
        return {"players": await leaders(store)}

    @app.get("/api/players/{name}")
    async def player(name: str) -> Profile:
        if len(name) > 40:
            raise ApiError(404, "not_found", "no such player")
        return await accounts_.profile(name)

    @app.get("/api/ws-schema")
    async def schema() -> WsSchema:
        """The JSON Schema of every WebSocket message, both ways (see docs/web-api.md)."""
        return ws_schema()

    # --- playing -------------------------------------------------------------------

    @app.websocket("/ws/lobby")
    async def follow_lobby(ws: WebSocket) -> None:
        """The live lobby: the lists of tables, sent again whenever they change."""
        if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), settings.allowed_origins):
            await ws.close(1008, "this page may not follow the lobby here (Origin not allowed)")
            return
        metrics.websockets.inc()
        try:
            await feed.follow(ws, client_address(ws))
        finally:
            metrics.websockets.dec()

    sockets: Counter[str] = Counter()
    opens = AddressLimiter(settings.max_sockets_per_addr / 30, settings.max_sockets_per_addr)

    @app.websocket("/ws/games/{game_id}")
    async def play(ws: WebSocket, game_id: str) -> None:
        if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), settings.allowed_origins):
            await ws.close(1008, "this page may not open a game here (Origin not allowed)")
            return
        address = client_address(ws)
        await ws.accept()
        if sockets[address] >= settings.max_sockets_per_addr or not opens.allow(address):
            await ws.close(
                1008, "too many game connections from this address; close some pages or wait a minute"
            )
            return
        sockets[address] += 1
        metrics.websockets.inc()
        try:
            await _play(ws, game_id, hub, store, chat)
        finally:
            metrics.websockets.dec()
            sockets[address] -= 1
            if sockets[address] <= 0:
                del sockets[address]

    return app


async def _play(ws: WebSocket, game_id: str, hub: Hub, store: Store, chat: Chat) -> None:
    """One game connection, from its hello until it closes."""
    opened = await _hello(ws, game_id, hub, store)
    if opened is None:
        return
    room, client = opened
    client.addr = client_address(ws)
    client.cookie = ws.cookies.get(COOKIE)  # a spectator's chat name is checked against accounts
    room.audience.clients.add(client)
    sender = asyncio.create_task(client.run_sender())
    try:
        room.send_state(client)
        await chat.history(room, client)
        await hub.presence_changed(room)
        await _serve(ws, room, client, sender, chat)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        chat.forget(client)
        room.audience.clients.discard(client)
        client.finish()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(sender, 1.0)
        sender.cancel()
        if client.close_code is not None:
            with contextlib.suppress(Exception):
                await ws.close(client.close_code)
        if not hub.closing:
            with contextlib.suppress(Exception):
                await hub.presence_changed(room)
            hub.release(room)


async def _hello(ws: WebSocket, game_id: str, hub: Hub, store: Store) -> tuple[Room, Client] | None:
    """The opening handshake: a ``hello`` with a seat's token (or none, to watch); on any
    fault the client is told why and the socket closed (None)."""

    async def refuse(code: str, message: str, close: int) -> None:
        hub.metrics.errors.labels(code).inc()
        with contextlib.suppress(Exception):
            await ws.send_json(error(code, message))
            await ws.close(close)

    try:
        first = await asyncio.wait_for(ws.receive(), HELLO_TIMEOUT)
    except (TimeoutError, WebSocketDisconnect, RuntimeError):
        await refuse("bad_message", 'say hello first: {"type": "hello", "token": ...}', 4400)
        return None
    if first.get("type") == "websocket.disconnect":
        return None
    text = first.get("text")
    if text is None:
        await refuse("bad_message", "messages are JSON text, not binary frames", UNSUPPORTED_DATA)
        return None
    try:
        hello = parse_client_message(text)
    except BadMessageError as err:
        await refuse("bad_message", f"the first message must be a hello: {err}", 4400)
        return None
    if not isinstance(hello, Hello):
        await refuse("bad_message", 'the first message must be {"type": "hello"}', 4400)
        return None
    room = await hub.room(game_id) if len(game_id) <= 16 else None
    if room is None:
        await refuse("not_found", f"no game {game_id!r}", 4404)
        return None
    seat: int | None = None
    token_hash: str | None = None
    if hello.token is not None:
        seat = await store.seat_for_token(game_id, hello.token)
        if seat is None:
            await refuse("bad_token", "the token is not valid for this game", 4401)
            return None
        token_hash = hash_token(hello.token)
        if room.row.seats[seat].token_hash != token_hash:
            await room.resync()  # the room's copy of the seats is older than the database's
    client = Client(seat, ws.send_text, hub.settings, token_hash, close=ws.close, metrics=hub.metrics)
    room.resume(client, hello.since, hello.key)
    return room, client


async def _serve(ws: WebSocket, room: Room, client: Client, sender: asyncio.Task[None], chat: Chat) -> None:
    """Read the client's messages until it goes (or is sent away)."""
    while not (client.closed or sender.done()):
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if text is None:
            client.put(error("bad_message", "messages are JSON text, not binary frames"))
            client.finish(UNSUPPORTED_DATA)
            return
        if len(text) > MAX_MESSAGE_BYTES:
            client.put(error("too_large", f"messages are at most {MAX_MESSAGE_BYTES} bytes"))
            continue
        if not client.allow():
            client.put(error("rate_limited", "too many messages: slow down"))
            continue
        await _handle(room, client, text, chat)


async def _handle(room: Room, client: Client, text: str, chat: Chat) -> None:
    """One client message: an action, an undo, a hint request, a chat line, a report or a ping;
    errors go to this client only.  A seat's token is checked again before anything is done
    for the seat (a seat's chat included: a player who left cannot speak as that seat)."""
    try:
        msg = parse_client_message(text)
    except BadMessageError as err:
        client.put(error("bad_message", str(err)))
        return
    try:
        if isinstance(msg, PingMessage):
            client.put({"type": "pong"})
            return
        if isinstance(msg, Hello):
            raise ClientError("bad_message", "hello is only the first message")
        if client.seat is not None and not room.audience.holds_seat(client):
            room.audience.drop_lost_seats()
            return
        if isinstance(msg, ChatRequest):
            await chat.post(room, client, msg, client.addr)
            return
        if isinstance(msg, ReportRequest):
            await chat.report(room, client, msg.id, client.addr)
            return
        if client.seat is None:
            raise ClientError("spectator", "spectators watch; join a seat to play")
        if isinstance(msg, BackMessage):
            await room.bots.set_away(client.seat, False)
        elif isinstance(msg, UndoMessage):
            await room.undo(client.seat, msg.n)
        elif isinstance(msg, HintMessage):
            room.hint(client, msg.n)
        elif isinstance(msg, ActionMessage):
            await room.act(client.seat, msg.action, msg.n)
    except ClientError as err:
        client.put(error(err.code, err.message, err.why))
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
            bot_backend=os.environ.get("RA_BOT_BACKEND", "process"),
            ray_address=os.environ.get("RA_RAY_ADDRESS") or None,
            max_open_games_per_addr=int(os.environ.get("RA_MAX_OPEN_GAMES", "20")),
            max_bot_seats_per_addr=int(os.environ.get("RA_MAX_BOT_SEATS", "40")),
            max_games_per_addr=int(os.environ.get("RA_MAX_GAMES_PER_DAY", "200")),
            max_sockets_per_addr=int(os.environ.get("RA_MAX_SOCKETS", "64")),
            allowed_origins=tuple(o for o in os.environ.get("RA_ALLOWED_ORIGINS", "").split() if o),
            allowed_hosts=tuple(h for h in os.environ.get("RA_ALLOWED_HOSTS", "").split() if h),
            forwarded_allow_ips=tuple(
                str(n) for n in parse_networks(os.environ.get("RA_FORWARDED_ALLOW_IPS", ""))
            ),
            metrics_from=tuple(
                str(n) for n in parse_networks(os.environ.get("RA_METRICS_FROM", "127.0.0.1,::1"))
            ),
            messages_per_second=float(os.environ.get("RA_MESSAGE_RATE", "20")),
            message_burst=2 * float(os.environ.get("RA_MESSAGE_RATE", "20")),
            fixed_seed=int(os.environ["RA_GAME_SEED"]) if os.environ.get("RA_GAME_SEED") else None,
            hint_budget=os.environ.get("RA_HINT_BUDGET", Settings.hint_budget),
            analysis_budget=os.environ.get("RA_ANALYSIS_BUDGET", Settings.analysis_budget),
            smtp_url=os.environ.get("RA_SMTP_URL") or None,
            public_url=os.environ.get("RA_PUBLIC_URL") or Settings.public_url,
        )
    )
