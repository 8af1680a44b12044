"""Why, in words: a short reason for an action, as data first and words second.

:func:`explain` builds a :class:`Reason` — clauses, each a template key and its values (tiles,
points, players by seat, suns) — from the greedy bot's valuation
(:class:`ra.bots.valuation.Valuation`: what the lot on the auction track is worth to each
player, R7 scoring projected over the epochs to come; the Ra track's urgency, R6.1; the suns
each player holds, R4.4) and, when given, the advisor's evaluation (the search's own comparison
with the next best action).  :func:`render` turns a reason into words with one template per
clause (:data:`TEMPLATES`; another language is another table).

A reason only states facts that argue for the action it explains: a fact against it (a bid
that loses points, a pass that leaves a profitable bid) is replaced by the search's verdict.
The reader is "you" only in hints (``you=True``); an analysis names every player.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ra.actions import ALL_ACTIONS, Action
from ra.bots.valuation import Valuation
from ra.events import _UNCOUNTABLE, is_you, plural, plural_noun
from ra.state import State, sun_list
from ra.tiles import Tile, display_name

if TYPE_CHECKING:
    from ra.bots.evaluate import Evaluation

Value = int | float | str | tuple[int, ...] | tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Clause:
    """One part of a reason: a template key and its values (``lot`` is ``((tile, count), ...)``,
    ``who``/``rival`` are seats, ``suns`` a tuple of ``(seat, sun, sun, ...)`` runs)."""

    key: str
    values: Mapping[str, Value] = field(default_factory=dict)


@dataclass(frozen=True)
class Reason:
    """A reason for ``action`` by ``seat``: its clauses, joined by semicolons when rendered."""

    seat: int
    clauses: tuple[Clause, ...]


TEMPLATES: dict[str, str] = {
    "lot": "{lot} is worth {points} to {who}",
    "lot_rival": "{lot} is worth {points} to {who}, {rival_points} to {rival}",
    "empty": "the auction track is empty",
    "bid_net": "giving sun {sun} for the centre sun {centre} nets {net}",
    "deny": "otherwise {rival} would take it ({rival_points})",
    "cannot_outbid": "{who} cannot outbid",
    "low_bid": "{who_poss} lowest bid, sun {sun}, would lose points (net {net})",
    "ra_last": "the next Ra tile ends the epoch",
    "ra_left": "{ra_left} until the epoch ends",
    "suns": "{suns}",
    "god": "{tile} is worth {points} to {who}, more than keeping a God tile ({god_points})",
    "done": "no tile left on the track is worth more to {who} than keeping the God tile",
    "discard": "losing {tile} costs {who} least ({points})",
    "search": "{chance}% to win, against {alt_chance}% to {alt} instead",
    "search_value": "the search values it above {alt_gerund}",
    "search_close": "{chance}% to win, close to the {alt_chance}% to {alt}",
    "search_below": "{chance}% to win; the search prefers to {alt} ({alt_chance}%)",
    "god_take": "{tile} is worth {points} to {who}",
    "search_only": "{chance}% to win",
}
"""The English words of each clause (one table per language)."""


def lot_text(tiles: Sequence[object], edition: str = "original") -> str:
    """The tiles of a lot in words: ``2 Pharaohs and a Flood``; ``an empty lot``."""
    pairs = _pairs(tiles)
    if not pairs:
        return "an empty lot"
    parts = [
        a_tile(t, edition) if c == 1 else f"{c} {plural_noun(display_name(Tile(t), edition))}"
        for t, c in pairs
    ]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _pairs(tiles: Sequence[object]) -> tuple[tuple[int, int], ...]:
    """``(tile, count)`` pairs from tiles (ints) or from pairs already."""
    pairs = [t for t in tiles if isinstance(t, tuple)]
    if pairs:
        return tuple((int(t), int(c)) for t, c in pairs)
    return tuple(Counter(int(t) for t in tiles if isinstance(t, int)).items())


def a_tile(tile: int, edition: str = "original") -> str:
    """One tile with its article: ``a Flood``, ``an Obelisk``, ``a Gold tile``."""
    name = display_name(Tile(tile), edition)
    article = "an" if name[0] in "AEIOU" else "a"
    return f"{article} {name} tile" if name in _UNCOUNTABLE else f"{article} {name}"


def signed(x: float) -> str:
    """Whole points with a sign, never ``-0``: ``+3``, ``0``, ``-2``."""
    n = round(x)
    return f"{n:+d}" if n else "0"


def the_tile(tile: int, edition: str = "original") -> str:
    """One tile named definitely: ``the Flood``, ``the Astronomy tile``."""
    name = display_name(Tile(tile), edition)
    return f"the {name} tile" if name in _UNCOUNTABLE else f"the {name}"


_VERBS: dict[str, tuple[str, str]] = {
    "ra": ("invoke", "invoking"),
    "bid": ("bid", "bidding"),
    "done": ("keep", "keeping"),
    "draw": ("draw", "drawing"),
    "pass": ("pass", "passing"),
    "god": ("take", "taking"),
    "discard": ("lose", "losing"),
}


def action_words(action: Action, edition: str = "original", gerund: bool = False) -> str:
    """An action as a verb phrase: ``invoke Ra``, ``bid sun 9``, ``take the Flood with a God
    tile``; ``gerund``: ``invoking Ra``, ``bidding sun 9``…"""
    kind = action.kind
    if kind == "ra":
        rest = " Ra"
    elif kind == "bid":
        rest = f" sun {action.sun}"
    elif kind == "done":
        rest = " the God tiles"
    elif kind in ("draw", "pass"):
        rest = ""
    else:
        assert action.tile is not None
        t = int(action.tile)
        rest = f" {the_tile(t, edition)} with a God tile" if kind == "god" else f" {a_tile(t, edition)}"
    return _VERBS[kind][1 if gerund else 0] + rest


# --- reasons as data -----------------------------------------------------------------------


def _rival(state: State, val: Valuation, seat: int, tiles: Sequence[int]) -> tuple[int, float] | None:
    """The rival to whom the lot is worth most, and its worth."""
    rivals = [(val.lot_gain(i, tiles), i) for i in range(state.num_players) if i != seat]
    if not rivals:
        return None
    worth, who = max(rivals)
    return who, worth


def _lot(state: State, val: Valuation, seat: int, tiles: list[int]) -> Clause:
    if not tiles:
        return Clause("empty")
    values: dict[str, Value] = {"lot": _pairs(tiles), "points": round(val.lot_gain(seat, tiles)), "who": seat}
    rival = _rival(state, val, seat, tiles)
    if rival is None:
        return Clause("lot", values)
    return Clause("lot_rival", {**values, "rival": rival[0], "rival_points": round(rival[1])})


def _track(state: State) -> list[Clause]:
    """The Ra track's urgency (R6.1) and the suns each player holds, the mover first (R6.2)."""
    left = state.ra_track_length - state.ra_count
    track = Clause("ra_last") if left <= 1 else Clause("ra_left", {"ra_left": left})
    seat = state.to_move
    if seat is None:
        return [track]
    order = [seat, *(i for i in range(state.num_players) if i != seat)]
    runs: list[int] = []
    for i in order:
        suns = sun_list(state.sun_mask(i))
        runs += [i, len(suns), *suns]
    return [track, Clause("suns", {"suns": tuple(runs)})]


