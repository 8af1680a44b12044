"""A table: one game with its seats, its options and the policies every front end shares.

The engine knows the rules; a *table* knows who sits where (a person, or a bot with
its level), what the table agreed on (hints, the bots' pace, the edition's names),
who may take a decision back (:data:`UNDO_RULE`), whose view a shared screen may
show (hot seat hand-over), where each epoch began, and which bot seed answers
which decision.  The terminal game (:mod:`ra.tui`) and the web server
(:mod:`ra.web`) both play through a :class:`Table`; they keep only their widgets
and keys, or their transport, persistence and locks.
"""

from __future__ import annotations

import hashlib
import random
import threading
from collections import OrderedDict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final, Generic, TypeVar

from ra import bots, steps
from ra.actions import Action
from ra.bots.advisor import ADVICE_SEED, DEFAULT_BUDGET, Advisor, advise_in_process
from ra.bots.base import Bot
from ra.bots.evaluate import Budget, Evaluation
from ra.clock import Clock
from ra.engine import Game
from ra.errors import IllegalActionError, RaError, RecordError, SetupError
from ra.events import DECISION_EVENTS, Event, decision_seats, epoch_starts
from ra.events import game_over as game_over_event
from ra.master import (
    Effect,
    HintAnswered,
    HintAsk,
    HintKey,
    Intent,
)
from ra.record_format import ranks, result_fields, seat_numbers, standings
from ra.setup import MAX_PLAYERS, MIN_PLAYERS
from ra.state import State
from ra.steps import undo_refusal
from ra.views import PlayerView
from ra.words import DEFAULT_LANG, Msg, msg, words
from ra.words import Seat as SeatRef

HintT = TypeVar("HintT")

UNDO_POLICY = "own-last-unrevealed"
"""The one undo policy, by name (docs, tests and front ends refer to it)."""

UNDO_RULE = words(DEFAULT_LANG)("tui.undo.rule")
"""The undo policy in English words (every front end's refusal says it, after the reason, in
its reader's language: the catalogue's ``tui.undo.rule``)."""

HINT_CACHE_SIZE = 64
"""Hints kept per table (one per seat and position; an undo makes an old position current again)."""


class UndoError(RaError):
    """A decision that may not be taken back; ``why`` says why and the rule (:data:`UNDO_RULE`),
    as a catalogue message every front end renders in its own language."""

    def __init__(self, why: Msg, names: Sequence[str] = ()) -> None:
        super().__init__(words(DEFAULT_LANG).render(why, names))
        self.why = why


@dataclass(frozen=True)
class Seat:
    """A seat at the table: a person (``bot is None``) or a bot spec such as ``"hard"``."""

    name: str
    bot: str | None = None

    @property
    def human(self) -> bool:
        return self.bot is None


@dataclass(frozen=True)
class TableOptions:
    """What the table agreed on when it was set up."""

    hints: bool = False
    """The people may ask for win-chance hints."""
    pace: float = 0.0
    """Seconds a bot waits before it moves, so people can follow."""
    edition: str = "original"
    """Whose tile names to show (``ra.tiles.EDITIONS``)."""
    undo: bool = True
    """Whether decisions may be taken back at all (not for imported records)."""
    stand_in: str = "medium"
    """The bot that decides for a person whose clock ran out (one of :data:`TABLE_BOTS`)."""
    clock: Clock = field(default_factory=Clock)
    """The table's clock and its time-out rule (:mod:`ra.clock`): none by default."""


def check_players(n: int) -> None:
    """Raise ``ValueError`` unless Ra can be played by ``n`` players (R2.1)."""
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        why = msg("setup.players_count", low=MIN_PLAYERS, high=MAX_PLAYERS, value=str(n))
        raise SetupError(words("en").render(why), "players", why)


def default_hints(seats: Sequence[Seat]) -> bool:
    """Hints are on by default for one person against bots, off when several people play
    (then they must agree to them)."""
    return sum(s.human for s in seats) == 1


