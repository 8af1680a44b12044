"""Pairing: who sits at which table, in which seat — pure and deterministic given a seed.

:func:`pair` forms one round's tables from the players' points, who already shared a table
(``mates``) and how often each sat first.  What it optimises, in order:

1. no two players share a table again while another grouping avoids it;
2. each table's score spread (the sum, over its pairs of players, of the squared difference of
   their points) is as small as it can be: tables are formed from score groups, top down;
3. at each table the player who sat first least often sits first (seat 0); the others, and
   equals, by who sat later so far (they sit earlier), then the seed's draw.

Two-player tables pair neighbours in the standings, and around a pair who already met, a
maximum-weight matching (networkx's ``max_weight_matching``) of a window of the standings, grown
while it must repeat a pair (:mod:`ra.tournament.matching`); up to
:data:`EXACT_UP_TO` players any table size is searched exhaustively; above that, tables of 3 to 5
are formed greedily by score groups and then improved by swapping players between tables while
that lowers the repeats and the spread; while a pair still repeats, the tables that repeat are
shaken up at random (from a seeded generator) and improved again, the cheaper grouping kept.
Without networkx two-player tables take the last path.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from ra.tournament.kinds import Layout, Settings, TournamentError, layout

Mates = Mapping[str, Collection[str]]
"""For each player, the players they have already shared a table with."""

REPEAT = 1_000_000.0
"""The cost of one repeated pair of table-mates: more than any spread of points can cost."""
EXACT_UP_TO = 10
"""Up to this many seated players the grouping is searched exhaustively (a few thousand ways)."""
WINDOW = 12
"""How far down the standings the greedy grouping looks for a player new to a table."""
MARGIN = 2
"""Players either way of a repeated pair whom the two-player matching reconsiders (grown while
it must repeat a pair)."""
NEAR = 3
"""How many tables either way the swap improvement tries first."""
PASSES = 30
"""The most passes of the swap improvement."""
MATCHING = True
"""Pair two-player tables by networkx's matching when it is installed; ``False`` pairs them as
larger tables are grouped (the benchmark's ``--no-networkx``, and the tests of that path)."""
KICKS = 60
"""The most random restarts of the swap improvement while a pair still repeats."""


@dataclass(frozen=True, slots=True)
class Contender:
    """A player to seat this round: their points (orders the standings), rating (orders equal
    points), how often they sat first, how many byes they had, and how late they sat so far
    (``late``: the sum over their tables of seat / (seats - 1), 0 first, 1 last)."""

    player: str
    points: Fraction = Fraction(0)
    rating: float = 1500.0
    firsts: int = 0
    byes: int = 0
    late: Fraction = Fraction(0)


@dataclass(frozen=True, slots=True)
class Round:
    """One round's tables, each in seat order (seat 0 plays first; ``None`` is a bot's seat), and
    the players with a bye."""

    tables: tuple[tuple[str | None, ...], ...]
    byes: tuple[str, ...] = ()

    def players(self) -> list[str]:
        """Every player seated, table by table."""
        return [p for table in self.tables for p in table if p is not None]


def pair(contenders: Sequence[Contender], mates: Mates, settings: Settings, seed: int) -> Round:
    """One round for ``contenders`` at ``settings.table_size`` (see the module's docstring); the
    tables are listed from the top of the standings down."""
    names = [c.player for c in contenders]
    if len(set(names)) != len(names):
        raise TournamentError(f"a player is listed twice: {sorted(n for n in names if names.count(n) > 1)}")
    rng = random.Random(seed)
    ranked = ranked_order(contenders, rng)
    plan = layout(len(ranked), settings)
    byes = _byes(ranked, plan.byes)
    seated = [c for c in ranked if c.player not in byes]
    groups = group(seated, capacities(plan), mates, rng)
    place = {c.player: i for i, c in enumerate(ranked)}
    ordered = sorted(
        zip(groups, plan.tables, strict=True), key=lambda gs: min(place[c.player] for c in gs[0])
    )
    tables = tuple(_seat(g, size, rng) for g, size in ordered)
    return Round(tables, tuple(c.player for c in ranked if c.player in byes))


def ranked_order(contenders: Sequence[Contender], rng: random.Random) -> list[Contender]:
    """Best first: points, then rating, then the seed's draw (not the order given)."""
    draw = {c.player: rng.random() for c in sorted(contenders, key=lambda c: c.player)}
    return sorted(contenders, key=lambda c: (-c.points, -c.rating, draw[c.player]))


def _byes(ranked: list[Contender], count: int) -> set[str]:
    """The lowest-ranked players with the fewest byes so far (one bye each while it can be)."""
    bottom_up = sorted(reversed(ranked), key=lambda c: c.byes)  # stable: lowest first among equals
    return {c.player for c in bottom_up[:count]}


def capacities(plan: Layout) -> list[int]:
    """Players per table: the layout's sizes less the bot seats, one bot a table from the bottom."""
    caps = list(plan.tables)
    for i in range(plan.bots):
        caps[-1 - i % len(caps)] -= 1
    return caps


def group(
    seated: Sequence[Contender], caps: Sequence[int], mates: Mates, rng: random.Random
) -> list[list[Contender]]:
    """``seated`` (best first) into tables holding ``caps`` players each, by the module's aims."""
    if not seated:
        return [[] for _ in caps]
    points = {c.player: float(c.points) for c in seated}
    cost = TableCost(points, mates)
    if all(c == 2 for c in caps) and len(seated) > EXACT_UP_TO and MATCHING and networkx_installed():
        from ra.tournament.matching import match_pairs

        return match_pairs(seated, cost.repeats, cost.spread, MARGIN)
    if len(seated) <= EXACT_UP_TO:
        return _exact(list(seated), list(caps), cost)
    tables = _greedy(list(seated), caps, cost)
    _improve(tables, cost)
    return _kick(tables, cost, rng)


def networkx_installed() -> bool:
    """Whether networkx can be imported (the web extra installs it)."""
    try:
        import networkx  # noqa: F401
    except ImportError:
        return False
    return True


class TableCost:
    """What a table costs: :data:`REPEAT` per repeated pair plus the squared gaps of points."""

    def __init__(self, points: Mapping[str, float], mates: Mates) -> None:
        self.points = points
        self.mates = mates

    def repeats(self, a: str, b: str) -> int:
        """1 if ``a`` and ``b`` have shared a table before, else 0."""
        return int(b in self.mates.get(a, ()))

    def spread(self, a: str, b: str) -> float:
        """The squared gap between the points of ``a`` and ``b``."""
        return (self.points[a] - self.points[b]) ** 2

    def pair(self, a: str, b: str) -> float:
        """What seating ``a`` with ``b`` costs."""
        return REPEAT * self.repeats(a, b) + self.spread(a, b)

    def table(self, players: Sequence[Contender]) -> float:
        """What a whole table costs."""
        return sum(self.pair(a.player, b.player) for a, b in combinations(players, 2))


def _exact(pool: list[Contender], caps: list[int], cost: TableCost) -> list[list[Contender]]:
    """The cheapest grouping of a small ``pool`` into tables of ``caps`` (in that order); on
    ties the first found, which seats the best players together."""
    best: tuple[float, list[list[Contender]]] = (float("inf"), [])

    def search(pool: list[Contender], tables: dict[int, list[Contender]], spent: float) -> None:
        nonlocal best
        if spent >= best[0]:
            return
        if len(tables) == len(caps):
            best = (spent, [tables[i] for i in range(len(caps))])
            return
        anchor, rest = pool[0], pool[1:]
        free = {caps[i]: i for i in reversed(range(len(caps))) if i not in tables}  # a table per size
        for size, index in sorted(free.items(), reverse=True):
            for others in combinations(range(len(rest)), size - 1):
                table = [anchor, *(rest[i] for i in others)]
                left = [p for i, p in enumerate(rest) if i not in others]
                search(left, {**tables, index: table}, spent + cost.table(table))

    search(pool, {}, 0.0)
    return best[1]


def _greedy(pool: list[Contender], caps: Sequence[int], cost: TableCost) -> list[list[Contender]]:
    """Tables filled top down: the best player left, then the next players new to the table."""
    tables = []
    for cap in caps:
        table = [pool.pop(0)]
        while len(table) < cap:
            table.append(pool.pop(_pick(pool, table, cost)))
        tables.append(table)
    return tables


def _pick(pool: Sequence[Contender], table: Sequence[Contender], cost: TableCost) -> int:
    """The index of the first of the next :data:`WINDOW` players who repeats no one at the
    table, else of the one who repeats fewest."""
    best, fewest = 0, len(table) + 1
    for i, candidate in enumerate(pool[:WINDOW]):
        repeats = sum(cost.repeats(candidate.player, p.player) for p in table)
        if repeats == 0:
            return i
        if repeats < fewest:
            best, fewest = i, repeats
    return best


def _improve(tables: list[list[Contender]], cost: TableCost, dirty: Iterable[int] | None = None) -> None:
    """Swap players between tables while a swap lowers the cost: each table with its
    :data:`NEAR` neighbours below, and a table that repeats a pair with every other table.
    Only ``dirty`` tables (all by default) are tried first, then those near a swap."""
    costs = [cost.table(t) for t in tables]
    todo = set(range(len(tables)) if dirty is None else dirty)
    for _ in range(PASSES):
        touched: set[int] = set()
        for t in sorted(todo):
            wide = costs[t] >= REPEAT
            others = range(len(tables)) if wide else range(t + 1, min(len(tables), t + 1 + NEAR))
            for u in others:
                if u != t and _swap(tables, costs, t, u, cost):
                    touched.update(_near(t), _near(u))
        if not touched:
            return
        todo = touched | {t for t, c in enumerate(costs) if c >= REPEAT}


def _near(t: int) -> range:
    """Table ``t`` and the :data:`NEAR` tables above it (those whose scan reaches it)."""
    return range(max(0, t - NEAR), t + 1)


def _kick(tables: list[list[Contender]], cost: TableCost, rng: random.Random) -> list[list[Contender]]:
    """Iterated local search while a pair repeats: swap one player of each repeated pair with a
    random player anywhere, improve again, keep the cheaper grouping; at most :data:`KICKS` times."""
    best, best_cost = tables, sum(cost.table(t) for t in tables)
    for _ in range(KICKS):
        if best_cost < REPEAT:
            break
        trial = [list(t) for t in best]
        kicked: set[int] = set()
        for t in [i for i, table in enumerate(trial) if cost.table(table) >= REPEAT]:
            repeating = [i for i, a in enumerate(trial[t]) if _repeats_at(a, trial[t], cost)]
            if not repeating:  # an earlier swap of this shake-up mended the table
                continue
            u = rng.randrange(len(trial))
            i, j = rng.choice(repeating), rng.randrange(len(trial[u]))
            trial[t][i], trial[u][j] = trial[u][j], trial[t][i]
            kicked.update(_near(t), _near(u))
        _improve(trial, cost, kicked)
        trial_cost = sum(cost.table(t) for t in trial)
        if trial_cost < best_cost:
            best, best_cost = trial, trial_cost
    return best


def _repeats_at(player: Contender, table: Sequence[Contender], cost: TableCost) -> bool:
    """Whether ``player`` has met someone else at ``table`` before."""
    return any(cost.repeats(player.player, other.player) for other in table if other is not player)


def _swap(tables: list[list[Contender]], costs: list[float], t: int, u: int, cost: TableCost) -> bool:
    """Make the best swap of one player between tables ``t`` and ``u`` if it lowers their cost."""
    if costs[t] + costs[u] == 0:
        return False
    best: tuple[float, int, int] | None = None
    for i, a in enumerate(tables[t]):
        for j, b in enumerate(tables[u]):
            change = _change(tables[t], a, b, cost) + _change(tables[u], b, a, cost)
            if change < -1e-9 and (best is None or change < best[0]):
                best = (change, i, j)
    if best is None:
        return False
    _, i, j = best
    tables[t][i], tables[u][j] = tables[u][j], tables[t][i]
    costs[t], costs[u] = cost.table(tables[t]), cost.table(tables[u])
    return True


def _change(table: Sequence[Contender], leaving: Contender, coming: Contender, cost: TableCost) -> float:
    """How a table's cost changes when ``coming`` takes the seat of ``leaving``."""
    return sum(
        cost.pair(coming.player, p.player) - cost.pair(leaving.player, p.player)
        for p in table
        if p is not leaving
    )


def _seat(players: Sequence[Contender], size: int, rng: random.Random) -> tuple[str | None, ...]:
    """Seat order: who sat first least often first; between equals, who sat later more (their
    ``late``) earlier, then the seed's draw; bots last."""
    draw = {c.player: rng.random() for c in players}
    order = sorted(players, key=lambda c: (c.firsts, -c.late, draw[c.player]))
    return (*(c.player for c in order), *([None] * (size - len(order))))