def explain(
    state: State, action: Action, evaluation: Evaluation | None = None, versus: Action | None = None
) -> Reason | None:
    """The reason for ``action`` by the player to move in ``state`` (a game or a view), or None
    when nobody is to move.  With ``evaluation`` (the advisor's numbers for this position) a
    fact against the action gives way to the search's verdict, which always closes the reason
    (compared with ``versus`` when given: the move a player actually made)."""
    seat = state.to_move
    if seat is None:
        return None
    val = Valuation(state)
    tiles = list(state.track_tiles())
    clauses = _clauses(state, val, seat, tiles, action, evaluation is not None)
    if evaluation is not None:
        clauses.append(_search(evaluation, action, versus))
    return Reason(seat, tuple(clauses))


def _clauses(
    state: State, val: Valuation, seat: int, tiles: list[int], action: Action, judged: bool
) -> list[Clause]:
    kind = action.kind
    if kind == "bid":
        assert action.sun is not None
        net = val.bid_value(seat, tiles, action.sun, val.lot_gain(seat, tiles))
        out = [_lot(state, val, seat, tiles)]
        if net >= 0:
            return [*out, Clause("bid_net", {"sun": action.sun, "centre": state.center_sun, "net": net})]
        rival = _rival(state, val, seat, tiles)
        if rival is not None and round(rival[1]) >= 1:
            out.append(Clause("deny", {"rival": rival[0], "rival_points": round(rival[1])}))
        return out
    if kind == "pass":
        bids = [a.sun for a in state.legal_actions() if a.sun is not None]
        out = [_lot(state, val, seat, tiles)]
        if not bids:
            return [*out, Clause("cannot_outbid", {"who": seat})]
        low = min(bids)
        net = val.bid_value(seat, tiles, low, val.lot_gain(seat, tiles))
        if net < 0:
            return [*out, Clause("low_bid", {"who": seat, "sun": low, "net": net})]
        # A bid would gain now: the lot's worth argues against passing, so only who holds which
        # suns is said, and the search's verdict (when judged) gives the reason.
        return _track(state)[1:] if judged else out
    if kind == "ra":
        return [_lot(state, val, seat, tiles), *_track(state)]
    if kind == "draw":
        # A lot worth something to the mover argues for invoking Ra, not for drawing: it is
        # said only when it is (next to) nothing.
        lot = [_lot(state, val, seat, tiles)] if round(val.lot_gain(seat, tiles)) <= 1 else []
        return [*lot, *_track(state)]
    if kind == "god":
        assert action.tile is not None
        gain = val.lot_gain(seat, (int(action.tile),))
        values = {
            "tile": int(action.tile),
            "points": round(gain),
            "who": seat,
            "god_points": round(val.god_worth),
        }
        if round(gain) < 1:
            return []  # the tile itself gains nothing now: the search's verdict is the reason
        return [Clause("god" if gain >= val.god_worth else "god_take", values)]
    if kind == "done":
        return [Clause("done", {"who": seat})]
    assert action.tile is not None
    d = list(val.displays[seat])
    before = val.display_value(seat, d)
    d[int(action.tile)] -= 1
    cost = before - val.display_value(seat, d)
    return [Clause("discard", {"tile": int(action.tile), "who": seat, "points": round(cost)})]


