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
``apply`` validates with the legality predicates of :class:`ra.state.State`
(one definition for ``legal_actions``, ``is_legal``, ``why_illegal`` and
``apply``), then acts; it is all-or-nothing.  ``undo`` restores the nearest
checkpoint (one every :data:`MARK_EVERY` decisions) and replays the rest.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from ra.actions import (
    BID,
    DISCARD,
    DONE,
    DRAW,
    GOD,
    INVOKE,
    PASS,
    Action,
)
from ra.errors import NothingToUndoError, RaError, RecordError
from ra.events import auction as e_auction
from ra.events import auto_pass as e_auto_pass
from ra.events import bid as e_bid
from ra.events import disaster as e_disaster
from ra.events import discard as e_discard
from ra.events import done as e_done
from ra.events import draw as e_draw
from ra.events import epoch_ended as e_epoch_ended
from ra.events import epoch_started as e_epoch_started
from ra.events import game_over as e_game_over
from ra.events import god as e_god
from ra.events import invoke as e_invoke
from ra.events import no_bid as e_no_bid
from ra.events import passed as e_passed
from ra.events import score as e_score
from ra.events import won as e_won
from ra.record_format import build_record, check_result, parse_record, result_fields
from ra.scoring import drought_losses, epoch_points, funeral_losses
from ra.setup import AUCTION_TRACK_SIZE, EPOCHS, STARTING_SCORE, Bag, Setup, make_setup
from ra.state import (
    ABOVE,
    DRAWN,
    FORCED,
    PHASE_ACTION,
    PHASE_ACTION_NO_DRAW,
    PHASE_BID,
    PHASE_DISCARD,
    PHASE_GOD,
    PHASE_OVER,
    VOLUNTARY,
    State,
    sun_total,
)
from ra.tiles import (
    CENTER_SUN,
    NUM_KINDS,
    T_CIVS,
    T_DROUGHT,
    T_EPOCH_DISCARDS,
    T_FIRST_DISASTER,
    T_FLOOD,
    T_FUNERAL,
    T_GOD,
    T_MONUMENTS,
    T_NILE,
    T_PHARAOH,
    T_RA,
    T_UNREST,
    TILE_IDS,
    TILES,
    Tile,
)
from ra.views import PlayerView

# What to do once a disaster's discards are settled.
_AFTER_AUCTION: Final = 0
_AFTER_GOD: Final = 1
_AFTER_GOD_TURN: Final = 2
"""R3.5, "2008 disaster timing": the disasters taken this turn are being resolved after it."""

MARK_EVERY: Final = 32
"""Undo checkpoints: a snapshot of the position every this many decisions (a power of two)."""
_MARK_MASK: Final = MARK_EVERY - 1


