"""The WebSocket protocol of ``ra serve``: every message in and out, typed, with its JSON Schema.

What a client sends is parsed into pydantic models (:data:`Incoming`, a union
discriminated by ``type``); a message that is not one of them is refused with a
clear error.  What the server sends is typed as ``TypedDict`` s (mypy checks every
field where a message is built, and nothing is ``Any``); the same types give
pydantic's JSON Schema, served at ``GET /api/ws-schema`` and documented in
``docs/web-api.md``.  Typed dicts rather than models on the way out: a state
message goes to every client after every decision, and building models there
would cost the server time for nothing the types do not already check.

Everything a client receives about the game is built from ``game.view(seat)`` —
``None`` for a spectator — the engine's one R9 gate: no message can carry the
seed, the bag order or (under hidden scores, R9.1) a score its reader may not see.
"""

from __future__ import annotations

from collections.abc import Collection
from functools import cache
from typing import Annotated, Literal, NotRequired

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from pydantic.json_schema import JsonSchemaValue
from typing_extensions import TypedDict

from ra.engine import Game
from ra.events import Event, message
from ra.scoring import CATEGORIES
from ra.state import AuctionState
from ra.table import game_result, result_log, stand_in_events, stand_in_message
from ra.tiles import (
    CIVILIZATIONS,
    DISASTERS,
    DISCARDED_AFTER_EPOCH,
    EDITION_NAMES,
    MONUMENTS,
    TILE_COUNTS,
    TILES,
    Tile,
    category,
)
from ra.words import MsgJson, export, source

MAX_MESSAGE_BYTES = 4096
"""The largest message a client may send (an action is a few dozen bytes)."""

# --- what a client sends ------------------------------------------------------------


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Hello(_In):
    """The first message on a game's socket: a seat's token, or none to watch."""

    type: Literal["hello"]
    token: Annotated[str, Field(max_length=200)] | None = None
    since: Annotated[int, Field(ge=0)] | None = None
    """How many log entries the client already has (a reconnecting client)."""
    key: Annotated[str, Field(max_length=64)] | None = None
    """The ``log_key`` of the last state it got: with ``since``, the log is resent only from there."""


class ActionMessage(_In):
    """A decision in notation (``"bid 9"``) at decision number ``n`` (as the client saw it)."""

    type: Literal["action"]
    action: Annotated[str, Field(max_length=40)]
    n: Annotated[int, Field(ge=0)]


class UndoMessage(_In):
    """Take back my last decision (``ra.table.UNDO_RULE``), seen at decision ``n``."""

    type: Literal["undo"]
    n: Annotated[int, Field(ge=0)]


class HintMessage(_In):
    """Ask for the win chances of my actions at decision ``n`` (tables with hints)."""

    type: Literal["hint"]
    n: Annotated[int, Field(ge=0)]


class PingMessage(_In):
    """Keep the connection alive; the server answers ``pong``."""

    type: Literal["ping"]


CHAT_MAX_CHARS = 300
"""The longest chat line a person may send (its text; the name comes from the seat)."""


class ChatRequest(_In):
    """Say ``text`` at the table: to the players from a seat, to the spectators from the rail
    (``name``: a spectator's name; a seat's is its own)."""

    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=CHAT_MAX_CHARS)]
    name: Annotated[str, Field(max_length=40)] | None = None


class BackMessage(_In):
    """The person of a seat marked away takes it back from the stand-in bot."""

    type: Literal["back"]


class ReportRequest(_In):
    """Report chat line ``id`` (one this client was sent) to the server's admin."""

    type: Literal["report"]
    id: Annotated[int, Field(ge=1)]


Incoming = (
    Hello
    | ActionMessage
    | UndoMessage
    | HintMessage
    | PingMessage
    | ChatRequest
    | ReportRequest
    | BackMessage
)
"""Any message a client sends."""
CLIENT_MESSAGES: TypeAdapter[Incoming] = TypeAdapter(Annotated[Incoming, Field(discriminator="type")])


class BadMessageError(ValueError):
    """A client message that is not valid JSON of a known shape; the text says what was wrong."""


def parse_client_message(text: str | bytes) -> Incoming:
    """The message in ``text``, or :class:`BadMessageError` naming the first thing wrong."""
    try:
        return CLIENT_MESSAGES.validate_json(text)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ()) if not isinstance(x, int))
        kind = first.get("type", "")
        if kind == "json_invalid":
            raise BadMessageError("messages are JSON objects") from None
        if kind in ("union_tag_invalid", "union_tag_not_found"):
            raise BadMessageError(
                'unknown message type: "type" is one of hello, action, undo, hint, ping, chat, report, back'
            ) from None
        raise BadMessageError(f"{where or 'message'}: {first.get('msg', 'invalid')}") from None