def _search(evaluation: Evaluation, action: Action, versus: Action | None = None) -> Clause:
    """The search's comparison of this action with ``versus`` (default: the best action for one
    that is not the best, else the strongest other), worded so that it argues for the action."""
    mover = evaluation.mover
    mine = evaluation.value(action)
    chance = round(100 * mine.chances[mover])
    others = [v for v in evaluation.actions if v.action is not action and v.playouts]
    if not others:
        return Clause("search_only", {"chance": chance})
    if versus is not None and versus is not action:
        alt = evaluation.value(versus)
    elif evaluation.best.action is not action:
        alt = evaluation.best
    else:
        alt = max(others, key=lambda v: v.chances[mover])
    values: dict[str, Value] = {
        "chance": chance,
        "alt": alt.action.index,
        "alt_gerund": alt.action.index,
        "alt_chance": round(100 * alt.chances[mover]),
        "margin": mine.margin,
        "alt_margin": alt.margin,
    }
    ahead = mine.chances[mover] >= alt.chances[mover]
    if evaluation.best.action is not action and not ahead:
        close = mine.chances[mover] >= alt.chances[mover] - 0.05
        return Clause("search_close" if close else "search_below", values)
    return Clause("search" if ahead else "search_value", values)


# --- reasons in words -------------------------------------------------------------------------

