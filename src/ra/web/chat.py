"""Chat at a table: the players talk among themselves, the spectators among themselves — a
spectator can never whisper to a player (nor read the players' chat).

Each line is checked (length, characters, a speaker's rate), stored, then sent to this worker's
clients of its channel and, through a :class:`ra.web.pubsub.ChatPosted` note, to the other
workers'.  A newcomer gets the channel's last lines.  Anyone may report a line they were sent;
``ra admin`` lists the reports and hides a line (it is no longer sent) or dismisses them.
Muting a person is the reader's own business: the page does it, the server is not asked.
The lobby has a chat of its own, said over HTTP and pushed to the lobby pages with their lists.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Awaitable, Callable
from typing import Annotated, Literal

from pydantic import BaseModel, Field, field_validator

from ra.web.clients import Client
from ra.web.errors import ClientError
from ra.web.hub import Hub, Room
from ra.web.limits import AddressBucket
from ra.web.lobby import ApiError
from ra.web.names import RESERVED, NameHolder, check_marks, clean_name, name_key
from ra.web.protocol import CHAT_MAX_CHARS, ChatLine, ChatMessage, ChatRequest, ReportedMessage
from ra.web.pubsub import ChatPosted
from ra.web.store import Store
from ra.web.store.chat import ChatRow

Channel = Literal["players", "spectators"]
LOBBY: Literal["lobby"] = "lobby"
HISTORY = 50
"""Lines a newcomer is sent."""
LINES_PER_MINUTE = 20
"""A speaker's lines a minute at most (bursts of :data:`BURST`)."""
BURST = 5
SPECTATOR = "spectator"


def channel_of(client: Client) -> Channel:
    return "spectators" if client.seat is None else "players"


def line(row: ChatRow) -> ChatLine:
    at = row.created_at.isoformat(timespec="seconds").replace("+00:00", "Z")
    return {
        "id": row.id,
        "seat": row.seat,
        "name": row.name,
        "text": row.text,
        "at": at,
        "account": row.account,
    }


def clean(text: str) -> str:
    """One line of plain text: whitespace runs made single spaces, no control characters, no
    character carrying more than :data:`ra.web.names.MAX_MARKS` combining marks."""
    said = " ".join(text.split())
    if not said:
        raise ClientError("bad_message", "chat: say something (the text is empty)")
    if not said.isprintable():
        raise ClientError("bad_message", "chat: the text may not contain control characters")
    try:
        check_marks(said, "chat: a line")
    except ValueError as err:  # stacked marks draw over the lines above
        raise ClientError("stacked_marks", str(err)) from None
    return said


class Speaker:
    """A token bucket per connection: :data:`LINES_PER_MINUTE` lines a minute, bursts of 5."""

    def __init__(self) -> None:
        self.allowance = float(BURST)
        self.last = time.monotonic()

    def allow(self) -> bool:
        t = time.monotonic()
        self.allowance = min(BURST, self.allowance + (t - self.last) * LINES_PER_MINUTE / 60)
        self.last = t
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True


class LobbyLine(BaseModel):
    """A line said in the lobby: who says it (a display name) and what."""

    name: str
    text: Annotated[str, Field(min_length=1, max_length=CHAT_MAX_CHARS)]

    @field_validator("name")
    @classmethod
    def _nm(cls, v: str) -> str:
        return clean_name(v)