# --- what the server sends --------------------------------------------------------------

Detail = int | str | bool | list[int | str | None] | dict[str, int] | None


class EventData(TypedDict):
    """One log entry: the engine's event (``Event.to_dict``), its index and its words as a
    message (``ra.events.message``: a catalogue key and data) that the page renders in its
    own language."""

    i: int
    kind: str
    seat: int | None
    tile: str | None
    sun: int | None
    tiles: list[str]
    auto: bool
    detail: Detail
    msg: MsgJson
    stand_in: bool
    """A stand-in bot took this decision for the absent person in its seat (the message says so)."""


class PlayerData(TypedDict):
    name: str
    suns: list[int]
    used_suns: list[int]
    tiles: dict[str, int]
    score: int | None
    """``None`` where the reader may not see it (R9.1)."""


class AuctionData(TypedDict):
    kind: str
    ra_player: int
    high_bid: int | None
    high_bidder: int | None
    bidder: int
    must_bid: bool


class ViewData(TypedDict):
    """A seat's view of the game (``seat`` is None for a spectator)."""

    seat: int | None
    players: list[PlayerData]
    variant: str
    hidden_scores: bool
    disaster_timing: str
    """R3.5: "immediate" or "2008" (the variant "2008 disaster timing")."""
    epoch: int
    phase: str
    to_move: int | None
    center_sun: int
    ra_track: int
    ra_track_length: int
    auction_track: list[str]
    auction: AuctionData | None
    tiles_in_bag: int
    unseen: dict[str, int]
    pending_disaster: str | None
    pending_disasters: list[str]
    """R3.5, "2008 disaster timing": Disasters taken with God tiles this turn, not yet resolved."""
    discards_left: int
    num_decisions: int
    winner: int | None


class SeatSummary(TypedDict):
    seat: int
    kind: str
    level: str | None
    name: str | None
    taken: bool
    connected: bool
    away: bool
    """The seat's clock ran out: a bot decides for it until its person comes back."""
    forfeited: bool
    """Its time ran out at a forfeit table: a bot plays it to the end and it ranks last."""
    clock: float | None
    """Under a game clock: the seconds the seat has left (the mover's when this was sent)."""
    rating: float | None
    """The seat's rating as shown (mu - 3 sigma): its account's once rated, a bot level's fixed one."""
    provisional: bool
    """Its account's rating is provisional (``ra.web.rating_policy``): shown with "?"."""
    account: bool
    """An account holds the seat (its name links to ``/u/<name>``; a guest's name does not)."""


class TableSettings(TypedDict):
    players: int
    variant: str
    suns_per_player: int | None
    hidden_scores: bool
    edition: str
    bot_delay: float
    hints: bool
    casual: bool
    """Not rated: chosen when the table was made (``ra.web.rating_policy``); false: rated."""
    disaster_timing: str
    """R3.5: "immediate" or "2008" (the variant "2008 disaster timing")."""
    move_seconds: int | None
    """The clock: seconds a person has for each decision (None: no clock)."""
    stand_in: str | None
    """The level of the bot that decides for a seat whose time ran out."""
    game_seconds: int | None
    """A game clock: seconds each person has for the whole game (None: none)."""
    increment: int | None
    """Seconds added to a person's game clock after each of their decisions."""
    on_timeout: str | None
    """When a clock runs out: "stand_in" or "forfeit"."""


class GameSummary(TypedDict):
    """A table as the lobby lists it."""

    id: str
    status: str
    created: str
    options: TableSettings
    seats: list[SeatSummary]
    decisions: int
    epoch: int
    to_move: int | None
    winner: int | None
    scores: list[int] | None
    imported: bool
    rematch: str | None
    spectators: int
    """People watching the table now (the workers that have it open tell each other)."""


class StateMessage(TypedDict):
    """The game as this client's seat sees it, with the log from ``events_from`` on."""

    type: Literal["state"]
    game: GameSummary
    seat: int | None
    n: int
    view: ViewData | None
    legal: list[str]
    can_undo: bool
    events_from: int
    events: list[EventData]
    t: float | None
    log_key: str | None
    """Names the log the client now holds (seat, decisions, reveal): sent back in ``hello`` as
    ``key`` with ``since``, it lets a reconnecting client get only what it is missing."""
    bot_budget: float
    """The share of their level's budget the bots here last searched with: 1.0, less when the
    server is busy (never below 0.25)."""
    clock_left: float | None
    """At a table with a clock: the seconds the person to move has left, when this was sent."""


class PresenceMessage(TypedDict):
    type: Literal["presence"]
    connected: list[bool]


