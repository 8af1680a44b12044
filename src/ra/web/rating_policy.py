"""What the site rates, and for whom: the one rating policy (issue 52), read by the lobby (a table
says *rated* or *casual* before it starts), the table (no hints on a rated table), the analysis
(none of a game that has not ended), the ratings (:func:`verdict`, :func:`weight`) and the
profile and leaderboard pages (:func:`provisional`).  docs/online.md says it in words.

As lichess does it:

- A table is rated or casual, chosen when it is created.  A rated table offers no hints, and no
  game is analysed before it ends, so a rated game measures the person, not the site's bots.
- A finished rated game is rated when every person at it is a different account and every bot
  has a fixed rating (a guest's game is not rated).
- A seat that forfeited — its clock ran out at a forfeit table, or a stand-in took more than
  :data:`STAND_IN_DECISIONS` of its decisions — ranks last.  But a seat that did so before it
  took :data:`MIN_OWN_DECISIONS` decisions of its own *aborts* the game for rating: nobody gains
  (two throw-away accounts that let their clocks run out hand nobody a win).
- An account is provisional until it has :data:`PROVISIONAL_GAMES` rated games: its rating shows
  with a "?", it is not on the leaderboard, and an established account's rating moves only
  :data:`PROVISIONAL_WEIGHT` as much in a game with a provisional person.
- A puzzle's answer is shown only after an attempt, and an account's attempt moves its puzzle
  rating only if it is the account's first at that puzzle and no answer to it went to this device
  or this address (:func:`puzzle_rated`) in the last :data:`PUZZLE_REVEAL_SECONDS`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

STAND_IN_DECISIONS: Final = 3
"""A seat whose stand-in took more of its decisions than this is rated as having forfeited: last,
whatever its score (issue 40, finding 2: an account's chosen stand-in once won it rated games with
no decision of its own; unrated instead would let a losing player walk away from a loss)."""
MIN_OWN_DECISIONS: Final = 5
"""A seat that forfeits before it took this many decisions of its own aborts the game for rating."""
PROVISIONAL_GAMES: Final = 5
"""Rated games an account plays before its rating is established (shown without "?")."""
PROVISIONAL_WEIGHT: Final = 0.5
"""How much an established account's rating moves, of the model's change, in a game with a
provisional person (a new account's result says little about its opponents)."""

PUZZLE_REVEAL_SECONDS: Final = 86_400.0
"""How long a puzzle's answer shown at an address keeps an account's answer from there unrated."""

Why = Literal[
    "rated",
    "casual",
    "unfinished",
    "imported",
    "guest",
    "no_person",
    "unrated_bot",
    "same_account",
    "aborted",
]
"""Why a game is rated or not (:func:`verdict`)."""


class RatingPolicyError(ValueError):
    """A table's options that the policy refuses (a rated table with hints); ``code`` for the API."""

    code = "rated_hints"


@dataclass(frozen=True)
class SeatFacts:
    """What the policy needs of a seat: a person (``account`` None: a guest) or a bot of ``level``,
    whether it forfeited, and how many of its decisions it took itself and a stand-in took."""

    human: bool
    account: str | None = None
    level: str | None = None
    forfeited: bool = False
    own: int = 0
    stood: int = 0

    @property
    def out(self) -> bool:
        """Rated as having forfeited: its clock ran out at a forfeit table, or a stand-in played it."""
        return self.forfeited or self.stood > STAND_IN_DECISIONS


@dataclass(frozen=True)
class Verdict:
    """Whether a game is rated, why, and the seats it ranks last (:func:`verdict`)."""

    rated: bool
    why: Why
    last: frozenset[int] = frozenset()
    walked: frozenset[int] = frozenset()
    """With ``why == "aborted"``: the seats that walked away too early (the table page names them)."""


def table_choice(rated: bool | None, hints: bool | None, usual_hints: bool) -> tuple[bool, bool]:
    """A new table's ``(rated, hints)`` from what its creator asked (None: not said) and the hints
    it would have by default (``usual_hints``): a rated table has no hints; unsaid, a table is
    rated unless it has hints.  :class:`RatingPolicyError` for a rated table asked with hints."""
    if rated and hints:
        raise RatingPolicyError("a rated table offers no hints: make it casual, or turn hints off")
    if rated is None:
        hints = usual_hints if hints is None else hints
        return (not hints, hints)
    return (rated, False if rated else (usual_hints if hints is None else hints))


def assists_refusal(rated: bool, over: bool, analysis: bool = False) -> str | None:
    """Why a hint (or, with ``analysis``, a game's analysis) is refused now, None if it is not: a
    rated table gives no hint until it ends, and no game is analysed before it ends."""
    if over:
        return None
    if analysis:
        return "a game is analysed once it is over"
    return "a rated table offers no hints until it ends" if rated else None


def verdict(
    rated: bool, finished: bool, imported: bool, seats: Sequence[SeatFacts], fixed: Sequence[str]
) -> Verdict:
    """Whether a game counts for its people's ratings; ``fixed``: the bot levels with a fixed rating."""
    if not rated:
        return Verdict(False, "casual")
    if not finished:
        return Verdict(False, "unfinished")
    if imported:
        return Verdict(False, "imported")
    people = [s.account for s in seats if s.human]
    why: Why | None = None
    if not people:
        why = "no_person"
    elif None in people:
        why = "guest"
    elif len(set(people)) != len(people):
        why = "same_account"
    elif any(s.level not in fixed for s in seats if not s.human):
        why = "unrated_bot"
    elif walked := early_leavers(seats):
        return Verdict(False, "aborted", walked=walked)
    if why is not None:
        return Verdict(False, why)
    return Verdict(True, "rated", frozenset(i for i, s in enumerate(seats) if s.out))


def early_leavers(seats: Sequence[SeatFacts]) -> frozenset[int]:
    """The people's seats that forfeited before :data:`MIN_OWN_DECISIONS` decisions of their own
    (any of them aborts a rated game for rating)."""
    return frozenset(i for i, s in enumerate(seats) if s.human and s.out and s.own < MIN_OWN_DECISIONS)


def provisional(games: int) -> bool:
    """Whether an account's rating is provisional: fewer than :data:`PROVISIONAL_GAMES` rated games."""
    return games < PROVISIONAL_GAMES


def weight(own_games: int, others_games: Sequence[int]) -> float:
    """The share of the model's change an account's rating takes from a game: all of it while the
    account is provisional or when every other person is established, else :data:`PROVISIONAL_WEIGHT`."""
    if provisional(own_games) or not any(provisional(g) for g in others_games):
        return 1.0
    return PROVISIONAL_WEIGHT


def puzzle_rated(first_from_account: bool, seen_on_device: bool, seen_at_address: bool) -> bool:
    """Whether an account's answer to a puzzle moves its puzzle rating: only its first answer to
    it, and only if that puzzle's answer was not shown to this device (the page's own list of the
    puzzles it answered) or this address (IPv4, or an IPv6 /64) before — a guest who peeked
    could otherwise sign in and answer right, rated."""
    return first_from_account and not seen_on_device and not seen_at_address