NAMED_BOTS: Final = frozenset({*bots.LEVELS, *bots.BOTS, "advisor"})
"""The bots the catalogue names (``bot.<name>``); a package's own bots go by their names."""


def bot_label(spec: str, taken: set[str] | None = None, lang: str = DEFAULT_LANG) -> str:
    """A bot's display name in ``lang``, the one place bots are named: from the catalogue by
    the spec's first word, a level's or a bot's (``bot.hard``: "Hard bot", "Бот (сильный)";
    ``bot.mcts``: "MCTS bot"), a package's bot by its name (``bot.other``), then "… 2" …
    when ``taken`` already holds it."""
    name = spec.split(":", maxsplit=1)[0].strip().lower()
    w = words(lang)
    label = w(f"bot.{name}") if name in NAMED_BOTS else w("bot.other", name=name)
    candidate, k = label, 1
    while taken is not None and candidate in taken:
        k += 1
        candidate = f"{label} {k}"
    return candidate


def seat_labels(seats: Sequence[Seat], lang: str = DEFAULT_LANG) -> list[str]:
    """Every seat's name as shown in ``lang``: a person's own, a bot's :func:`bot_label`
    (numbered in seat order, so the same seats get the same names in every language)."""
    taken: set[str] = {s.name for s in seats if s.human}
    out: list[str] = []
    for seat in seats:
        name = seat.name if seat.bot is None else bot_label(seat.bot, taken, lang)
        taken.add(name)
        out.append(name)
    return out


def default_players(people: int, bots: int) -> int:
    """The players of a table whose number is not given: 3, or more to seat every person and
    bot named; people named without bots play alone (a hot seat)."""
    return people if people > 1 and not bots else max(3, people + bots)


def plan_seats(
    players: int | None,
    humans: Sequence[str],
    bot_specs: Sequence[str],
    name: str | None = None,
    lang: str = DEFAULT_LANG,
) -> list[Seat]:
    """Seats for a new table (``ra play``): the people first, then the bots.

    Without ``humans`` one person plays (called ``name`` or "You" in ``lang``: the log
    then addresses them).  Bots fill the remaining seats; the last bot spec repeats if
    ``players`` (default: :func:`default_players`) asks for more seats.  Raises ``ValueError``
    with the reason when the numbers do not fit.
    """
    w = words(lang)
    if list(humans) != [""] and any(not h.strip() for h in humans):  # "--humans ,," or "Ann,,Bob"
        raise ValueError(w("tui.seats.empty_name", humans=",".join(humans)[:80]))
    people = [h.strip() for h in humans if h.strip()] or [name or w("player.you")]
    specs = [b.strip() for b in bot_specs if b.strip()]
    for spec in specs:
        bots.from_spec(spec, seed=0)  # a bad spec says why
    total = players if players is not None else default_players(len(people), len(specs))
    check_players(total)
    if len(people) > total:
        people_n, seats_n = w("tui.count.people", n=len(people)), w("tui.count.seats", n=total)
        raise ValueError(w("tui.seats.too_many_people", people=people_n, seats=seats_n))
    n_bots = total - len(people)
    if len(specs) > n_bots:
        raise ValueError(
            w(
                "tui.seats.too_many_bots",
                bots=w("tui.count.bots", n=len(specs)),
                seats=w("tui.count.seats_left", n=n_bots),
                people=w("tui.count.people", n=len(people)),
            )
        )
    if n_bots and not specs:
        specs = ["hard"]
    specs = specs + [specs[-1]] * (n_bots - len(specs)) if n_bots else []
    unnamed = [Seat(p) for p in people] + [Seat("", spec) for spec in specs]
    seats = [Seat(label, s.bot) for s, label in zip(unnamed, seat_labels(unnamed, lang), strict=True)]
    if len(set(s.name for s in seats)) != len(seats):
        raise ValueError(w("tui.seats.names_differ", names=w.join(s.name for s in seats)))
    return seats


