"""The game log: what happened, in order, with a plain-words text for each event.

This module owns the log's schema.  An :class:`Event` is a small named tuple
``(kind, seat, tile, sun, tiles, auto, detail)``; events are made only by the
per-kind constructors below (``draw(seat, tile)``, ``bid(seat, sun)`` …), and
readers use the typed accessors (``event.breakdown``, ``event.epoch_number`` …)
rather than the catch-all ``detail``.

On the engine's hot path a log entry is a *deferred* event: the constructor and
its arguments, ``(bid, seat, sun)``, one small tuple; :func:`materialize` makes
the :class:`Event` when the log is read (``game.events`` caches them).

>>> e = bid(0, 9)
>>> e.kind, e.seat, e.sun
('bid', 0, 9)
>>> e.text(["Ann", "Bob"])
'Ann bids sun 9.'
>>> e.text(["You", "Bob"])
'You bid sun 9.'
>>> epoch_started(2, 1).text(["Ann", "You"])
'Epoch 2 begins; you play first.'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, Final, Literal, NamedTuple, cast, get_args

from ra.scoring import CATEGORIES, ScoreBreakdown
from ra.tiles import TILES as _TILES
from ra.tiles import Tile, name_id
from ra.words import Msg, Param, Seat, languages, msg, words

EventKind = Literal[
    "epoch",
    "draw",
    "invoke",
    "auction",
    "bid",
    "pass",
    "win",
    "no_bid",
    "god",
    "done",
    "disaster",
    "discard",
    "epoch_end",
    "score",
    "game_over",
]
"""The kinds of events, in the order they are documented in :data:`EVENT_KINDS`."""

EVENT_KINDS: Final[tuple[str, ...]] = get_args(EventKind)
"""Every event kind (see the constructors below for what each one carries)."""

AuctionKind = Literal["drawn", "voluntary", "forced"]
AUCTION_KINDS: Final[tuple[str, ...]] = get_args(AuctionKind)
"""The kinds of auction (R3.3, R3.4), indexed by the engine's auction code."""


EpochEndReason = Literal["ra_track", "no_suns"]

_new = tuple.__new__


class Event(NamedTuple):
    """One thing that happened.  Fields not used by a kind are ``None`` / ``()`` / ``False``.

    ``detail`` holds the kind's extra datum; prefer the typed accessors
    (:attr:`epoch_number`, :attr:`ra_count`, :attr:`auction_kind`, :attr:`reason`,
    :attr:`face_down_sun`, :attr:`removed`, :attr:`lost`, :attr:`breakdown`,
    :attr:`tie_break`).
    """

    kind: EventKind
    seat: int | None = None
    tile: Tile | None = None
    sun: int | None = None
    tiles: tuple[Tile, ...] = ()
    auto: bool = False
    detail: Any = None

    def text(self, names: Sequence[str] | None = None, edition: str = "original", lang: str = "en") -> str:
        """The event in plain words, e.g. ``"Ann bids sun 9."`` (second person for a seat named "You")."""
        return describe(self, names, edition, lang)

    def __str__(self) -> str:
        return describe(self)

    # --- typed accessors ---------------------------------------------------------

    @property
    def epoch_number(self) -> int | None:
        """For ``epoch`` and ``epoch_end``: which epoch (1-3)."""
        if self.kind == "epoch":
            return cast(int, self.detail)
        if self.kind == "epoch_end":
            return cast(int, self.detail[0])
        return None

    @property
    def reason(self) -> str | None:
        """For ``epoch_end``: ``"ra_track"`` or ``"no_suns"`` (R6.1); for an automatic pass, why
        (R4.2): ``"no_higher"`` (see :attr:`pass_high`) or ``"no_sun"``."""
        if self.kind == "epoch_end":
            return cast(str, self.detail[1])
        if self.kind == "pass" and self.detail is not None:
            return cast(str, self.detail[0])
        return None

    @property
    def pass_high(self) -> int | None:
        """For an automatic pass for want of a higher sun: the bid to beat (R4.2)."""
        return cast("int | None", self.detail[1]) if self.kind == "pass" and self.detail else None

    @property
    def ra_count(self) -> int | None:
        """For the draw of a Ra tile: how many Ra tiles are now on the Ra track."""
        return cast(int, self.detail) if self.kind == "draw" else None

    @property
    def auction_kind(self) -> str | None:
        """For ``auction``: ``"drawn"``, ``"voluntary"`` or ``"forced"``."""
        return cast(str, self.detail) if self.kind == "auction" else None

    @property
    def face_down_sun(self) -> int | None:
        """For ``win``: the centre sun the winner takes face down (R4.4)."""
        return cast(int, self.detail) if self.kind == "win" else None

    @property
    def removed(self) -> bool | None:
        """For ``no_bid``: whether the tiles left the game (forced auction, R4.5)."""
        return self.detail == "removed" if self.kind == "no_bid" else None

    @property
    def lost(self) -> int | None:
        """For ``disaster``: how many tiles it destroys (R5.2)."""
        return cast(int, self.detail) if self.kind == "disaster" else None

    @property
    def breakdown(self) -> ScoreBreakdown | None:
        """For ``score``: the breakdown (``None`` when hidden from the viewer, R9.1)."""
        return cast("ScoreBreakdown | None", self.detail) if self.kind == "score" else None

    @property
    def tie_break(self) -> bool | None:
        """For ``game_over``: whether the tie-break of R8.1 decided."""
        return cast(bool, self.detail) if self.kind == "game_over" else None

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON-able data (tiles by identifier, a breakdown by its fields)."""
        detail = self.detail
        if isinstance(detail, ScoreBreakdown):
            detail = {"epoch": detail.epoch, "seat": detail.seat, **detail.as_dict()}
        elif isinstance(detail, tuple):
            detail = list(detail)
        return {
            "kind": self.kind,
            "seat": self.seat,
            "tile": self.tile.id if self.tile is not None else None,
            "sun": self.sun,
            "tiles": [t.id for t in self.tiles],
            "auto": self.auto,
            "detail": detail,
        }


# --- constructors (the only way the engine makes events) -------------------------


def epoch_started(epoch: int, first: int) -> Event:
    """An epoch begins; ``first`` plays first (R6.4, R2.4)."""
    return _new(Event, ("epoch", first, None, None, (), False, epoch))


def draw(seat: int, tile: int, ra_count: int | None = None) -> Event:
    """``seat`` drew ``tile`` (R3.3); for a Ra tile, ``ra_count`` is the Ra track's new count."""
    return _new(Event, ("draw", seat, _TILES[tile], None, (), False, ra_count))


