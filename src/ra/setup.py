"""Setup and variants (R2): sun groups, seating, the seeded bag.

A :class:`Setup` is everything that fixes a game before the first decision:
player names, variant, the sun groups dealt to each seat, the tiles stacked on
top of the bag and the seed.  With the sequence of decisions it determines the
whole game (R9.2).
"""

from __future__ import annotations

import itertools
import operator
import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from ra.errors import SetupError
from ra.tiles import BAG_SIZE, CENTER_SUN, MAX_SUN, TILE_COUNTS, Tile
from ra.words import msg, words

MIN_PLAYERS: Final = 2  # R2.1
MAX_PLAYERS: Final = 5  # R2.1
AUCTION_TRACK_SIZE: Final = 8  # R3.2
EPOCHS: Final = 3  # R8.1
MAX_SEED: Final = (1 << 64) - 1
"""Seeds are 0 .. 2**64 - 1 (new games get 63 random bits)."""
MAX_NAME_LENGTH: Final = 200

# R2.2 — sun groups by player count.
SUN_GROUPS: Final[dict[int, tuple[tuple[int, ...], ...]]] = {
    2: ((9, 6, 5, 2), (8, 7, 4, 3)),
    3: ((13, 8, 5, 2), (12, 9, 6, 3), (11, 10, 7, 4)),
    4: ((13, 6, 2), (12, 7, 3), (11, 8, 4), (10, 9, 5)),
    5: ((16, 7, 2), (15, 8, 3), (14, 9, 4), (13, 10, 5), (12, 11, 6)),
}
# R2.2 — Ra tiles that fill the Ra track and end an epoch.
RA_TRACK_LENGTH: Final[dict[int, int]] = {2: 6, 3: 8, 4: 9, 5: 10}
# R2.3 — the two-player long game, by suns per player.
LONG_2P_GROUPS: Final[dict[int, tuple[tuple[int, ...], ...]]] = {
    4: ((9, 6, 4, 2), (8, 7, 5, 3)),
    5: ((11, 8, 6, 4, 2), (10, 9, 7, 5, 3)),
    6: ((13, 10, 8, 6, 4, 2), (12, 11, 9, 7, 5, 3)),
    7: ((15, 12, 10, 8, 6, 4, 2), (14, 13, 11, 9, 7, 5, 3)),
}
VARIANTS: Final[tuple[str, ...]] = ("standard", "long-2p")
DISASTER_TIMINGS: Final[tuple[str, ...]] = ("immediate", "2008")
"""R3.5: when a Disaster taken with a God tile is resolved.  ``"immediate"`` (the 2016 and
2023 rulebooks, the default): at once, before the next God tile is used.  ``"2008"`` (the
variant "2008 disaster timing", the Rio Grande 2008 rulebook): after the player stops using
God tiles, every tile taken being placed first (see :meth:`ra.Game` and ``docs/rules.md``).
Orthogonal to :data:`VARIANTS` (which fixes the suns): any variant may use either timing."""
STARTING_SCORE: Final = 10  # R2.1
__all__ = [
    "AUCTION_TRACK_SIZE",
    "CENTER_SUN",
    "DISASTER_TIMINGS",
    "EPOCHS",
    "LONG_2P_GROUPS",
    "MAX_PLAYERS",
    "MAX_SEED",
    "MAX_SUN",
    "MIN_PLAYERS",
    "RA_TRACK_LENGTH",
    "STARTING_SCORE",
    "SUN_GROUPS",
    "VARIANTS",
    "Bag",
    "Setup",
    "make_setup",
    "new_seed",
]


