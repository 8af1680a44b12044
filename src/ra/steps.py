"""The table's rule for each intent of the game master (:mod:`ra.master`).

:meth:`ra.table.Table.step` hands each intent to one function here: a decision, a take-back, a
time-out, a forfeit, a person away or back, a hint asked, answered, failed, or a page gone — and
after every step drops the hints it made stale (:func:`sweep_hints`).  Each checks the intent
against the table, returns the table after it (a new one: the old stays as it was) and the effects
in the order a front end carries them out, or raises :class:`ra.master.RefusedError` and changes
nothing.  The table keeps who sits where and what may be seen; these functions keep what happens next.
"""

from __future__ import annotations

from collections.abc import Hashable
from datetime import datetime
from typing import TYPE_CHECKING, TypeAlias, TypeVar

from ra.errors import IllegalActionError, NotationError
from ra.master import (
    AskHint,
    Back,
    Broadcast,
    CancelHint,
    ChargeClock,
    Decide,
    Effect,
    Forfeit,
    GameOver,
    HintAnswered,
    HintAsk,
    HintFailed,
    HintFailedFor,
    HintKey,
    Intent,
    Leave,
    MarkAway,
    NextTurn,
    PageGone,
    RefusedError,
    SendHint,
    SpendClock,
    StandIn,
    StartHint,
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


def step(table: Table[HintT], intent: Intent | HintAnswered[HintT], now: datetime) -> Stepped[HintT]:
    """:meth:`ra.table.Table.step`: the rule of ``intent``, then the hints it made stale cancelled."""
    new, effects = _rule(table, intent, now)
    return sweep_hints(new, effects)


def _rule(table: Table[HintT], intent: Intent | HintAnswered[HintT], now: datetime) -> Stepped[HintT]:
    if isinstance(intent, Decide):
        return decision(table, intent, now)
    if isinstance(intent, TakeBack):
        return take_back(table, intent)
    if isinstance(intent, TimeOut):
        return time_out(table, intent)
    if isinstance(intent, Leave | Back):
        return away(table, intent)
    if isinstance(intent, AskHint):
        return ask_hint(table, intent)
    if isinstance(intent, HintAnswered):
        return hint_answered(table, intent)
    if isinstance(intent, HintFailed):
        return hint_failed(table, intent)
    if isinstance(intent, PageGone):
        return page_gone(table, intent)
    return forfeit(table, intent)


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


# --- hints: at most one in flight per seat, cancelled once stale --------------------------


def ask_hint(table: Table[HintT], intent: AskHint) -> Stepped[HintT]:
    """A hint asked for: refused unless hints are on and ``seat`` is to move at decision ``n``;
    sent at once from the cache, or waited for (the search in flight for that position, or a
    new one, which replaces the seat's older one)."""
    game, seat = table.game, intent.seat
    if not table.options.hints:
        raise RefusedError("no_hints", "hints are off at this table (chosen when it was created)")
    if game.is_over():
        raise RefusedError("not_allowed", "there is no decision to give hints for")
    if intent.n != game.num_decisions:
        raise RefusedError("stale", f"the game is at decision {game.num_decisions}")
    if game.to_move != seat or seat in table.away:
        raise RefusedError("not_your_turn", "hints are for the player to move")
    key = table.hint_key(seat)
    if table.hint_cache.get(key) is not None:
        return table, [SendHint(intent.asker, key)]
    asked = table.hints_asked.get(seat)
    if asked is not None and asked.key == key:
        waiting = HintAsk(key, asked.askers | {intent.asker})
        return table.replaced(hints_asked={**table.hints_asked, seat: waiting}), []
    replaced: list[Effect] = [CancelHint(asked.key)] if asked is not None else []
    new = table.replaced(hints_asked={**table.hints_asked, seat: HintAsk(key, frozenset({intent.asker}))})
    return new, [*replaced, StartHint(key)]


def hint_answered(table: Table[HintT], intent: HintAnswered[HintT]) -> Stepped[HintT]:
    """A search's answer: kept in the table's cache (its key names a whole history: an undo may
    make it current again) and sent to everyone still waiting for it."""
    table.hint_cache.put(intent.key, intent.answer)
    new, askers = _settled(table, intent.key)
    return new, [SendHint(asker, intent.key) for asker in sorted(askers, key=repr)]


def hint_failed(table: Table[HintT], intent: HintFailed) -> Stepped[HintT]:
    """A search that ended without an answer: no longer in flight (asking again starts a new
    one); those waiting are told only if it failed (a stopped one was not wanted)."""
    new, askers = _settled(table, intent.key)
    return new, [HintFailedFor(asker) for asker in sorted(askers, key=repr)] if intent.error else []


def page_gone(table: Table[HintT], intent: PageGone) -> Stepped[HintT]:
    """A page is gone: it waits for nothing any more; a hint nobody waits for is cancelled."""
    asked = dict(table.hints_asked)
    effects: list[Effect] = []
    for seat, ask in table.hints_asked.items():
        if intent.asker not in ask.askers:
            continue
        if ask.askers == {intent.asker}:
            del asked[seat]
            effects.append(CancelHint(ask.key))
        else:
            asked[seat] = HintAsk(ask.key, ask.askers - {intent.asker})
    return (table.replaced(hints_asked=asked), effects) if asked != table.hints_asked else (table, [])


def sweep_hints(table: Table[HintT], effects: list[Effect]) -> Stepped[HintT]:
    """After a step: cancel the hints in flight whose decision is past (a decision, an undo, the
    end) or whose seat is away or forfeited — the table's :meth:`ra.table.Table.hint_wanted`."""
    stale = [ask.key for ask in table.hints_asked.values() if not table.hint_wanted(ask.key)]
    if not stale:
        return table, effects
    kept = {seat: ask for seat, ask in table.hints_asked.items() if ask.key not in stale}
    return table.replaced(hints_asked=kept), [*effects, *(CancelHint(key) for key in stale)]


def _settled(table: Table[HintT], key: HintKey) -> tuple[Table[HintT], frozenset[Hashable]]:
    """The table without ``key``'s search in flight, and who waited for it (nobody if it was
    no longer in flight: replaced, or stale)."""
    asked = table.hints_asked.get(key[0])
    if asked is None or asked.key != key:
        return table, frozenset()
    kept = {seat: ask for seat, ask in table.hints_asked.items() if seat != key[0]}
    return table.replaced(hints_asked=kept), asked.askers
