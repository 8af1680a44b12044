"""Why, in words: a short reason for an action, as data first and words second.

:func:`explain` builds a :class:`Reason` — clauses, each a template key and its values (tiles,
points, players by seat, suns) — from the greedy bot's valuation
(:class:`ra.bots.valuation.Valuation`: what the lot on the auction track is worth to the mover
and to the strongest rival who can still take it, R7 scoring projected over the epochs to come;
what a sun costs against the centre sun, R4.4; the Ra track's urgency, R6.1; who must bid,
R4.3) and, when given, the advisor's evaluation (the search's own comparison with the next best
action).  A reason names the one or two facts that decide, never a list of everyone's suns.
:func:`reason_msg` turns a reason into one catalogue message
(:mod:`ra.words`: a message per clause, :data:`TEMPLATES`, in ``ra/locale/hints.pot``; players
by seat, tiles by the ``tiles.*``/``hint.tile.*`` messages, counts through plural forms), which
:func:`render` puts in words in any language and the browser renders from its JSON.

A reason only states facts that argue for the action it explains: a fact against it (a bid
that loses points, a pass that leaves a profitable bid) is replaced by the search's verdict.
The reader is "you" only in hints (``you=True``: the mover); an analysis names every player (but
a player called "You", as in the log).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from ra.actions import ALL_ACTIONS, Action
from ra.bots.valuation import Valuation
from ra.events import you_seat
from ra.state import State
from ra.tiles import Tile, name_id
from ra.views import PlayerView
from ra.words import DEFAULT_LANG, Msg, MsgJson, Param, ParamJson, Seat, msg, words

if TYPE_CHECKING:
    from ra.bots.evaluate import Evaluation
    from ra.engine import Game

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
    "lot": "hint.lot",
    "lot_rival": "hint.lot_rival",
    "empty": "hint.empty",
    "bid_cost": "hint.bid_cost",
    "bid_swap_gains": "hint.bid_swap_gains",
    "low_bid_nothing": "hint.low_bid_nothing",
    "forced": "hint.forced",
    "alone": "hint.alone",
    "deny": "hint.deny",
    "cannot_outbid": "hint.cannot_outbid",
    "low_bid": "hint.low_bid",
    "ra_last": "hint.ra_last",
    "ra_left": "hint.ra_left",
    "god": "hint.god",
    "done": "hint.done",
    "discard": "hint.discard",
    "search": "hint.search",
    "search_value": "hint.search_value",
    "search_close": "hint.search_close",
    "search_below": "hint.search_below",
    "god_take": "hint.god_take",
    "search_only": "hint.search_only",
}
"""The catalogue message of each clause (its words in every language: ``ra/locale/hints.pot``)."""


def lot_msg(tiles: Sequence[object], edition: str = "original") -> Msg | tuple[Msg, ...]:
    """The tiles of a lot counted by kind (``tiles.*``), in their order; ``tiles.none`` if empty."""
    pairs = _pairs(tiles)
    if not pairs:
        return msg("tiles.none")
    counted = tuple(msg(f"tiles.{name_id(Tile(t), edition)}", n=c) for t, c in pairs)
    return counted[0] if len(counted) == 1 else counted


def lot_text(tiles: Sequence[object], edition: str = "original", lang: str = DEFAULT_LANG) -> str:
    """The tiles of a lot in words: ``2 Pharaohs and 1 Flood``; ``no tiles``."""
    w, lot = words(lang), lot_msg(tiles, edition)
    return w.render(lot) if isinstance(lot, Msg) else w.join(w.render(m) for m in lot)


def _as_tuple(m: Msg | tuple[Msg, ...]) -> tuple[Msg, ...]:
    return m if isinstance(m, tuple) else (m,)


def _pairs(tiles: Sequence[object]) -> tuple[tuple[int, int], ...]:
    """``(tile, count)`` pairs from tiles (ints) or from pairs already."""
    pairs = [t for t in tiles if isinstance(t, tuple)]
    if pairs:
        return tuple((int(t), int(c)) for t, c in pairs)
    return tuple(Counter(int(t) for t in tiles if isinstance(t, int)).items())


def tile_msg(tile: int, edition: str = "original") -> Msg:
    """One tile as the object of an action or a reason: ``a Flood``, ``an Obelisk``, ``a Gold
    tile`` (``hint.tile.*``; in Russian the accusative)."""
    return msg(f"hint.tile.{name_id(Tile(tile), edition)}")


def a_tile(tile: int, edition: str = "original", lang: str = DEFAULT_LANG) -> str:
    """One tile with its article: ``a Flood``, ``an Obelisk``, ``a Gold tile``."""
    return words(lang).render(tile_msg(tile, edition))


def signed(x: float) -> str:
    """Whole points with a sign, never ``-0``: ``+3``, ``0``, ``-2``."""
    n = round(x)
    return f"{n:+d}" if n else "0"


def action_msg(action: Action, edition: str = "original", gerund: bool = False) -> Msg:
    """An action as a verb phrase (``hint.act.*``): ``invoke Ra``, ``bid sun 9``, ``take a
    Pharaoh with a God tile``; ``gerund``: ``invoking Ra``, ``bidding sun 9``…"""
    key = f"hint.act.{action.kind}" + (".ing" if gerund else "")
    if action.kind == "bid":
        assert action.sun is not None
        return msg(key, sun=action.sun)
    if action.kind in ("god", "discard"):
        assert action.tile is not None
        return msg(key, tile=tile_msg(int(action.tile), edition))
    return msg(key)


def action_words(
    action: Action, edition: str = "original", gerund: bool = False, lang: str = DEFAULT_LANG
) -> str:
    """An action as a verb phrase in words: ``invoke Ra``, ``bid sun 9``, ``take a Pharaoh with
    a God tile``; ``gerund``: ``invoking Ra``, ``bidding sun 9``…"""
    return words(lang).render(action_msg(action, edition, gerund))


def label_msg(action: Action, edition: str = "original") -> Msg:
    """An action's short label (``hint.label.*``): ``Bid 9``, ``God: Pharaoh``, ``Lose Flood``."""
    key = f"hint.label.{action.kind}"
    if action.kind == "bid":
        assert action.sun is not None
        return msg(key, sun=action.sun)
    if action.kind in ("god", "discard"):
        assert action.tile is not None
        return msg(key, tile=msg(f"tile.{name_id(action.tile, edition)}"))
    return msg(key)