@dataclass(frozen=True, slots=True)
class Setup:
    """What fixes a game before its first decision (R9.2)."""

    names: tuple[str, ...]
    seed: int
    suns: tuple[tuple[int, ...], ...]
    """The sun group of each seat, highest first."""
    variant: str = "standard"
    suns_per_player: int | None = None
    """Only for the ``long-2p`` variant (R2.3)."""
    bag: tuple[int, ...] = ()
    """Tiles (:class:`Tile` values) stacked on top of the bag: the first tiles drawn, in order."""
    hidden_scores: bool = False
    """The optional rule of R9.1."""
    bag_counts: tuple[int, ...] | None = None
    """The bag's whole content by :class:`Tile` when it is not the 180 tiles of R1.1
    (``exact_bag`` scenarios); ``None`` for a real game."""
    disaster_timing: str = "immediate"
    """R3.5: ``"immediate"`` (the default) or ``"2008"``, the "2008 disaster timing"
    variant (see :data:`DISASTER_TIMINGS`)."""

    @property
    def contents(self) -> tuple[int, ...]:
        """How many tiles of each kind the bag holds at the start (R1.1 unless a scenario)."""
        return self.bag_counts if self.bag_counts is not None else TILE_COUNTS

    @property
    def bag_size(self) -> int:
        return sum(self.bag_counts) if self.bag_counts is not None else BAG_SIZE

    @property
    def num_players(self) -> int:
        return len(self.names)

    @property
    def ra_track_length(self) -> int:
        """How many Ra tiles end an epoch (R2.2; 6 in the long two-player game, R2.3)."""
        return RA_TRACK_LENGTH[len(self.names)]


def new_seed() -> int:
    """A fresh random seed (63 bits), recorded so the game can be replayed."""
    return secrets.randbits(63)


def make_setup(
    players: int | Sequence[str] = 3,
    *,
    seed: int | None = None,
    variant: str = "standard",
    suns_per_player: int | None = None,
    bag: Iterable[str | Tile] | None = None,
    suns: Sequence[Sequence[int]] | None = None,
    hidden_scores: bool = False,
    exact_bag: bool = False,
    bag_counts: Sequence[int] | None = None,
    disaster_timing: str = "immediate",
) -> Setup:
    """Check the arguments of a new game and deal the suns (R2).  Raises ``ValueError``
    (never another exception) for anything that is not a valid setup.

    ``exact_bag=True`` makes ``bag`` the whole bag rather than its top: a scenario
    device (for instance to empty the bag, R6.5), not a legal Ra setup.
    ``bag_counts`` gives the whole bag's content by kind directly.
    ``disaster_timing`` is ``"immediate"`` or ``"2008"`` (R3.5, :data:`DISASTER_TIMINGS`).
    """
    names = _player_names(players)
    n = len(names)
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise _refuse("setup.variant", "variant", value=repr(variant), choices=", ".join(VARIANTS))
    if variant == "long-2p":
        if n != 2:
            raise _refuse("setup.long_players", "players", count=n)
        if suns_per_player is None:
            suns_per_player = 6
        if type(suns_per_player) is not int or suns_per_player not in LONG_2P_GROUPS:
            raise _refuse("setup.long_suns", "suns_per_player", value=repr(suns_per_player))
        groups = LONG_2P_GROUPS[suns_per_player]
    else:
        groups = SUN_GROUPS[n]
        if suns_per_player is not None and (
            type(suns_per_player) is not int or suns_per_player != len(groups[0])
        ):
            raise _refuse("setup.suns", "suns_per_player", players=n, suns=len(groups[0]))
    if not isinstance(disaster_timing, str) or disaster_timing not in DISASTER_TIMINGS:
        raise _refuse(
            "setup.disaster_timing",
            "disaster_timing",
            value=_short(disaster_timing),
            choices=", ".join(DISASTER_TIMINGS),
        )
    if not isinstance(hidden_scores, bool):
        raise ValueError(f"hidden_scores must be True or False, got {hidden_scores!r}")
    if not isinstance(exact_bag, bool):
        raise ValueError(f"exact_bag must be True or False, got {exact_bag!r}")
    if seed is None:
        seed = new_seed()
    else:
        if isinstance(seed, bool):
            raise ValueError(f"seed must be an integer, got {seed!r}")
        try:
            seed = operator.index(seed)
        except TypeError:
            raise ValueError(f"seed must be an integer, got {type(seed).__name__}") from None
        if not 0 <= seed <= MAX_SEED:
            raise ValueError(f"seed must be an integer from 0 to 2**64 - 1, got {_short(seed)}")
    if suns is None:
        # The deal draws on its own hash of the seed, so a given seed gives the same
        # bag whether or not the suns are chosen explicitly (R9.2).
        perms = _PERMUTATIONS[n]
        order = perms[_mix64(seed) % len(perms)]
        dealt = tuple(groups[i] for i in order)
    else:
        dealt = _check_suns(suns, n)
    contents: tuple[int, ...] | None = None
    if bag_counts is not None:
        contents = _check_bag_counts(bag_counts)
    stacked = _check_bag(bag, contents or TILE_COUNTS) if bag is not None else ()
    if exact_bag:
        if contents is not None:
            raise ValueError("give exact_bag or bag_counts, not both")
        counts = [0] * len(TILE_COUNTS)
        for t in stacked:
            counts[t] += 1
        contents = tuple(counts)
    if contents == TILE_COUNTS:
        contents = None
    return Setup(
        names=names,
        seed=seed,
        suns=dealt,
        variant=variant,
        suns_per_player=suns_per_player if variant == "long-2p" else None,
        bag=stacked,
        hidden_scores=bool(hidden_scores),
        bag_counts=contents,
        disaster_timing=disaster_timing,
    )