def bot_seed(game_seed: int, n: int) -> int:
    """The seed of the bot that takes decision ``n``: the same after a restart or a reload,
    so a game replays exactly, and a search abandoned by undo shares nothing with the next.

    Drawn from the game's seed by a hash: the bot still sees only its seat's view (R9.3).
    """
    return int.from_bytes(hashlib.sha256(f"{game_seed}:{n}".encode()).digest()[:8], "big") >> 1


class SearchCancelledError(Exception):
    """Raised inside a bot's search when the position it was asked about is gone."""


class CancellableView(PlayerView):
    """A player's view whose :meth:`determinize` stops a searching bot once ``cancel`` is set.

    Searching bots sample a game from the view for every iteration, so setting the
    event ends the search within one iteration (undo, quit).
    """

    __slots__ = ("_cancel",)

    def __init__(self, game: Game, seat: int, cancel: threading.Event) -> None:
        super().__init__(game, seat)
        self._cancel = cancel

    def determinize(self, seed: int | None = None, rng: random.Random | None = None) -> Game:
        if self._cancel.is_set():
            raise SearchCancelledError
        return super().determinize(seed=seed, rng=rng)


@dataclass(frozen=True)
class BotJob:
    """One bot decision to take, by value: the seat's view (what the bot may know, R9.3), the
    bot's spec, its seed (:func:`bot_seed`) and the share of its budget it gets (less when a
    server is busy).  A worker process takes it as it is: nothing is replayed there."""

    view: PlayerView
    spec: str
    seed: int
    scale: float = 1.0


def decide(job: BotJob) -> Action:
    """The decision ``job`` asks for: the one pipeline for every bot at every table — the
    terminal's worker thread, the server's bots and stand-ins, in-process or in a worker."""
    budgets = bots.MCTS_ITERATIONS.get(job.spec)
    if job.scale < 1.0 and budgets is not None:
        smaller = tuple(max(1, int(b * job.scale)) for b in budgets)
        bot = bots.make(job.spec, seed=job.seed, iterations_by_players=smaller)
    else:
        bot = bots.from_spec(job.spec, seed=job.seed)
    return bot.choose(job.view)


@dataclass(frozen=True)
class HintJob:
    """One hint to work out, by value: the asking seat's view (what it may know, R9.3: never
    the bag's order), the search's budget and its seed (:data:`ra.bots.advisor.ADVICE_SEED`
    everywhere: nothing of the game's seed reaches a hint)."""

    view: PlayerView
    budget: Budget | str | int = DEFAULT_BUDGET
    seed: int = ADVICE_SEED


def advise(job: HintJob, cancel: threading.Event | None = None, apart: bool = False) -> Evaluation:
    """The evaluation ``job`` asks for: the one hint pipeline of every front end — the web's
    worker processes, the terminal's panel (``apart``: in a separate, lower-priority process,
    so a screen never stalls).  ``cancel`` stops it (``EvaluationCancelledError``)."""
    if apart:
        return advise_in_process(job.view, job.budget, job.seed, cancel or threading.Event())
    return Advisor(job.budget, seed=job.seed).evaluate(job.view, cancel=cancel)


class HintCache(Generic[HintT]):
    """Hints by seat and the whole decision history (after an undo, decision *n* may be
    another position, which must not get the old hint); the oldest go first."""

    def __init__(self, size: int = HINT_CACHE_SIZE) -> None:
        self._size = size
        self._items: OrderedDict[tuple[int, tuple[str, ...]], HintT] = OrderedDict()

    def get(self, key: tuple[int, tuple[str, ...]]) -> HintT | None:
        return self._items.get(key)

    def put(self, key: tuple[int, tuple[str, ...]], value: HintT) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self._size:
            self._items.popitem(last=False)

    def discard(self, key: tuple[int, tuple[str, ...]]) -> None:
        self._items.pop(key, None)

    def __len__(self) -> int:
        return len(self._items)


