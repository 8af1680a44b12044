"""ra.table: the one layer above the engine that the terminal and the web both use (issue 18).

The undo policy is tested here once (and through each front end in its own tests), with the
hot-seat hand-over, the hint cache, the log readers, the bots' seeds and the R9 gate.
"""

from __future__ import annotations

import random

import pytest

import ra
from ra.events import decision_seats, epoch_starts
from ra.table import UNDO_POLICY, UNDO_RULE, HintCache, Seat, Table, TableOptions, UndoError, bot_seed


def table(*bots: str | None, seed: int = 1, **options: object) -> Table[str]:
    names = [f"P{i + 1}" for i in range(len(bots))]
    game = ra.Game(names, seed=seed, hidden_scores=True)
    return Table(game, [Seat(n, b) for n, b in zip(names, bots, strict=True)], TableOptions(**options))  # type: ignore[arg-type]


def to_action_phase_of(t: Table[str], seat: int) -> None:
    """Draw (everyone) until ``seat`` is to take a turn action with nothing else pending."""
    for _ in range(200):
        if t.game.to_move == seat and t.game.phase == "action" and "ra" in map(str, t.game.legal_actions()):
            return
        t.apply(t.game.legal_actions()[0])
    raise AssertionError("never reached")


# --- undo: one policy -----------------------------------------------------------------


def test_the_policy_has_a_name_and_words() -> None:
    assert UNDO_POLICY == "own-last-unrevealed"
    assert "own last decision" in UNDO_RULE


def test_your_own_last_decision_can_be_taken_back_when_nothing_was_revealed() -> None:
    t = table(None, None, None)
    seat = t.game.to_move
    assert seat is not None
    before = t.game._key()
    t.apply("ra")  # invoke Ra: no tile shown, nobody else has answered
    assert t.can_undo(seat) and t.why_no_undo(seat) is None
    assert str(t.undo(seat)) == "ra"
    assert t.game._key() == before


def test_a_draw_cannot_be_taken_back_r9_3() -> None:
    t = table(None, None, None)
    seat = t.game.to_move
    t.apply("draw")
    assert t.why_no_undo(seat) == "a tile was drawn"
    n = t.game.num_decisions
    with pytest.raises(UndoError, match="a tile was drawn"):
        t.undo(seat)
    assert t.game.num_decisions == n  # unchanged after a refusal


@pytest.mark.parametrize("other", [None, "greedy"])
def test_not_once_anyone_else_decided_person_or_bot(other: str | None) -> None:
    t = table(None, other, other)
    first = t.game.to_move
    assert first is not None
    t.apply("ra")
    second = t.game.to_move
    assert second is not None and second != first
    t.apply("pass")
    reason = t.why_no_undo(first)
    assert reason == f"{t.game.names[second]} decided last"
    assert not t.can_undo(first)
    assert t.can_undo(second)  # the one who just decided may


def test_not_after_an_epoch_was_scored() -> None:
    rng = random.Random(4)
    for seed in range(60):
        t = table(None, None, seed=seed)
        while not t.game.is_over():
            before = len(t.game.epoch_scores)
            seat = t.game.to_move
            t.apply(rng.choice(t.game.legal_actions()))
            if len(t.game.epoch_scores) > before and not t.game.is_over():
                last = t.game.decisions[-1]
                if str(last) != "draw":
                    assert t.why_no_undo(seat) == "an epoch was scored"
                    return
    raise AssertionError("no epoch ended on a decision other than a draw")


def test_no_undo_for_spectators_at_the_end_or_where_the_table_forbids_it() -> None:
    t = table(None, None)
    assert t.why_no_undo(None) == "spectators cannot take decisions back"
    assert t.why_no_undo(0) == "there is no decision to take back"
    off = table(None, None, undo=False)
    off.apply("ra")
    assert off.why_no_undo(off.movers[-1]) == "decisions cannot be taken back at this table"
    while not t.game.is_over():
        t.apply(t.game.legal_actions()[0])
    assert t.why_no_undo(t.movers[-1]) == "the game is over"


# --- hot seat ---------------------------------------------------------------------------


