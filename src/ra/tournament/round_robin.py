"""A round robin for a small group: rounds until everyone has shared a table with everyone.

At two-player tables it is the circle method (Berger tables): n - 1 rounds for an even
count, n for an odd one, each player sitting out once.  At tables of 3 to 5, each round is the
grouping with the most pairs who have not yet met (the exhaustive search of
:mod:`ra.tournament.pairing`, which stops only when every pair has met, one new pair at least a
round), seat order balanced.  The whole schedule is known at the start.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from ra.tournament.kinds import MIN_TABLE, ROUND_ROBIN_MAX, Kind, Settings, TournamentError
from ra.tournament.pairing import Contender, Round, pair
from ra.tournament.results import Entrant


def schedule(entrants: Sequence[Entrant], settings: Settings, seed: int) -> list[Round]:
    """Every round of a round robin of ``entrants`` at ``settings.table_size``."""
    if settings.check().kind is not Kind.ROUND_ROBIN:
        raise TournamentError("a schedule is for a round robin", "kind")
    names = [e.player for e in entrants]
    if len(set(names)) != len(names):
        raise TournamentError(f"a player is listed twice: {names}", "entrants")
    if not MIN_TABLE <= len(names) <= ROUND_ROBIN_MAX:
        raise TournamentError(f"a round robin takes {MIN_TABLE} to {ROUND_ROBIN_MAX} players", "entrants")
    if settings.table_size == MIN_TABLE and not settings.bots:
        return _circle(names)
    return _covering(entrants, settings, seed)


def _circle(names: list[str]) -> list[Round]:
    """The circle method: one player fixed, the others turning; first seats alternating."""
    ring: list[str | None] = [*names, None] if len(names) % 2 else list(names)
    rounds = []
    for r in range(len(ring) - 1):
        tables, byes = [], []
        for i in range(len(ring) // 2):
            a, b = ring[i], ring[-1 - i]
            if a is None or b is None:
                byes.append(a or b or "")
            else:
                tables.append((a, b) if (r + i) % 2 == 0 else (b, a))
        rounds.append(Round(tuple(tables), tuple(byes)))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def _covering(entrants: Sequence[Entrant], settings: Settings, seed: int) -> list[Round]:
    """Rounds of the groupings that seat the most new pairs, until every pair has met."""
    mates: dict[str, set[str]] = {e.player: set() for e in entrants}
    firsts = dict.fromkeys(mates, 0)
    unmet = len(mates) * (len(mates) - 1) // 2
    rounds: list[Round] = []
    while unmet:
        field = [Contender(e.player, rating=e.rating, firsts=firsts[e.player]) for e in entrants]
        round_ = pair(field, mates, settings, seed + len(rounds))
        for table in round_.tables:
            seated = [p for p in table if p is not None]
            firsts[seated[0]] += 1
            for a, b in combinations(seated, 2):
                unmet -= b not in mates[a]
                mates[a].add(b)
                mates[b].add(a)
        rounds.append(round_)
    return rounds
