"""The table's rule for each intent of the game master (:mod:`ra.master`).

:meth:`ra.table.Table.step` hands each intent to one function here: a decision, a take-back, a
time-out, a forfeit, a person away or back.  Each checks the intent against the table, returns the
table after it (a new one: the old stays as it was) and the effects in the order a front end
carries them out, or raises :class:`ra.master.RefusedError` and changes nothing.  The table keeps
who sits where and what may be seen; these functions keep what happens next.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, TypeAlias, TypeVar

from ra.errors import IllegalActionError, NotationError
from ra.master import (
    Back,
    Broadcast,
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
from ra.words import DEFAULT_LANG, Msg, msg, words

if TYPE_CHECKING:
    from ra.table import Table

HintT = TypeVar("HintT")

Stepped: TypeAlias = "tuple[Table[HintT], list[Effect]]"
"""A step's answer: the table after the intent, and what a front end must do about it."""

FORFEITED = "this seat forfeited when its time ran out: a bot plays it to the end"
"""Why a seat that forfeited may not decide (nor come back): every front end says it."""


def undo_refusal(reason: Msg) -> Msg:
    """A refused undo as one message: the reason, then the rule."""
    return msg("tui.undo.refused", reason=reason, rule=msg("tui.undo.rule"))


def decision(table: Table[HintT], intent: Decide, now: datetime) -> Stepped[HintT]:
    """A decision: checked (the turn, the number it answers, a forfeit, the rules), then
    stored, charged to a person's clock, told, and the next turn started."""
    game, seat = table.game, intent.seat
    if game.is_over():
        raise RefusedError("over", "the game is over")
    if intent.n != game.num_decisions:
        raise RefusedError("stale", f"already decided: the game is at decision {game.num_decisions}")
    if game.to_move != seat:
        who = game.names[game.to_move] if game.to_move is not None else "nobody"
        raise RefusedError("not_your_turn", f"it is {who}'s turn, not yours")
    if intent.by == "person" and seat in table.forfeited:
        raise RefusedError("forfeited", FORFEITED)
    try:
        action = table.check(seat, intent.action)
    except IllegalActionError as err:
        raise RefusedError("illegal", str(err), err.why) from None
    except NotationError as err:
        raise RefusedError("illegal", str(err)) from None
    new = table.replaced(game.clone())
    new.apply(action, stand_in=intent.by == "stand_in")
    effects: list[Effect] = [StoreDecision(intent.n, seat, str(action), intent.by == "stand_in")]
    if intent.by == "person":
        effects.append(ChargeClock(seat, now))
    effects.append(Broadcast())
    after = new.game
    if after.is_over():
        effects.append(GameOver())
    elif after.to_move is not None:
        effects.append(TurnOf(after.to_move))
    return new, [*effects, NextTurn()]


def take_back(table: Table[HintT], intent: TakeBack) -> Stepped[HintT]:
    """An undo by the one policy (:data:`ra.table.UNDO_RULE`), forfeits and stand-ins included."""
    game, n = table.game, intent.n
    if n != game.num_decisions:
        raise RefusedError("stale", "the game has moved on")
    reason = table.why_no_undo(intent.seat)
    if reason is not None:
        refusal = undo_refusal(reason)
        code = "forfeited" if reason.key == "tui.undo.forfeited" else "not_allowed"
        raise RefusedError(code, words(DEFAULT_LANG).render(refusal, game.names), refusal)
    new = table.replaced(game.clone())
    taken = new.undo(intent.seat)
    after = new.game
    return new, [
        TakeBackStored(n, n - 1),
        Undone(intent.seat, str(taken), after.num_decisions),
        Broadcast(floor=len(after.events)),
        NextTurn(),
    ]


def time_out(table: Table[HintT], intent: TimeOut) -> Stepped[HintT]:
    """A person's clock ran out: its game clock is spent; by the table's time-out rule
    (:meth:`ra.clock.Clock.forfeits`) the seat forfeits, or a stand-in decides and the seat is
    marked away; a seat already away gets its stand-in at once."""
    game, seat = table.game, intent.seat
    if intent.n != game.num_decisions or game.to_move != seat:
        raise RefusedError("stale", f"already decided: the game is at decision {game.num_decisions}")
    stand_in = StandIn(seat, intent.n, table.options.stand_in)
    if seat in table.away:
        return table, [stand_in]
    clock = table.options.clock
    spent: list[Effect] = [SpendClock(seat)] if clock.per_game else []
    if seat not in table.forfeited and clock.forfeits(table.stood_in_for(seat)):
        new = table.replaced(forfeited=table.forfeited | {seat}, away=table.away | {seat})
        return new, [*spent, StoreForfeit(seat), Broadcast(), stand_in]
    return table, [*spent, stand_in, MarkAway(seat)]


def forfeit(table: Table[HintT], intent: Forfeit) -> Stepped[HintT]:
    """A forfeit: for good (once is enough), stored and told."""
    if intent.seat in table.forfeited:
        return table, []
    new = table.replaced(forfeited=table.forfeited | {intent.seat}, away=table.away | {intent.seat})
    return new, [StoreForfeit(intent.seat), Broadcast()]


def away(table: Table[HintT], intent: Leave | Back) -> Stepped[HintT]:
    """A person away (a stand-in decides) or back: back at their turn, its clock starts
    again — under a game clock with what it had plus the increment, never more (a clock that
    ran out stays run out); a seat that forfeited never comes back."""
    seat, away = intent.seat, isinstance(intent, Leave)
    if (seat in table.away) == away:
        return table, []
    if not away and seat in table.forfeited:
        raise RefusedError("forfeited", FORFEITED)
    bank = table.options.clock.back(intent.bank) if isinstance(intent, Back) else None
    due = not away and table.game.to_move == seat
    new = table.replaced(away=table.away | {seat} if away else table.away - {seat})
    return new, [StoreAway(seat, away, due, bank), Broadcast(), NextTurn()]