class ErrorMessage(TypedDict):
    """A refusal, to the client that asked only; ``code`` is stable, ``message`` is words."""

    type: Literal["error"]
    code: str
    message: str
    why: NotRequired[MsgJson]
    """For a refused move: the rule's reason as a message the page renders in its language."""


class HintAction(TypedDict):
    action: str
    chance: float
    margin: float


class HintReply(TypedDict):
    """The win chances of each legal action for the seat to move at decision ``n``."""

    type: Literal["hint"]
    n: int
    seat: int
    chances: list[float]
    actions: list[HintAction]
    best: str
    starred: str | None
    """The action the page stars (:attr:`ra.bots.evaluate.Evaluation.starred`): ``None`` on an
    exact tie of the top actions (same chance and margin as shown), where no star is fair."""
    tied: list[str]
    """On a tie, the actions shown alike at the top (the page names them); else empty."""
    given: NotRequired[float]
    """The seat's chance *given who is playing* (the bots' levels, the people's ratings:
    :func:`ra.web.hints.given_too`), beside the actions' chances, which assume best play."""
    reason: MsgJson | None
    """Why the best action is best, as a catalogue message (the mover is the seat ``seat``);
    ``None`` on a tie."""
    playouts: int
    source: Literal["search", "flat"]
    """``search``: the bots' native search; ``flat``: the weaker Python advice (no native core)."""


class UndoneMessage(TypedDict):
    """A decision was taken back (everyone at the table is told, not only the asker)."""

    type: Literal["undone"]
    seat: int
    name: str
    action: str
    n: int


class RematchMessage(TypedDict):
    type: Literal["rematch"]
    game: str


class ChatLine(TypedDict):
    """One line of chat: who (their seat, or None for a spectator) said what, when."""

    id: int
    seat: int | None
    name: str
    text: str
    at: str
    account: bool
    """The name is an account's, said by that account: the page links it to its profile."""


class ChatMessage(TypedDict):
    """Chat lines of this client's channel (players or spectators): on joining, the last ones
    (``history``), then each new one."""

    type: Literal["chat"]
    channel: Literal["players", "spectators", "lobby"]
    lines: list[ChatLine]
    history: bool


class ReportedMessage(TypedDict):
    """The report of chat line ``id`` was taken (the admin sees it with ``ra admin``)."""

    type: Literal["reported"]
    id: int


class PongMessage(TypedDict):
    type: Literal["pong"]


class ShutdownMessage(TypedDict):
    type: Literal["shutdown"]
    message: str


Outgoing = (
    StateMessage
    | PresenceMessage
    | ErrorMessage
    | HintReply
    | UndoneMessage
    | RematchMessage
    | ChatMessage
    | ReportedMessage
    | PongMessage
    | ShutdownMessage
)
"""Any message the server sends."""
SERVER_MESSAGES: TypeAdapter[Outgoing] = TypeAdapter(Annotated[Outgoing, Field(discriminator="type")])


def error(code: str, message: str, why: MsgJson | None = None) -> ErrorMessage:
    out: ErrorMessage = {"type": "error", "code": code, "message": message}
    if why is not None:
        out["why"] = why
    return out


class WsSchema(TypedDict):
    title: str
    client: JsonSchemaValue
    server: JsonSchemaValue


def ws_schema() -> WsSchema:
    """The JSON Schema of both directions (``GET /api/ws-schema``)."""
    return {
        "title": "Ra game WebSocket protocol",
        "client": CLIENT_MESSAGES.json_schema(),
        "server": SERVER_MESSAGES.json_schema(),
    }


# --- building the server's messages ------------------------------------------------------


def event_data(
    i: int, event: Event, edition: str, stand_in: bool = False, level: str = "medium"
) -> EventData:
    """One log entry as sent (a hidden score's breakdown is already ``None`` in the view's log);
    ``stand_in``: a stand-in bot of ``level`` took this decision for the person in its seat."""
    d = event.to_dict()
    text = message(event, edition)
    if stand_in and event.seat is not None:
        text = stand_in_message(text, event.seat, level)
    return {
        "i": i,
        "kind": event.kind,
        "seat": event.seat,
        "tile": event.tile.id if event.tile is not None else None,
        "sun": event.sun,
        "tiles": [t.id for t in event.tiles],
        "auto": event.auto,
        "detail": d["detail"],
        "msg": text.to_json(),
        "stand_in": stand_in,
    }


class TileFacts(TypedDict):
    """The tiles as the browser draws them (R1.1), from ``ra.tiles``: no copy in the page."""

    kinds: list[str]
    counts: dict[str, int]
    categories: dict[str, str]
    kept: list[str]
    civilizations: list[str]
    monuments: list[str]
    disasters: list[str]
    editions: dict[str, dict[str, str]]
    score_categories: list[str]