class Chat:
    """The chat of every table on this worker, and of the lobby."""

    def __init__(self, store: Store, hub: Hub) -> None:
        self.store = store
        self.hub = hub
        self._speakers: dict[int, Speaker] = {}
        self._lobby_speakers = AddressBucket(store.levels, "lobby-chat", LINES_PER_MINUTE / 60, BURST)
        # Many connections from one address share twice one connection's allowance (site-wide).
        self._addresses = AddressBucket(store.levels, "table-chat", 2 * LINES_PER_MINUTE / 60, 2 * BURST)
        self.account_names: Callable[[str, str | None], Awaitable[NameHolder]] | None = None
        """Whose a name is for a session cookie: nobody's, its account's, another's (the accounts)."""
        self.lobby: Callable[[str], None] = _nowhere
        """Sends a message to every lobby page on this worker (:meth:`ra.web.lobby_feed.LobbyFeed.say`)."""

    def _speaker(self, client: Client) -> Speaker:
        return self._speakers.setdefault(id(client), Speaker())

    def forget(self, client: Client) -> None:
        self._speakers.pop(id(client), None)

    async def post(self, room: Room, client: Client, req: ChatRequest, addr: str) -> None:
        """Store ``req`` and send it to the speaker's channel, here and on the other workers."""
        if not self._speaker(client).allow() or not await self._addresses.allow(addr):
            raise ClientError("rate_limited", f"chat: at most {LINES_PER_MINUTE} lines a minute; slow down")
        text = clean(req.text)
        name = self._name(room, client, req.name)
        account = await self._account(room, client, name)
        row = await self.store.chat.add(room.id, channel_of(client), client.seat, name, addr, text, account)
        self.send(room, row)
        if not self.store.sqlite:  # one SQLite worker has nobody to tell
            with contextlib.suppress(Exception):
                await self.hub.pubsub.publish(ChatPosted(room.id, self.hub.settings.worker_id, row.id))

    async def _account(self, room: Room, client: Client, name: str) -> bool:
        """Whether ``name`` is said by its account: a seat an account holds, or a spectator signed
        in as it; a spectator may not speak under another account's name."""
        if client.seat is not None:
            return room.row.seats[client.seat].account
        checks = self.account_names
        held = "nobody" if checks is None else await checks(name, client.cookie)
        if held == "reserved":
            raise ClientError("name_reserved", f"chat: {RESERVED}")
        if held == "another":
            raise ClientError(
                "name_is_account", f"chat: {name!r} is an account's name; sign in, or choose another"
            )
        return held == "you"

    def _name(self, room: Room, client: Client, given: str | None) -> str:
        """A seat speaks under its own name; a spectator under the one they give, never a player's."""
        if client.seat is not None:
            return room.row.seats[client.seat].name or f"#{client.seat + 1}"
        try:
            name = clean_name(" ".join((given or "").split())[:20] or SPECTATOR)
        except ValueError as err:  # invisible characters too: "Ann" and a variation selector
            raise ClientError("bad_name", f"chat: {err}") from None
        if any(name_key(s.name or "") == name_key(name) for s in room.row.seats):
            raise ClientError(
                "name_taken", f"chat: {name!r} is a player's name at this table; choose another"
            )
        return name

    def send(self, room: Room, row: ChatRow) -> None:
        """Send one stored line to this worker's clients of its channel."""
        msg: ChatMessage = {"type": "chat", "channel": _channel(row), "lines": [line(row)], "history": False}
        for c in room.audience.clients:
            if channel_of(c) == row.channel:
                c.put(msg)

    async def history(self, room: Room, client: Client) -> None:
        """The channel's last lines, for a client that just came."""
        channel = channel_of(client)
        rows = await self.store.chat.history(room.id, channel, HISTORY)
        client.put({"type": "chat", "channel": channel, "lines": [line(r) for r in rows], "history": True})

    async def posted(self, room: Room, note: ChatPosted) -> None:
        """Another worker stored a line at a table open here."""
        row = await self.store.chat.line(note.chat_id)
        if row is not None and row.game_id == room.id and not row.hidden:
            self.send(room, row)

    async def report(self, room: Room, client: Client, chat_id: int, addr: str) -> None:
        """Report a line of this table and of the client's own channel (it could not see others)."""
        row = await self.store.chat.line(chat_id)
        if row is None or row.game_id != room.id or row.channel != channel_of(client):
            raise ClientError("not_found", f"chat: no line {chat_id} here to report")
        await self.store.chat.report(chat_id, addr)  # once per address: a second is a no-op
        reported: ReportedMessage = {"type": "reported", "id": chat_id}
        client.put(reported)

    # --- the lobby -----------------------------------------------------------------

    async def lobby_history(self) -> str:
        """The lobby chat's last lines, as the message a lobby page gets on opening."""
        rows = await self.store.chat.history(None, LOBBY, HISTORY)
        msg: ChatMessage = {
            "type": "chat",
            "channel": LOBBY,
            "lines": [line(r) for r in rows],
            "history": True,
        }
        return json.dumps(msg)

    async def post_lobby(self, said: LobbyLine, addr: str, account: bool = False) -> ChatLine:
        """Store a lobby line and send it to every lobby page, here and on the other workers
        (``account``: said by the signed-in account whose name it is)."""
        if not await self._lobby_speakers.allow(addr):
            raise ApiError(429, "rate_limited", f"chat: at most {LINES_PER_MINUTE} lines a minute; slow down")
        try:
            text = clean(said.text)
        except ClientError as err:
            raise ApiError(422, err.code, err.message) from None
        row = await self.store.chat.add(None, LOBBY, None, said.name, addr, text, account)
        self.say_in_lobby(row)
        if not self.store.sqlite:
            with contextlib.suppress(Exception):
                await self.hub.pubsub.publish(ChatPosted("", self.hub.settings.worker_id, row.id))
        return line(row)

    def say_in_lobby(self, row: ChatRow) -> None:
        msg: ChatMessage = {"type": "chat", "channel": LOBBY, "lines": [line(row)], "history": False}
        self.lobby(json.dumps(msg))

    async def lobby_posted(self, chat_id: int) -> None:
        """Another worker stored a lobby line."""
        row = await self.store.chat.line(chat_id)
        if row is not None and row.channel == LOBBY and not row.hidden:
            self.say_in_lobby(row)

    async def report_lobby(self, chat_id: int, addr: str) -> None:
        row = await self.store.chat.line(chat_id)
        if row is None or row.channel != LOBBY:
            raise ApiError(404, "not_found", f"chat: no lobby line {chat_id} to report")
        await self.store.chat.report(chat_id, addr)


def _nowhere(text: str) -> None:
    """No lobby pages to tell (a chat without a lobby feed)."""


def _channel(row: ChatRow) -> Channel:
    return "spectators" if row.channel == "spectators" else "players"