# --- reasons as data -----------------------------------------------------------------------


def contenders(state: State, seat: int) -> list[int]:
    """The rivals of ``seat`` who can still take the lot on the track: in an auction, the high
    bidder and those still to bid (R4.1) with a sun above the high bid (R4.2); on a turn, every
    rival who holds a face-up sun (R3.1)."""
    n = state.num_players
    auction = state.auction
    if auction is None:
        return [i for i in range(n) if i != seat and state.sun_mask(i)]
    high = auction.high_bid or 0
    out = [auction.high_bidder] if auction.high_bidder is not None and auction.high_bidder != seat else []
    k = seat
    while k != auction.ra_player:  # the bidders after this one, up to the Ra player (R4.1)
        k = (k + 1) % n
        if k != seat and state.sun_mask(k) >> (high + 1):
            out.append(k)
    return out


def _rival(state: State, val: Valuation, seat: int, tiles: Sequence[int]) -> tuple[int, float] | None:
    """The rival who can still take the lot (:func:`contenders`) and to whom it is worth most,
    with its worth; None when no such rival would gain a point from it."""
    rivals = [(val.lot_gain(i, tiles), i) for i in contenders(state, seat)]
    if not rivals:
        return None
    worth, who = max(rivals)
    return (who, worth) if round(worth) >= 1 else None


def _lot(state: State, val: Valuation, seat: int, tiles: list[int], rival_too: bool = True) -> Clause:
    """What the lot is worth to the mover and (``rival_too``) to the strongest rival for it."""
    if not tiles:
        return Clause("empty")
    values: dict[str, Value] = {"lot": _pairs(tiles), "points": round(val.lot_gain(seat, tiles)), "who": seat}
    rival = _rival(state, val, seat, tiles) if rival_too else None
    if rival is None:
        return Clause("lot", values)
    return Clause("lot_rival", {**values, "rival": rival[0], "rival_points": round(rival[1])})


def _track(state: State) -> Clause:
    """The Ra track's urgency (R6.1)."""
    left = state.ra_track_length - state.ra_count
    return Clause("ra_last") if left <= 1 else Clause("ra_left", {"ra_left": left})


def _alone(state: State, seat: int) -> Clause | None:
    """That nobody else holds a face-up sun, so nobody else can bid (R3.1, R4.2), if so."""
    if any(state.sun_mask(i) for i in range(state.num_players) if i != seat):
        return None
    return Clause("alone", {"who": seat})


def _forces_the_ra_player(state: State, action: Action) -> int | None:
    """The Ra player, if this pass leaves them the last bidder of a voluntary auction with no
    bid, who must then bid (R4.3); else None."""
    auction = state.auction
    if auction is None or auction.kind != "voluntary" or auction.high_bid is not None:
        return None
    after = state.determinize(seed=0) if isinstance(state, PlayerView) else cast("Game", state).clone()
    after.apply(action)
    following = after.auction
    return auction.ra_player if following is not None and following.must_bid else None


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
        return _bid(state, val, seat, tiles, action.sun)
    if kind == "pass":
        return _pass(state, val, seat, tiles, action, judged)
    alone = _alone(state, seat)
    if kind == "ra":  # the lot, then the one who can take it at any price, or the Ra track
        return [_lot(state, val, seat, tiles), alone or _track(state)]
    if kind == "draw":
        # A lot worth something to the mover argues for invoking Ra, not for drawing: it is
        # said only when it is (next to) nothing, and not when nobody else can bid.
        if alone is not None:
            return [alone, _track(state)]
        lot = [_lot(state, val, seat, tiles)] if round(val.lot_gain(seat, tiles)) <= 1 else []
        return [*lot, _track(state)]
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