class CatalogueData(TypedDict):
    """``GET /static/<build>/catalogue/<lang>.json``: the words of a language (``ra.words.export``:
    every message, the plural categories' forms, the languages) and the tiles' facts."""

    lang: str
    plural: dict[str, int]
    langs: list[dict[str, str]]
    messages: dict[str, str | list[str]]
    summary: list[tuple[str, int]]
    tiles: TileFacts


def tile_facts() -> TileFacts:
    """The tiles' kinds, counts, categories and edition names, as ``ra.tiles`` has them."""
    ids = [t.id for t in TILES]
    gone = (*DISCARDED_AFTER_EPOCH, *DISASTERS, Tile.RA)
    return {
        "kinds": ids,
        "counts": {t.id: TILE_COUNTS[t] for t in TILES},
        "categories": {t.id: category(t) for t in TILES},
        "kept": [t.id for t in TILES if t not in gone],
        "civilizations": [t.id for t in CIVILIZATIONS],
        "monuments": [t.id for t in MONUMENTS],
        "disasters": [t.id for t in DISASTERS],
        "editions": {ed: {t.id: name for t, name in names.items()} for ed, names in EDITION_NAMES.items()},
        "score_categories": list(CATEGORIES),
    }


@cache
def catalogue_data(lang: str) -> CatalogueData:
    """What the pages load first: the words of ``lang`` and the tiles' facts (made once per
    language: the catalogue does not change while the server runs)."""
    exported = export(lang)
    keys = list(source())
    sections = [k.split(".")[1] for k in keys if k.count(".") == 1 and k.startswith("summary.")]
    summary = [(sec, sum(1 for k in keys if k.startswith(f"summary.{sec}."))) for sec in sections]
    return {
        "lang": exported["lang"],
        "plural": exported["plural"],
        "langs": exported["langs"],
        "messages": exported["messages"],
        "summary": summary,
        "tiles": tile_facts(),
    }


class SeatPayload(TypedDict):
    view: ViewData
    legal: list[str]
    events_from: int
    events: list[EventData]
    num_events: int


def seat_payload(
    game: Game,
    seat: int | None,
    edition: str,
    events_from: int = 0,
    stand_ins: Collection[int] = (),
    stand_in: str = "medium",
    forfeited: Collection[int] = (),
) -> SeatPayload:
    """The view of ``seat`` (``None``: a spectator) and the log from ``events_from`` on; the
    decisions numbered in ``stand_ins`` are marked as taken by a ``stand_in`` bot.  The winner
    and the log's last line are the table's result (:func:`ra.table.game_result`: the seats in
    ``forfeited`` rank last), never the engine's own."""
    view = game.view(seat)
    over = game.is_over()
    result = game_result(game, forfeited)
    auction = view.auction
    data: ViewData = {
        "seat": seat,
        "players": [
            {
                "name": p.name,
                "suns": list(p.suns),
                "used_suns": list(p.used_suns),
                "tiles": dict(p.tiles),
                "score": p.score,
            }
            for p in view.players
        ],
        "variant": game.setup.variant,
        "hidden_scores": game.hidden_scores,
        "disaster_timing": game.setup.disaster_timing,
        "epoch": view.epoch,
        "phase": view.phase,
        "to_move": view.to_move,
        "center_sun": view.center_sun,
        "ra_track": view.ra_count,  # Ra tiles on the Ra track
        "ra_track_length": view.ra_track_length,
        "auction_track": list(view.auction_track),
        "auction": _auction(auction) if auction is not None else None,
        "tiles_in_bag": view.tiles_in_bag,
        "unseen": dict(view.unseen),
        "pending_disaster": view.pending_disaster,
        "pending_disasters": list(view.pending_disasters),
        "discards_left": view.discards_left,
        "num_decisions": game.num_decisions,
        "winner": result.winner if result is not None else None,
    }
    legal = [str(a) for a in view.legal_actions()] if seat is not None and view.to_move == seat else []
    events = result_log(view.events, result)
    marked = stand_in_events(events, stand_ins)
    start = max(0, min(events_from, len(events)))
    return {
        "view": data,
        "legal": legal if not over else [],
        "events_from": start,
        "events": [
            event_data(i, events[i], edition, i in marked, stand_in) for i in range(start, len(events))
        ],
        "num_events": len(events),
    }


def _auction(a: AuctionState) -> AuctionData:
    return {
        "kind": a.kind,
        "ra_player": a.ra_player,
        "high_bid": a.high_bid,
        "high_bidder": a.high_bidder,
        "bidder": a.bidder,
        "must_bid": a.must_bid,
    }
