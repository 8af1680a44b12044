"""Epoch scoring (R7): pure functions over tile counts, and the per-category breakdown."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ra.tiles import CIVILIZATIONS, MONUMENTS, Tile

CATEGORIES: Final[tuple[str, ...]] = (
    "gods",
    "gold",
    "pharaohs",
    "nile_flood",
    "civilization",
    "monuments",
    "suns",
)
# Short column labels for tables (terminal game, command line).
CATEGORY_LABELS: Final[dict[str, str]] = {
    "gods": "god",
    "gold": "gold",
    "pharaohs": "phar",
    "nile_flood": "nile",
    "civilization": "civ",
    "monuments": "mon",
    "suns": "sun",
}

_GOD: Final = int(Tile.GOD)
_GOLD: Final = int(Tile.GOLD)
_PHARAOH: Final = int(Tile.PHARAOH)
_NILE: Final = int(Tile.NILE)
_FLOOD: Final = int(Tile.FLOOD)
_CIVS: Final = tuple(int(t) for t in CIVILIZATIONS)
_MONUMENTS: Final = tuple(int(t) for t in MONUMENTS)
_CIV_POINTS: Final = (-5, 0, 0, 5, 10, 15)  # R7.2, by number of different types
_MONUMENT_KINDS_POINTS: Final = (0, 1, 2, 3, 4, 5, 6, 10, 15)  # R7.3, by different types
_MONUMENT_SET_POINTS: Final = (0, 0, 0, 5, 10, 15)  # R7.3, by identical tiles of one type


@dataclass(frozen=True, slots=True)
class ScoreBreakdown:
    """One player's points at the end of one epoch, by category (R7).

    ``before`` and ``after`` are the player's score around this epoch's scoring;
    ``after == max(0, before + total)`` (R7.1).
    """

    epoch: int
    seat: int
    gods: int
    gold: int
    pharaohs: int
    nile_flood: int
    civilization: int
    monuments: int
    suns: int
    before: int
    after: int

    @property
    def total(self) -> int:
        """The sum of the categories (before the floor at zero of R7.1)."""
        return (
            self.gods
            + self.gold
            + self.pharaohs
            + self.nile_flood
            + self.civilization
            + self.monuments
            + self.suns
        )

    def as_dict(self) -> dict[str, int]:
        """The categories, total and scores as a plain dict (for JSON and tables)."""
        out = {c: getattr(self, c) for c in CATEGORIES}
        out.update(total=self.total, before=self.before, after=self.after)
        return out


def majority_points(values: Sequence[int], most: int, fewest: int) -> list[int]:
    """``most`` to the players with the highest value, ``fewest`` to those with the lowest,
    nothing to anyone if all are equal (R7.2 Pharaohs, R7.3 Suns)."""
    hi = max(values)
    lo = min(values)
    if hi == lo:
        return [0] * len(values)
    return [most if v == hi else fewest if v == lo else 0 for v in values]


def civilization_points(display: Sequence[int]) -> int:
    """R7.2: −5 without any civilization; 3/4/5 different types give 5/10/15."""
    kinds = 0
    for t in _CIVS:
        if display[t]:
            kinds += 1
    return _CIV_POINTS[kinds]


def nile_flood_points(display: Sequence[int]) -> int:
    """R7.2: one point per Flood and per Nile, only with at least one Flood."""
    floods = display[_FLOOD]
    return floods + display[_NILE] if floods else 0


def monument_points(display: Sequence[int]) -> int:
    """R7.3: points for different monument types plus sets of 3/4/5 identical ones."""
    kinds = 0
    sets = 0
    for t in _MONUMENTS:
        c = display[t]
        if c:
            kinds += 1
            sets += _MONUMENT_SET_POINTS[c]
    return _MONUMENT_KINDS_POINTS[kinds] + sets


def epoch_points(
    displays: Sequence[Sequence[int]], sun_totals: Sequence[int] | None
) -> list[tuple[int, int, int, int, int, int, int]]:
    """Each player's points by category (in ``CATEGORIES`` order) at an epoch's end.

    ``sun_totals`` is given only after the third epoch, when monuments and suns
    score too (R7.3).
    """
    pharaohs = majority_points([d[_PHARAOH] for d in displays], 5, -2)
    final = sun_totals is not None
    suns = majority_points(sun_totals, 5, -5) if sun_totals is not None else None
    out = []
    for i, d in enumerate(displays):
        out.append(
            (
                2 * d[_GOD],
                3 * d[_GOLD],
                pharaohs[i],
                nile_flood_points(d),
                civilization_points(d),
                monument_points(d) if final else 0,
                suns[i] if suns is not None else 0,
            )
        )
    return out
