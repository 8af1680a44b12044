"""R7 Scoring: the category rules and the worked examples of R7.3 and R7.4."""

from __future__ import annotations

import pytest

from ra.scoring import (
    CATEGORIES,
    ScoreBreakdown,
    civilization_points,
    epoch_points,
    majority_points,
    monument_points,
    nile_flood_points,
)
from ra.tiles import NUM_KINDS, Tile


def display(**counts: int) -> list[int]:
    d = [0] * NUM_KINDS
    for name, c in counts.items():
        d[Tile.parse(name)] = c
    return d


def test_r7_4_pharaohs_3_2_2_3() -> None:
    assert majority_points([3, 2, 2, 3], 5, -2) == [5, -2, -2, 5]


def test_r7_4_suns_17_25_21_17() -> None:
    assert majority_points([17, 25, 21, 17], 5, -5) == [-5, 5, 0, -5]


def test_r7_4_civilizations_3_astronomy_2_agriculture_2_writing() -> None:
    assert civilization_points(display(astronomy=3, agriculture=2, writing=2)) == 5


def test_r7_2_pharaohs_all_equal_score_nothing_and_zero_counts_as_fewest() -> None:
    assert majority_points([2, 2, 2], 5, -2) == [0, 0, 0]
    assert majority_points([0, 0], 5, -2) == [0, 0]
    assert majority_points([0, 1, 1], 5, -2) == [-2, 5, 5]


def test_r7_2_gods_and_gold() -> None:
    (row,) = epoch_points([display(god=3, gold=2, astronomy=1)], None)
    assert row[CATEGORIES.index("gods")] == 6
    assert row[CATEGORIES.index("gold")] == 6


@pytest.mark.parametrize(
    ("floods", "niles", "points"), [(0, 5, 0), (1, 0, 1), (1, 4, 5), (3, 2, 5), (0, 0, 0)]
)
def test_r7_2_nile_and_flood_need_a_flood(floods: int, niles: int, points: int) -> None:
    assert nile_flood_points(display(flood=floods, nile=niles)) == points


@pytest.mark.parametrize(
    ("civs", "points"),
    [
        ({}, -5),
        ({"art": 1}, 0),
        ({"art": 3, "writing": 1}, 0),
        ({"art": 1, "writing": 1, "religion": 1}, 5),
        ({"art": 1, "writing": 1, "religion": 1, "astronomy": 2}, 10),
        ({"art": 1, "writing": 1, "religion": 1, "astronomy": 1, "agriculture": 5}, 15),
    ],
)
def test_r7_2_civilization(civs: dict[str, int], points: int) -> None:
    assert civilization_points(display(**civs)) == points


def test_r7_3_monuments_worked_example_is_19() -> None:
    assert monument_points(display(pyramid=4, temple=3, fortress=2, sphinx=1)) == 19


@pytest.mark.parametrize(
    ("monuments", "points"),
    [
        ({}, 0),
        ({"temple": 1}, 1),
        ({"temple": 5}, 1 + 15),
        ({"temple": 3, "statue": 4}, 2 + 5 + 10),
        ({m: 1 for m in ("fortress", "obelisk", "palace", "pyramid", "sphinx", "statue")}, 6),
        ({m: 1 for m in ("fortress", "obelisk", "palace", "pyramid", "sphinx", "statue", "temple")}, 10),
        (
            {m: 1 for m in ("fortress", "obelisk", "palace", "pyramid", "sphinx", "statue", "temple")}
            | {"step_pyramid": 3},
            15 + 5,
        ),
    ],
)
def test_r7_3_monuments(monuments: dict[str, int], points: int) -> None:
    assert monument_points(display(**monuments)) == points


def test_r7_3_monuments_and_suns_count_only_in_the_final_scoring() -> None:
    displays = [display(pyramid=3, art=1), display(temple=1, art=1)]
    mid = epoch_points(displays, None)
    final = epoch_points(displays, [20, 12])
    m = CATEGORIES.index("monuments")
    s = CATEGORIES.index("suns")
    assert [r[m] for r in mid] == [0, 0]
    assert [r[s] for r in mid] == [0, 0]
    assert [r[m] for r in final] == [1 + 5, 1]
    assert [r[s] for r in final] == [5, -5]
    assert [r[s] for r in epoch_points(displays, [15, 15])] == [0, 0]


def test_score_breakdown_total_and_dict() -> None:
    b = ScoreBreakdown(3, 1, 2, 3, 5, 4, -5, 19, 5, before=10, after=43)
    assert b.total == 33
    d = b.as_dict()
    assert d["total"] == 33 and d["monuments"] == 19 and d["after"] == 43
    assert list(d)[: len(CATEGORIES)] == list(CATEGORIES)
