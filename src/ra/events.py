"""The game log: what happened, in order, with a plain-words text for each event.

The engine appends plain tuples (cheap on the hot path); :class:`Event` objects
are made only when the log is read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from ra.scoring import CATEGORIES, ScoreBreakdown
from ra.tiles import Tile, display_name

EVENT_KINDS = (
    "epoch",  # an epoch begins; seat = first player, detail = epoch number
    "draw",  # seat drew tile; for Ra, detail = Ra tiles now on the Ra track
    "invoke",  # seat invoked Ra (auto: it was the only legal action)
    "auction",  # an auction begins; seat = Ra player, detail = "drawn" | "voluntary" | "forced"
    "bid",  # seat bid sun (auto: the only legal action)
    "pass",  # seat passed; auto passes carry the reason in detail
    "win",  # seat won the auction with sun; tiles = lot, detail = centre sun taken face down
    "no_bid",  # nobody bid; seat = Ra player, tiles = the lot; detail = "removed" (forced) | "kept"
    "god",  # seat used a God tile to take tile
    "done",  # seat stopped using God tiles (auto: nothing more could be taken)
    "disaster",  # seat resolves disaster tile; detail = how many tiles it destroys
    "discard",  # seat lost tile to a disaster (auto: no choice)
    "epoch_end",  # detail = (epoch, "ra_track" | "no_suns"); tiles = tiles removed from the tracks
    "score",  # seat's scoring; detail = ScoreBreakdown (None when hidden from the viewer, R9.1)
    "game_over",  # seat = winner; detail = True when the tie-break of R8.1 decided
)


class Event(NamedTuple):
    """One thing that happened.  Fields not used by a kind are ``None`` / ``()`` / ``False``."""

    kind: str
    seat: int | None = None
    tile: Tile | None = None
    sun: int | None = None
    tiles: tuple[Tile, ...] = ()
    auto: bool = False
    detail: Any = None

    def text(self, names: Sequence[str] | None = None, edition: str = "original") -> str:
        """The event in plain words, e.g. ``"Ann bids sun 9."``."""
        return describe(self, names, edition)

    def __str__(self) -> str:
        return describe(self)


def event_from_entry(entry: tuple[Any, ...]) -> Event:
    """Turn a raw log tuple into an :class:`Event` (tiles become :class:`Tile`)."""
    kind, seat, tile, sun, tiles, auto, detail = entry
    return Event(
        kind,
        seat,
        Tile(tile) if tile is not None else None,
        sun,
        tuple(Tile(t) for t in tiles),
        auto,
        detail,
    )


def _tile(t: Tile | None, edition: str) -> str:
    return display_name(t, edition) if t is not None else "?"


def _tile_list(tiles: Sequence[Tile], edition: str) -> str:
    if not tiles:
        return "no tiles"
    counts: dict[Tile, int] = {}
    for t in tiles:
        counts[t] = counts.get(t, 0) + 1
    parts = [
        f"{c} {display_name(t, edition)}" if c > 1 else display_name(t, edition)
        for t, c in sorted(counts.items())
    ]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _signed(x: int) -> str:
    return f"+{x}" if x > 0 else str(x)


def describe(event: Event, names: Sequence[str] | None = None, edition: str = "original") -> str:
    """Plain-words text of an event; ``names`` are the players' names by seat."""

    def who(seat: int | None) -> str:
        if seat is None:
            return "?"
        return names[seat] if names is not None else f"Player {seat + 1}"

    k = event.kind
    p = who(event.seat)
    if k == "epoch":
        return f"Epoch {event.detail} begins; {p} plays first."
    if k == "draw":
        if event.tile is Tile.RA:
            return f"{p} draws Ra ({event.detail} on the Ra track)."
        return f"{p} draws {_tile(event.tile, edition)}."
    if k == "invoke":
        return f"{p} invokes Ra" + (" (the only possible action)." if event.auto else ".")
    if k == "auction":
        how = {"drawn": "a drawn Ra tile", "voluntary": "Ra invoked", "forced": "Ra invoked on a full track"}
        return f"Auction ({how.get(event.detail, event.detail)}); {p} is the Ra player and bids last."
    if k == "bid":
        return f"{p} bids sun {event.sun}" + (" (must bid, the only sun)." if event.auto else ".")
    if k == "pass":
        if event.auto:
            return f"{p} passes ({event.detail})."
        return f"{p} passes."
    if k == "win":
        lot = _tile_list(event.tiles, edition)
        return f"{p} wins with sun {event.sun}: takes {lot} and sun {event.detail} (face down)."
    if k == "no_bid":
        if event.detail == "removed":
            return f"Nobody bids; the {len(event.tiles)} tiles on the full auction track leave the game."
        return "Nobody bids; the tiles stay on the auction track."
    if k == "god":
        return f"{p} uses a God tile to take {_tile(event.tile, edition)}."
    if k == "done":
        return f"{p} stops using God tiles."
    if k == "disaster":
        return f"{_tile(event.tile, edition)} strikes {p}: {event.detail} tile(s) lost."
    if k == "discard":
        return f"{p} loses {_tile(event.tile, edition)}" + ("." if event.auto else " (chosen).")
    if k == "epoch_end":
        epoch, reason = event.detail
        why = "the Ra track is full" if reason == "ra_track" else "no player has a face-up sun"
        return f"Epoch {epoch} ends: {why}."
    if k == "score":
        b: ScoreBreakdown | None = event.detail
        if b is None:
            return f"{p} scores (hidden)."
        parts = ", ".join(
            f"{c.replace('_', '/')} {_signed(getattr(b, c))}" for c in CATEGORIES if getattr(b, c)
        )
        return f"{p} scores {_signed(b.total)} ({parts or 'nothing'}): {b.before} -> {b.after}."
    if k == "game_over":
        return f"Game over: {p} wins" + (" on the tie-break (highest sun, R8.1)." if event.detail else ".")
    return f"{k} {event}"
