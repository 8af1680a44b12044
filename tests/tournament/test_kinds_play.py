"""Arena seating and round-robin schedules (issue 55), in-process with times passed in."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import combinations

import pytest

from ra.tournament import (
    Entrant,
    FinishedTable,
    Kind,
    Seat,
    Settings,
    TournamentError,
    is_open,
    pair_round,
    schedule,
    seat_free,
)

START = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
ARENA = Settings(kind=Kind.ARENA, table_size=2, minutes=120)


def people(names: str) -> list[Entrant]:
    return [Entrant(n, 1500 + 10 * i) for i, n in enumerate(names)]


def test_the_first_to_come_free_are_seated_and_the_rest_wait() -> None:
    seating = seat_free(people("abcde"), [], ARENA, list("ebcad"), seed=1, started=START, now=START)
    assert sorted(p for t in seating.tables for p in t if p) == sorted("ebca") and seating.waiting == ("d",)


def test_no_new_game_once_the_arena_has_closed() -> None:
    late = START + timedelta(minutes=120)
    seating = seat_free(people("abcd"), [], ARENA, list("abcd"), seed=1, started=START, now=late)
    assert seating.tables == () and seating.waiting == tuple("abcd")


def test_players_are_not_seated_with_their_last_table_mates_while_others_are_free() -> None:
    # All level: by rating d, c, b, a, so neighbours in the standings are last table-mates.
    last = [
        FinishedTable(1, (Seat("a", 10), Seat("b", 10))),
        FinishedTable(2, (Seat("c", 10), Seat("d", 10))),
    ]
    for seed in range(10):
        seating = seat_free(people("abcd"), last, ARENA, list("abcd"), seed, START, START)
        assert {frozenset(t) for t in seating.tables}.isdisjoint({frozenset("ab"), frozenset("cd")})


def test_bots_fill_the_last_arena_table_only_when_allowed() -> None:
    allowed = Settings(kind=Kind.ARENA, table_size=3, bots=True)
    seating = seat_free(people("abcd"), [], allowed, list("abcd"), 1, START, START)
    assert seating.waiting == () and sum(t.count(None) for t in seating.tables) == 2


def test_the_arena_refuses_a_stranger_or_a_double_and_a_swiss_event() -> None:
    with pytest.raises(TournamentError, match="'z'"):
        seat_free(people("ab"), [], ARENA, ["a", "z"], 1, START, START)
    with pytest.raises(TournamentError, match="twice"):
        seat_free(people("ab"), [], ARENA, ["a", "a"], 1, START, START)
    with pytest.raises(TournamentError, match="arena"):
        pair_round(people("ab"), [], ARENA, 1)


def test_a_player_who_missed_twice_is_not_seated_again() -> None:
    missed = [FinishedTable(r, (Seat("a", 0, forfeit=True), Seat("b", 9))) for r in (1, 2)]
    seating = seat_free(people("abc"), missed, ARENA, list("abc"), 1, START, START)
    assert "a" not in seating.waiting and all("a" not in t for t in seating.tables)
    swiss = pair_round(people("abc"), missed, Settings(table_size=2), 1)
    assert "a" not in swiss.players() + list(swiss.byes)


@pytest.mark.parametrize("n", range(2, 11))
@pytest.mark.parametrize("size", [2, 3, 4, 5])
def test_a_round_robin_seats_every_pair_together(n: int, size: int) -> None:
    names = "abcdefghij"[:n]
    rounds = schedule(people(names), Settings(kind=Kind.ROUND_ROBIN, table_size=size), seed=3)
    met = {frozenset(p) for r in rounds for t in r.tables for p in combinations([x for x in t if x], 2)}
    assert met == {frozenset(p) for p in combinations(names, 2)}
    for r in rounds:
        assert sorted(r.players() + list(r.byes)) == sorted(names)
    if size == 2:
        assert len(rounds) == n - 1 + n % 2
        assert all(sum(b == p for r in rounds for b in r.byes) == n % 2 for p in names)


def test_a_round_robin_is_for_small_groups() -> None:
    with pytest.raises(TournamentError, match="2 to 10"):
        schedule(people("abcdefghijk"), Settings(kind=Kind.ROUND_ROBIN, table_size=3), 1)


def test_a_swiss_event_has_no_round_after_its_last() -> None:
    settings = Settings(table_size=2, rounds=1)
    done = [FinishedTable(1, (Seat("a", 20), Seat("b", 10)))]
    with pytest.raises(TournamentError, match="all its 1 rounds") as caught:
        pair_round(people("ab"), done, settings, 1)
    assert caught.value.option == "rounds"
    assert pair_round(people("ab"), done, Settings(table_size=2, rounds=2), 1).players()


def test_a_result_of_round_zero_is_refused() -> None:
    with pytest.raises(TournamentError, match="round"):
        pair_round(
            people("ab"), [FinishedTable(0, (Seat("a", 20), Seat("b", 10)))], Settings(table_size=2), 1
        )


def test_a_player_away_is_left_out_of_the_round_and_seated_again_after() -> None:
    away = pair_round(people("abcde"), [], Settings(table_size=2), 1, absent={"c"})
    assert "c" not in away.players() and sorted(away.players()) == list("abde")
    back = pair_round(people("abcde"), [], Settings(table_size=2, byes=True), 1)
    assert "c" in back.players() + list(back.byes)


def test_a_time_without_its_zone_is_refused_by_name() -> None:
    naive = datetime(2026, 12, 1, 18, 0)
    with pytest.raises(TournamentError, match="time zone") as caught:
        seat_free(people("ab"), [], ARENA, ["a", "b"], 1, START, naive)
    assert caught.value.option == "now"
    with pytest.raises(TournamentError) as caught:
        is_open(ARENA, naive, START)
    assert caught.value.option == "started"
