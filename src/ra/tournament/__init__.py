"""Tournaments: kinds of event, scoring, standings and pairing — pure and deterministic.

Nothing here reads a clock, a file or the global random: times and seeds are passed in, and
the standings and each round's tables are functions of the stored results, so any worker of the
site derives the same ones (docs/tournaments.md).

>>> from fractions import Fraction
>>> from ra.tournament import Entrant, FinishedTable, Seat, Settings, pair_round, standings
>>> people = [Entrant(name) for name in "abcdef"]
>>> first = pair_round(people, [], Settings(table_size=3, rounds=3), seed=7)
>>> len(first.tables), sorted(first.players()) == list("abcdef")
(2, True)
>>> done = [FinishedTable(1, tuple(Seat(p, score=10 * i) for i, p in enumerate(t))) for t in first.tables]
>>> [line.points for line in standings(people, done, Settings(table_size=3))][:2]
[Fraction(1, 1), Fraction(1, 1)]
"""

from __future__ import annotations

from ra.tournament.arena import Seating, is_open, seat_free
from ra.tournament.kinds import Kind, Layout, Settings, TournamentError, layout
from ra.tournament.pairing import Contender, Round, pair
from ra.tournament.results import Bye, Entrant, FinishedTable, Result, Seat, match_points
from ra.tournament.round_robin import schedule
from ra.tournament.rounds import pair_round
from ra.tournament.standings import Standing, standings

__all__ = [
    "Bye",
    "Contender",
    "Entrant",
    "FinishedTable",
    "Kind",
    "Layout",
    "Result",
    "Round",
    "Seat",
    "Seating",
    "Settings",
    "Standing",
    "TournamentError",
    "is_open",
    "layout",
    "match_points",
    "pair",
    "pair_round",
    "schedule",
    "seat_free",
    "standings",
]
