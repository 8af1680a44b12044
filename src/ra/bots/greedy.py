"""The greedy bot: a fast heuristic player built on :mod:`ra.bots.valuation`.

* Bidding: bid the smallest sun whose net worth (lot + sun swap − the sun's
  opportunity cost) is positive; pass otherwise (or bid the best sun when the
  rules force a bid, R4.3).
* Turn: use a God tile when the best tile is worth more than the God's own
  points; invoke Ra when the lot is worth enough to it and at least about as
  much as to its best rival, or when the epoch is about to end; otherwise draw.
* Disasters: discard the tile whose loss costs least.
"""

from __future__ import annotations

from ra.actions import (
    DISCARD,
    DONE_ACTION,
    DRAW_ACTION,
    GOD,
    INVOKE_ACTION,
    PASS_ACTION,
    Action,
)
from ra.bots.base import SeededBot, refuse
from ra.bots.valuation import DEFAULT_WEIGHTS, RolloutValuations, Valuation, Weights
from ra.state import PHASE_ACTION, PHASE_ACTION_NO_DRAW, PHASE_BID, PHASE_DISCARD, PHASE_GOD, State


class GreedyBot(SeededBot):
    """A fast one-ply heuristic player (see the module doc)."""

    name = "greedy"

    def __init__(
        self, seed: int | None = None, weights: Weights = DEFAULT_WEIGHTS, epsilon: float = 0.0
    ) -> None:
        super().__init__(seed)
        if isinstance(epsilon, bool) or not isinstance(epsilon, int | float) or not 0.0 <= epsilon <= 1.0:
            raise refuse("bots.err.epsilon", value=repr(epsilon))
        if not isinstance(weights, Weights):
            raise ValueError(f"weights must be a Weights, got {type(weights).__name__}")
        self.weights = weights
        self.epsilon = float(epsilon)
        """Chance of a uniformly random legal action instead (for an easier opponent)."""

    def settings(self) -> dict[str, object]:
        out: dict[str, object] = {"epsilon": self.epsilon}
        if self.weights != DEFAULT_WEIGHTS:
            out["weights"] = self.weights
        return out

    def choose(self, view: State) -> Action:
        if self.epsilon and self.rng.random() < self.epsilon:
            return self.rng.choice(view.legal_actions())
        return greedy_action(view, self.weights)


def greedy_action(
    state: State, weights: Weights = DEFAULT_WEIGHTS, *, valuations: RolloutValuations | None = None
) -> Action:
    """The greedy choice in ``state`` for the player to move (works on games and views).

    ``valuations`` (built with the same ``weights``) reuses the valuation along one game's
    forward play, as MCTS rollouts do; the choice is the same either way.
    """
    legal = state.legal_actions()
    seat = state.to_move
    assert seat is not None and legal, "no decision to take"
    # The integer phase and the track as tile codes (fast access: this runs at every rollout step).
    phase = state.phase_code
    track = state.track_tiles()
    if not track and phase in (PHASE_ACTION, PHASE_ACTION_NO_DRAW):
        return DRAW_ACTION if DRAW_ACTION in legal else INVOKE_ACTION
    val = Valuation(state, weights) if valuations is None else valuations.get(state)
    if phase == PHASE_BID:
        best: Action | None = None
        best_value = -1e9
        gain = val.lot_gain(seat, track)
        for a in legal:  # bids in ascending suns, then pass
            if a.sun is None:
                continue
            v = val.bid_value(seat, track, a.sun, gain)
            if v > weights.min_gain:
                return a
            if v > best_value:
                best, best_value = a, v
        if PASS_ACTION in legal:
            return PASS_ACTION
        assert best is not None
        return best
    if phase == PHASE_DISCARD:
        kinds = [a.arg for a in legal if a.code == DISCARD]
        keep = val.cheapest(seat, list(val.displays[seat]), kinds)
        return next(a for a in legal if a.arg == keep)
    # Turn actions: "action" (draw / ra / god) or "god" (god / done).
    gods = [a for a in legal if a.code == GOD]
    if gods:
        gains = [(val.lot_gain(seat, (a.arg,)), a) for a in gods]
        gain, best_god = max(gains, key=lambda ga: ga[0])
        if gain - val.god_worth > weights.god_margin:
            return best_god
    if phase == PHASE_GOD:
        return DONE_ACTION
    if DRAW_ACTION not in legal:
        return INVOKE_ACTION
    if _worth_invoking(state, val, seat, track, weights):
        return INVOKE_ACTION
    return DRAW_ACTION


def _worth_invoking(state: State, val: Valuation, seat: int, track: tuple[int, ...], w: Weights) -> bool:
    mine = val.bid_value(seat, track, _lowest_sun(val.suns[seat]))
    if state.ra_track_length - state.ra_count <= 1:
        return mine > w.min_gain  # the next Ra tile would end the epoch and lose the lot (R6.2)
    if mine <= w.min_gain or (len(track) < 6 and mine < w.invoke_gain):
        return False
    rivals = [
        val.bid_value(i, track, _lowest_sun(val.suns[i])) for i in range(val.n) if i != seat and val.suns[i]
    ]
    return mine >= max(rivals, default=0.0) * w.invoke_lead


def _lowest_sun(mask: int) -> int:
    return (mask & -mask).bit_length() - 1
