"""The game master made pure (issue 56): :meth:`ra.table.Table.step` with a fake ``now`` — every
rule of a decision, an undo and a forfeit, and the effects a front end must carry out, in
order, with no server, no storage and no waiting (as boardgame.io's ``master.test.ts``)."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import ra
from ra.clock import Clock
from ra.master import (
    Back,
    Broadcast,
    By,
    ChargeClock,
    Decide,
    Effect,
    Forfeit,
    GameOver,
    Leave,
    MarkAway,
    NextTurn,
    RefusedError,
    SpendClock,
    StandIn,
    StoreAway,
    StoreDecision,
    StoreForfeit,
    TakeBack,
    TakeBackStored,
    TimeOut,
    TurnOf,
    Undone,
)
from ra.steps import FORFEITED
from ra.table import Seat, Table, TableOptions

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def table(*bots: str | None, seed: int = 4) -> Table[str]:
    names = [f"P{i + 1}" for i in range(len(bots))]
    game = ra.Game(names, seed=seed, hidden_scores=True)
    return Table(game, [Seat(n, b) for n, b in zip(names, bots, strict=True)], TableOptions())


def mover(t: Table[str]) -> int:
    seat = t.game.to_move
    assert seat is not None
    return seat


def refused(t: Table[str], intent: Decide | TakeBack) -> RefusedError:
    """The refusal of ``intent``, checking it left the table as it was."""
    before = (t.game.decisions, set(t.forfeited), set(t.stand_ins))
    with pytest.raises(RefusedError) as err:
        t.step(intent, NOW)
    assert (t.game.decisions, t.forfeited, t.stand_ins) == before
    return err.value


def test_a_persons_decision_is_stored_charged_told_and_the_next_turn_started() -> None:
    t = table(None, None)
    seat = mover(t)
    new, effects = t.step(Decide(seat, "ra", 0), NOW)
    assert t.game.num_decisions == 0 and new.game.num_decisions == 1  # the old table is unchanged
    nxt = mover(new)
    assert effects == [
        StoreDecision(0, seat, "ra", False),
        ChargeClock(seat, NOW),
        Broadcast(),
        TurnOf(nxt),
        NextTurn(),
    ]
    assert new.hint_cache is t.hint_cache  # keys name whole histories: one cache serves both


def test_a_bots_decision_is_not_charged_and_a_stand_ins_is_marked_for_good() -> None:
    t = table(None, "random")
    seat = mover(t)
    new, effects = t.step(Decide(seat, "ra", 0, by="bot"), NOW)
    assert not any(isinstance(e, ChargeClock) for e in effects)
    stood, effects = t.step(Decide(seat, "ra", 0, by="stand_in"), NOW)
    assert effects[0] == StoreDecision(0, seat, "ra", True)
    assert stood.stand_ins == {0} and not t.stand_ins and not new.stand_ins
    assert stood.stood_in_for(seat) and not stood.stood_in_for(1 - seat)
    # The stand-in's decision is never taken back (R: the table's undo policy).
    err = refused(stood, TakeBack(seat, 1))
    assert err.code == "not_allowed" and err.why is not None
    assert err.why.params["reason"].key == "tui.undo.stand_in"  # type: ignore[union-attr]


def test_a_decision_out_of_turn_stale_or_illegal_is_refused_with_its_code() -> None:
    t = table(None, None)
    seat = mover(t)
    assert refused(t, Decide(1 - seat, "ra", 0)).code == "not_your_turn"
    assert refused(t, Decide(seat, "ra", 3)).code == "stale"
    bad = refused(t, Decide(seat, "bid 9", 0))
    assert bad.code == "illegal"
    nonsense = refused(t, Decide(seat, "fly away", 0))
    assert nonsense.code == "illegal" and "fly away" in str(nonsense)


def test_a_seat_that_forfeited_is_played_by_its_bot_never_by_its_person() -> None:
    t = table(None, None)
    seat = mover(t)
    gone, effects = t.step(Forfeit(seat), NOW)
    assert effects == [StoreForfeit(seat), Broadcast()] and gone.forfeited == {seat} and not t.forfeited
    again, more = gone.step(Forfeit(seat), NOW)
    assert again is gone and more == []  # once is for good
    err = refused(gone, Decide(seat, "ra", 0))
    assert (err.code, str(err)) == ("forfeited", FORFEITED)
    after, _ = gone.step(Decide(seat, "ra", 0, by="stand_in"), NOW)
    assert after.game.num_decisions == 1 and after.forfeited == {seat}


def test_an_undo_takes_the_stored_decision_back_tells_everyone_and_starts_the_turn_again() -> None:
    t = table(None, None)
    seat = mover(t)
    played, _ = t.step(Decide(seat, "ra", 0), NOW)
    assert refused(played, TakeBack(1 - seat, 1)).code == "not_allowed"  # the other did not decide last
    assert refused(played, TakeBack(seat, 0)).code == "stale"
    back, effects = played.step(TakeBack(seat, 1), NOW)
    assert back.game.num_decisions == 0 and played.game.num_decisions == 1
    assert effects == [
        TakeBackStored(1, 0),
        Undone(seat, "ra", 0),
        Broadcast(floor=len(back.game.events)),
        NextTurn(),
    ]
    gone, _ = played.step(Forfeit(seat), NOW)
    assert refused(gone, TakeBack(seat, 1)).code == "forfeited"


def test_the_last_decision_ends_the_game_and_the_forfeited_seat_ranks_last() -> None:
    t = table(None, None, seed=9)
    t, _ = t.step(Forfeit(0), NOW)
    rng = random.Random(1)
    effects: list[Effect] = []
    while not t.game.is_over():
        seat, n = mover(t), t.game.num_decisions
        by: By = "stand_in" if seat == 0 else "person"
        t, effects = t.step(Decide(seat, str(rng.choice(t.game.legal_actions())), n, by), NOW)
    assert GameOver() in effects and not any(isinstance(e, TurnOf) for e in effects)
    result = t.result()
    assert result is not None and result.order[-1] == 0
    assert refused(t, Decide(1, "ra", t.game.num_decisions)).code == "over"


def test_a_second_time_out_forfeits_by_the_tables_clock_and_its_stand_ins() -> None:
    """The time-out rule reads the table's fact (a stand-in decided for the seat before)."""
    clock = Clock(move_seconds=60, on_timeout="second")
    t = table(None, None)
    seat = mover(t)
    late = NOW + timedelta(seconds=60)
    assert clock.is_out(None, False, NOW, late)
    assert not clock.forfeits(t.stood_in_for(seat))  # the first time: a stand-in decides
    t, _ = t.step(Decide(seat, "ra", 0, by="stand_in"), late)
    assert clock.forfeits(t.stood_in_for(seat))  # the second time: a forfeit
    assert not clock.forfeits(t.stood_in_for(1 - seat))