class Table(Generic[HintT]):
    """A game in progress with its seats and options; the policies above the rules."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[Seat],
        options: TableOptions | None = None,
        forfeited: Collection[int] = (),
        stand_ins: Collection[int] = (),
        away: Collection[int] = (),
        hints_asked: Mapping[int, HintAsk] | None = None,
    ) -> None:
        if len(seats) != game.num_players:
            raise ValueError(f"{len(seats)} seats for a {game.num_players}-player game")
        self.game = game
        self.seats = list(seats)
        self.options = options or TableOptions(hints=default_hints(self.seats))
        self.forfeited: set[int] = set(forfeited)
        """Seats that forfeited (their clock ran out at a forfeit table): last, whatever their score."""
        self.stand_ins: set[int] = set(stand_ins)
        """Decisions (numbered from 0) that a stand-in bot took for an absent person."""
        self.away: set[int] = set(away)
        """People's seats a stand-in decides for now (its person is away, or forfeited)."""
        self.hints_asked: Mapping[int, HintAsk] = dict(hints_asked or {})
        """The hint in flight for each seat that asked one (at most one a seat: :mod:`ra.steps`)."""
        self.hint_cache: HintCache[HintT] = HintCache()
        self._shown: int | None = None  # the seat whose view a shared screen last showed

    # --- who sits where ------------------------------------------------------------

    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.human]

    def is_human(self, seat: int | None) -> bool:
        return seat is not None and self.seats[seat].human

    def human_to_move(self) -> bool:
        return self.is_human(self.game.to_move)

    def bot_to_move(self) -> int | None:
        """The bot's seat if a bot is to move (and the game goes on), else None."""
        seat = self.game.to_move
        return None if seat is None or self.is_human(seat) else seat

    @property
    def movers(self) -> list[int]:
        """The seat that took each decision, in order."""
        return decision_seats(self.game.events)

    def perspective(self) -> int:
        """The seat whose view a shared screen shows: the person to move, else the last person
        who moved, else the first person (or seat 0 at a table of bots)."""
        if self.human_to_move():
            assert self.game.to_move is not None
            return self.game.to_move
        for seat in reversed(self.movers):
            if self.seats[seat].human:
                return seat
        return self.humans[0] if self.humans else 0

    # --- hot seat --------------------------------------------------------------------

    def handover(self) -> int | None:
        """The person who must take the screen before it may show their view, or None.

        At a table where several people share one screen, the view of the person to move
        must not appear while the previous person still looks (R9.1 under hidden scores,
        and their plans in any case): the front end shows a hand-over screen until
        :meth:`hand_over` is called.
        """
        if len(self.humans) < 2 or not self.human_to_move() or self.game.is_over():
            return None
        seat = self.game.to_move
        return seat if seat != self._shown else None

    def hand_over(self) -> None:
        """The person to move has the screen now (see :meth:`handover`)."""
        self._shown = self.perspective()

    def showing(self, seat: int) -> None:
        """Note that a shared screen shows ``seat``'s view (after a hand-over, or at the start)."""
        self._shown = seat

    # --- decisions -------------------------------------------------------------------

    def check(self, seat: int, action: Action | str) -> Action:
        """``action`` parsed and checked for ``seat`` to take now (raises the engine's errors)."""
        game = self.game
        if game.to_move != seat:
            who = game.names[game.to_move] if game.to_move is not None else "nobody"
            raise ValueError(f"it is {who}'s turn, not {game.names[seat]}'s")
        parsed = action if isinstance(action, Action) else Action.parse(action)
        why = game.why_illegal_message(parsed)
        if why is not None:
            raise IllegalActionError(game.say(why), why)
        return parsed

    def apply(self, action: Action | str, stand_in: bool = False) -> None:
        """Apply the decision of the player to move (raises the engine's errors unchanged);
        ``stand_in``: a bot took it for the absent person in that seat (marked in the log
        and the record, and never taken back)."""
        n = self.game.num_decisions
        self.game.apply(action)
        if stand_in:
            self.stand_ins.add(n)

    def forfeit(self, seat: int) -> None:
        """``seat`` forfeits: it ranks last (:func:`game_result`) and may not take back."""
        self.forfeited.add(seat)

    def stood_in_for(self, seat: int) -> bool:
        """Whether a stand-in has already decided for ``seat`` (a second time-out forfeits at a
        "second" table: :meth:`ra.clock.Clock.forfeits`)."""
        events = self.game.events
        return any(events[i].seat == seat for i in stand_in_events(events, self.stand_ins))

    # --- the clock (ra.clock): when the person to move is decided for ----------------------

    def clock_left(self, bank: float | None, since: datetime | None, now: datetime) -> float | None:
        """What the person to move sees on the clock at ``now`` (None: no clock runs — the game
        is over, a bot or a stand-in decides, or the table has none); ``bank``: its game clock
        as stored, ``since``: when the decision became due."""
        seat = self.game.to_move
        if self.game.is_over() or seat is None or not self.is_human(seat) or seat in self.away:
            return None
        return self.options.clock.left(bank, since, now)

    def turn_wait(self, bank: float | None, since: datetime | None, now: datetime) -> float:
        """Seconds from ``now`` until a stand-in decides for the person to move: the table's pace
        for a seat away, else what its clock leaves (at a table without one, the site's
        deadline per decision: :meth:`ra.clock.Clock.time_left`)."""
        seat = self.game.to_move
        if seat is not None and seat in self.away:
            return self.options.pace
        return self.options.clock.time_left(bank, since, now)

    def result(self) -> Result | None:
        """The finished game's result, forfeits included (None while it goes on)."""
        return game_result(self.game, self.forfeited)

    def record(self, public: bool = False) -> dict[str, Any]:
        """The game's record (``public``: what anyone may read, R9) with the table's own facts:
        which seats forfeited and which decisions a stand-in took (:func:`record_facts`)."""
        record = self.game.to_record(public=public)
        if self.forfeited:
            record["forfeited"] = sorted(self.forfeited)
            if record["result"].get("over"):  # the table's result: forfeits last (format version 2)
                game = self.game
                record["result"] = result_fields(
                    True, record["result"]["scores"], game.highest_suns(), self.forfeited
                )
        if self.stand_ins:
            record["stand_ins"] = sorted(self.stand_ins)
            record["stand_in"] = self.options.stand_in
        return record

    # --- the master: one step per intent (ra.master) ------------------------------------

    def step(self, intent: Intent | HintAnswered[HintT], now: datetime) -> tuple[Table[HintT], list[Effect]]:
        """The table after ``intent`` at ``now``, and what a front end must do about it
        (:mod:`ra.master`): a new table, this one unchanged (but for its shared hint cache);
        :class:`ra.master.RefusedError` with the rule's code and reason if the intent may not
        be.  Every step ends by cancelling the hints it made stale (:func:`ra.steps.sweep_hints`)."""
        return steps.step(self, intent, now)

    def replaced(
        self,
        game: Game | None = None,
        stand_ins: Collection[int] | None = None,
        seats: Sequence[Seat] | None = None,
        forfeited: Collection[int] | None = None,
        away: Collection[int] | None = None,
        hints_asked: Mapping[int, HintAsk] | None = None,
    ) -> Table[HintT]:
        """This table with the facts given changed (the rest as they are, its hint cache shared:
        its keys name whole histories)."""
        new: Table[HintT] = Table(
            self.game if game is None else game,
            self.seats if seats is None else seats,
            self.options,
            self.forfeited if forfeited is None else forfeited,
            self.stand_ins if stand_ins is None else stand_ins,
            self.away if away is None else away,
            self.hints_asked if hints_asked is None else hints_asked,
        )
        new.hint_cache = self.hint_cache
        new._shown = self._shown
        return new

    # --- undo (one policy: UNDO_RULE) ---------------------------------------------

    def why_no_undo(self, seat: int | None) -> Msg | None:
        """Why ``seat`` may not take a decision back now, as a message (None: it may)."""
        game = self.game
        if seat is None:
            return msg("tui.undo.spectator")
        if not self.options.undo:
            return msg("tui.undo.off")
        if game.is_over():
            return msg("tui.undo.over")
        if seat in self.forfeited:
            return msg("tui.undo.forfeited")
        events = game.events
        last = _last_decision(events)
        if last is None:
            return msg("tui.undo.none")
        decision = events[last]
        if decision.seat != seat:
            return msg("tui.undo.other", p=SeatRef(decision.seat or 0))
        if game.num_decisions - 1 in self.stand_ins:
            return msg("tui.undo.stand_in")
        if decision.kind == "draw":
            return msg("tui.undo.drawn")
        if any(e.kind == "epoch_end" for e in events[last:]):
            return msg("tui.undo.scored")
        return None

    def can_undo(self, seat: int | None) -> bool:
        return self.why_no_undo(seat) is None

    def undo(self, seat: int | None) -> Action:
        """Take back ``seat``'s last decision; :class:`UndoError` with the reason if it may not."""
        reason = self.why_no_undo(seat)
        if reason is not None:
            raise UndoError(undo_refusal(reason), self.game.names)
        action = self.game.undo()
        self.stand_ins.discard(self.game.num_decisions)
        return action

    # --- bots ----------------------------------------------------------------------------

    def bot_seed(self, n: int | None = None) -> int:
        """The seed of the bot that takes decision ``n`` (default: the next one)."""
        return bot_seed(self.game.setup.seed, self.game.num_decisions if n is None else n)

    def bot(self, seat: int) -> Bot:
        """A fresh bot for ``seat``'s next decision (:func:`bot_seed`): the same position
        always gets the same answer."""
        spec = self.seats[seat].bot
        if spec is None:
            raise ValueError(f"seat {seat} is a person, not a bot")
        return bots.from_spec(spec, seed=self.bot_seed())

    def bot_job(
        self,
        seat: int,
        spec: str | None = None,
        scale: float = 1.0,
        cancel: threading.Event | None = None,
    ) -> BotJob:
        """The next decision of the bot in ``seat`` as a :class:`BotJob` for :func:`decide`;
        ``spec``: a stand-in's level for a person's seat; ``cancel``: a switch that stops the
        search (in-process only: an event does not travel to another process)."""
        spec = spec or self.seats[seat].bot
        if spec is None:
            raise ValueError(f"seat {seat} is a person, and no stand-in level was given")
        view = self.game.view(seat) if cancel is None else CancellableView(self.game, seat, cancel)
        return BotJob(view, spec, self.bot_seed(), scale)

    # --- hints, epochs, records ------------------------------------------------------

    def hint_key(self, seat: int) -> HintKey:
        """The hint cache's key for ``seat`` at the current position."""
        return (seat, tuple(str(a) for a in self.game.decisions))

    def hint_wanted(self, key: HintKey) -> bool:
        """Whether the hint of ``key`` is still worth its search: it is its seat's one in flight,
        that seat's person is to move in that very position, and is not away nor forfeited."""
        seat, game = key[0], self.game
        asked = self.hints_asked.get(seat)
        if asked is None or asked.key != key or seat in self.away or seat in self.forfeited:
            return False
        return not game.is_over() and game.to_move == seat and self.hint_key(seat) == key

    def hint_job(self, seat: int, budget: Budget | str | int = DEFAULT_BUDGET) -> HintJob:
        """The hint of ``seat`` (to move) as a :class:`HintJob` for :func:`advise`: its view
        only, the advisor's seed (as :meth:`bot_job` is for a bot)."""
        if self.game.to_move != seat:
            raise ValueError(f"seat {seat} is not to move: hints are for the player to move")
        return HintJob(self.game.view(seat), budget)

    def epoch_starts(self) -> list[tuple[int, int]]:
        """``(epoch, decisions before it)`` for each epoch reached (from the engine's log)."""
        return epoch_starts(self.game.events)

    def view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may see (``None``: a spectator) — the engine's R9 gate."""
        return self.game.view(seat)


