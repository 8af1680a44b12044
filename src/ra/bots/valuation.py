"""What tiles and suns are worth to a player, in points, at a moment of the game.

A heuristic projection used by the greedy bot (and by the MCTS bot to judge
positions it does not search to the end).  It values a display as the points it
scores this epoch if the epoch ended now (R7.2), plus what the tiles that stay
(Pharaohs, Niles, Monuments, R6.3) are likely to bring later, plus a little for
chances not yet taken.  Every weight lives in :class:`Weights`, to be tuned
with the arena.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ra.scoring import (
    civilization_points,
    drought_losses,
    funeral_losses,
    majority_points,
    monument_points,
)
from ra.state import State, sun_total
from ra.tiles import (
    T_CIVS,
    T_DROUGHT,
    T_FIRST_DISASTER,
    T_FLOOD,
    T_FUNERAL,
    T_GOD,
    T_GOLD,
    T_MONUMENTS,
    T_NILE,
    T_PHARAOH,
    T_UNREST,
)

# Potential of n identical monuments toward the 3/4/5 sets of R7.3 (beyond their points).
_SET_POTENTIAL = (0.0, 0.4, 1.6, 1.2, 1.0, 0.0)
# Potential of k different monument types toward 7 and 8 types (beyond their points).
_KINDS_POTENTIAL = (0.0, 0.2, 0.4, 0.7, 1.2, 2.0, 3.0, 2.5, 0.0)


@dataclass(frozen=True)
class Weights:
    """Tunable weights of the valuation (points unless said otherwise)."""

    pharaoh_future: float = 0.55
    """How much of this epoch's Pharaoh standing is expected to hold per later epoch."""
    nile_future: float = 0.45
    """Expected points per Nile per later epoch (a Flood is needed then)."""
    flood_chance: float = 0.5
    """Chance, at the start of an epoch, of still finding a Flood for one's Niles."""
    civ_chance: float = 0.45
    """Chance, at the start of an epoch, of still finding a first Civilization."""
    monument_potential: float = 1.0
    god_option: float = 0.5
    """Worth of a God tile beyond its 2 points: it can take a tile later."""
    sun_step: float = 0.35
    """Epochs 1-2: points per step of sun number gained for the next epoch."""
    sun_cost: float = 5.0
    """Points of opportunity lost by using one's only sun at the start of an epoch."""
    min_gain: float = 0.5
    """Least net gain worth a bid."""
    invoke_gain: float = 4.0
    """Least gain of a lot worth invoking Ra for."""
    invoke_lead: float = 0.9
    """Invoke only if the lot is worth at least this share of its worth to the best rival."""
    god_margin: float = 1.0
    """Least gain beyond the God's own points worth taking a tile with it."""


DEFAULT_WEIGHTS = Weights()
"""The hand-set weights: the greedy bot's, the easy and medium levels' and the explanations'."""

SEARCH_WEIGHTS = Weights(
    pharaoh_future=0.1224,
    nile_future=0.5789,
    flood_chance=0.5953,
    civ_chance=0.298,
    monument_potential=2.0249,
    god_option=0.4967,
    sun_step=0.4568,
    sun_cost=21.1545,
    min_gain=0.9163,
    invoke_gain=1.4488,
    invoke_lead=0.2897,
    god_margin=1.3754,
)
"""The weights of the strong searches (the hard and expert levels, the advisor): tuned by greedy
self-play against :data:`DEFAULT_WEIGHTS` (``python -m tools.tune_weights --seed 0``), they
make better rollouts and a better judgement at the rollouts' cut (docs/bots.md, Tuned weights).
The greedy policy with them wins far more than its share against the hand-set one; above all it
keeps its suns (``sun_cost``) instead of spending them on small lots."""

WEIGHT_SETS: dict[str, Weights] = {"default": DEFAULT_WEIGHTS, "tuned": SEARCH_WEIGHTS}
"""The weight sets by the names a bot spec gives them (``hard:weights=default``)."""