def invoke(seat: int, auto: bool = False) -> Event:
    """``seat`` invoked Ra (R3.4); ``auto`` when it was the only legal action."""
    return _new(Event, ("invoke", seat, None, None, (), auto, None))


def auction(ra_player: int, kind: str | int) -> Event:
    """An auction of ``kind`` (a name, or its index in :data:`AUCTION_KINDS`) begins with
    ``ra_player`` as the Ra player (R4.1)."""
    name = AUCTION_KINDS[kind] if isinstance(kind, int) else kind
    return _new(Event, ("auction", ra_player, None, None, (), False, name))


def bid(seat: int, sun: int, auto: bool = False) -> Event:
    """``seat`` bid ``sun`` (R4.2); ``auto`` when the bid was forced (R4.3)."""
    return _new(Event, ("bid", seat, None, sun, (), auto, None))


def passed(seat: int, reason: tuple[str, int | None] | None = None) -> Event:
    """``seat`` passed; an automatic pass (R4.2) carries its reason as data:
    ``("no_higher", high)`` (no face-up sun higher than the bid ``high``) or ``("no_sun", None)``."""
    return _new(Event, ("pass", seat, None, None, (), reason is not None, reason))


def auto_pass(seat: int, high: int, has_suns: bool) -> Event:
    """``seat`` passed automatically (R4.2): no face-up sun, or none higher than ``high``."""
    return passed(seat, ("no_higher", high) if has_suns else ("no_sun", None))


def won(seat: int, sun: int, lot: Sequence[int], face_down: int) -> Event:
    """``seat`` won the auction with ``sun``, taking ``lot`` and the centre sun ``face_down`` (R4.4)."""
    return _new(Event, ("win", seat, None, sun, tuple([_TILES[t] for t in lot]), False, face_down))


def no_bid(ra_player: int, lot: Sequence[int], removed: bool) -> Event:
    """Nobody bid (R4.5); ``removed`` when the full track's tiles left the game."""
    tiles = tuple([_TILES[t] for t in lot])
    return _new(Event, ("no_bid", ra_player, None, None, tiles, False, "removed" if removed else "kept"))


def god(seat: int, tile: int) -> Event:
    """``seat`` used a God tile to take ``tile`` (R3.5)."""
    return _new(Event, ("god", seat, _TILES[tile], None, (), False, None))


def done(seat: int, auto: bool = False) -> Event:
    """``seat`` stopped using God tiles (``auto``: nothing more could be taken)."""
    return _new(Event, ("done", seat, None, None, (), auto, None))


def disaster(seat: int, tile: int, lost: int) -> Event:
    """Disaster ``tile`` strikes ``seat``, destroying ``lost`` tiles (R5.2)."""
    return _new(Event, ("disaster", seat, _TILES[tile], None, (), True, lost))


def discard(seat: int, tile: int, auto: bool) -> Event:
    """``seat`` lost one ``tile`` to a disaster; ``auto`` when there was no choice (R5.4)."""
    return _new(Event, ("discard", seat, _TILES[tile], None, (), auto, None))


