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
    """The best perfect matching of ``seated[lo:hi]`` (an even number), as indices in order."""
    window = seated[lo:hi]
    graph = nx.Graph()
    top = REPEAT_WEIGHT * 4
    for i, a in enumerate(window):
        for j in range(i + 1, len(window)):
            b = window[j]
            gap = round(spread(a.player, b.player) * GAP_SCALE)
            weight = top - REPEAT_WEIGHT * repeats(a.player, b.player) - gap * len(window) - (j - i)
            graph.add_edge(i, j, weight=weight)
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    ordered = sorted((min(i, j), max(i, j)) for i, j in matched)
    return [(lo + i, lo + j) for i, j in ordered]
