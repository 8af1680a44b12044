"""The rules engine: :class:`Game` applies decisions and runs everything automatic.

Every decision belongs to the player who must make it (``to_move``): the turn
action, each God-tile take, each bid or pass, each disaster discard that is a
real choice.  Whenever exactly one action is possible (an automatic pass,
a forced discard, a must-bid with a single sun, "done" when no God tile can be
used, "ra" when nothing else is allowed) the engine applies it itself and
logs it as ``auto`` in :attr:`Game.events`; so ``legal_actions()`` never
offers a single option.

The hot paths (``legal_actions``, ``apply``, ``clone``) avoid allocation: the
actions are shared objects, bid lists are cached by the set of suns that can
beat the current bid, and the state is a few flat lists (see :mod:`ra.state`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from ra.actions import (
    BID,
    BID_BY_SUN,
    DISCARD,
    DISCARD_BY_TILE,
    DONE,
    DONE_ACTION,
    DRAW,
    DRAW_ACTION,
    GOD,
    GOD_BY_TILE,
    INVOKE,
    INVOKE_ACTION,
    PASS,
    PASS_ACTION,
    Action,
)
from ra.errors import IllegalActionError, NotationError
from ra.scoring import ScoreBreakdown, epoch_points
from ra.setup import CENTER_SUN, STARTING_SCORE, Bag, Setup, make_setup
from ra.state import (
    ACTION,
    AUCTION_KINDS,
    AUCTION_TRACK_SIZE,
    BIDDING,
    DISCARDING,
    DRAWN,
    EPOCHS,
    FORCED,
    GODS,
    OVER,
    VOLUNTARY,
    State,
    sun_list,
)
from ra.tiles import (
    CIVILIZATIONS,
    DISCARDED_AFTER_EPOCH,
    MONUMENTS,
    NUM_KINDS,
    Tile,
)

if TYPE_CHECKING:
    from ra.views import PlayerView

_RA: Final = int(Tile.RA)
_GOD: Final = int(Tile.GOD)
_PHARAOH: Final = int(Tile.PHARAOH)
_NILE: Final = int(Tile.NILE)
_FLOOD: Final = int(Tile.FLOOD)
_FUNERAL: Final = int(Tile.FUNERAL)
_DROUGHT: Final = int(Tile.DROUGHT)
_UNREST: Final = int(Tile.UNREST)
_EARTHQUAKE: Final = int(Tile.EARTHQUAKE)
_FIRST_DISASTER: Final = _FUNERAL  # disasters are the highest tile values
_CIVS: Final = tuple(int(t) for t in CIVILIZATIONS)
_MONUMENTS: Final = tuple(int(t) for t in MONUMENTS)
_EPOCH_DISCARDS: Final = tuple(int(t) for t in DISCARDED_AFTER_EPOCH)

# What to do once a disaster's discards are settled.
_AFTER_AUCTION: Final = 0
_AFTER_GOD: Final = 1

# Cached bid lists, keyed by the bitmask of the bidder's suns above the current bid.
_BIDS_AND_PASS: dict[int, tuple[Action, ...]] = {}
_BIDS_ONLY: dict[int, tuple[Action, ...]] = {}


def _bid_actions(mask: int, with_pass: bool) -> tuple[Action, ...]:
    bids = tuple(BID_BY_SUN[s] for s in sun_list(mask))
    out = (*bids, PASS_ACTION) if with_pass else bids
    (_BIDS_AND_PASS if with_pass else _BIDS_ONLY)[mask] = out
    return out


def _sum_suns(mask: int) -> int:
    return sum(sun_list(mask))


def _legal_actions(self: State) -> list[Action]:
    """Every action the player to move may take now (empty once the game is over)."""
    phase = self._phase
    if phase == BIDDING:
        high = self._high
        mask = self._suns[self._to_move] >> (high + 1) << (high + 1)
        if self._must_bid:
            return list(_BIDS_ONLY.get(mask) or _bid_actions(mask, False))
        return list(_BIDS_AND_PASS.get(mask) or _bid_actions(mask, True))
    if phase == ACTION:
        track = self._track
        if len(track) < AUCTION_TRACK_SIZE and self._drawn < self._bag_size:
            out = [DRAW_ACTION, INVOKE_ACTION]
        else:
            out = [INVOKE_ACTION]
        if self._displays[self._to_move][_GOD]:
            out += _god_takes(self._track)
        return out
    if phase == GODS:
        out = _god_takes(self._track)
        out.append(DONE_ACTION)
        return out
    if phase == DISCARDING:
        d = self._displays[self._to_move]
        kinds = _CIVS if self._unrest_left else _MONUMENTS
        return [DISCARD_BY_TILE[t] for t in kinds if d[t]]
    return []


def _god_takes(track: list[int]) -> list[Action]:
    # R3.5: one God tile takes any non-God tile of the auction track.
    return [GOD_BY_TILE[t] for t in sorted(set(track)) if t != _GOD]


class Game(State):
    """A game of Ra.

    >>> game = Game(players=3, seed=7)
    >>> game.apply("draw")
    >>> game.legal_actions()  # doctest: +SKIP

    ``players`` is a count (2-5) or a list of names.  ``variant="long-2p"`` with
    ``suns_per_player`` 4-7 is the long two-player game (R2.3).  ``bag`` stacks
    the first tiles drawn and ``suns`` chooses each seat's sun group, for
    scenarios and tests (``exact_bag=True`` makes ``bag`` the whole bag, e.g. to
    empty it, R6.5).  ``hidden_scores`` is the optional rule of R9.1.
    A ``seed`` fixes the sun deal and the bag order (R9.2); without one a random
    seed is chosen (and kept in :attr:`setup`, so records replay).
    """

    __slots__ = ()

    def __init__(
        self,
        players: int | Sequence[str] = 3,
        *,
        seed: int | None = None,
        variant: str = "standard",
        suns_per_player: int | None = None,
        bag: Iterable[str | Tile] | None = None,
        suns: Sequence[Sequence[int]] | None = None,
        hidden_scores: bool = False,
        exact_bag: bool = False,
    ) -> None:
        setup = make_setup(
            players,
            seed=seed,
            variant=variant,
            suns_per_player=suns_per_player,
            bag=bag,
            suns=suns,
            hidden_scores=hidden_scores,
            exact_bag=exact_bag,
        )
        self._start(setup, Bag.for_setup(setup))

    @classmethod
    def from_setup(cls, setup: Setup) -> Game:
        """A new game from a :class:`Setup` (as kept by :attr:`setup`)."""
        game = cls.__new__(cls)
        game._start(setup, Bag.for_setup(setup))
        return game

    def _start(self, setup: Setup, bag: Bag) -> None:
        n = setup.num_players
        self._setup = setup
        self._bag = bag
        self._n = n
        self._ra_end = setup.ra_track_length
        self._displays = [[0] * NUM_KINDS for _ in range(n)]
        suns = []
        for group in setup.suns:
            m = 0
            for s in group:
                m |= 1 << s
            suns.append(m)
        self._suns = suns
        self._used = [0] * n
        self._scores = [STARTING_SCORE] * n
        self._center = CENTER_SUN
        self._ra = 0
        self._track = []
        self._drawn = 0
        self._unseen = list(setup.contents)
        self._bag_size = setup.bag_size
        self._box = [0] * NUM_KINDS
        self._epoch = 1
        self._phase = ACTION
        self._to_move = 0
        self._ra_player = -1
        self._auction_kind = DRAWN
        self._high = 0
        self._high_bidder = -1
        self._must_bid = False
        self._unrest_left = 0
        self._quake_left = 0
        self._after_discard = _AFTER_AUCTION
        self._log = None
        self._decisions = None
        self._num_decisions = 0
        self._begin_epoch()

    # --- cloning ---------------------------------------------------------------

    def clone(self) -> Game:
        """An independent copy (sharing only the immutable history and the seeded bag)."""
        new = self.__class__.__new__(self.__class__)
        self._copy_to(new)
        return new

    __copy__ = clone

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self._setup == other._setup and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    # --- legal actions ---------------------------------------------------------

    legal_actions = _legal_actions

    @property
    def last_draw(self) -> int | None:
        """The :class:`Tile` value of the last tile drawn from the bag (``None`` before any)."""
        if not self._drawn:
            return None
        assert self._bag is not None
        return self._bag.order[self._drawn - 1]

    def is_legal(self, action: Action | str) -> bool:
        """Whether ``action`` may be applied now."""
        try:
            action = _coerce(action)
        except NotationError:
            return False
        return self._why_illegal(action) is None

    # --- applying decisions ----------------------------------------------------

    def apply(self, action: Action | str) -> None:
        """Apply the decision of the player to move, then everything automatic that follows.

        ``action`` is an :class:`Action` or its notation (``"bid 9"``).  An illegal
        action raises :class:`IllegalActionError` (citing the rule) and changes
        nothing; bad notation raises :class:`NotationError`.
        """
        if type(action) is not Action:
            action = _coerce(action)
        code = action.code
        phase = self._phase
        p = self._to_move
        # Validate first (cheap checks, no mutation), then act.
        if phase == BIDDING:
            if code == BID:
                sun = action.arg
                if not (self._suns[p] >> sun) & 1 or sun <= self._high:
                    raise IllegalActionError(self._why_illegal(action) or "illegal bid")
                self._push(action)
                self._high = sun
                self._high_bidder = p
                self._log = (self._log, ("bid", p, None, sun, (), False, None))
                if p == self._ra_player:
                    self._resolve_auction()
                else:
                    self._next_bidder(p)
                return
            if code == PASS and not self._must_bid:
                self._push(action)
                self._log = (self._log, ("pass", p, None, None, (), False, None))
                if p == self._ra_player:
                    self._resolve_auction()
                else:
                    self._next_bidder(p)
                return
        elif phase == ACTION:
            if code == DRAW:
                if len(self._track) >= AUCTION_TRACK_SIZE or self._drawn >= self._bag_size:
                    raise IllegalActionError(self._why_illegal(action) or "cannot draw")
                self._push(action)
                self._draw(p)
                return
            if code == INVOKE:
                self._push(action)
                self._invoke(p, False)
                return
            if code == GOD:
                self._check_god(action)
                self._push(action)
                self._god_take(p, action.arg)
                return
        elif phase == GODS:
            if code == GOD:
                self._check_god(action)
                self._push(action)
                self._god_take(p, action.arg)
                return
            if code == DONE:
                self._push(action)
                self._log = (self._log, ("done", p, None, None, (), False, None))
                self._begin_turn((p + 1) % self._n)
                return
        elif phase == DISCARDING:
            if code == DISCARD:
                t = action.arg
                d = self._displays[p]
                kinds = _CIVS if self._unrest_left else _MONUMENTS
                if t not in kinds or not d[t]:
                    raise IllegalActionError(self._why_illegal(action) or "illegal discard")
                self._push(action)
                d[t] -= 1
                self._box[t] += 1
                self._log = (self._log, ("discard", p, t, None, (), False, None))
                if self._unrest_left:
                    self._unrest_left -= 1
                else:
                    self._quake_left -= 1
                if not self._settle_discards(p):
                    self._after_disasters(p)
                return
        raise IllegalActionError(self._why_illegal(action) or f"{action} is not possible now")

    push = apply  # python-chess style alias

    def _push(self, action: Action) -> None:
        self._decisions = (self._decisions, action)
        self._num_decisions += 1

    def _check_god(self, action: Action) -> None:
        if not self._displays[self._to_move][_GOD] or action.arg not in self._track:
            raise IllegalActionError(self._why_illegal(action) or "illegal God take")

    # --- why an action is illegal (only on the error path) ---------------------

    def _name(self, seat: int) -> str:
        return self._setup.names[seat]

    def _why_illegal(self, action: Action) -> str | None:
        """A sentence citing the rule that forbids ``action`` now, or ``None`` if it is legal."""
        phase = self._phase
        code = action.code
        if phase == OVER:
            return f"the game is over (R8.1): no more decisions, {action} included"
        p = self._to_move
        who = self._name(p)
        if phase == ACTION:
            if code == DRAW:
                if len(self._track) >= AUCTION_TRACK_SIZE:
                    return "draw is not allowed: the auction track is full (8 tiles) (R3.2)"
                if self._drawn >= self._bag_size:
                    return "draw is not allowed: the bag is empty (R3.2, R6.5)"
                return None
            if code == INVOKE:
                return None
            if code == GOD:
                return self._why_not_god(action)
            return (
                f"{action} is not possible now: {who} must take a turn action (draw, ra or god <tile>) (R3.2)"
            )
        if phase == GODS:
            if code == GOD:
                return self._why_not_god(action)
            if code == DONE:
                return None
            return f"{action} is not possible now: {who} is using God tiles (god <tile> or done) (R3.5)"
        if phase == BIDDING:
            if code == BID:
                sun = action.arg
                if not (self._suns[p] >> sun) & 1:
                    if (self._used[p] >> sun) & 1:
                        return f"sun {sun} of {who} is face down until the next epoch (R4.4)"
                    return f"{who} has no face-up sun {sun} (R4.2)"
                if sun <= self._high:
                    return f"bid {sun} is not higher than the current bid {self._high} (R4.2)"
                return None
            if code == PASS:
                if self._must_bid:
                    return f"{who} invoked Ra and every other player passed: {who} must bid (R4.3)"
                return None
            return f"{action} is not possible now: it is {who}'s turn to bid or pass (R4.1)"
        if phase == DISCARDING:
            kinds = _CIVS if self._unrest_left else _MONUMENTS
            what = "civilization tile (Unrest)" if self._unrest_left else "monument (Earthquake)"
            if code == DISCARD:
                t = action.arg
                if t not in kinds:
                    return f"{who} must discard a {what}, not {action.tile} (R5.2)"
                if not self._displays[p][t]:
                    return f"{who} holds no {action.tile} to discard (R5.2)"
                return None
            return f"{action} is not possible now: {who} must discard a {what} (R5.2, R5.4)"
        return f"{action} is not possible now"

    def _why_not_god(self, action: Action) -> str | None:
        who = self._name(self._to_move)
        if not self._displays[self._to_move][_GOD]:
            return f"{who} holds no God tile (R3.2)"
        if action.arg not in self._track:
            return f"there is no {action.tile} on the auction track (R3.5)"
        return None

    # --- the flow of play ------------------------------------------------------

    def _begin_epoch(self) -> None:
        # R6.4 / R2.4: the player holding the highest sun starts the epoch.
        suns = self._suns
        first = max(range(self._n), key=lambda i: suns[i].bit_length())
        self._log = (self._log, ("epoch", first, None, None, (), False, self._epoch))
        self._begin_turn(first)

    def _begin_turn(self, p: int) -> None:
        # R3.1: skip players without a face-up sun.  The caller guarantees one exists.
        suns = self._suns
        n = self._n
        while not suns[p]:
            p = (p + 1) % n
        self._to_move = p
        track = self._track
        if len(track) < AUCTION_TRACK_SIZE and self._drawn < self._bag_size:
            self._phase = ACTION
            return
        if self._displays[p][_GOD]:
            for t in track:
                if t != _GOD:
                    self._phase = ACTION
                    return
        # Invoking Ra is the only legal action (R3.2): the engine takes it.
        self._invoke(p, True)

    def _draw(self, p: int) -> None:
        # R3.3
        k = self._drawn
        bag = self._bag
        assert bag is not None, "a view has no bag"
        order = bag.order
        t = order[k] if k < len(order) else bag.tile(k)
        self._drawn = k + 1
        self._unseen[t] -= 1
        if t == _RA:
            self._ra += 1
            self._log = (self._log, ("draw", p, t, None, (), False, self._ra))
            if self._ra >= self._ra_end:
                self._end_epoch("ra_track")  # R6.1(a): no auction
            else:
                self._start_auction(p, DRAWN)
        else:
            self._track.append(t)
            self._log = (self._log, ("draw", p, t, None, (), False, None))
            self._begin_turn((p + 1) % self._n)

    def _invoke(self, p: int, auto: bool) -> None:
        # R3.4
        self._log = (self._log, ("invoke", p, None, None, (), auto, None))
        self._start_auction(p, FORCED if len(self._track) >= AUCTION_TRACK_SIZE else VOLUNTARY)

    def _start_auction(self, ra_player: int, kind: int) -> None:
        self._ra_player = ra_player
        self._auction_kind = kind
        self._high = 0
        self._high_bidder = -1
        self._log = (self._log, ("auction", ra_player, None, None, (), False, AUCTION_KINDS[kind]))
        self._next_bidder(ra_player)

    def _next_bidder(self, prev: int) -> None:
        # R4.1: once around the table from the Ra player's left, ending with the Ra player.
        n = self._n
        rp = self._ra_player
        suns = self._suns
        b = prev
        while True:
            b = (b + 1) % n
            high = self._high
            above = suns[b] >> (high + 1)
            if not above:
                # R4.2: no face-up sun, or none higher than the bid: automatic pass.
                reason = f"no sun higher than {high}" if suns[b] else "no face-up sun"
                self._log = (self._log, ("pass", b, None, None, (), True, reason))
                if b == rp:
                    self._resolve_auction()
                    return
                continue
            must = self._auction_kind == VOLUNTARY and b == rp and self._high_bidder < 0
            if must and not above & (above - 1):
                # R4.3 with a single sun: the bid is forced.
                sun = high + above.bit_length()
                self._high = sun
                self._high_bidder = b
                self._log = (self._log, ("bid", b, None, sun, (), True, None))
                self._resolve_auction()
                return
            self._phase = BIDDING
            self._to_move = b
            self._must_bid = must
            return

    def _resolve_auction(self) -> None:
        rp = self._ra_player
        w = self._high_bidder
        self._must_bid = False
        if w >= 0:
            # R4.4
            sun = self._high
            won = self._track
            self._track = []
            d = self._displays[w]
            disasters = None
            for t in won:
                if t >= _FIRST_DISASTER:
                    if disasters is None:
                        disasters = [t]
                    else:
                        disasters.append(t)
                else:
                    d[t] += 1
            center = self._center
            self._suns[w] &= ~(1 << sun)
            self._used[w] |= 1 << center
            self._center = sun
            self._log = (self._log, ("win", w, None, sun, tuple(won), False, center))
            if disasters is not None:
                if self._resolve_disasters(w, disasters, _AFTER_AUCTION):
                    return
        # R4.5
        elif self._auction_kind == FORCED:
            box = self._box
            for t in self._track:
                box[t] += 1
            self._log = (self._log, ("no_bid", rp, None, None, tuple(self._track), False, "removed"))
            self._track = []
        else:
            self._log = (self._log, ("no_bid", rp, None, None, tuple(self._track), False, "kept"))
        self._after_auction()

    def _after_auction(self) -> None:
        # R4.6
        for m in self._suns:
            if m:
                self._begin_turn((self._ra_player + 1) % self._n)
                return
        self._end_epoch("no_suns")

    def _god_take(self, p: int, t: int) -> None:
        # R3.5
        d = self._displays[p]
        d[_GOD] -= 1
        self._box[_GOD] += 1
        self._track.remove(t)
        self._log = (self._log, ("god", p, t, None, (), False, None))
        if t >= _FIRST_DISASTER:
            if self._resolve_disasters(p, [t], _AFTER_GOD):
                return
        else:
            d[t] += 1
        self._after_god(p)

    def _after_god(self, p: int) -> None:
        if self._displays[p][_GOD]:
            for t in self._track:
                if t != _GOD:
                    self._phase = GODS
                    self._to_move = p
                    return
        self._log = (self._log, ("done", p, None, None, (), True, None))
        self._begin_turn((p + 1) % self._n)

    def _after_disasters(self, p: int) -> None:
        if self._after_discard == _AFTER_GOD:
            self._after_god(p)
        else:
            self._after_auction()

    # --- disasters (R5) --------------------------------------------------------

    def _resolve_disasters(self, p: int, disasters: list[int], after: int) -> bool:
        """Resolve the disasters ``p`` just took; True if a discard choice now awaits ``p``."""
        d = self._displays[p]
        box = self._box
        log = self._log
        unrest = quake = 0
        # R5.1 / R5.3: one at a time, each destroying up to two tiles.  The automatic
        # ones first; Unrest and Earthquake may leave a choice (R5.4), settled after.
        for t in sorted(disasters):
            box[t] += 1
            if t == _FUNERAL:
                lose = min(2, d[_PHARAOH])
                log = (log, ("disaster", p, t, None, (), True, lose))
                for _ in range(lose):
                    log = (log, ("discard", p, _PHARAOH, None, (), True, None))
                d[_PHARAOH] -= lose
                box[_PHARAOH] += lose
            elif t == _DROUGHT:
                floods = min(2, d[_FLOOD])
                niles = min(2 - floods, d[_NILE])
                log = (log, ("disaster", p, t, None, (), True, floods + niles))
                for _ in range(floods):
                    log = (log, ("discard", p, _FLOOD, None, (), True, None))
                for _ in range(niles):
                    log = (log, ("discard", p, _NILE, None, (), True, None))
                d[_FLOOD] -= floods
                d[_NILE] -= niles
                box[_FLOOD] += floods
                box[_NILE] += niles
            else:
                kinds = _CIVS if t == _UNREST else _MONUMENTS
                held = sum(d[k] for k in kinds) - (unrest if t == _UNREST else quake)
                lose = min(2, held)
                log = (log, ("disaster", p, t, None, (), True, lose))
                if t == _UNREST:
                    unrest += lose
                else:
                    quake += lose
        self._log = log
        self._unrest_left = unrest
        self._quake_left = quake
        self._after_discard = after
        return self._settle_discards(p)

    def _settle_discards(self, p: int) -> bool:
        """Apply forced discards (R5.4); True if ``p`` must now choose one."""
        d = self._displays[p]
        while self._unrest_left or self._quake_left:
            if self._unrest_left:
                kinds = _CIVS
                left = self._unrest_left
            else:
                kinds = _MONUMENTS
                left = self._quake_left
            held = [k for k in kinds if d[k]]
            total = sum(d[k] for k in held)
            if total > left and len(held) > 1:
                self._phase = DISCARDING
                self._to_move = p
                return True
            # No real choice: one kind only, or everything goes.
            for k in held:
                lose = min(left, d[k])
                d[k] -= lose
                self._box[k] += lose
                left -= lose
                for _ in range(lose):
                    self._log = (self._log, ("discard", p, k, None, (), True, None))
            if self._unrest_left:
                self._unrest_left = 0
            else:
                self._quake_left = 0
        return False

    # --- end of an epoch (R6, R7) ------------------------------------------------

    def _end_epoch(self, reason: str) -> None:
        n = self._n
        box = self._box
        # R6.2
        box[_RA] += self._ra
        removed = tuple(self._track)
        for t in removed:
            box[t] += 1
        self._track = []
        self._ra = 0
        self._log = (self._log, ("epoch_end", None, None, None, removed, False, (self._epoch, reason)))
        # R6.3 / R7
        final = self._epoch == EPOCHS
        displays = self._displays
        totals = [_sum_suns(self._suns[i] | self._used[i]) for i in range(n)] if final else None
        points = epoch_points(displays, totals)
        for i in range(n):
            before = self._scores[i]
            after = max(0, before + sum(points[i]))  # R7.1
            self._scores[i] = after
            breakdown = ScoreBreakdown(self._epoch, i, *points[i], before=before, after=after)
            self._log = (self._log, ("score", i, None, None, (), False, breakdown))
        for d in displays:
            for t in _EPOCH_DISCARDS:
                if d[t]:
                    box[t] += d[t]
                    d[t] = 0
        # R6.4
        for i in range(n):
            self._suns[i] |= self._used[i]
            self._used[i] = 0
        if final:
            self._phase = OVER
            self._to_move = -1
            winner = self.winner
            assert winner is not None
            scores = self._scores
            tie = scores.count(scores[winner]) > 1
            self._log = (self._log, ("game_over", winner, None, None, (), False, tie))
            return
        self._epoch += 1
        self._begin_epoch()

    # --- undo, views, records ----------------------------------------------------

    def undo(self) -> Action:
        """Take back the last decision (and what the engine did after it); return it.

        The position is rebuilt by replaying the earlier decisions from the setup,
        so undo costs a replay rather than a snapshot on every apply.
        """
        if self._num_decisions == 0:
            raise IndexError("no decision to undo")
        decisions = self.decisions
        last = decisions.pop()
        assert self._bag is not None
        game = Game.__new__(Game)
        game._start(self._setup, self._bag)
        for a in decisions:
            game.apply(a)
        game._copy_to(self)
        return last

    pop = undo  # python-chess style alias

    def replay(self, decisions: Iterable[Action | str]) -> None:
        """Apply several decisions in order."""
        for a in decisions:
            self.apply(a)

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see (R9): everything but the bag order, and under
        hidden scores (R9.1) no other player's score until the game ends."""
        from ra.views import PlayerView

        return PlayerView(self, seat)

    def to_record(self) -> dict[str, Any]:
        """A JSON-able record: setup and decisions (see :mod:`ra.records`)."""
        from ra.records import game_to_record

        return game_to_record(self)

    @classmethod
    def from_record(cls, record: Mapping[str, Any] | str) -> Game:
        """Replay a record made by :meth:`to_record` (a dict or its JSON text).

        Raises :class:`ra.RecordError`; for an illegal decision its ``index`` is
        the decision's 1-based number.
        """
        from ra.records import game_from_record

        return game_from_record(record)

    # --- invariants (for tests and debugging) ------------------------------------

    def tile_census(self) -> list[int]:
        """Counts by tile kind over bag + tracks + displays + removed tiles.

        Always equals ``setup.contents`` (the 180 tiles of R1.1); the bag part is
        read from the bag's actual order, independently of the engine's running counts.
        """
        bag = self._bag
        assert bag is not None
        census = [0] * NUM_KINDS
        for k in range(self._drawn, self._bag_size):
            census[bag.tile(k)] += 1
        census[_RA] += self._ra
        for t in self._track:
            census[t] += 1
        for d in self._displays:
            for t in range(NUM_KINDS):
                census[t] += d[t]
        for t in range(NUM_KINDS):
            census[t] += self._box[t]
        return census


def _coerce(action: Action | str) -> Action:
    if type(action) is Action:
        return action
    if isinstance(action, str):
        return Action.parse(action)
    raise NotationError(f"expected an Action or its notation, got {type(action).__name__}")
