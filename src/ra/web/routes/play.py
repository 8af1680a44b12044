"""The WebSockets: the live lobby and a game's table, from the hello to the close.

A connection's life is here (the handshake, the reading loop, one message at a time); what a
message does is the room's (:class:`ra.web.hub.Room`) and the chat's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ra.web.chat import Chat
from ra.web.clients import Client
from ra.web.errors import ClientError
from ra.web.hub import Hub, Room
from ra.web.limits import AddressBucket, AddressHolds
from ra.web.protocol import (
    MAX_MESSAGE_BYTES,
    ActionMessage,
    BackMessage,
    BadMessageError,
    ChatRequest,
    Hello,
    HintMessage,
    PingMessage,
    ReportRequest,
    UndoMessage,
    error,
    parse_client_message,
)
from ra.web.security import client_address, origin_allowed
from ra.web.services import Services
from ra.web.sessions import COOKIE
from ra.web.store import Store, hash_token
from ra.web.waiting import note_waiting

log = logging.getLogger("ra.web")
HELLO_TIMEOUT = 15.0
Refuse = Callable[[str, str, int], Awaitable[None]]
UNSUPPORTED_DATA = 1003
"""The WebSocket close code for a binary frame (the protocol is JSON text)."""


def router(services: Services) -> APIRouter:
    """``/ws/lobby`` and ``/ws/games/{id}``, each from an allowed Origin; a game's sockets are
    capped per address (open at once, and opened a minute)."""
    settings, metrics, hub = services.settings, services.metrics, services.hub
    ws_routes = APIRouter()

    @ws_routes.websocket("/ws/lobby")
    async def follow_lobby(ws: WebSocket) -> None:
        """The live lobby: the lists of tables, sent again whenever they change."""
        if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), settings.allowed_origins):
            await ws.close(1008, "this page may not follow the lobby here (Origin not allowed)")
            return
        metrics.websockets.inc()
        try:
            await services.feed.follow(ws, client_address(ws))
        finally:
            metrics.websockets.dec()

    cap = settings.max_sockets_per_addr
    sockets = AddressHolds(services.store.holds, "game-sockets", cap)
    opens = AddressBucket(services.store.levels, "game-opens", cap / 30, cap)

    @ws_routes.websocket("/ws/games/{game_id}")
    async def play(ws: WebSocket, game_id: str) -> None:
        if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), settings.allowed_origins):
            await ws.close(1008, "this page may not open a game here (Origin not allowed)")
            return
        address = client_address(ws)
        await ws.accept()
        if not await sockets.take(address):
            await _too_many(ws)
            return
        if not await opens.allow(address):
            await sockets.give_back(address)
            await _too_many(ws)
            return
        metrics.websockets.inc()
        try:
            await _play(ws, game_id, hub, services.store, services.chat)
        finally:
            metrics.websockets.dec()
            with contextlib.suppress(Exception):  # a lost database: the next refresh makes it good
                await sockets.give_back(address)

    return ws_routes


async def _too_many(ws: WebSocket) -> None:
    await ws.close(1008, "too many game connections from this address; close some pages or wait a minute")


async def _play(ws: WebSocket, game_id: str, hub: Hub, store: Store, chat: Chat) -> None:
    """One game connection, from its hello until it closes."""
    opened = await handshake(ws, game_id, hub, store)
    if opened is None:
        return
    room, client = opened
    client.addr = client_address(ws)
    client.cookie = ws.cookies.get(COOKIE)  # a spectator's chat name is checked against accounts
    room.audience.clients.add(client)
    sender = asyncio.create_task(client.run_sender())
    try:
        room.feed.send_state(client)
        await chat.history(room, client)
        await hub.presence_changed(room)
        await note_waiting(room, hub, store)
        await _serve(ws, room, client, sender, chat)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        log.info("game %s: a socket closed (%s)", room.id, client.trace())
        chat.forget(client)
        room.audience.clients.discard(client)
        with contextlib.suppress(Exception):
            await room.page_gone(client)
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
                await note_waiting(room, hub, store)
            hub.release(room)


async def handshake(ws: WebSocket, game_id: str, hub: Hub, store: Store) -> tuple[Room, Client] | None:
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
    room.joining += 1  # until the caller attaches the client: the hub must not forget the room
    try:
        return await _seat(ws, room, hello, hub, store, refuse)
    finally:
        room.joining -= 1


async def _seat(
    ws: WebSocket, room: Room, hello: Hello, hub: Hub, store: Store, refuse: Refuse
) -> tuple[Room, Client] | None:
    """The hello's seat (its token checked) and the client for it; None: refused."""
    game_id = room.id
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
    room.feed.resume(client, hello.since, hello.key)
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
            await room.hint(client, msg.n)
        elif isinstance(msg, ActionMessage):
            client.action_n = msg.n
            await room.act(client.seat, msg.action, msg.n)
    except ClientError as err:
        client.put(error(err.code, err.message, err.why))
        if err.code == "stale":
            room.feed.send_state(client)