class Game(State):
    """A game of Ra.

    >>> game = Game(players=3, seed=7)
    >>> game.apply("draw")
    >>> game.num_decisions
    1

    ``players`` is a count (2-5) or a list of names.  ``variant="long-2p"`` with
    ``suns_per_player`` 4-7 is the long two-player game (R2.3).  ``bag`` stacks
    the first tiles drawn and ``suns`` chooses each seat's sun group, for
    scenarios and tests (``exact_bag=True`` makes ``bag`` the whole bag, e.g. to
    empty it, R6.5).  ``hidden_scores`` is the optional rule of R9.1.
    ``disaster_timing="2008"`` is the variant "2008 disaster timing" of R3.5: the
    Disasters taken with God tiles are resolved once the player stops using them
    (the default ``"immediate"`` resolves each at once).
    ``events=False`` keeps no event log (faster, for search and training games;
    see :meth:`stop_events`).
    A ``seed`` (0 to 2**64 - 1) fixes the sun deal and the bag order (R9.2);
    without one a random seed is chosen (and kept in :attr:`setup`, so records
    replay).  Bad arguments raise ``ValueError`` naming what is wrong.
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
        events: bool = True,
        disaster_timing: str = "immediate",
    ) -> None:
        if not isinstance(events, bool):
            raise ValueError(f"events must be True or False, got {str(events)[:20]!r}")
        setup = make_setup(
            players,
            seed=seed,
            variant=variant,
            suns_per_player=suns_per_player,
            bag=bag,
            suns=suns,
            hidden_scores=hidden_scores,
            exact_bag=exact_bag,
            disaster_timing=disaster_timing,
        )
        self._start(setup, Bag.for_setup(setup), events)

    @classmethod
    def from_setup(cls, setup: Setup) -> Game:
        """A new game from a :class:`Setup` (as kept by :attr:`setup`).

        A hand-made ``Setup`` is checked like the arguments of ``Game(...)``
        (``ValueError`` naming what is wrong, e.g. a bag above R1.1's counts).
        """
        if not isinstance(setup, Setup):
            raise ValueError(f"expected a Setup, got {type(setup).__name__}")
        try:
            checked = make_setup(
                list(setup.names),
                seed=setup.seed,
                variant=setup.variant,
                suns_per_player=setup.suns_per_player,
                bag=[TILES[t] for t in setup.bag],
                suns=[list(g) for g in setup.suns],
                hidden_scores=setup.hidden_scores,
                bag_counts=setup.bag_counts,
                disaster_timing=setup.disaster_timing,
            )
        except (TypeError, IndexError) as err:
            raise ValueError(f"not a valid Setup: {err}") from None
        if checked != setup:
            raise ValueError(f"not a valid Setup (its fields disagree): {setup!r}")
        game = cls.__new__(cls)
        game._start(setup, Bag.for_setup(setup))
        return game

    def _start(self, setup: Setup, bag: Bag, events: bool = True) -> None:
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
        self._phase = PHASE_ACTION
        self._to_move = 0
        self._ra_player = -1
        self._auction_kind = DRAWN
        self._high = 0
        self._high_bidder = -1
        self._must_bid = False
        self._unrest_left = 0
        self._quake_left = 0
        self._after_discard = _AFTER_AUCTION
        self._pending = ()
        self._log = None
        self._logging = events
        self._decisions = None
        self._num_decisions = 0
        self._breakdowns = ()
        self._marks = None
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

    @property
    def last_draw(self) -> Tile | None:
        """The last tile drawn from the bag (``None`` before any draw)."""
        if not self._drawn:
            return None
        assert self._bag is not None
        return TILES[self._bag.order[self._drawn - 1]]

    def stop_events(self) -> None:
        """Keep no event log from now on, and forget the one kept so far.

        For games nobody reads the log of (search, rollouts, training): applying a
        decision then skips building its events.  Everything else is unchanged (the
        decisions, records, undo, scores); reading :attr:`events` raises
        :class:`ra.EventLogOffError`.  Clones, views and determinized games of such a
        game keep no log either.  ``Game(..., events=False)`` starts a game this way.
        """
        self._logging = False
        self._log = None
        self._log_cache = None

    # --- applying decisions ----------------------------------------------------

    def apply(self, action: Action | str) -> None:
        """Apply the decision of the player to move, then everything automatic that follows.

        ``action`` is an :class:`Action` or its notation (``"bid 9"``).  An illegal
        action raises :class:`IllegalActionError` (citing the rule, see
        :meth:`why_illegal`) and changes nothing; bad notation raises
        :class:`NotationError`.  The call is all-or-nothing: should anything fail
        half-way, the position is restored before the error propagates.
        """
        if type(action) is not Action:
            action = Action.coerce(action)
        code = action.code
        phase = self._phase
        p = self._to_move
        prev = self._decisions
        count = self._num_decisions
        # Validate with the predicates of ra.state (no change yet) ...
        if phase == PHASE_BID:
            if code == BID:
                ok = (self._suns[p] & ABOVE[self._high]) >> action.arg & 1  # _bid_mask, inlined
            else:
                ok = code == PASS and not self._must_bid
        elif phase == PHASE_ACTION:  # R3.2: _can_draw() held when the turn began
            if code == GOD:
                ok = self._can_take(p, action.arg)
            else:
                ok = code in (DRAW, INVOKE)
        elif phase == PHASE_ACTION_NO_DRAW:
            if code == GOD:
                ok = self._can_take(p, action.arg)
            else:
                ok = code == INVOKE
        elif phase == PHASE_GOD:
            ok = code == DONE or (code == GOD and self._can_take(p, action.arg))
        elif phase == PHASE_DISCARD:
            ok = code == DISCARD and action.arg in self._discard_kinds() and self._displays[p][action.arg]
        else:
            ok = False
        if not ok:
            raise self._illegal(action)
        # ... record the decision (with an undo checkpoint every MARK_EVERY) ...
        if not count & _MARK_MASK and count:
            self._marks = (self._marks, count, self.clone())
        self._decisions = (prev, action)
        self._num_decisions = count + 1
        # ... then act: all or nothing.
        try:
            if code == BID:
                sun = action.arg
                self._high = sun
                self._high_bidder = p
                if self._logging:
                    self._log = (self._log, (e_bid, p, sun))
                if p == self._ra_player:
                    self._resolve_auction()
                else:
                    self._next_bidder(p)
            elif code == PASS:
                if self._logging:
                    self._log = (self._log, (e_passed, p))
                if p == self._ra_player:
                    self._resolve_auction()
                else:
                    self._next_bidder(p)
            elif code == DRAW:
                self._draw(p)
            elif code == INVOKE:
                self._invoke(p, False)
            elif code == GOD:
                self._god_take(p, action.arg)
            elif code == DONE:
                if self._logging:
                    self._log = (self._log, (e_done, p))
                self._end_god_turn(p)
            else:
                t = action.arg
                self._displays[p][t] -= 1
                self._box[t] += 1
                if self._logging:
                    self._log = (self._log, (e_discard, p, t, False))
                if self._unrest_left:
                    self._unrest_left -= 1
                else:
                    self._quake_left -= 1
                if not self._settle_discards(p):
                    self._after_disasters(p)
        except BaseException:
            self._rewind(prev, count)
            raise

    push = apply
    """python-chess style alias of :meth:`apply` (undo is cheap: see :meth:`undo`)."""

    # --- the flow of play ------------------------------------------------------

    def _begin_epoch(self) -> None:
        # R6.4 / R2.4: the player holding the highest sun starts the epoch.
        suns = self._suns
        first = max(range(self._n), key=lambda i: suns[i].bit_length())
        if self._logging:
            self._log = (self._log, (e_epoch_started, self._epoch, first))
        self._begin_turn(first)

    def _begin_turn(self, p: int) -> None:
        # R3.1: skip players without a face-up sun.  The caller guarantees one exists.
        suns = self._suns
        n = self._n
        while not suns[p]:
            p = (p + 1) % n
        self._to_move = p
        if self._can_draw():
            self._phase = PHASE_ACTION
            return
        if self._can_use_god(p):
            self._phase = PHASE_ACTION_NO_DRAW
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
        if t == T_RA:
            self._ra += 1
            if self._logging:
                self._log = (self._log, (e_draw, p, t, self._ra))
            if self._ra >= self._ra_end:
                self._end_epoch("ra_track")  # R6.1(a): no auction
            else:
                self._start_auction(p, DRAWN)
        else:
            self._track.append(t)
            if self._logging:
                self._log = (self._log, (e_draw, p, t))
            self._begin_turn((p + 1) % self._n)

    def _invoke(self, p: int, auto: bool) -> None:
        # R3.4
        if self._logging:
            self._log = (self._log, (e_invoke, p, auto))
        self._start_auction(p, FORCED if len(self._track) >= AUCTION_TRACK_SIZE else VOLUNTARY)

    def _start_auction(self, ra_player: int, kind: int) -> None:
        self._ra_player = ra_player
        self._auction_kind = kind
        self._high = 0
        self._high_bidder = -1
        if self._logging:
            self._log = (self._log, (e_auction, ra_player, kind))
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
                if self._logging:
                    self._log = (self._log, (e_auto_pass, b, high, suns[b] != 0))
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
                if self._logging:
                    self._log = (self._log, (e_bid, b, sun, True))
                self._resolve_auction()
                return
            self._phase = PHASE_BID
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
                if t >= T_FIRST_DISASTER:
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
            if self._logging:
                self._log = (self._log, (e_won, w, sun, won, center))
            if disasters is not None:
                if self._resolve_disasters(w, disasters, _AFTER_AUCTION):
                    return
        # R4.5
        elif self._auction_kind == FORCED:
            box = self._box
            for t in self._track:
                box[t] += 1
            if self._logging:
                self._log = (self._log, (e_no_bid, rp, self._track, True))
            self._track = []
        elif self._logging:
            self._log = (self._log, (e_no_bid, rp, tuple(self._track), False))
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
        d[T_GOD] -= 1
        self._box[T_GOD] += 1
        self._track.remove(t)
        if self._logging:
            self._log = (self._log, (e_god, p, t))
        if t >= T_FIRST_DISASTER:
            if self._setup.disaster_timing == "2008":
                # R3.5, "2008 disaster timing": the Disaster waits with the tiles taken this
                # turn (pending_disasters) and is resolved when the turn's takes are over.
                self._pending = (*self._pending, t)
            elif self._resolve_disasters(p, [t], _AFTER_GOD):
                return
        else:
            d[t] += 1
        self._after_god(p)

    def _after_god(self, p: int) -> None:
        if self._can_use_god(p):
            self._phase = PHASE_GOD
            self._to_move = p
            return
        if self._logging:
            self._log = (self._log, (e_done, p, True))
        self._end_god_turn(p)

    def _end_god_turn(self, p: int) -> None:
        """The player stopped using God tiles ("done", or no God tile / non-God tile left)."""
        if self._pending and self._resolve_taken(p):
            return
        self._begin_turn((p + 1) % self._n)

    def _resolve_taken(self, p: int) -> bool:
        """R3.5 / R5.3, "2008 disaster timing": resolve the Disasters taken with God tiles this
        turn (every tile taken is in the display by now), in the order taken; True if a discard
        choice now awaits ``p`` (the rest follow once it is settled).

        Our rulings where R3.5 is silent, after the 2008 rulebook ("a player may take a disaster
        tile with a God tile.  In this case, follow the rules above [those of an auction] after
        placing all acquired tiles in the play area"): the resolution is exactly the one after an
        auction (R5.1-R5.4) but ordered by the first take of each kind: Disasters of one kind
        stack (R5.3: two Earthquakes taken this turn destroy up to four Monuments, as one
        resolution, and R5.4 asks only when there is a real choice among those four), and the
        kinds are resolved in the order the first of each was taken (an Earthquake taken before
        an Unrest asks its Monument discards first).  Their categories are disjoint, so the order
        changes only the order of the events and questions, never the tiles lost.  Tiles taken
        after a Disaster in the same turn may be destroyed by it (that is the variant's point).
        """
        pending = self._pending
        while pending:
            t = pending[0]
            same = [x for x in pending if x == t]
            pending = tuple([x for x in pending if x != t])
            self._pending = pending
            if self._resolve_disasters(p, same, _AFTER_GOD_TURN):
                return True
        return False

    def _after_disasters(self, p: int) -> None:
        after = self._after_discard
        if after == _AFTER_GOD:
            self._after_god(p)
        elif after == _AFTER_GOD_TURN:
            self._end_god_turn(p)
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
            if t == T_FUNERAL:
                lose = funeral_losses(d)
                log = (log, (e_disaster, p, t, lose))
                for _ in range(lose):
                    log = (log, (e_discard, p, T_PHARAOH, True))
                d[T_PHARAOH] -= lose
                box[T_PHARAOH] += lose
            elif t == T_DROUGHT:
                floods, niles = drought_losses(d)
                log = (log, (e_disaster, p, t, floods + niles))
                for _ in range(floods):
                    log = (log, (e_discard, p, T_FLOOD, True))
                for _ in range(niles):
                    log = (log, (e_discard, p, T_NILE, True))
                d[T_FLOOD] -= floods
                d[T_NILE] -= niles
                box[T_FLOOD] += floods
                box[T_NILE] += niles
            else:
                kinds = T_CIVS if t == T_UNREST else T_MONUMENTS
                held = sum(d[k] for k in kinds) - (unrest if t == T_UNREST else quake)
                lose = min(2, held)
                log = (log, (e_disaster, p, t, lose))
                if t == T_UNREST:
                    unrest += lose
                else:
                    quake += lose
        if self._logging:
            self._log = log
        self._unrest_left = unrest
        self._quake_left = quake
        self._after_discard = after
        return self._settle_discards(p)

    def _settle_discards(self, p: int) -> bool:
        """Apply forced discards (R5.4); True if ``p`` must now choose one."""
        d = self._displays[p]
        while self._unrest_left or self._quake_left:
            left = self._unrest_left or self._quake_left
            held = [k for k in self._discard_kinds() if d[k]]
            total = sum(d[k] for k in held)
            if total > left and len(held) > 1:
                self._phase = PHASE_DISCARD
                self._to_move = p
                return True
            # No real choice: one kind only, or everything goes.
            for k in held:
                lose = min(left, d[k])
                d[k] -= lose
                self._box[k] += lose
                left -= lose
                for _ in range(lose):
                    if self._logging:
                        self._log = (self._log, (e_discard, p, k, True))
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
        box[T_RA] += self._ra
        removed = self._track
        for t in removed:
            box[t] += 1
        self._track = []
        self._ra = 0
        if self._logging:
            self._log = (self._log, (e_epoch_ended, self._epoch, reason, removed))
        # R6.3 / R7
        final = self._epoch == EPOCHS
        displays = self._displays
        totals = [sun_total(self._suns[i] | self._used[i]) for i in range(n)] if final else None
        points = epoch_points(displays, totals)
        epoch = self._epoch
        raw = []
        for i in range(n):
            before = self._scores[i]
            after = max(0, before + sum(points[i]))  # R7.1
            self._scores[i] = after
            # ScoreBreakdown objects are made when read (epoch_scores, events).
            raw.append((epoch, i, points[i], before, after))
            if self._logging:
                self._log = (self._log, (e_score, epoch, i, points[i], before, after))
        self._breakdowns = (*self._breakdowns, tuple(raw))
        for d in displays:
            for t in T_EPOCH_DISCARDS:
                if d[t]:
                    box[t] += d[t]
                    d[t] = 0
        # R6.4
        for i in range(n):
            self._suns[i] |= self._used[i]
            self._used[i] = 0
        if final:
            self._phase = PHASE_OVER
            self._to_move = -1
            winner = self.winner
            assert winner is not None
            scores = self._scores
            tie = scores.count(scores[winner]) > 1
            if self._logging:
                self._log = (self._log, (e_game_over, winner, tie))
            return
        self._epoch += 1
        self._begin_epoch()

    # --- undo, views, records ----------------------------------------------------

    def undo(self) -> Action:
        """Take back the last decision (and what the engine did after it); return it.

        Cheap at any point of the game: the position is rebuilt from the nearest
        checkpoint (one every :data:`MARK_EVERY` decisions) by replaying at most
        that many decisions.  Raises :class:`ra.NothingToUndoError` (an ``IndexError``)
        on a game with no decision to undo.
        """
        chain = self._decisions
        if chain is None:
            raise NothingToUndoError("no decision to undo: the game is at its start")
        self._rewind(chain[0], self._num_decisions - 1)
        last: Action = chain[1]
        return last

    pop = undo
    """python-chess style alias of :meth:`undo`."""

    def _rewind(self, chain: tuple[Any, Any] | None, count: int) -> None:
        """Rebuild the position after the ``count`` decisions of ``chain`` (from a checkpoint)."""
        marks = self._marks
        while marks is not None and marks[1] > count:
            marks = marks[0]
        if marks is None:
            assert self._bag is not None
            base = Game.__new__(Game)
            base._start(self._setup, self._bag, self._logging)
            done = 0
        else:
            base = marks[2].clone()
            if not self._logging:
                base.stop_events()  # a checkpoint taken before stop_events()
            done = marks[1]
        todo = []
        for _ in range(count - done):
            assert chain is not None
            chain, action = chain
            todo.append(action)
        todo.reverse()
        for action in todo:
            base.apply(action)
        base._copy_to(self)

    def replay(self, decisions: Iterable[Action | str]) -> None:
        """Apply several decisions in order."""
        for a in decisions:
            self.apply(a)

    def view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may see (R9): everything but the bag order, and under
        hidden scores (R9.1) no other player's score until the game ends.
        ``None`` is a spectator: under hidden scores no score at all until the end.
        :class:`ra.SeatError` (a ``ValueError``) for a seat that does not exist."""
        return PlayerView(self, None if seat is None else self._check_seat(seat))

    def to_record(self, public: bool = False) -> dict[str, Any]:
        """A JSON-able record: setup and decisions (see :mod:`ra.record_format`).

        ``public=True`` is the record anyone may read (R9): before the game ends it has
        no seed, no bag (only the tiles ``drawn`` so far, in order: all were shown) and no
        scores; :meth:`from_record` replays it to the same position.  Once the game is
        over it is the whole record.
        """
        result = result_fields(self.is_over(), self._scores, self.highest_suns())
        record = build_record(self._setup, self.decisions, result)
        if public and not self.is_over():
            assert self._bag is not None
            del record["seed"]
            del record["bag"]
            record["public"] = True
            record["drawn"] = [TILE_IDS[t] for t in self._bag.order[: self._drawn]]
            record["result"] = {"over": False}
        return record

    @classmethod
    def from_record(cls, record: Mapping[str, Any] | str) -> Game:
        """Replay a record made by :meth:`to_record` (a dict or its JSON text).

        Raises :class:`ra.RecordError` (and nothing else) for anything that is not a
        valid record; for an illegal decision its ``index`` is the decision's 1-based number.
        """
        parsed = parse_record(record)
        game = cls.from_setup(parsed.setup)
        for i, text in enumerate(parsed.decisions, 1):
            if game.is_over():
                raise RecordError(f"decision {i} ({text[:40]!r}): the game is already over (R8.1)", index=i)
            try:
                game.apply(text)
            except RaError as err:
                raise RecordError(f"decision {i} ({text[:40]!r}): {err}", index=i) from None
        check_result(parsed, game.is_over(), game._scores, game.highest_suns())
        return game

    # --- explicit chance (search, OpenSpiel) -------------------------------------

    def apply_draw(self, tile: Tile | str) -> None:
        """Draw (R3.3) with ``tile`` as the tile that comes out: a chosen chance outcome.

        For search and for frameworks that own the randomness: ``game.chance_outcomes()``
        lists the possible tiles.  The result equals the engine's own draw of that tile.
        The game gets a bag of its own, with every tile drawn so far and ``tile`` stacked on
        top (its :attr:`setup` says so, so records replay); clones that share the old bag
        draw as before.  Raises :class:`IllegalActionError` when the player to move may not
        draw or no such tile is left in the bag.
        """
        t = Tile.parse(tile)
        if self._phase != PHASE_ACTION:
            raise self._illegal(Action("draw"))
        if not self._unseen[t]:
            from ra.errors import IllegalActionError

            raise IllegalActionError(f"no {t.id} tile is left in the bag (R1.1): it cannot be drawn")
        from ra.setup import ChosenBag

        assert self._bag is not None
        stacked = (*self._bag.order[: self._drawn], t)
        setup = dataclasses.replace(self._setup, bag=stacked)
        self._setup = setup
        self._bag = ChosenBag(setup)
        self._marks = None  # the checkpoints hold the old bag; undo replays from the start
        self.apply(Action("draw"))

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
        census[T_RA] += self._ra
        for t in self._track:
            census[t] += 1
        for d in self._displays:
            for t in range(NUM_KINDS):
                census[t] += d[t]
        for t in range(NUM_KINDS):
            census[t] += self._box[t]
        for t in self._pending:
            census[t] += 1
        return census
