"""A player's view (R9): the game as one seat may see it.

Everything in Ra is public except the order of the tiles in the bag (R9.1);
under the optional hidden-scores rule a player also sees only their own score
until the game ends.  Bots are given only a :class:`PlayerView`; one that
searches calls :meth:`PlayerView.determinize` to sample a bag order from the
tiles not yet seen (R9.3).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import TYPE_CHECKING, Any

from ra.position import BreakdownRow
from ra.setup import Bag, new_seed
from ra.state import PHASE_OVER, State
from ra.tiles import TILE_IDS

if TYPE_CHECKING:  # the engine builds on this module, never the other way round
    import random

    from ra.engine import Game

HIDDEN_SEED = -1
"""The seed as a view shows it: the real one would reveal the bag order."""


class PlayerView(State):
    """What ``seat`` may see: every public field of the game, no bag order, no seed.

    ``seat=None`` is a spectator's view (R9): what every player sees, and under hidden
    scores (R9.1) no score at all until the game ends.  This class is the one R9 gate:
    the web server, the records API and replays show nothing that it does not.

    It offers the read API of :class:`ra.Game` (``phase``, ``to_move``,
    ``players``, ``auction_track``, ``legal_actions()``, ``why_illegal()`` …) but
    cannot apply actions: a draw would need the bag.  Use :meth:`determinize`
    for a playable game consistent with this view.  Made by ``game.view(seat)``.
    """

    __slots__ = ("_seat", "_drawn_order", "_hide_scores", "_known", "_game_type")

    def __init__(self, game: Game, seat: int | None) -> None:
        game._copy_to(self)
        assert game._bag is not None
        self._game_type = type(game)
        self._seat = seat
        self._drawn_order = tuple(game._bag.order[: game._drawn])
        self._bag = None
        self._marks = None  # the game's undo checkpoints hold its bag
        self._setup = dataclasses.replace(game._setup, seed=HIDDEN_SEED, bag=())
        self._hide_scores = game._setup.hidden_scores and game._phase != PHASE_OVER
        self._known: Game | None = None
        self._decisions_cache = getattr(game, "_decisions_cache", None)
        self._log_cache = getattr(game, "_log_cache", None)
        if self._hide_scores:
            # R9.1: other players' tablets are face down.
            self._scores = [s if i == seat else -1 for i, s in enumerate(game._scores)]
            if game._logging:
                chain: tuple[Any, Any] | None = None
                for e in game.events:
                    if e.kind == "score" and e.seat != seat:
                        e = e._replace(detail=None)
                    chain = (chain, e)
                self._log = chain
                self._log_cache = None
            self._breakdowns = tuple(
                tuple(b if i == seat else None for i, b in enumerate(epoch)) for epoch in game._breakdowns
            )

    @property
    def seat(self) -> int:
        """The seat this view belongs to (a spectator's view has none: ``ValueError``)."""
        if self._seat is None:
            raise ValueError("a spectator's view belongs to no seat")
        return self._seat

    @property
    def spectator(self) -> bool:
        """Whether this is a spectator's view (``game.view(None)``)."""
        return self._seat is None

    def _visible_score(self, seat: int) -> int | None:
        if self._hide_scores and seat != self._seat:
            return None
        return self._scores[seat]

    @property
    def drawn_tiles(self) -> list[str]:
        """Every tile drawn so far, in order (all were shown to everyone)."""
        return [TILE_IDS[t] for t in self._drawn_order]

    @property
    def unseen(self) -> Counter[str]:
        """The tiles still in the bag, by kind (public; their order is not)."""
        return Counter({TILE_IDS[t]: c for t, c in enumerate(self._unseen) if c})

    def determinize(self, seed: int | None = None, rng: random.Random | None = None) -> Game:
        """A playable :class:`ra.Game` matching this view, with the unseen tiles in
        a random order fixed by ``seed`` (R9.3: never the real order).

        Without a ``seed`` one is drawn from ``rng`` (or at random); either way the
        seed alone fixes the bag, so the game's record replays.  Under hidden
        scores the other players' scores, events and epoch scores are recomputed
        from the public history, which fixes them: epoch scoring depends only on
        public tiles.
        """
        if seed is None:
            seed = new_seed() if rng is None else rng.getrandbits(63)
        setup = dataclasses.replace(self._setup, seed=seed, bag=self._drawn_order)
        cls = self._game_type
        if self._hide_scores:
            game = self._public_replay().clone()
            if not self._logging:
                game.stop_events()
        else:
            game = cls.__new__(cls)
            self._copy_to(game)
        game._setup = setup
        game._bag = Bag.for_setup(setup)
        game._marks = None
        return game

    def _known_scoring(self) -> tuple[tuple[int, ...], tuple[tuple[BreakdownRow, ...], ...]]:
        """R9.1: hidden scores are hidden from the eye, not from the memory: every score and
        epoch breakdown follows from the public history, which fixes them (a search from this
        view plays the real game, never one where the others have placeholder scores)."""
        if self._hide_scores:
            return self._public_replay()._known_scoring()
        return super()._known_scoring()

    def _bag_tiles(self) -> bytes:
        """No bag order (R9.1): the drawn tiles, then the unseen ones by kind (R9.3)."""
        rest = b"".join(bytes([t]) * c for t, c in enumerate(self._unseen) if c)
        return bytes(self._drawn_order[: self._drawn]) + rest

    def _public_replay(self) -> Game:
        """The game replayed from public information only (cached)."""
        if self._known is None:
            setup = dataclasses.replace(self._setup, seed=0, bag=self._drawn_order)
            replay = self._game_type.from_setup(setup)
            for a in self.decisions:
                replay.apply(a)
            self._known = replay
        return self._known

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayerView):
            return NotImplemented
        return (
            self._seat == other._seat
            and self._setup == other._setup
            and self._drawn_order == other._drawn_order
            and self._key() == other._key()
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        owner = "a spectator" if self._seat is None else f"seat {self._seat}"
        return super().__repr__().replace("<PlayerView", f"<PlayerView of {owner}:", 1)

    def to_dict(self) -> dict[str, Any]:
        """The view as plain JSON-able data (for web clients and external agents)."""
        return {
            "seat": self._seat,  # None for a spectator
            "players": [
                {
                    "name": p.name,
                    "suns": list(p.suns),
                    "used_suns": list(p.used_suns),
                    "tiles": dict(p.tiles),
                    "score": p.score,
                }
                for p in self.players
            ],
            "variant": self._setup.variant,
            "hidden_scores": self._setup.hidden_scores,
            "disaster_timing": self._setup.disaster_timing,
            "pending_disasters": list(self.pending_disasters),
            "epoch": self.epoch,
            "phase": self.phase,
            "to_move": self.to_move,
            "center_sun": self.center_sun,
            "ra_count": self.ra_count,
            "ra_track": self.ra_count,  # deprecated key, the same number as ra_count
            "ra_track_length": self.ra_track_length,
            "auction_track": self.auction_track,
            "auction": dataclasses.asdict(self.auction) if self.auction else None,
            "tiles_in_bag": self.tiles_in_bag,
            "unseen": dict(self.unseen),
            "legal_actions": [str(a) for a in self.legal_actions()],
            "decisions": [str(a) for a in self.decisions],
        }
