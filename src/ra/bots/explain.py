"""Why, in words: a short reason for an action, from the greedy bot's valuation.

The reasons quote :class:`ra.bots.valuation.Valuation`: what the lot on the auction
track is worth to each player (R7 scoring projected over the epochs to come), the Ra
track's urgency (Ra tiles still to come before the epoch ends, R6.1), the suns left and
the centre sun (R4.4).  They are heuristics to teach with, not proofs: the win chances
themselves come from :mod:`ra.bots.evaluate`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ra.actions import Action
from ra.bots.valuation import Valuation
from ra.events import plural
from ra.state import State
from ra.tiles import Tile, display_name


def lot_text(tiles: Sequence[int], edition: str = "original") -> str:
    """The tiles of a lot in words: ``Pharaoh, 2× Nile``."""
    counts = Counter(Tile(t) for t in tiles)
    return ", ".join(
        display_name(t, edition) if c == 1 else f"{c}× {display_name(t, edition)}" for t, c in counts.items()
    )


def _points(x: float) -> str:
    return plural(round(x), "point")


def signed(x: float) -> str:
    """Whole points with a sign, never ``-0``: ``+3``, ``0``, ``-2``."""
    n = round(x)
    return f"{n:+d}" if n else "0"


def _rival(state: State, val: Valuation, seat: int, tiles: Sequence[int]) -> tuple[int, float] | None:
    """The rival to whom the lot is worth most, and its worth."""
    rivals = [(val.lot_gain(i, tiles), i) for i in range(state.num_players) if i != seat]
    if not rivals:
        return None
    worth, who = max(rivals)
    return who, worth


def _urgency(state: State) -> str:
    """The Ra track's urgency (R6.1) and the face-up suns left, yours first (R6.2)."""
    left = state.ra_track_length - state.ra_count
    track = (
        "the next Ra tile ends the epoch" if left <= 1 else f"{plural(left, 'Ra tile')} until the epoch ends"
    )
    seat = state.to_move
    if seat is None:
        return track
    suns = [bin(state.sun_mask(i)).count("1") for i in range(state.num_players)]
    others = ", ".join(f"{state.names[i]} {suns[i]}" for i in range(state.num_players) if i != seat)
    return f"{track}; suns left: you {suns[seat]}, {others}"


def reason(state: State, action: Action, edition: str = "original") -> str:
    """A short reason for ``action`` by the player to move in ``state`` (a game or a view)."""
    seat = state.to_move
    if seat is None:
        return ""
    val = Valuation(state)
    names = state.names
    tiles = list(state.track_tiles())
    kind = action.kind
    if kind in ("bid", "pass"):
        mine = val.lot_gain(seat, tiles)
        rival = _rival(state, val, seat, tiles)
        vs = f" ({_points(rival[1])} to {names[rival[0]]})" if rival is not None else ""
        worth = f"the lot ({lot_text(tiles, edition)}) is worth {_points(mine)} to you{vs}" if tiles else ""
        worth = worth or "nothing is on the track"
        if kind == "bid":
            assert action.sun is not None
            net = val.bid_value(seat, tiles, action.sun, mine)
            swap = f"sun {action.sun} for the centre {state.center_sun}"
            return f"{worth}; {swap}: net {signed(net)} points"
        bids = [a.sun for a in state.legal_actions() if a.sun is not None]
        if not bids:
            return f"{worth}; you cannot outbid"
        low = min(bids)
        net = val.bid_value(seat, tiles, low, mine)
        return f"{worth}; your lowest bid, sun {low}, would net {signed(net)}"
    if kind == "ra":
        lot = lot_text(tiles, edition)
        mine = val.lot_gain(seat, tiles)
        rival = _rival(state, val, seat, tiles)
        vs = f", {_points(rival[1])} to {names[rival[0]]}" if rival is not None else ""
        return f"the lot ({lot}) is worth {_points(mine)} to you{vs}; {_urgency(state)}"
    if kind == "draw":
        if not tiles:
            return f"the track is empty; {_urgency(state)}"
        mine = val.lot_gain(seat, tiles)
        return (
            f"the lot ({lot_text(tiles, edition)}) is worth {_points(mine)} to you so far; {_urgency(state)}"
        )
    if kind == "god":
        assert action.tile is not None
        gain = val.lot_gain(seat, (int(action.tile),))
        return (
            f"a {display_name(action.tile, edition)} is worth {_points(gain)} to you, "
            f"a God tile {val.god_worth:.0f} points"
        )
    if kind == "done":
        return "no tile left on the track is worth more to you than keeping the God tile"
    if kind == "discard":
        assert action.tile is not None
        d = list(val.displays[seat])
        before = val.display_value(seat, d)
        d[int(action.tile)] -= 1
        cost = before - val.display_value(seat, d)
        return f"losing a {display_name(action.tile, edition)} costs you least ({_points(cost)})"
    return ""


def mistake_text(state: State, chosen: Action, best: Action, loss: float, edition: str = "original") -> str:
    """The label of a costly decision: ``lost 15% — <why the best action>: consider <best>``."""
    why = reason(state, best, edition)
    return f"lost {round(100 * loss)}% — {why}: consider {best} rather than {chosen}"


__all__ = ["lot_text", "mistake_text", "reason", "signed"]
