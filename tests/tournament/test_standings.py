"""Scoring and standings (issue 55): match points by place, tie-breaks, forfeits, arena streaks."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ra.tournament import (
    Bye,
    Entrant,
    FinishedTable,
    Kind,
    Seat,
    Settings,
    TournamentError,
    match_points,
    standings,
)

SWISS = Settings(table_size=3)


def table(round_: int, *seats: tuple[str | None, int]) -> FinishedTable:
    return FinishedTable(round_, tuple(Seat(p, s) for p, s in seats))


def people(names: str) -> list[Entrant]:
    return [Entrant(n) for n in names]


def test_match_points_go_by_place_and_ties_share() -> None:
    points = match_points(table(1, ("a", 30), ("b", 20), ("c", 20), ("d", 5)))
    assert points == {"a": 1, "b": Fraction(1, 2), "c": Fraction(1, 2), "d": 0}


def test_a_bot_takes_a_place_but_has_no_line() -> None:
    finished = table(1, ("a", 10), (None, 40), ("b", 5))
    assert match_points(finished) == {"a": Fraction(1, 2), "b": 0}
    assert [line.player for line in standings(people("ab"), [finished], SWISS)] == ["a", "b"]


def test_ra_points_break_a_tie_of_match_points() -> None:
    results = [table(1, ("a", 30), ("b", 10)), table(1, ("c", 50), ("d", 40))]
    lines = standings(people("abcd"), results, Settings(table_size=2))
    assert [line.player for line in lines] == ["c", "a", "d", "b"]
    assert [line.rank for line in lines] == [1, 2, 3, 4]


def test_opponents_points_break_a_tie_of_ra_points() -> None:
    # a and c both won with 20 Ra points; a's opponent b went on to win round 2, c's opponent d lost.
    results = [
        table(1, ("a", 20), ("b", 10)),
        table(1, ("c", 20), ("d", 10)),
        table(2, ("b", 15), ("d", 5)),
    ]
    lines = {line.player: line for line in standings(people("abcd"), results, Settings(table_size=2))}
    assert lines["a"].opponents == 1 and lines["c"].opponents == 0
    assert lines["a"].ra_points == lines["c"].ra_points and lines["a"].rank < lines["c"].rank


def test_head_to_head_breaks_a_tie_of_everything_else() -> None:
    # a and b: one win and one loss each, 30 Ra points, opponents of 1 point each; a beat b.
    results = [table(1, ("a", 20), ("b", 10)), table(1, ("x", 25), ("y", 10))]
    results += [table(2, ("b", 20), ("x", 10)), table(2, ("y", 21), ("a", 10))]
    lines = {line.player: line for line in standings(people("abxy"), results, Settings(table_size=2))}
    assert lines["a"].key()[:3] == lines["b"].key()[:3]
    assert lines["a"].head_to_head == 1 and lines["b"].head_to_head == 0
    assert lines["a"].rank < lines["b"].rank


def test_players_level_on_everything_share_a_rank() -> None:
    lines = standings(people("ab"), [table(1, ("a", 20), ("b", 20))], Settings(table_size=2))
    assert [line.rank for line in lines] == [1, 1]


def test_a_forfeit_scores_last_and_two_leave_the_event() -> None:
    forfeit = FinishedTable(1, (Seat("a", 0, forfeit=True), Seat("b", 3), Seat("c", 1)))
    assert match_points(forfeit)["a"] == 0
    again = FinishedTable(2, (Seat("a", 99, forfeit=True), Seat("b", 3), Seat("c", 1)))
    lines = {line.player: line for line in standings(people("abc"), [forfeit], SWISS)}
    assert lines["a"].missed == 1 and not lines["a"].left
    lines = {line.player: line for line in standings(people("abc"), [forfeit, again], SWISS)}
    assert lines["a"].left and lines["a"].ra_points == 0 and lines["a"].points == 0


def test_a_bye_scores_as_a_first_place() -> None:
    lines = {line.player: line for line in standings(people("ab"), [Bye(1, "a")], SWISS)}
    assert lines["a"].points == 1 and lines["a"].byes == 1 and lines["b"].points == 0


def test_arena_points_double_after_two_first_places_in_a_row() -> None:
    arena = Settings(kind=Kind.ARENA, table_size=2)
    wins = [table(i, ("a", 20), ("b", 10)) for i in range(1, 5)]
    lines = {line.player: line for line in standings(people("ab"), wins, arena)}
    assert lines["a"].points == 2 + 2 + 4 + 4 and lines["b"].points == 0
    calm = Settings(kind=Kind.ARENA, table_size=2, streak=False)
    assert standings(people("ab"), wins, calm)[0].points == 8


def test_a_result_naming_a_stranger_or_a_double_round_is_refused() -> None:
    with pytest.raises(TournamentError, match="'z'"):
        standings(people("ab"), [table(1, ("a", 1), ("z", 2))], SWISS)
    with pytest.raises(TournamentError, match="two results in round 1"):
        standings(people("ab"), [table(1, ("a", 1), ("b", 2)), Bye(1, "a")], SWISS)
    with pytest.raises(TournamentError, match="seats"):
        FinishedTable(1, (Seat("a", 1),))
    with pytest.raises(TournamentError, match="twice"):
        FinishedTable(1, (Seat("a", 1), Seat("a", 2)))


@given(st.integers(0, 10_000), st.integers(2, 5))
def test_standings_are_a_function_of_the_results_in_any_order(seed: int, size: int) -> None:
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(size * 3)]
    results = []
    for round_ in range(1, 4):
        rng.shuffle(names)
        for t in range(3):
            seats = names[t * size : (t + 1) * size]
            results.append(table(round_, *((p, rng.randint(0, 40)) for p in seats)))
    settings = Settings(table_size=size)
    once = standings(people_of(names), results, settings)
    rng.shuffle(results)
    assert once == standings(people_of(names), results, settings)
    total = sum((line.match_points for line in once), Fraction(0))
    assert total == 3 * 3 * Fraction(size, 2)  # each table hands out (size - 1) × size / 2 pairs' points


def people_of(names: list[str]) -> list[Entrant]:
    return [Entrant(n) for n in sorted(names)]


def test_entrants_listed_twice_or_seats_that_are_not_seats_are_refused() -> None:
    with pytest.raises(TournamentError, match="'a'") as caught:
        standings(people("aba"), [], SWISS)
    assert caught.value.option == "entrants"
    with pytest.raises(TournamentError, match="tuple of Seat"):
        FinishedTable(1, [Seat("a"), Seat("b")])  # type: ignore[arg-type]
    with pytest.raises(TournamentError, match="table_size"):
        standings(people("ab"), [], Settings(table_size=9))


def test_the_game_that_ends_a_streak_still_counts_double() -> None:
    arena = Settings(kind=Kind.ARENA, table_size=3)
    games = [table(i, ("a", 30), ("b", 20), ("c", 10)) for i in (1, 2)]
    games += [table(3, ("b", 30), ("a", 20), ("c", 10)), table(4, ("b", 30), ("a", 20), ("c", 10))]
    line = next(s for s in standings(people("abc"), games, arena) if s.player == "a")
    assert line.points == 2 + 2 + 2 * 1 + 1  # the second place on the streak: 1 doubled; after it: 1
    assert line.streak == 0