@dataclass(frozen=True)
class Result:
    """A finished game's result as every front end shows it and the ratings count it:
    highest score wins, then highest sun (R8.1); a seat that forfeited ranks after every
    other, whatever its score."""

    scores: tuple[int, ...]
    highest_suns: tuple[int, ...]
    forfeited: frozenset[int]
    order: tuple[int, ...]
    """The seats from first place to last."""

    @property
    def winner(self) -> int:
        return self.order[0]

    @property
    def tie(self) -> bool:
        """The winner's score is shared by a seat that did not forfeit (the sun decided, R8.1)."""
        w = self.winner
        return any(self.scores[s] == self.scores[w] for s in self.order[1:] if s not in self.forfeited)

    def ranks(self) -> list[int]:
        """Each seat's rank for the ratings (:func:`ranks`)."""
        return ranks(self.scores, self.winner, self.forfeited)


def game_result(game: State, forfeited: Collection[int] = ()) -> Result | None:
    """The result of ``game`` once it is over (None before), with the seats that forfeited:
    the one result every surface shows (the record's, the log's last line, ``ra replay``'s, the
    site's) and the ratings count, ordered by :func:`ra.record_format.standings`."""
    if not game.is_over():
        return None
    scores = tuple(s if s is not None else 0 for s in game.scores)
    suns = game.highest_suns()
    out = frozenset(forfeited)
    return Result(scores, suns, out, standings(scores, suns, out))