Who = Callable[[int, bool], str]
"""A seat in words, possessive or not: ``you``/``your`` for the reader of hints, else the name."""


def render(reason: Reason | None, names: Sequence[str], you: bool = True, edition: str = "original") -> str:
    """A reason in English words; ``you``: the mover is the reader (hints), else named."""
    if reason is None:
        return ""

    def who(seat: int, possessive: bool = False) -> str:
        # The reader: the mover in hints; in an analysis, a player called "You" (is_you).
        if (seat == reason.seat) if you else is_you(names[seat]):
            return "your" if possessive else "you"
        name = names[seat]
        return (name + ("'" if name.endswith("s") else "'s")) if possessive else name

    parts = []
    for clause in reason.clauses:
        words = {k: _word(k, v, who, edition) for k, v in clause.values.items()}
        seat = clause.values.get("who")
        if isinstance(seat, int):
            words["who_poss"] = who(seat, True)
        parts.append(TEMPLATES[clause.key].format(**words))
    return "; ".join(parts)


def _word(key: str, value: Value, who: Who, edition: str) -> str:
    """One value of a clause in words (its key says what it is)."""
    if isinstance(value, tuple):
        if key == "lot":
            return "the lot (" + lot_text(_pairs(value), edition) + ")"
        return _holdings(tuple(int(x) for x in value if isinstance(x, int)), who)
    if isinstance(value, str):
        return value
    if key in ("who", "rival"):
        return who(int(value), False)
    if key in ("points", "rival_points", "god_points"):
        return plural(round(value), "point")
    if key in ("margin", "alt_margin"):
        return signed(value)
    if key == "net":
        return f"{signed(value)} {'point' if abs(round(value)) == 1 else 'points'}"
    if key == "tile":
        return a_tile(int(value), edition)
    if key == "ra_left":
        return plural(int(value), "Ra tile")
    if key == "alt":
        return action_words(ALL_ACTIONS[int(value)], edition)
    if key == "alt_gerund":
        return action_words(ALL_ACTIONS[int(value)], edition, gerund=True)
    return str(value)


def _holdings(runs: tuple[int, ...], who: Who) -> str:
    """``you hold 3 and 9; Bob holds 5; Cleo holds no suns`` from ``(seat, count, sun...)`` runs."""
    out, k = [], 0
    while k < len(runs):
        seat, count = runs[k], runs[k + 1]
        suns = [str(s) for s in runs[k + 2 : k + 2 + count]]
        k += 2 + count
        person = who(seat, False)
        verb = "hold" if person == "you" else "holds"
        held = (
            "no suns"
            if not suns
            else suns[0]
            if len(suns) == 1
            else ", ".join(suns[:-1]) + " and " + suns[-1]
        )
        out.append(f"{person} {verb} {held}")
    return "; ".join(out)


def reason(
    state: State,
    action: Action,
    edition: str = "original",
    you: bool = True,
    evaluation: Evaluation | None = None,
) -> str:
    """A short reason for ``action`` by the player to move in ``state``, in English words."""
    return render(explain(state, action, evaluation), state.names, you, edition)


def mistake_text(
    state: State,
    chosen: Action,
    best: Action,
    loss: float,
    edition: str = "original",
    evaluation: Evaluation | None = None,
    you: bool = False,
) -> str:
    """The label of a costly decision: ``lost 15% — better to invoke Ra: <why>``."""
    why = render(explain(state, best, evaluation, versus=chosen), state.names, you, edition)
    better = f"better to {action_words(best, edition)} than {action_words(chosen, edition)}"
    return f"lost {round(100 * loss)}% — {better}: {why}"


__all__ = [
    "TEMPLATES",
    "Clause",
    "Reason",
    "a_tile",
    "action_words",
    "explain",
    "lot_text",
    "mistake_text",
    "reason",
    "render",
    "signed",
]