def _refuse(key: str, option: str | None, **params: str | int) -> SetupError:
    """A setup error from the catalogue: English in the message, ``why`` for any language."""
    why = msg(key, low=MIN_PLAYERS, high=MAX_PLAYERS, **params)
    return SetupError(words("en").render(why), option, why)


def _short(value: object) -> str:
    """``repr`` cut to a readable length (a huge number or list must not flood a message)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"an integer of {value.bit_length()} bits"
    text = repr(value) if not isinstance(value, int) else str(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _player_names(players: int | Sequence[str]) -> tuple[str, ...]:
    if isinstance(players, bool) or not isinstance(players, int | list | tuple):
        raise _refuse("setup.players_type", "players", value=_short(players))
    if isinstance(players, int):
        # Check the count before building anything (players=10**100 must not allocate).
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise _refuse("setup.players_count", "players", value=_short(players))
        return tuple(f"Player {i + 1}" for i in range(players))
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise _refuse("setup.players_count", "players", value=str(len(players)))
    names = []
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise _refuse("setup.name_empty", "players", value=_short(name))
        if len(name.strip()) > MAX_NAME_LENGTH or not name.strip().isprintable():
            raise _refuse("setup.name_form", None, most=MAX_NAME_LENGTH, value=_short(name))
        names.append(name.strip())
    # Compared after stripping: "Ann" and "Ann " would be one name once saved.
    if len(set(names)) != len(names):
        raise _refuse("setup.names_differ", "players", value=str(names))
    return tuple(names)


def _check_bag_counts(bag_counts: Sequence[int]) -> tuple[int, ...]:
    """R1.1: a bag's content by kind holds no kind above its real count."""
    if not isinstance(bag_counts, list | tuple):
        raise ValueError(f"bag_counts must be a list of {len(TILE_COUNTS)} counts, got {_short(bag_counts)}")
    if len(bag_counts) != len(TILE_COUNTS):
        raise ValueError(
            f"bag_counts must be {len(TILE_COUNTS)} counts (one per tile kind), got {len(bag_counts)}"
        )
    for t, c in enumerate(bag_counts):
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= TILE_COUNTS[t]:
            raise ValueError(
                f"bag_counts[{t}] ({Tile(t).id}) must be a count from 0 to {TILE_COUNTS[t]} (R1.1), "
                f"got {_short(c)}"
            )
    return tuple(bag_counts)


def _check_suns(suns: Sequence[Sequence[int]], n: int) -> tuple[tuple[int, ...], ...]:
    if not isinstance(suns, list | tuple) or len(suns) != n:
        raise ValueError(f"suns must give one sun group per player: {n} groups, got {_short(suns)}")
    seen: set[int] = set()
    out = []
    for seat, group in enumerate(suns):
        if not isinstance(group, list | tuple) or len(group) > MAX_SUN:
            raise ValueError(
                f"the sun group of seat {seat} must be a list of sun numbers, got {_short(group)}"
            )
        numbers = []
        for s in group:
            if isinstance(s, bool) or not isinstance(s, int):
                raise ValueError(f"sun {_short(s)} in the group of seat {seat} is not a number")
            if s == CENTER_SUN:
                raise ValueError(f"sun 1 starts in the centre and cannot be dealt (R1.3); seat {seat} has it")
            if not 2 <= s <= MAX_SUN:
                raise ValueError(
                    f"there is no sun {_short(s)} (suns are 1-{MAX_SUN}, R1.3); seat {seat} has it"
                )
            if s in seen:
                raise ValueError(f"sun {s} is dealt twice (seat {seat} and another)")
            seen.add(s)
            numbers.append(s)
        if not numbers:
            raise ValueError(f"seat {seat} has no suns; every player needs at least one (R2.2)")
        out.append(tuple(sorted(numbers, reverse=True)))
    return tuple(out)


