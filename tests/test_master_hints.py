"""Hints as intents of the game master (issue 56): :meth:`ra.table.Table.step` keeps at most one
hint in flight per seat, starts and cancels its search, and says who is sent its answer — pure,
in-process, with a fake ``now`` (as boardgame.io's ``master.test.ts``).  The rule is the table's:
a hint is cancelled once its decision is past, its seat away or forfeited, or nobody waits."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

import ra
from ra.master import (
    AskHint,
    CancelHint,
    Decide,
    Forfeit,
    HintAnswered,
    HintAsk,
    HintFailed,
    HintFailedFor,
    Leave,
    PageGone,
    RefusedError,
    SendHint,
    StartHint,
    TakeBack,
)
from ra.table import HintJob, Seat, Table, TableOptions

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def table(hints: bool = True) -> Table[str]:
    """Two people (seed 4) at a table with hints on (or off); a hint's answer is a string here."""
    game = ra.Game(["P1", "P2"], seed=4, hidden_scores=True)
    return Table(game, [Seat("P1"), Seat("P2")], TableOptions(hints=hints))


def mover(t: Table[str]) -> int:
    seat = t.game.to_move
    assert seat is not None
    return seat


def asked(t: Table[str], asker: str = "page") -> tuple[Table[str], int]:
    """The table after the person to move asked a hint from ``asker``, and that seat."""
    seat = mover(t)
    new, effects = t.step(AskHint(seat, t.game.num_decisions, asker), NOW)
    assert effects == [StartHint(t.hint_key(seat))]
    return new, seat


def test_a_hint_asked_starts_one_search_and_its_answer_goes_to_everyone_waiting() -> None:
    t = table()
    first, seat = asked(t)
    key = t.hint_key(seat)
    assert first.hints_asked == {seat: HintAsk(key, frozenset({"page"}))} and not t.hints_asked
    assert first.hint_wanted(key) and not t.hint_wanted(key)
    both, effects = first.step(AskHint(seat, 0, "tab"), NOW)  # a second page: it waits too
    assert effects == [] and both.hints_asked[seat].askers == {"page", "tab"}
    done, effects = both.step(HintAnswered(key, "bid 9 is best"), NOW)
    assert effects == [SendHint("page", key), SendHint("tab", key)]
    assert done.hints_asked == {} and done.hint_cache.get(key) == "bid 9 is best"
    again, effects = done.step(AskHint(seat, 0, "later"), NOW)  # asked again: from the cache
    assert effects == [SendHint("later", key)] and again.hints_asked == {}


def test_a_hint_is_refused_when_off_stale_not_yours_or_over_and_nothing_changes() -> None:
    t = table()
    seat = mover(t)
    cases = [
        (table(hints=False), AskHint(seat, 0, "p"), "no_hints"),
        (t, AskHint(seat, 3, "p"), "stale"),
        (t, AskHint(1 - seat, 0, "p"), "not_your_turn"),
        (t.replaced(away={seat}), AskHint(seat, 0, "p"), "not_your_turn"),
    ]
    for at, intent, code in cases:
        with pytest.raises(RefusedError) as err:
            at.step(intent, NOW)
        assert err.value.code == code and at.hints_asked == {}


def test_a_decision_makes_the_hint_stale_and_cancels_its_search() -> None:
    t, seat = asked(table())
    key = t.hint_key(seat)
    after, effects = t.step(Decide(seat, "ra", 0), NOW)
    assert effects[-1] == CancelHint(key) and after.hints_asked == {} and not after.hint_wanted(key)
    assert t.hints_asked[seat].key == key  # the old table is unchanged
    late, told = after.step(HintAnswered(key, "late"), NOW)  # an answer after all: kept, sent to nobody
    assert told == [] and late.hint_cache.get(key) == "late"


def test_an_undo_by_the_other_seat_cancels_the_hint_of_the_position_it_took_back() -> None:
    t = table()
    first = mover(t)
    played, _ = t.step(Decide(first, "ra", 0), NOW)
    waiting, seat = asked(played)
    key = waiting.hint_key(seat)
    back, effects = waiting.step(TakeBack(first, 1), NOW)
    assert CancelHint(key) in effects and back.hints_asked == {}


def test_a_seat_away_or_forfeited_has_its_hint_cancelled() -> None:
    t, seat = asked(table())
    key = t.hint_key(seat)
    for intent in (Leave(seat), Forfeit(seat)):
        gone, effects = t.step(intent, NOW)
        assert effects[-1] == CancelHint(key) and gone.hints_asked == {}


def test_a_newer_position_replaces_the_seats_hint_in_flight() -> None:
    """At most one in flight per seat: a hint of a position made current again (the other's
    undo) replaces one still in flight for the same seat (held over by a front end)."""
    t, seat = asked(table())
    key = t.hint_key(seat)
    other = t.replaced(hints_asked={seat: HintAsk((seat, ("pass",)), frozenset({"old"}))})
    new, effects = other.step(AskHint(seat, 0, "page"), NOW)
    assert effects == [CancelHint((seat, ("pass",))), StartHint(key)]
    assert new.hints_asked == {seat: HintAsk(key, frozenset({"page"}))}


def test_a_page_gone_cancels_the_hint_only_when_nobody_else_waits() -> None:
    t, seat = asked(table())
    key = t.hint_key(seat)
    both, _ = t.step(AskHint(seat, 0, "tab"), NOW)
    one, effects = both.step(PageGone("tab"), NOW)
    assert effects == [] and one.hints_asked[seat].askers == {"page"}
    none, effects = one.step(PageGone("page"), NOW)
    assert effects == [CancelHint(key)] and none.hints_asked == {}
    same, effects = none.step(PageGone("page"), NOW)
    assert same is none and effects == []


def test_a_failed_search_is_told_a_stopped_one_is_not_and_asking_again_starts_anew() -> None:
    t, seat = asked(table())
    key = t.hint_key(seat)
    failed, effects = t.step(HintFailed(key, error=True), NOW)
    assert effects == [HintFailedFor("page")] and failed.hints_asked == {}
    stopped, effects = t.step(HintFailed(key), NOW)
    assert effects == [] and stopped.hints_asked == {}
    _, effects = stopped.step(AskHint(seat, 0, "page"), NOW)
    assert effects == [StartHint(key)]  # nothing was cached: a new search


def test_the_hint_job_is_the_seats_view_with_the_advisors_seed() -> None:
    t = table()
    seat = mover(t)
    job = t.hint_job(seat, "300")
    assert job == HintJob(job.view, "300", 0) and job.view.seat == seat
    with pytest.raises(ValueError, match="not to move"):
        t.hint_job(1 - seat)


def test_no_front_end_builds_an_advisor_itself() -> None:
    """One hint pipeline (:func:`ra.table.advise`): the web's worker and the terminal's panel
    both go through it (the web built its own ``Advisor``, the terminal called
    ``advise_in_process``)."""
    src = Path(ra.__file__).parent
    own = re.compile(r"\bAdvisor\(|advise_in_process\(")
    found = [
        f"{path.relative_to(src)}:{n}"
        for front in ("web", "tui")
        for path in sorted((src / front).rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if own.search(line)
    ]
    assert not found, found