def epoch_ended(epoch: int, reason: str, removed: Sequence[int]) -> Event:
    """The epoch ended for ``reason`` (R6.1); ``removed`` left the tracks (R6.2)."""
    tiles = tuple([_TILES[t] for t in removed])
    return _new(Event, ("epoch_end", None, None, None, tiles, False, (epoch, reason)))


def scored(breakdown: ScoreBreakdown | None, seat: int) -> Event:
    """``seat``'s epoch scoring (R7); ``None`` where hidden from a viewer (R9.1)."""
    return _new(Event, ("score", seat, None, None, (), False, breakdown))


def score(epoch: int, seat: int, points: Sequence[int], before: int, after: int) -> Event:
    """``seat``'s epoch scoring from its points by category (in ``CATEGORIES`` order, R7)."""
    return scored(ScoreBreakdown.from_points(epoch, seat, points, before, after), seat)


def game_over(winner: int, tie_break: bool) -> Event:
    """The game ended; ``tie_break`` when R8.1's tie-break decided."""
    return _new(Event, ("game_over", winner, None, None, (), False, tie_break))


LogEntry = Event | tuple[Any, ...]
"""An entry of the engine's log: an :class:`Event`, or ``(constructor, *arguments)``."""


def materialize(entry: LogEntry) -> Event:
    """The :class:`Event` of a log entry (see the module doc)."""
    if type(entry) is Event:
        return entry
    make = cast("Callable[..., Event]", entry[0])
    return make(*entry[1:])


# --- plain words ------------------------------------------------------------------
# The text of an event is made in one place, as a message (ra.words.Msg: a catalogue key
# and data), then rendered in any language: here for the terminal and the command line,
# in the browser from the same message.


def is_you(name: str) -> bool:
    """Whether a player's name addresses the reader ("You" in any language): the log then
    uses the second person."""
    return name.strip().casefold() in _you_names()


@cache
def _you_names() -> frozenset[str]:
    """The reader's name in every language ("You", "Вы" …), read once: every log line asks."""
    return frozenset(words(lang)("player.you").casefold() for lang in languages(include_pseudo=True))


def you_seat(names: Sequence[str] | None) -> int | None:
    """The seat of the player named "You", if any."""
    if names is None:
        return None
    return next((i for i, n in enumerate(names) if is_you(n)), None)


def tile_msg(tile: Tile | None, edition: str = "original") -> Msg:
    """A tile's name as a message (its edition's name, R1.2)."""
    return msg("tile.unknown") if tile is None else msg(f"tile.{name_id(tile, edition)}")


def tiles_msg(tiles: Sequence[Tile], edition: str = "original") -> Msg | tuple[Msg, ...]:
    """Tiles counted by kind (``1 Pharaoh, 2 Floods and 1 Gold tile``), or "no tiles"."""
    if not tiles:
        return msg("tiles.none")
    counts: dict[Tile, int] = {}
    for t in tiles:
        counts[t] = counts.get(t, 0) + 1
    return tuple(msg(f"tiles.{name_id(t, edition)}", n=c) for t, c in sorted(counts.items()))


def tile_list(tiles: Sequence[Tile], edition: str = "original", lang: str = "en") -> str:
    """Tiles in words, counted by kind: ``"1 Pharaoh, 2 Floods and 1 Gold tile"``."""
    w, counted = words(lang), tiles_msg(tiles, edition)
    return w.render(counted) if isinstance(counted, Msg) else w.join(w.render(m) for m in counted)


def _signed(x: int) -> str:
    return f"+{x}" if x > 0 else str(x)


def _simple(key: str, event: Event, **params: Param) -> Msg:
    return msg(key, p=Seat(event.seat if event.seat is not None else -1), **params)


def _score_msg(event: Event) -> Msg:
    b: ScoreBreakdown | None = event.detail
    if b is None:
        return _simple("log.score_hidden", event)
    parts: tuple[Msg, ...] = tuple(
        msg("log.score_part", category=msg(f"sc.{c}"), points=_signed(getattr(b, c)))
        for c in CATEGORIES
        if getattr(b, c)
    )
    return _simple(
        "log.score",
        event,
        total=_signed(b.total),
        parts=parts or msg("log.score_nothing"),
        before=b.before,
        after=b.after,
    )


def _pass_msg(event: Event) -> Msg:
    if not event.auto:
        return _simple("log.pass", event)
    code, high = event.detail
    why = msg("pass.no_higher", high=high) if code == "no_higher" else msg("pass.no_sun")
    return _simple("log.pass_auto", event, why=why)


def _win_msg(event: Event, edition: str) -> Msg:
    key = "log.win" if event.tiles else "log.win_empty"
    return _simple(key, event, sun=event.sun or 0, lot=tiles_msg(event.tiles, edition), centre=event.detail)