def _check_bag(bag: Iterable[str | Tile], contents: Sequence[int]) -> tuple[Tile, ...]:
    if isinstance(bag, str | bytes) or not isinstance(bag, Iterable):
        raise ValueError(f"bag must be a list of tile names, got {_short(bag)}")
    stacked = []
    counts = [0] * len(contents)
    for i, name in enumerate(bag):
        if not isinstance(name, str | Tile):
            raise ValueError(f"bag[{i}] must be a tile name, got {_short(name)}")
        try:
            tile = Tile.parse(name)
        except ValueError as err:
            raise ValueError(f"bag[{i}]: {err}") from None
        counts[tile] += 1
        if counts[tile] > contents[tile]:
            raise ValueError(f"bag[{i}]: the bag holds only {contents[tile]} {tile.id} tiles (R1.1)")
        stacked.append(tile)
    return tuple(stacked)


class Bag:
    """The order in which tiles leave the bag, fixed by a seed but revealed lazily.

    Position ``k`` is decided the first time any game sharing this bag draws its
    ``k``-th tile, by a uniform pick from the tiles not yet placed; so the order
    is a function of the seed alone (R9.2) while setup stays cheap.  Clones and
    undo share one ``Bag``: a game only keeps how many tiles it has drawn.
    """

    __slots__ = ("order", "_pool", "_random")

    def __init__(self, stacked: Sequence[int], pool: list[int], rng: random.Random) -> None:
        self.order: list[int] = list(stacked)
        self._pool = pool
        self._random = rng.random

    @classmethod
    def for_setup(cls, setup: Setup) -> Bag:
        """The bag of a new game: the stacked tiles, then the rest in seeded random order."""
        if not setup.bag and setup.bag_counts is None:
            pool = list(_FULL_BAG)
        else:
            counts = list(setup.contents)
            for t in setup.bag:
                counts[t] -= 1
            pool = cls.pool(counts)
        return cls(setup.bag, pool, random.Random(setup.seed))

    @staticmethod
    def pool(counts: Sequence[int]) -> list[int]:
        """The tiles described by counts by kind, as a list to draw from."""
        return [t for t, c in enumerate(counts) for _ in range(c)]

    def tile(self, k: int) -> int:
        """The ``k``-th tile drawn (0-based), deciding positions up to ``k`` if needed."""
        order = self.order
        pool = self._pool
        rand = self._random
        while len(order) <= k:
            if not pool:
                raise IndexError("the bag is empty")
            j = int(rand() * len(pool))
            order.append(pool[j])
            pool[j] = pool[-1]
            pool.pop()
        return order[k]


_FULL_BAG: Final[tuple[int, ...]] = tuple(t for t in range(len(TILE_COUNTS)) for _ in range(TILE_COUNTS[t]))
assert len(_FULL_BAG) == BAG_SIZE
_PERMUTATIONS: Final[dict[int, tuple[tuple[int, ...], ...]]] = {
    n: tuple(itertools.permutations(range(n))) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
}
_M64: Final = (1 << 64) - 1


def _mix64(seed: int) -> int:
    """SplitMix64's finaliser: a well-spread 64-bit hash of the seed, for the sun deal."""
    z = (seed + 0x9E3779B97F4A7C15) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


class ChosenBag(Bag):
    """The bag of ``setup`` (its stacked tiles first), shuffled only past them, when first needed.

    The bag of a game whose draws are chosen (:meth:`ra.Game.apply_draw`): a search or
    a framework that owns the randomness (OpenSpiel) picks every tile itself, so the
    rest of the bag is rarely drawn from and applying a chosen draw stays cheap.  Past
    the stacked tiles it is exactly :meth:`Bag.for_setup`.
    """

    __slots__ = ("_setup", "_full")

    def __init__(self, setup: Setup) -> None:  # no super().__init__: the rest is made on demand
        self.order = list(setup.bag)
        self._setup = setup
        self._full: Bag | None = None

    def tile(self, k: int) -> int:
        """The ``k``-th tile drawn (0-based), shuffling the rest of the bag on first need."""
        if k < len(self.order):
            return self.order[k]
        full = self._full
        if full is None:
            full = self._full = Bag.for_setup(self._setup)
            self.order = full.order  # the same stacked tiles first, then the seeded rest
        return full.tile(k)
