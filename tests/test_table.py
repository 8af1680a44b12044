"""ra.table: the one layer above the engine that the terminal and the web both use (issue 18).

The undo policy is tested here once (and through each front end in its own tests), with the
hot-seat hand-over, the hint cache, the log readers, the bots' seeds and the R9 gate.
"""

from __future__ import annotations

import random

import pytest

import ra
from ra.events import decision_seats, epoch_starts
from ra.table import (
    UNDO_POLICY,
    UNDO_RULE,
    BotJob,
    HintCache,
    Seat,
    Table,
    TableOptions,
    UndoError,
    bot_label,
    bot_seed,
    decide,
    game_result,
    seat_labels,
)
from ra.words import languages, words


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


def why(t: Table[str], seat: int | None) -> str | None:
    """The table's reason (a catalogue message) in English, as the terminal shows it."""
    reason = t.why_no_undo(seat)
    return None if reason is None else words("en").render(reason, t.game.names)


def test_the_policy_has_a_name_and_words() -> None:
    assert UNDO_POLICY == "own-last-unrevealed"
    assert "own last decision" in UNDO_RULE


def test_your_own_last_decision_can_be_taken_back_when_nothing_was_revealed() -> None:
    t = table(None, None, None)
    seat = t.game.to_move
    assert seat is not None
    before = t.game._key()
    t.apply("ra")  # invoke Ra: no tile shown, nobody else has answered
    assert t.can_undo(seat) and why(t, seat) is None
    assert str(t.undo(seat)) == "ra"
    assert t.game._key() == before


def test_a_draw_cannot_be_taken_back_r9_3() -> None:
    t = table(None, None, None)
    seat = t.game.to_move
    t.apply("draw")
    assert why(t, seat) == "a tile was drawn"
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
    reason = why(t, first)
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
                    assert why(t, seat) == "an epoch was scored"
                    return
    raise AssertionError("no epoch ended on a decision other than a draw")


def test_no_undo_for_spectators_at_the_end_or_where_the_table_forbids_it() -> None:
    t = table(None, None)
    assert why(t, None) == "spectators cannot take decisions back"
    assert why(t, 0) == "there is no decision to take back"
    off = table(None, None, undo=False)
    off.apply("ra")
    assert why(off, off.movers[-1]) == "decisions cannot be taken back at this table"
    while not t.game.is_over():
        t.apply(t.game.legal_actions()[0])
    assert why(t, t.movers[-1]) == "the game is over"


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


# --- the table's facts: forfeits, stand-ins, results, bot names, the bot pipeline ----------


def finished(t: Table[str], rng: random.Random) -> Table[str]:
    while not t.game.is_over():
        t.apply(rng.choice(t.game.legal_actions()))
    return t


def test_a_forfeited_seat_ranks_last_and_never_wins_whatever_its_score() -> None:
    rng = random.Random(8)
    for seed in range(30):
        t = finished(table(None, None, None, seed=seed), rng)
        plain = t.result()
        assert plain is not None and plain.winner == t.game.winner and not plain.forfeited
        t.forfeit(plain.winner)  # the best score forfeited (its clock ran out at a forfeit table)
        result = t.result()
        assert result is not None and result.order[-1] == plain.winner
        assert (
            result.winner != plain.winner
            and result.winner == plain.order[0 if plain.order[0] != plain.winner else 1]
        )
        assert result.ranks()[plain.winner] == 3 and result.ranks()[result.winner] == 1
        assert game_result(t.game, {plain.winner}) == result  # the one function every front end uses


def test_a_result_is_none_until_the_end_and_its_tie_follows_r8_1() -> None:
    t = table(None, None)
    assert t.result() is None
    rng = random.Random(2)
    ties = 0
    for seed in range(200):
        r = finished(table(None, None, None, seed=seed), rng).result()
        assert r is not None
        top = [s for s in range(3) if r.scores[s] == r.scores[r.winner]]
        assert r.tie == (len(top) > 1)
        if r.tie:  # the highest sun breaks it (R8.1)
            ties += 1
            assert r.highest_suns[r.winner] == max(r.highest_suns[s] for s in top)
    assert ties > 0


def test_a_stand_ins_decision_is_recorded_and_never_taken_back() -> None:
    t = table(None, None)
    seat = t.game.to_move
    assert seat is not None
    t.apply("ra", stand_in=True)  # the person was away: a bot decided for them
    assert t.stand_ins == {0}
    assert why(t, seat) == "a stand-in bot took that decision for you; it stays"
    with pytest.raises(UndoError, match="stand-in"):
        t.undo(seat)
    assert t.game.num_decisions == 1  # unchanged after a refusal
    record = t.record()
    assert record["stand_ins"] == [0] and "forfeited" not in record
    assert record["stand_in"] == "medium"  # the stand-in's level (TableOptions.stand_in), for the replays
    assert ra.Game.from_record(record).decisions == t.game.decisions  # the engine reads it as before


def test_a_forfeited_seat_may_not_take_back() -> None:
    t = table(None, None)
    seat = t.game.to_move
    assert seat is not None
    t.apply("ra")
    assert t.can_undo(seat)
    t.forfeit(seat)
    assert why(t, seat) == "you forfeited: a bot plays your seat to the end"
    assert t.record()["forfeited"] == [seat]


def test_undo_reasons_are_catalogue_messages_in_every_language() -> None:
    t = table(None, None)
    first = t.game.to_move
    assert first is not None
    t.apply("ra")
    t.apply("pass")
    reason = t.why_no_undo(first)
    assert reason is not None and reason.key == "tui.undo.other"
    with pytest.raises(UndoError) as refused:
        t.undo(first)
    assert refused.value.why.key == "tui.undo.refused"
    names = t.game.names
    for lang in languages(include_pseudo=True):
        text = words(lang).render(refused.value.why, names)
        assert names[1 - first] in text and "{" not in text


def test_bots_are_named_once_from_the_catalogue() -> None:
    assert bot_label("hard") == "Hard bot" and bot_label("hard", lang="ru") == "Бот (сильный)"
    assert bot_label("hard", {"Hard bot"}) == "Hard bot 2"
    assert bot_label("mcts:iterations=50") == "MCTS bot"
    seats = [Seat("Ann"), Seat("x", "hard"), Seat("y", "hard"), Seat("z", "easy")]
    assert seat_labels(seats) == ["Ann", "Hard bot", "Hard bot 2", "Easy bot"]
    assert seat_labels(seats, "ru") == ["Ann", "Бот (сильный)", "Бот (сильный) 2", "Бот (лёгкий)"]


def test_one_bot_pipeline_by_value_gives_the_seats_bot_answer() -> None:
    import pickle

    t = table(None, "medium", "greedy", seed=5)
    rng = random.Random(1)
    for _ in range(25):
        seat = t.game.to_move
        assert seat is not None
        if t.seats[seat].bot is None:
            t.apply(rng.choice(t.game.legal_actions()))
            continue
        job = t.bot_job(seat)
        assert job.seed == t.bot_seed() and job.spec == t.seats[seat].bot
        travelled = pickle.loads(pickle.dumps(job))  # as a worker process gets it
        action = decide(travelled)
        assert action == decide(job) == t.bot(seat).choose(t.view(seat))
        t.apply(action)
    with pytest.raises(ValueError, match="person"):
        t.bot_job(0) if t.seats[0].bot is None else t.bot_job(1)
    stand_in = t.bot_job(0, "easy")  # a stand-in plays a person's seat at a level it is given
    assert isinstance(stand_in, BotJob) and stand_in.spec == "easy"