class Valuation:
    """Values for every player of one position.  Build one per decision (cheap), or let
    :class:`RolloutValuations` reuse one while the position's valued parts do not change."""

    def __init__(self, state: State, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.w = weights
        n = state.num_players
        self.n = n
        self.epoch = state.epoch
        self.future = 3 - state.epoch  # epochs still to come after this one
        self.progress = state.ra_count / state.ra_track_length  # 0 early .. 1 at the end
        self.remaining = 1.0 - self.progress
        # The state's flat fields through its fast accessors: this runs in every rollout.
        self.displays = [*state.displays()]
        # The most and fewest Pharaohs among each seat's rivals (R7.2).
        pharaohs = [d[T_PHARAOH] for d in self.displays]
        self._rivals_pharaohs = [_extremes(pharaohs[:i] + pharaohs[i + 1 :]) for i in range(n)]
        self.suns = [*state.sun_masks()]
        self.used = [*state.used_sun_masks()]
        self.center = state.center_sun
        self._pharaoh_weight = 1.0 + weights.pharaoh_future * self.future
        self._monument_weight = weights.monument_potential * (self.future + self.remaining) / 3.0
        self._no_civ = -5.0 * (1.0 - weights.civ_chance * self.remaining)
        self.god_worth = 2.0 + weights.god_option
        self._base: list[float | None] = [None] * n
        self._sun_costs: list[float | None] = [None] * n
        self._gains: dict[tuple[int, tuple[int, ...]], float] = {}

    # --- displays -------------------------------------------------------------

    def base(self, seat: int) -> float:
        """The value of ``seat``'s display as it is."""
        b = self._base[seat]
        if b is None:
            b = self._base[seat] = self.display_value(seat, self.displays[seat])
        return b

    def display_value(self, seat: int, d: Sequence[int]) -> float:
        """Projected points of holding display ``d`` (this epoch and beyond)."""
        w = self.w
        v = self.god_worth * d[T_GOD] + 3.0 * d[T_GOLD]
        mine = d[T_PHARAOH]
        most, fewest = self._rivals_pharaohs[seat]
        if mine > most or (mine == most and fewest < most):
            v += 5.0 * self._pharaoh_weight
        elif mine < fewest or (mine == fewest and fewest < most):
            v -= 2.0 * self._pharaoh_weight
        floods = d[T_FLOOD]
        niles = d[T_NILE]
        if floods:
            v += floods + niles
        else:
            v += niles * w.flood_chance * self.remaining
        v += niles * w.nile_future * self.future
        civ = civilization_points(d)
        # Without a Civilization there is still a chance to find one this epoch.
        v += civ if civ != -5 else self._no_civ
        kinds = 0
        potential = 0.0
        for t in T_MONUMENTS:
            c = d[t]
            if c:
                kinds += 1
                potential += _SET_POTENTIAL[c]
        v += monument_points(d) + (potential + _KINDS_POTENTIAL[kinds]) * self._monument_weight
        return v

    def after_lot(self, seat: int, tiles: Iterable[int]) -> list[int]:
        """The display of ``seat`` after taking ``tiles`` and resolving their disasters (R5)."""
        d = list(self.displays[seat])
        disasters = []
        for t in tiles:
            if t >= T_FIRST_DISASTER:
                disasters.append(t)
            else:
                d[t] += 1
        # R5.1-R5.3, with the engine's rules for the automatic losses.
        for t in sorted(disasters):
            if t == T_FUNERAL:
                d[T_PHARAOH] -= funeral_losses(d)
            elif t == T_DROUGHT:
                floods, niles = drought_losses(d)
                d[T_FLOOD] -= floods
                d[T_NILE] -= niles
            else:
                kinds = T_CIVS if t == T_UNREST else T_MONUMENTS
                for _ in range(2):
                    held = [k for k in kinds if d[k]]
                    if not held:
                        break
                    d[self.cheapest(seat, d, held)] -= 1
        return d

    def cheapest(self, seat: int, d: list[int], kinds: Sequence[int]) -> int:
        """The kind whose loss costs ``seat`` least (for disaster discards); ``d`` is restored."""
        best = kinds[0]
        best_value = -1e9
        for k in kinds:
            d[k] -= 1
            v = self.display_value(seat, d)
            d[k] += 1
            if v > best_value:
                best, best_value = k, v
        return best

    def lot_gain(self, seat: int, tiles: Iterable[int]) -> float:
        """Points ``seat`` gains by taking ``tiles`` (disasters included).

        Remembered by ``(seat, tiles)`` when ``tiles`` is a tuple: an auction asks it again
        for every bidder, and a reused valuation (:class:`RolloutValuations`) for every turn.
        """
        if type(tiles) is not tuple:
            return self.display_value(seat, self.after_lot(seat, tiles)) - self.base(seat)
        key = (seat, tiles)
        gain = self._gains.get(key)
        if gain is None:
            gain = self._gains[key] = self.display_value(seat, self.after_lot(seat, tiles)) - self.base(seat)
        return gain

    # --- suns -----------------------------------------------------------------

    def sun_gain(self, seat: int, bid: int) -> float:
        """Worth of giving sun ``bid`` for the centre sun (R4.4), beyond this epoch."""
        if self.epoch < 3:
            return self.w.sun_step * (self.center - bid)
        totals = [sun_total(self.suns[i] | self.used[i]) for i in range(self.n)]
        before = majority_points(totals, 5, -5)[seat]
        totals[seat] += self.center - bid
        return majority_points(totals, 5, -5)[seat] - before

    def sun_cost(self, seat: int) -> float:
        """Opportunity lost this epoch by spending one of ``seat``'s face-up suns."""
        cost = self._sun_costs[seat]
        if cost is None:
            k = bin(self.suns[seat]).count("1")
            cost = self._sun_costs[seat] = 0.0 if k == 0 else self.w.sun_cost * self.remaining / k
        return cost

    def bid_value(self, seat: int, tiles: Iterable[int], bid: int, lot_gain: float | None = None) -> float:
        """Net points of winning ``tiles`` with sun ``bid`` (``lot_gain`` if already known)."""
        if lot_gain is None:
            lot_gain = self.lot_gain(seat, tiles)
        return lot_gain + self.sun_gain(seat, bid) - self.sun_cost(seat)


class RolloutValuations:
    """One :class:`Valuation` reused along one game's forward play (an MCTS rollout).

    A valuation reads the displays, the suns (face up and down), the centre sun, the
    Ra track's count and the epoch; rebuilding it at every step of a rollout cost about
    a fifth of the search.  ``get(game)`` rebuilds it only when ``key`` changes: (epoch,
    centre sun, Ra count, tiles in the box).  Along forward play that key changes exactly
    when a valued part may have: a won auction moves a player's sun to the centre
    (R4.4: a sun never returns to the centre within an epoch, it is face down until the
    next one), a God-tile take or a discard puts tiles in the box (R3.5, R5: the box
    only ever grows), a Ra tile raises the count and an epoch's end changes the epoch.
    Forward play is checked, not assumed: the game must be the same object and its
    decisions must extend those of the last call (so after ``undo`` it starts afresh).
    Values are the same floats a fresh :class:`Valuation` gives.
    """

    __slots__ = ("weights", "_state", "_count", "_chain", "_key", "_val")

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.weights = weights
        self._state: State | None = None
        self._count = 0
        self._chain: object = None
        self._key: tuple[int, int, int, int] | None = None
        self._val: Valuation | None = None

    def get(self, state: State) -> Valuation:
        """The valuation of ``state`` now (reused when nothing it reads has changed)."""
        # The state's fast accessors: this runs at every step of a rollout.
        key = (state.epoch, state.center_sun, state.ra_count, sum(state.removed_counts()))
        count = state.num_decisions
        chain = state.decision_chain
        val = self._val
        fresh = val is None or key != self._key or state is not self._state or count < self._count
        if not fresh:
            node = chain
            back = count - self._count
            while back:  # back to the decision of the last call
                assert node is not None
                node = node[0]
                back -= 1
            fresh = node is not self._chain
        if fresh:
            val = self._val = Valuation(state, self.weights)
            self._key = key
            self._state = state
        self._count = count
        self._chain = chain
        assert val is not None
        return val


def _extremes(values: list[int]) -> tuple[int, int]:
    return (max(values), min(values))