def clocked(rule: str, per_game: bool = False) -> Table[str]:
    """A table of two people with a clock (per decision, or ``per_game``) whose time-out rule is
    ``rule``; the stand-in a random bot."""
    t = table(None, None)
    clock = Clock(game_seconds=600, on_timeout=rule) if per_game else Clock(move_seconds=60, on_timeout=rule)
    return Table(t.game, t.seats, TableOptions(stand_in="random", clock=clock))


def test_a_time_out_brings_a_stand_in_then_marks_the_seat_away() -> None:
    t = clocked("stand_in")
    seat = mover(t)
    same, effects = t.step(TimeOut(seat, 0), NOW)
    assert same is t and effects == [StandIn(seat, 0, "random"), MarkAway(seat)]
    spent = clocked("stand_in", per_game=True)
    _, effects = spent.step(TimeOut(seat, 0), NOW)
    assert effects == [SpendClock(seat), StandIn(seat, 0, "random"), MarkAway(seat)]
    _, effects = spent.replaced(away={seat}).step(TimeOut(seat, 0), NOW)  # away: the stand-in at once
    assert effects == [StandIn(seat, 0, "random")]
    with pytest.raises(RefusedError) as late:  # the decision was taken meanwhile
        t.step(TimeOut(seat, 1), NOW)
    assert late.value.code == "stale"


def test_a_time_out_at_a_forfeit_table_forfeits_and_at_a_second_table_the_second_time() -> None:
    t = clocked("forfeit")
    seat = mover(t)
    gone, effects = t.step(TimeOut(seat, 0), NOW)
    assert gone.forfeited == gone.away == {seat} and not t.forfeited
    assert effects == [StoreForfeit(seat), Broadcast(), StandIn(seat, 0, "random")]
    second = clocked("second")
    first, effects = second.step(TimeOut(seat, 0), NOW)
    assert not first.forfeited and MarkAway(seat) in effects  # the first time: a stand-in
    stood, _ = second.step(Decide(seat, "ra", 0, by="stand_in"), NOW)
    back = stood
    while mover(back) != seat:  # the other plays until it is the seat's turn again
        back, _ = back.step(
            Decide(mover(back), str(back.game.legal_actions()[0]), back.game.num_decisions), NOW
        )
    out, effects = back.step(TimeOut(seat, back.game.num_decisions), NOW)
    assert out.forfeited == {seat} and StoreForfeit(seat) in effects  # the second time
    unclocked: Table[str] = Table(t.game, t.seats, TableOptions(stand_in="random"))  # the site's deadline
    gone, _ = unclocked.step(TimeOut(seat, 0), NOW)
    assert gone.forfeited == {seat}


