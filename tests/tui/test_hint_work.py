"""The terminal's hint panel steps the table's hint intents (issue 56), in-process and fast:
asked (:class:`ra.master.AskHint`), answered (:class:`ra.master.HintAnswered`), no longer
waited for when the position goes (:class:`ra.master.PageGone`) — the web's rules, one place."""

from __future__ import annotations

from pathlib import Path

from ra.bots.evaluate import Evaluation
from ra.tui import Session, plan_seats
from ra.tui.hints import HintWork


def person_to_move(tmp_path: Path) -> tuple[Session, int]:
    session = Session.new(
        plan_seats(2, [], ["easy"], "Ann"), seed=3, save_path=tmp_path / "s.json", hints=True
    )
    while not session.human_to_move():  # the bot's turns first
        session.apply(session.game.legal_actions()[0])
    seat = session.game.to_move
    assert seat is not None
    return session, seat


def test_a_hint_is_asked_of_the_table_and_a_closed_panel_waits_for_it_no_more(tmp_path: Path) -> None:
    session, seat = person_to_move(tmp_path)
    work = HintWork(session, "1s")
    assert work.start() is not None  # a search, for the table's hint in flight
    key = session.hint_key(seat)
    assert session.hints_asked[seat].key == key and work.start() is None  # one search a position
    work.stop()  # the position went (a decision, undo, quit): the table lets its search go
    assert session.hints_asked == {} and work.result is None
    assert not work.done((key, Evaluation(seat, (), 0)))  # a late answer is shown to nobody


def test_an_answer_is_kept_by_the_table_and_a_position_seen_again_is_answered_at_once(tmp_path: Path) -> None:
    session, seat = person_to_move(tmp_path)
    work = HintWork(session, "1s")
    assert work.start() is not None
    answer = Evaluation(seat, (), 7)
    assert work.done((session.hint_key(seat), answer)) and work.result is answer
    assert session.hints_asked == {}  # answered: nothing in flight
    work.stop()
    assert work.start() is None and work.result is answer  # from the table's cache, no new search
