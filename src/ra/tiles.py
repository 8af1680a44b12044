"""The 180 tiles of Ra (R1.1): kinds, identifiers, categories and edition names.

Tiles are small ints (``Tile`` is an ``IntEnum``) so the engine can keep a
player's display as one list of counts indexed by tile.  The public API speaks
in lower-case identifiers ("pharaoh", "step_pyramid"); display names per
edition are cosmetic (R1.2) and never used by the rules.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from ra.words import words


class Tile(IntEnum):
    """One kind of tile.  The value indexes count lists; ``tile.id`` is its identifier."""

    RA = 0
    GOD = 1
    GOLD = 2
    PHARAOH = 3
    NILE = 4
    FLOOD = 5
    ASTRONOMY = 6
    AGRICULTURE = 7
    WRITING = 8
    RELIGION = 9
    ART = 10
    FORTRESS = 11
    OBELISK = 12
    PALACE = 13
    PYRAMID = 14
    SPHINX = 15
    STATUE = 16
    STEP_PYRAMID = 17
    TEMPLE = 18
    FUNERAL = 19
    DROUGHT = 20
    UNREST = 21
    EARTHQUAKE = 22

    @property
    def id(self) -> str:
        """The notation identifier, e.g. ``"step_pyramid"``."""
        return TILE_IDS[self]

    @classmethod
    def parse(cls, name: str | Tile) -> Tile:
        """The tile named by an identifier (case-insensitive; ``-`` or a space may stand for ``_``)."""
        if isinstance(name, Tile):
            return name
        key = str(name).strip().lower().replace("-", "_").replace(" ", "_")
        try:
            return _BY_ID[key]
        except KeyError:
            raise ValueError(f"unknown tile {name!r}; tiles are: {', '.join(TILE_IDS)}") from None

    def __str__(self) -> str:
        return TILE_IDS[self]


NUM_KINDS: Final = len(Tile)
TILES: Final[tuple[Tile, ...]] = tuple(Tile)
"""Every kind, indexed by value: ``TILES[t]`` turns an engine int into a :class:`Tile` fast."""
TILE_IDS: Final[tuple[str, ...]] = tuple(t.name.lower() for t in Tile)
_BY_ID: Final[dict[str, Tile]] = {t.name.lower(): t for t in Tile}

# R1.1 — how many of each kind the bag holds.
TILE_COUNTS: Final[tuple[int, ...]] = (
    30,  # ra
    8,  # god
    5,  # gold
    25,  # pharaoh
    25,  # nile
    12,  # flood
    5, 5, 5, 5, 5,  # civilizations
    5, 5, 5, 5, 5, 5, 5, 5,  # monuments
    2, 2, 4, 2,  # funeral, drought, unrest, earthquake
)  # fmt: skip
BAG_SIZE: Final = sum(TILE_COUNTS)
assert BAG_SIZE == 180

# R1.3 — suns.
MAX_SUN: Final = 16
CENTER_SUN: Final = 1

CIVILIZATIONS: Final[tuple[Tile, ...]] = (
    Tile.ASTRONOMY,
    Tile.AGRICULTURE,
    Tile.WRITING,
    Tile.RELIGION,
    Tile.ART,
)
MONUMENTS: Final[tuple[Tile, ...]] = (
    Tile.FORTRESS,
    Tile.OBELISK,
    Tile.PALACE,
    Tile.PYRAMID,
    Tile.SPHINX,
    Tile.STATUE,
    Tile.STEP_PYRAMID,
    Tile.TEMPLE,
)
DISASTERS: Final[tuple[Tile, ...]] = (
    Tile.FUNERAL,
    Tile.DROUGHT,
    Tile.UNREST,
    Tile.EARTHQUAKE,
)
# R6.3 — kinds removed from displays after every epoch's scoring.
DISCARDED_AFTER_EPOCH: Final[tuple[Tile, ...]] = (
    Tile.GOD,
    Tile.GOLD,
    Tile.FLOOD,
    *CIVILIZATIONS,
)

# Plain-int tile values for the hot paths (engine, scoring, bots): defined once here.
T_RA: Final = 0
T_GOD: Final = 1
T_GOLD: Final = 2
T_PHARAOH: Final = 3
T_NILE: Final = 4
T_FLOOD: Final = 5
T_FUNERAL: Final = 19
T_DROUGHT: Final = 20
T_UNREST: Final = 21
T_EARTHQUAKE: Final = 22
T_FIRST_DISASTER: Final = T_FUNERAL
"""Disasters are the highest tile values: ``t >= T_FIRST_DISASTER`` tests for one."""
T_CIVS: Final[tuple[int, ...]] = tuple(int(t) for t in CIVILIZATIONS)
T_MONUMENTS: Final[tuple[int, ...]] = tuple(int(t) for t in MONUMENTS)
T_EPOCH_DISCARDS: Final[tuple[int, ...]] = tuple(int(t) for t in DISCARDED_AFTER_EPOCH)
assert tuple(range(6)) == (T_RA, T_GOD, T_GOLD, T_PHARAOH, T_NILE, T_FLOOD)
assert tuple(DISASTERS) == (T_FUNERAL, T_DROUGHT, T_UNREST, T_EARTHQUAKE)


def category(tile: Tile) -> str:
    """The row of the display a tile belongs to (as the rulebook lays it out)."""
    if tile is Tile.RA:
        return "ra"
    if tile is Tile.GOD:
        return "god"
    if tile is Tile.GOLD:
        return "gold"
    if tile is Tile.PHARAOH:
        return "pharaoh"
    if tile in (Tile.NILE, Tile.FLOOD):
        return "river"
    if tile in CIVILIZATIONS:
        return "civilization"
    if tile in MONUMENTS:
        return "monument"
    return "disaster"


# R1.2 — display names by edition.  Cosmetic only.
EDITIONS: Final[tuple[str, ...]] = ("original", "2016", "2023")

EDITION_NAMES: Final[dict[str, dict[Tile, str]]] = {
    "original": {},
    "2016": {Tile.UNREST: "war"},
    # The 2023 edition renames Unrest and two monuments (Sanctuary, Mausoleum).
    # Which of its art replaces which original monument is not stated; we pair them
    # by name order.  The rules never depend on it (R1.2).  Only the renamed tiles
    # are listed; use name_id() for any tile.
    "2023": {Tile.UNREST: "war", Tile.FORTRESS: "sanctuary", Tile.PALACE: "mausoleum"},
}
"""The renamed tiles of each edition, by the identifier of their printed name."""


def name_id(tile: Tile | str, edition: str = "original") -> str:
    """The identifier of a tile's printed name in an edition (``unrest`` is ``war`` in 2016):
    the catalogue's key for it is ``tile.<name_id>`` (counted: ``tiles.<name_id>``)."""
    t = Tile.parse(tile)
    try:
        names = EDITION_NAMES[edition]
    except KeyError:
        raise ValueError(f"unknown edition {edition!r}; editions are: {', '.join(EDITIONS)}") from None
    return names.get(t, t.name.lower())


def display_name(tile: Tile | str, edition: str = "original", lang: str = "en") -> str:
    """The printed name of a tile in an edition, in a language.

    >>> display_name("unrest", "2016"), display_name(Tile.STEP_PYRAMID), display_name("palace", "2023", "ru")
    ('War', 'Step Pyramid', 'Мавзолей')
    """
    return words(lang)(f"tile.{name_id(tile, edition)}")