def _bid(state: State, val: Valuation, seat: int, tiles: list[int], sun: int) -> list[Clause]:
    """A bid: what the lot is worth to the mover (and the strongest rival who can still take it),
    then what the sun costs against the centre sun (R4.4) when the lot pays for it, or what the
    rival would take otherwise when it does not."""
    gain = val.lot_gain(seat, tiles)
    cost = -(val.sun_gain(seat, sun) - val.sun_cost(seat))  # giving this sun for the centre sun
    out = [_lot(state, val, seat, tiles)]
    swap = {"sun": sun, "centre": state.center_sun}
    if round(cost) <= -1 and round(gain) >= 0:  # "as well": only beside a lot that loses nothing
        return [*out, Clause("bid_swap_gains", {**swap, "points": round(-cost)})]
    if round(gain) > round(cost):
        return [*out, Clause("bid_cost", {**swap, "points": max(0, round(cost))})]
    rival = _rival(state, val, seat, tiles)
    if rival is None:
        return out
    # The bid is to deny the rival: the rival's worth is said once, in that clause.
    deny = Clause("deny", {"rival": rival[0], "rival_points": round(rival[1])})
    return [_lot(state, val, seat, tiles, rival_too=False), deny]


def _pass(
    state: State, val: Valuation, seat: int, tiles: list[int], action: Action, judged: bool
) -> list[Clause]:
    """A pass: the lot's worth, then the fact that decides it: no sun can outbid (R4.2), the
    lowest bid loses points, or the Ra player must then bid (R4.3); else the search's verdict."""
    bids = [a.sun for a in state.legal_actions() if a.sun is not None]
    out = [_lot(state, val, seat, tiles)]
    if not bids:
        return [*out, Clause("cannot_outbid", {"who": seat})]
    low = min(bids)
    net = val.bid_value(seat, tiles, low, val.lot_gain(seat, tiles))
    if round(net) <= -1:
        return [*out, Clause("low_bid", {"who": seat, "sun": low, "net": net})]
    forced = _forces_the_ra_player(state, action)
    if forced is not None:
        return [*out, Clause("forced", {"rival": forced})]
    if round(net) == 0:
        return [*out, Clause("low_bid_nothing", {"who": seat, "sun": low})]
    # A bid would gain now: the lot's worth argues against passing, so the search's verdict
    # (when judged) is the reason.
    return [] if judged else out


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
    else:  # the runner-up: the second row of the hint, ranked as shown (ra.bots.evaluate.rank_key)
        alt = others[0]
    values: dict[str, Value] = {
        "chance": chance,
        "alt": alt.action.index,
        "alt_gerund": alt.action.index,
        "alt_chance": round(100 * alt.chances[mover]),
        "margin": mine.margin,
        "alt_margin": alt.margin,
    }
    ahead = chance >= round(100 * alt.chances[mover])  # as shown: 36% is not "below" 36%
    if evaluation.best.action is not action and not ahead:
        close = mine.chances[mover] >= alt.chances[mover] - 0.05
        return Clause("search_close" if close else "search_below", values)
    return Clause("search" if ahead else "search_value", values)


# --- reasons as messages ---------------------------------------------------------------------


def _points(value: Value) -> Msg:
    return msg("count.points", n=round(float(_num(value))))


def _num(value: Value) -> float:
    assert isinstance(value, (int, float)), value
    return value


def _worth(seat: Value, points: Value) -> Msg:
    return msg("hint.worth", p=Seat(int(_num(seat))), points=_points(points))


def _net(value: Value) -> Msg:
    return msg("hint.net", n=abs(round(_num(value))), signed=signed(_num(value)))