def test_the_screen_is_handed_over_between_people_only() -> None:
    t = table(None, None, None)
    first = t.game.to_move
    assert t.handover() == first  # the first person takes the screen too
    t.hand_over()
    assert t.handover() is None
    t.apply("ra")
    nxt = t.game.to_move
    assert nxt != first and t.handover() == nxt  # the next person must take it first
    t.hand_over()
    assert t.handover() is None and t.perspective() == nxt
    solo = table(None, "greedy", "greedy")
    assert solo.handover() is None  # one person: nothing to hide from anyone


# --- hints, log, seeds ---------------------------------------------------------------------


def test_the_hint_cache_is_keyed_by_the_whole_history() -> None:
    t = table(None, None, None)
    seat = t.game.to_move
    assert seat is not None
    t.hint_cache.put(t.hint_key(seat), "before")
    t.apply("ra")
    t.undo(seat)
    assert t.hint_cache.get(t.hint_key(seat)) == "before"  # the same position again
    t.apply("draw")  # decision 1 again, but another position
    after = t.game.to_move
    assert after is not None and t.hint_cache.get(t.hint_key(after)) is None
    cache: HintCache[int] = HintCache(size=2)
    for i in range(3):
        cache.put((0, (str(i),)), i)
    assert len(cache) == 2 and cache.get((0, ("0",))) is None


@pytest.mark.slow
def test_movers_and_epoch_starts_read_from_the_log_agree_with_a_replay() -> None:
    rng = random.Random(7)
    for seed in range(200):
        n = 2 + seed % 4
        game = ra.Game(n, seed=seed)
        movers: list[int] = []
        starts = [(1, 0)]
        while not game.is_over():
            movers.append(game.to_move or 0)
            epoch = game.epoch
            game.apply(rng.choice(game.legal_actions()))
            if game.epoch != epoch:
                starts.append((game.epoch, game.num_decisions))
        assert decision_seats(game.events) == movers
        assert epoch_starts(game.events) == starts


def test_bot_seeds_depend_on_the_game_and_the_decision_only() -> None:
    assert bot_seed(5, 10) == bot_seed(5, 10)
    assert len({bot_seed(5, n) for n in range(100)}) == 100
    assert bot_seed(5, 10) != bot_seed(6, 10)
    t = table(None, "greedy:epsilon=0.5", "greedy:epsilon=0.5")
    while t.human_to_move():
        t.apply("draw")
    seat = t.bot_to_move()
    assert seat is not None
    assert t.bot(seat).choose(t.view(seat)) == t.bot(seat).choose(t.view(seat))
    with pytest.raises(ValueError, match="is a person"):
        t.bot(0)


# --- the R9 gate -------------------------------------------------------------------------


def test_a_spectator_sees_no_score_under_hidden_scores_and_no_bag() -> None:
    t = table(None, None, None)
    for _ in range(30):
        t.apply(t.game.legal_actions()[0])
    view = t.view(None)
    assert view.spectator and all(p.score is None for p in view.players)
    assert all(e.breakdown is None for e in view.events if e.kind == "score")
    with pytest.raises(ValueError, match="spectator"):
        _ = view.seat
    while not t.game.is_over():
        t.apply(t.game.legal_actions()[0])
    assert all(p.score is not None for p in t.view(None).players)  # revealed at the end (R9.1)


def test_the_public_record_hides_the_future_and_replays_to_the_same_view() -> None:
    rng = random.Random(3)
    for seed in range(40):
        game = ra.Game(3, seed=seed, hidden_scores=True)
        for _ in range(rng.randrange(1, 80)):
            if game.is_over():
                break
            game.apply(rng.choice(game.legal_actions()))
        record = game.to_record(public=True)
        if not game.is_over():
            assert "seed" not in record and "bag" not in record and record["result"] == {"over": False}
            assert record["public"] is True and len(record["drawn"]) <= 180
        again = ra.Game.from_record(record)
        assert again.view(None) == game.view(None)
    finished = ra.Game(2, seed=1)
    while not finished.is_over():
        finished.apply(finished.legal_actions()[0])
    assert finished.to_record(public=True) == finished.to_record()  # the whole record after the end
