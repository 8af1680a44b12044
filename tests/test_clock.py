"""A table's clock (:mod:`ra.clock`) with a fake ``now``: the time a decision has, the clock
after it, when time is up, what a time-out brings, and the site's deadline — each rule in
microseconds, with no server and no waiting."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from ra.clock import MOVE_DEADLINE, PLAIN, Clock, out_of_time, seconds_for

DUE = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
"""When the decision now due became due, in every test."""


def at(seconds: float) -> datetime:
    """``seconds`` after :data:`DUE`."""
    return DUE + timedelta(seconds=seconds)


def test_a_clock_per_decision_gives_each_decision_its_seconds() -> None:
    clock = Clock(move_seconds=60)
    assert clock.clocked and not clock.per_game
    assert clock.allowed(None) == clock.allowed(12.0) == 60.0  # a bank means nothing here
    assert clock.left(None, DUE, at(15)) == 45.0
    assert clock.left(None, DUE, at(90)) == 0.0  # never below nothing
    assert not clock.is_out(None, False, DUE, at(59.9))
    assert clock.is_out(None, False, DUE, at(60))
    assert clock.charged(None, DUE, at(15)) is None  # nothing to charge per decision
    assert clock.shown(None, True, DUE, at(15)) is None  # the lobby shows game clocks only


def test_a_game_clock_runs_down_is_charged_with_the_increment_and_never_grows_back_past_it() -> None:
    clock = Clock(game_seconds=600, increment=5)
    assert clock.per_game
    assert clock.allowed(None) == 600.0  # never charged: the whole game's
    assert clock.charged(None, DUE, at(100)) == 505.0  # 600 - 100 + 5
    assert clock.charged(505.0, DUE, at(1000)) == 5.0  # ran out: only the increment
    assert clock.left(505.0, DUE, at(5)) == 500.0
    assert clock.is_out(30.0, False, DUE, at(30)) and not clock.is_out(30.0, False, DUE, at(29))
    assert clock.back(0.0) == 5.0  # a person back after a time-out gets the increment, no more
    assert clock.back(None) == 605.0
    assert clock.shown(505.0, True, DUE, at(5.04)) == 500.0  # the mover's runs down (to 0.1 s)
    assert clock.shown(505.0, False, DUE, at(5000)) == 505.0  # the others' stand still


def test_a_table_without_a_clock_has_the_sites_deadline_per_decision() -> None:
    clock = Clock(deadline=1000.0)
    assert not clock.clocked
    assert clock.allowed(None) is None and clock.left(None, DUE, at(1)) is None
    assert clock.time_for(None) == 1000.0
    assert clock.time_left(None, DUE, at(400)) == 600.0
    assert not clock.is_out(None, False, DUE, at(999)) and clock.is_out(None, False, DUE, at(1000))
    assert Clock().time_for(None) == MOVE_DEADLINE == 3 * 86400.0


def test_a_seat_away_is_decided_for_at_once_and_an_unknown_start_is_now() -> None:
    clock = Clock(move_seconds=3600)
    assert clock.is_out(None, True, DUE, DUE)
    assert not clock.is_out(None, False, None, at(10_000))  # unknown: it became due now
    assert clock.left(None, None, at(5)) is None
    assert clock.time_left(None, None, at(5)) == 3600.0
    assert clock.time_left(None, at(10), DUE) == 3600.0  # a start after now counts no time


@pytest.mark.parametrize(
    ("rule", "clocked", "before", "forfeits"),
    [
        ("stand_in", True, False, False),
        ("stand_in", True, True, False),  # a stand-in every time, never a forfeit
        ("second", True, False, False),  # the first time: a stand-in
        ("second", True, True, True),  # the second time: a forfeit
        ("forfeit", True, False, True),
        ("stand_in", False, False, True),  # the site's deadline: always a forfeit
    ],
)
def test_what_a_time_out_brings(rule: str, clocked: bool, before: bool, forfeits: bool) -> None:
    clock = Clock(move_seconds=60 if clocked else None, on_timeout=rule)
    assert clock.forfeits(stood_in_before=before) is forfeits


def test_a_clock_that_cannot_be_is_refused_with_the_reason() -> None:
    with pytest.raises(ValueError, match="unknown timeout rule 'later'"):
        Clock(move_seconds=60, on_timeout="later")
    with pytest.raises(ValueError, match="per decision or per game, not both"):
        Clock(move_seconds=60, game_seconds=600)


def test_the_rule_written_over_terms_is_the_one_the_sweep_uses() -> None:
    """The functions the store builds its SQL from, evaluated on numbers (unset: None)."""
    assert seconds_for(PLAIN, None, 600.0, None, 9.0) == 600.0
    assert seconds_for(PLAIN, None, 600.0, 12.5, 9.0) == 12.5
    assert seconds_for(PLAIN, None, None, 12.5, 9.0) == 9.0  # a bank without a game clock: none
    assert seconds_for(PLAIN, 60.0, None, 12.5, 9.0) == 60.0
    assert out_of_time(PLAIN, 0.0, 100.0, 60.0, 160.0) and not out_of_time(PLAIN, 0.0, 100.0, 60.0, 159.0)
    assert out_of_time(PLAIN, 1.0, 100.0, 60.0, 100.0)
    assert not out_of_time(PLAIN, 0.0, None, 60.0, 100.0)
