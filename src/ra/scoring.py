"""Epoch scoring (R7): pure functions over tile counts, and the per-category breakdown."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ra.tiles import T_CIVS, T_FLOOD, T_GOD, T_GOLD, T_MONUMENTS, T_NILE, T_PHARAOH

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

    @classmethod
    def from_points(
        cls, epoch: int, seat: int, points: Sequence[int], before: int, after: int
    ) -> ScoreBreakdown:
        """A breakdown from the points by category (in ``CATEGORIES`` order)."""
        gods, gold, pharaohs, nile_flood, civilization, monuments, suns = points
        return cls(
            epoch, seat, gods, gold, pharaohs, nile_flood, civilization, monuments, suns, before, after
        )

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
    for t in T_CIVS:
        if display[t]:
            kinds += 1
    return _CIV_POINTS[kinds]


def nile_flood_points(display: Sequence[int]) -> int:
    """R7.2: one point per Flood and per Nile, only with at least one Flood."""
    floods = display[T_FLOOD]
    return floods + display[T_NILE] if floods else 0


def monument_points(display: Sequence[int]) -> int:
    """R7.3: points for different monument types plus sets of 3/4/5 identical ones."""
    kinds = 0
    sets = 0
    for t in T_MONUMENTS:
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
    pharaohs = majority_points([d[T_PHARAOH] for d in displays], 5, -2)
    final = sun_totals is not None
    suns = majority_points(sun_totals, 5, -5) if sun_totals is not None else None
    out = []
    for i, d in enumerate(displays):
        out.append(
            (
                2 * d[T_GOD],
                3 * d[T_GOLD],
                pharaohs[i],
                nile_flood_points(d),
                civilization_points(d),
                monument_points(d) if final else 0,
                suns[i] if suns is not None else 0,
            )
        )
    return out


def drought_losses(display: Sequence[int]) -> tuple[int, int]:
    """R5.2: the Floods and Niles a Drought destroys (Floods first, two in all, no choice).

    >>> drought_losses([0, 0, 0, 0, 3, 1] + [0] * 17)
    (1, 1)
    """
    floods = min(2, display[T_FLOOD])
    return floods, min(2 - floods, display[T_NILE])


def funeral_losses(display: Sequence[int]) -> int:
    """R5.2: the Pharaohs a Funeral destroys (two, or all if fewer)."""
    return min(2, display[T_PHARAOH])


def score_table_rows(
    breakdowns: Sequence[ScoreBreakdown | None], names: Sequence[str]
) -> list[tuple[str, ...]]:
    """An epoch's scoring as table rows of text: a header (player, the categories'
    short labels, total, score), then one row per seat; ``?`` where hidden (R9.1).
    Terminal and web tables render these rows rather than rebuilding them."""
    rows: list[tuple[str, ...]] = [("player", *(CATEGORY_LABELS[c] for c in CATEGORIES), "total", "score")]
    for seat, b in enumerate(breakdowns):
        if b is None:
            rows.append((names[seat], *(["?"] * len(CATEGORIES)), "?", "?"))
        else:
            rows.append(
                (names[seat], *(str(getattr(b, c)) for c in CATEGORIES), f"{b.total:+d}", str(b.after))
            )
    return rows