def clause_msgs(clause: Clause, edition: str = "original") -> list[Msg]:
    """A clause as catalogue messages (one per clause)."""
    v = clause.values
    key = TEMPLATES[clause.key]
    params: dict[str, Param] = {}
    for name, value in v.items():
        if name == "lot":
            assert isinstance(value, tuple)
            params["tiles"] = _as_tuple(lot_msg(value, edition))
        elif name == "who":
            params["p"] = Seat(int(_num(value)))
        elif name == "tile":
            params["tile"] = tile_msg(int(_num(value)), edition)
        elif name == "ra_left":
            params["left"] = msg("tiles.ra", n=int(_num(value)))
        elif name == "net":
            params["net"] = _net(value)
        elif name in ("sun", "centre", "chance", "alt_chance"):
            params[name] = int(_num(value))
        elif name in ("god_points",):
            params[name] = _points(value)
    if clause.key in ("lot", "lot_rival", "god", "god_take"):
        params.pop("p", None)
        params["worth"] = _worth(v["who"], v["points"])
    if clause.key == "lot_rival":
        params["rival"] = _worth(v["rival"], v["rival_points"])
    if clause.key in ("bid_cost", "bid_swap_gains"):
        params["points"] = _points(v["points"])
    if clause.key == "forced":
        params["p"] = Seat(int(_num(v["rival"])))
    if clause.key == "deny":
        params["p"] = Seat(int(_num(v["rival"])))
        params["points"] = _points(v["rival_points"])
    if clause.key == "discard":
        params["points"] = _points(v["points"])
    if clause.key in ("search", "search_close", "search_below"):
        params["alt"] = action_msg(ALL_ACTIONS[int(_num(v["alt"]))], edition)
    if clause.key == "search_value":
        params["alt"] = action_msg(ALL_ACTIONS[int(_num(v["alt_gerund"]))], edition, gerund=True)
    return [Msg(key, params)]


def reason_msg(reason: Reason | None, edition: str = "original") -> Msg | None:
    """A reason as one catalogue message (its clauses joined by ``hint.also``; players by
    seat), for any language and the browser; None for no reason."""
    if reason is None:
        return None
    parts = [m for clause in reason.clauses for m in clause_msgs(clause, edition)]
    if not parts:
        return None
    out = parts[0]
    for part in parts[1:]:
        out = msg("hint.also", a=out, b=part)
    return out


def render(
    reason: Reason | None,
    names: Sequence[str],
    you: bool = True,
    edition: str = "original",
    lang: str = DEFAULT_LANG,
) -> str:
    """A reason in words; ``you``: the mover is the reader (hints), else every player is named
    (a player called "You" in any language is the reader, as in the log)."""
    m = reason_msg(reason, edition)
    if m is None or reason is None:
        return ""
    return words(lang).render(m, names, reader(reason.seat, names, you))


def reader(seat: int, names: Sequence[str], you: bool) -> int | None:
    """Whom a reason addresses as "you": the mover in hints, else the player called "You"."""
    return seat if you else you_seat(names)


def reason(
    state: State,
    action: Action,
    edition: str = "original",
    you: bool = True,
    evaluation: Evaluation | None = None,
    lang: str = DEFAULT_LANG,
) -> str:
    """A short reason for ``action`` by the player to move in ``state``, in words."""
    return render(explain(state, action, evaluation), state.names, you, edition, lang)


def mistake_msg(
    state: State,
    chosen: Action,
    best: Action,
    loss: float,
    edition: str = "original",
    evaluation: Evaluation | None = None,
) -> Msg:
    """The label of a costly decision as a message: ``lost 15% — better to invoke Ra than pass: <why>``."""
    why = reason_msg(explain(state, best, evaluation, versus=chosen), edition)
    return msg(
        "analysis.mistake",
        loss=round(100 * loss),
        best=action_msg(best, edition),
        chosen=action_msg(chosen, edition),
        why=why if why is not None else "",
    )


def mistake_text(
    state: State,
    chosen: Action,
    best: Action,
    loss: float,
    edition: str = "original",
    evaluation: Evaluation | None = None,
    you: bool = False,
    lang: str = DEFAULT_LANG,
) -> str:
    """The label of a costly decision in words: ``lost 15% — better to invoke Ra: <why>``."""
    m = mistake_msg(state, chosen, best, loss, edition, evaluation)
    seat = state.to_move if state.to_move is not None else -1
    return words(lang).render(m, state.names, reader(seat, state.names, you))


def msg_from_json(data: MsgJson) -> Msg:
    """A message from its JSON form (:meth:`ra.words.Msg.to_json`)."""
    return Msg(data["key"], {k: _param_from_json(v) for k, v in data["params"].items()})


def _param_from_json(value: ParamJson) -> Param:
    if isinstance(value, list):
        return tuple(p for p in (_param_from_json(v) for v in value) if isinstance(p, (Msg, str)))
    if isinstance(value, dict):
        if "seat" in value:
            return Seat(int(value["seat"]))  # type: ignore[typeddict-item]
        return msg_from_json(value)
    return value


__all__ = [
    "TEMPLATES",
    "Clause",
    "Reason",
    "a_tile",
    "action_msg",
    "action_words",
    "clause_msgs",
    "explain",
    "label_msg",
    "lot_msg",
    "lot_text",
    "mistake_msg",
    "mistake_text",
    "msg_from_json",
    "reader",
    "reason",
    "reason_msg",
    "render",
    "signed",
    "tile_msg",
]
