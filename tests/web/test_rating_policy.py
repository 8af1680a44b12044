"""The rating policy (issue 52, "a rating policy, in one function"): what makes a game rated and
for whom, as rules, in-process (:mod:`ra.web.rating_policy`); the site's surfaces that read it are
tested against a real server in ``test_rated_tables.py``."""

from __future__ import annotations

import pytest

from ra.bots import LEVEL_RATINGS
from ra.web.rating_policy import (
    MIN_OWN_DECISIONS,
    PROVISIONAL_GAMES,
    PROVISIONAL_WEIGHT,
    STAND_IN_DECISIONS,
    RatingPolicyError,
    SeatFacts,
    assists_refusal,
    provisional,
    puzzle_rated,
    table_choice,
    verdict,
    weight,
)

FIXED = tuple(LEVEL_RATINGS)
ANN = SeatFacts(human=True, account="ann", own=40)
BOB = SeatFacts(human=True, account="bob", own=40)


def judge(*seats: SeatFacts, rated: bool = True, finished: bool = True, imported: bool = False) -> str:
    return verdict(rated, finished, imported, seats, FIXED).why


def test_a_finished_rated_game_between_accounts_is_rated() -> None:
    assert judge(ANN, BOB) == "rated"
    assert judge(ANN, SeatFacts(human=False, level="easy")) == "rated"  # bots with fixed ratings count


@pytest.mark.parametrize(
    ("seats", "options", "why"),
    [
        ((ANN, BOB), {"rated": False}, "casual"),
        ((ANN, BOB), {"finished": False}, "unfinished"),
        ((ANN, BOB), {"imported": True}, "imported"),
        ((ANN, SeatFacts(human=True, own=40)), {}, "guest"),
        ((ANN, SeatFacts(human=True, account="ann", own=40)), {}, "same_account"),
        ((ANN, SeatFacts(human=False, level="random")), {}, "unrated_bot"),
        ((SeatFacts(human=False, level="easy"), SeatFacts(human=False, level="hard")), {}, "no_person"),
    ],
)
def test_what_is_not_rated_and_why(seats: tuple[SeatFacts, ...], options: dict[str, bool], why: str) -> None:
    assert judge(*seats, **options) == why


def test_a_seat_that_forfeits_before_a_few_decisions_of_its_own_aborts_the_game_for_rating() -> None:
    # The farm of issue 52: throw-away accounts whose clocks run out hand a farmer rated wins.
    walked = SeatFacts(human=True, account="bob", forfeited=True, own=MIN_OWN_DECISIONS - 1)
    assert judge(ANN, walked) == "aborted"
    stood = SeatFacts(human=True, account="bob", own=0, stood=STAND_IN_DECISIONS + 1)  # a stand-in played it
    assert judge(ANN, stood) == "aborted"
    late = SeatFacts(human=True, account="bob", forfeited=True, own=MIN_OWN_DECISIONS)
    judged = verdict(True, True, False, (ANN, late), FIXED)
    assert judged.rated and judged.last == {1}  # a forfeit after playing: rated, and last


def test_a_table_is_rated_or_casual_and_a_rated_table_has_no_hints() -> None:
    assert table_choice(None, None, usual_hints=True) == (False, True)  # one person with hints: casual
    assert table_choice(None, None, usual_hints=False) == (True, False)
    assert table_choice(True, None, usual_hints=True) == (True, False)  # rated: hints off
    assert table_choice(False, None, usual_hints=True) == (False, True)
    assert table_choice(None, True, usual_hints=False) == (False, True)
    with pytest.raises(RatingPolicyError, match="no hints"):
        table_choice(True, True, usual_hints=True)


def test_no_hint_at_a_rated_table_and_no_analysis_until_the_game_ends() -> None:
    assert assists_refusal(rated=True, over=False) is not None
    assert assists_refusal(rated=False, over=False) is None
    assert assists_refusal(rated=False, over=False, analysis=True) is not None
    assert all(
        assists_refusal(r, over=True, analysis=a) is None for r in (True, False) for a in (True, False)
    )


def test_a_new_account_is_provisional_and_weighs_less_against_an_established_one() -> None:
    assert provisional(0) and provisional(PROVISIONAL_GAMES - 1) and not provisional(PROVISIONAL_GAMES)
    assert weight(PROVISIONAL_GAMES, [0]) == PROVISIONAL_WEIGHT < 1  # the established account
    assert weight(0, [PROVISIONAL_GAMES]) == 1.0  # the new account moves fully
    assert weight(PROVISIONAL_GAMES, [PROVISIONAL_GAMES]) == 1.0 == weight(PROVISIONAL_GAMES, [])


def test_a_puzzle_is_rated_for_an_account_only_on_its_first_attempt_unseen_here() -> None:
    assert puzzle_rated(first_from_account=True, seen_on_device=False, seen_at_address=False)
    assert not puzzle_rated(first_from_account=False, seen_on_device=False, seen_at_address=False)
    assert not puzzle_rated(first_from_account=True, seen_on_device=True, seen_at_address=False)
    assert not puzzle_rated(first_from_account=True, seen_on_device=False, seen_at_address=True)