def _no_bid_msg(event: Event) -> Msg:
    n = len(event.tiles)
    if event.detail == "removed":
        return msg("log.no_bid_removed", n=n)
    return msg("log.no_bid_kept", n=n) if n else msg("log.no_bid")


def _disaster_msg(event: Event, edition: str) -> Msg:
    tile = tile_msg(event.tile, edition)
    if event.detail:
        return _simple("log.disaster", event, tile=tile, n=event.detail)
    return _simple("log.disaster_none", event, tile=tile)


def message(event: Event, edition: str = "original") -> Msg:
    """An event as a message: what the log says, as data any language renders."""
    k: str = event.kind  # a str: an Event made by hand may carry an unknown kind
    d = event.detail
    if k == "epoch":
        return _simple("log.epoch", event, epoch=d)
    if k == "draw":
        if event.tile is Tile.RA:  # in the 2023 edition the sun boat sails instead (R1.2)
            return _simple("log.draw_ra_boat" if edition == "2023" else "log.draw_ra", event, count=d)
        return _simple("log.draw", event, tile=tile_msg(event.tile, edition))
    if k == "invoke":
        return _simple("log.invoke_auto" if event.auto else "log.invoke", event)
    if k == "auction":
        return _simple("log.auction", event, cause=msg(f"auction.{d}"))
    if k == "bid":
        return _simple("log.bid_forced" if event.auto else "log.bid", event, sun=event.sun or 0)
    if k == "pass":
        return _pass_msg(event)
    if k == "win":
        return _win_msg(event, edition)
    if k == "no_bid":
        return _no_bid_msg(event)
    if k == "god":
        return _simple("log.god", event, tile=tile_msg(event.tile, edition))
    if k == "done":
        return _simple("log.done", event)
    if k == "disaster":
        return _disaster_msg(event, edition)
    if k == "discard":
        return _simple(
            "log.discard" if event.auto else "log.discard_chosen", event, tile=tile_msg(event.tile, edition)
        )
    if k == "epoch_end":
        epoch, reason = d
        return msg("log.epoch_end", epoch=epoch, why=msg(f"epoch_end.{reason}"))
    if k == "score":
        return _score_msg(event)
    if k == "game_over":
        return _simple("log.game_over_tie" if d else "log.game_over", event)
    # An unknown kind (never made by the engine): show the raw fields, never str(event).
    return msg("log.unknown", kind=k, fields=repr(tuple(event)))


def describe(
    event: Event,
    names: Sequence[str] | None = None,
    edition: str = "original",
    lang: str = "en",
    you: int | None = None,
) -> str:
    """Plain-words text of an event in ``lang``; ``names`` are the players' names by seat and
    ``you`` the reader's seat (by default the player named "You")."""
    return words(lang).render(message(event, edition), names, you if you is not None else you_seat(names))


# --- English-only helpers (for the arena's report, not yet in the catalogue) ----------

_UNCOUNTABLE: Final = frozenset(
    {"Ra", "God", "Gold", "Astronomy", "Agriculture", "Writing", "Religion", "Art", "Unrest"}
)


def plural(count: int, noun: str) -> str:
    """``count`` and ``noun``, in the plural unless ``count`` is 1.

    >>> plural(1, "tile"), plural(2, "tile"), plural(0, "decision")
    ('1 tile', '2 tiles', '0 decisions')
    """
    return f"{count} {noun if count == 1 else plural_noun(noun)}"


def plural_noun(noun: str) -> str:
    """The plural of a noun or tile name (``Flood`` -> ``Floods``, ``Sphinx`` -> ``Sphinxes``,
    ``Gold`` -> ``Gold tiles``)."""
    if noun in _UNCOUNTABLE:
        return f"{noun} tiles"
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "i", "o", "u"):
        return noun[:-1] + "ies"
    return noun + "s"


# --- reading a log ------------------------------------------------------------------

DECISION_EVENTS: Final[frozenset[str]] = frozenset(
    {"draw", "invoke", "bid", "pass", "god", "done", "discard"}
)
"""The kinds of event that record a player's decision (when not ``auto``): one per decision."""


def decision_seats(events: Sequence[Event]) -> list[int]:
    """The seat that took each decision, in order, read from a log."""
    return [e.seat for e in events if e.kind in DECISION_EVENTS and not e.auto and e.seat is not None]


def epoch_starts(events: Sequence[Event]) -> list[tuple[int, int]]:
    """``(epoch, decisions taken before it)`` for each epoch reached, read from a log."""
    starts: list[tuple[int, int]] = []
    decided = 0
    for e in events:
        if e.kind == "epoch" and e.epoch_number is not None:
            starts.append((e.epoch_number, decided))
        elif e.kind in DECISION_EVENTS and not e.auto:
            decided += 1
    return starts
