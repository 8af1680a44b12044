"""Two-player tables as a maximum-weight matching (networkx) where neighbours in the standings met.

Imported only when networkx is installed (:mod:`ra.tournament.pairing` checks).  Neighbours in
the standings who never met are paired as they stand — for points in order that is the
matching's own answer (neighbours have the least sum of squared gaps).  Around a pair who met, a
window of the standings is matched by networkx's blossom algorithm, which is exact: inside the
window no pair repeats while another matching avoids it, and among those the gaps of points are
the smallest.  A window that must repeat a pair is grown until it need not or holds everyone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import networkx as nx

if TYPE_CHECKING:
    from ra.tournament.pairing import Contender

REPEAT_WEIGHT = 10**15
"""What one repeated pair takes off a matching's weight: more than all the gaps can."""
GAP_SCALE = 1_000_000
"""Squared gaps of points are weighed in millionths (the matching needs whole numbers)."""
ENUMERATE_UP_TO = 8
"""Windows of up to this many players try all their matchings (105 for 8), which is quicker
than building a graph for networkx; the answer is the same maximum."""


def match_pairs(
    seated: Sequence[Contender],
    repeats: Callable[[str, str], int],
    spread: Callable[[str, str], float],
    margin: int,
) -> list[list[Contender]]:
    """``seated`` (best first, an even number) in pairs: neighbours in the standings (first with
    second …) where they have not met; around a pair that has, a window ``margin`` players either
    way matched exactly, grown while it repeats a pair and holds less than everyone."""
    segments: list[tuple[int, int, list[tuple[int, int]]]] = []  # (start, end, pairs) in order
    i, n, matched_end = 0, len(seated), 0
    while i < n:
        if not repeats(seated[i].player, seated[i + 1].player):
            segments.append((i, i + 2, [(i, i + 1)]))
            i += 2
            continue
        lo, hi = max(i - margin, matched_end), i + 2 + margin
        while True:
            lo, hi = max(0, lo), min(n, hi)
            while segments and segments[-1][1] > lo:
                lo = min(lo, segments.pop()[0])
            found = _match(seated, lo, hi, repeats, spread)
            if (lo == 0 and hi == n) or not any(
                repeats(seated[a].player, seated[b].player) for a, b in found
            ):
                break
            lo, hi = lo - 2 * margin, hi + 2 * margin
        segments.append((lo, hi, found))
        i = matched_end = hi
    return [[seated[a], seated[b]] for _, _, pairs in segments for a, b in pairs]


def _match(
    seated: Sequence[Contender],
    lo: int,
    hi: int,
    repeats: Callable[[str, str], int],
    spread: Callable[[str, str], float],
) -> list[tuple[int, int]]:
    """The best perfect matching of ``seated[lo:hi]`` (an even number), as indices in order:
    by networkx, or for up to :data:`ENUMERATE_UP_TO` players by trying every matching."""
    window = seated[lo:hi]
    weights: dict[tuple[int, int], int] = {}
    for i, a in enumerate(window):
        for j in range(i + 1, len(window)):
            gap = round(spread(a.player, window[j].player) * GAP_SCALE)
            penalty = REPEAT_WEIGHT * repeats(a.player, window[j].player) + gap * len(window) + (j - i)
            weights[i, j] = REPEAT_WEIGHT * 4 - penalty
    if len(window) <= ENUMERATE_UP_TO:
        matched = _best_matching(list(range(len(window))), weights)[1]
    else:
        graph = nx.Graph()
        graph.add_weighted_edges_from((i, j, w) for (i, j), w in weights.items())
        matched = nx.max_weight_matching(graph, maxcardinality=True)
    ordered = sorted((min(i, j), max(i, j)) for i, j in matched)
    return [(lo + i, lo + j) for i, j in ordered]


def _best_matching(left: list[int], weights: dict[tuple[int, int], int]) -> tuple[int, list[tuple[int, int]]]:
    """The heaviest perfect matching of ``left`` (its weight and pairs), trying every one."""
    if not left:
        return 0, []
    first, rest = left[0], left[1:]
    best: tuple[int, list[tuple[int, int]]] | None = None
    for k, other in enumerate(rest):
        weight, pairs = _best_matching(rest[:k] + rest[k + 1 :], weights)
        weight += weights[first, other]
        if best is None or weight > best[0]:
            best = (weight, [(first, other), *pairs])
    assert best is not None
    return best