def result_log(events: Sequence[Event], result: Result | None) -> list[Event]:
    """``events`` (a game's log, or a view's) with the end of the game told as the table's
    ``result``: the engine knows no forfeits, so its last line would name a forfeited seat."""
    if result is None:
        return list(events)
    told = game_over_event(result.winner, result.tie)
    return [told if e.kind == "game_over" else e for e in events]


def record_facts(record: Mapping[str, Any], game: Game) -> tuple[frozenset[int], frozenset[int]]:
    """The table's facts a record of ``game`` states: the seats that forfeited and the decisions
    a stand-in took (both optional lists of numbers); :class:`RecordError` names a bad one."""
    return (
        seat_numbers(record, "forfeited", game.num_players),
        seat_numbers(record, "stand_ins", game.num_decisions),
    )


TABLE_BOTS = (*bots.LEVELS, "random", "greedy")
"""The bots a table seats, or stands in with, by one word: the levels, then the two simple bots."""


def record_stand_in(record: Mapping[str, Any]) -> str:
    """The level of the stand-in bot a record names (``"medium"`` where it names none: records
    before 0.4.1, whose tables all stood in with the default); :class:`RecordError` if it is no level."""
    level = record.get("stand_in", "medium")
    if level not in TABLE_BOTS:
        raise RecordError(f"'stand_in' must be one of {', '.join(TABLE_BOTS)}")
    return str(level)


def stand_in_events(events: Sequence[Event], stand_ins: Collection[int]) -> frozenset[int]:
    """The indices in ``events`` (a log of the game, or a view of it) of the decisions that
    a stand-in took (``stand_ins``: their decision numbers, from 0)."""
    if not stand_ins:
        return frozenset()
    marked: set[int] = set()
    k = 0
    for i, event in enumerate(events):
        if event.kind in DECISION_EVENTS and not event.auto:
            if k in stand_ins:
                marked.add(i)
            k += 1
    return frozenset(marked)


def stand_in_message(message: Msg, seat: int, level: str) -> Msg:
    """A log entry of a decision a stand-in bot of ``level`` took for the person in ``seat``:
    the entry, marked ("… (decided by Medium bot, standing in for Ann)")."""
    bot = msg(f"bot.{level}") if level in bots.LEVELS else bot_label(level)
    return msg("log.stand_in", event=message, bot=bot, p=SeatRef(seat))


def _last_decision(events: Sequence[Event]) -> int | None:
    """The index in ``events`` of the last decision's event."""
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if e.kind in DECISION_EVENTS and not e.auto:
            return i
    return None