def test_a_person_away_and_back_at_their_turn_has_their_clock_again_but_never_more() -> None:
    t = clocked("stand_in", per_game=True)
    seat = mover(t)
    away, effects = t.step(Leave(seat), NOW)
    assert away.away == {seat} and effects == [StoreAway(seat, True, False, None), Broadcast(), NextTurn()]
    again, more = away.step(Leave(seat), NOW)
    assert again is away and more == []  # away already: nothing to do
    back, effects = away.step(Back(seat, bank=0.0), NOW)  # its clock ran out: only the increment
    assert not back.away and effects[0] == StoreAway(seat, False, True, 0.0)
    _, effects = away.step(Back(seat, bank=None), NOW)  # never charged: the whole game's clock
    assert effects[0] == StoreAway(seat, False, True, 600.0)
    other = 1 - seat
    _, effects = t.replaced(away={other}).step(Back(other, bank=42.0), NOW)
    assert effects[0] == StoreAway(other, False, False, 42.0)  # not its turn: its clock waits
    gone, _ = t.step(Forfeit(seat), NOW)
    assert gone.away == {seat}
    err = refused_back(gone, seat)
    assert (err.code, str(err)) == ("forfeited", FORFEITED)


def refused_back(t: Table[str], seat: int) -> RefusedError:
    with pytest.raises(RefusedError) as err:
        t.step(Back(seat), NOW)
    assert seat in t.away  # unchanged
    return err.value


TABLE_FACTS = ("game", "seats", "options", "forfeited", "stand_ins", "away", "hints_asked")
"""A table's facts: only ``ra.table`` changes them (a front end plays on with the step's table)."""


def test_no_front_end_writes_a_tables_facts() -> None:
    """Issue 56: the server wrote a table's game, stand-ins, seats and forfeits itself (eight
    writes in ``Room``); now it replaces the whole table with the one a step returns."""
    facts = "|".join(TABLE_FACTS)
    write = re.compile(
        rf"table(?:_now\(\))?\.(?:{facts})(?:\.(?:add|discard|update|clear|remove|pop)\(|\s*=[^=])"
    )
    src = Path(ra.__file__).parent
    found = [
        f"{path.relative_to(src)}:{n}: {line.strip()}"
        for front in ("web", "tui", "cli", "arena")
        for path in sorted((src / front).rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if write.search(line)
    ]
    assert not found, found


def test_the_clock_left_and_the_wait_for_a_stand_in_are_the_tables() -> None:
    """What a person sees on the clock and when its stand-in decides (issue 56: once the room's
    and the bot driver's, reading the stored row)."""
    t = clocked("stand_in")
    seat = mover(t)
    later = NOW + timedelta(seconds=20)
    assert t.clock_left(None, NOW, later) == t.turn_wait(None, NOW, later) == 40.0
    away: Table[str] = Table(t.game, t.seats, TableOptions(pace=2.5, clock=t.options.clock), away={seat})
    assert away.clock_left(None, NOW, later) is None and away.turn_wait(None, NOW, later) == 2.5
    bots: Table[str] = Table(t.game, [Seat("A", "random"), Seat("B", "random")], t.options)
    assert bots.clock_left(None, NOW, later) is None  # a bot's decision runs no clock
    unclocked = table(None, None)  # no clock to show, but the site's deadline still runs
    assert unclocked.clock_left(None, NOW, later) is None and unclocked.turn_wait(None, NOW, later) > 0


ROOM_LAYER = ("hub.py", "driver.py", "state_feed.py", "hints.py", "stored_table.py")
"""The web's interpreters of a table's effects (:mod:`ra.web`): they read a table's facts from it."""


def test_the_room_reads_a_tables_facts_from_the_table_not_from_the_stored_row() -> None:
    """One place for each fact (issue 56): hints, pace, edition, stand-in level, away and forfeit
    were read from the room's cached row beside the table's copy; only building the table
    (:func:`ra.web.stored_table.table_for`) reads them from a stored row."""
    copies = re.compile(
        r"row\.(?:hints|bot_delay|edition|stand_in_level)\b|\]\.(?:away|forfeited)\b|s\.away\b"
    )
    web = Path(ra.__file__).parent / "web"
    found = [
        f"{name}: {line.strip()}"
        for name in ROOM_LAYER
        for line in (web / name).read_text(encoding="utf-8").splitlines()
        if copies.search(line)
    ]
    assert found == [
        "stored_table.py: hints=row.hints,",
        "stored_table.py: pace=row.bot_delay,",
        "stored_table.py: edition=row.edition,",
        "stored_table.py: stand_in=row.stand_in_level,",
    ], found
