"""Analysis of a finished (or saved) game: every decision of a seat (or all) judged by the
advisor (:mod:`ra.bots.advisor`: the bots' own search, the hints' numbers), the costly ones
labelled with a reason (:mod:`ra.bots.explain`), and a summary.

Each decision is evaluated from the view the player had then (R9: under hidden scores,
without the others' scores); decisions with one legal action are skipped (no choice).
The win chances after each chosen action, for every player, make the chart.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ra.actions import Action
from ra.analysis.accuracy import game_accuracy
from ra.analysis.chances import default_model as default_chances_model
from ra.bots.advisor import Advisor
from ra.bots.evaluate import Budget, Evaluation, Evaluator
from ra.bots.explain import explain, mistake_msg, msg_from_json, reason_msg
from ra.engine import Game
from ra.events import epoch_starts as log_epoch_starts
from ra.events import you_seat
from ra.labels import action_label
from ra.processes import running
from ra.table import game_result
from ra.words import DEFAULT_LANG, Msg, MsgJson, words

Judge = Advisor | Evaluator
"""What judges decisions: the advisor (the default), or the flat evaluator (its fallback, tests)."""

FORMAT = "ra-analysis"
"""The ``format`` field of an analysis JSON file."""

# The labels' thresholds, re-fitted for the advisor's search (benchmarks/accuracy.py --fit, 9
# games a level at 3 players, docs/benchmarks.md#advice): the smallest at which the strong levels
# (expert, hard) get about 1% inaccuracies, 0.2% mistakes and no blunders, while medium to random
# bots get 11-13%, 6-8% and 2-3%.  (They were 5%, 10% and 20% for the flat evaluator.)
INACCURACY = 0.02
"""Win chance lost from which a decision counts as inaccurate (and not "accurate")."""
MISTAKE = 0.04
"""Win chance lost from which a decision is labelled a mistake, with a reason."""
BLUNDER = 0.08
"""Win chance lost from which a mistake is called a blunder."""


DEFAULT_SEARCHES = 8
"""Decisions a default analysis searches at its full budget at most, a short search judging the
rest (:mod:`ra.analysis.quick`; a game has about 100-250 with a choice): at the ``expert``
budget about 10 s of one core (docs/bots.md, Speed)."""


def label_for(loss: float) -> str | None:
    """``blunder``, ``mistake``, ``inaccuracy`` or ``None`` for a loss of win chance."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


@dataclass(frozen=True)
class ActionLine:
    """One evaluated legal action: the mover's win chance after it and the expected margin."""

    action: str
    chance: float
    margin: float


@dataclass(frozen=True)
class DecisionReport:
    """One analysed decision."""

    index: int
    """The decision's number in the game (0-based)."""
    seat: int
    epoch: int
    chosen: str
    best: str
    chances: tuple[float, ...]
    """Every player's win chance after the chosen action."""
    chosen_chance: float
    best_chance: float
    loss: float
    """Win chance the mover gave up (best minus chosen, 0 or more)."""
    label: str | None
    text: str
    """Why: the reason for the chosen action, or the mistake's label (in English)."""
    actions: tuple[ActionLine, ...] = ()
    why: MsgJson | None = None
    """The same as a catalogue message (players by seat), to be put in any language
    (:meth:`why_text`)."""
    searched: bool = True
    """Judged by the search at the analysis' budget; False: by a short search only (the default
    analysis searches the costliest decisions in full, :mod:`ra.analysis.quick`)."""

    def why_text(self, names: Sequence[str], lang: str = DEFAULT_LANG) -> str:
        """Why, in a language: a player called "You" is the reader (as in the log)."""
        if self.why is None:
            return self.text
        return words(lang).render(msg_from_json(self.why), names, you_seat(names))

    def line(self, names: Sequence[str], lang: str = DEFAULT_LANG, edition: str = "original") -> str:
        """The decision as a costly one is listed (terminal and report alike): ``decision 46
        (Bob, epoch 2): Bid 1 — lost 29% …`` (the action by the game's own label, as its button
        and the hints name it: :func:`ra.labels.action_label`)."""
        return words(lang)(
            "analysis.decision",
            number=self.index + 1,
            name=names[self.seat],
            epoch=self.epoch,
            chosen=action_label(Action.parse(self.chosen), edition, lang),
            why=self.why_text(names, lang),
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DecisionReport:
        return cls(
            **{
                **data,
                "chances": tuple(data["chances"]),
                "actions": tuple(ActionLine(**a) for a in data.get("actions", ())),
            }
        )


class AnalysisFormatError(ValueError):
    """A document that is no analysis written by ``ra analyze --json`` (``broken``: it says it
    is one, but ``field`` — or, when None, some part — is missing or damaged)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.broken = message.startswith("a broken")
        self.field = field


@dataclass
class GameAnalysis:
    """The analysis of one game (JSON-able with :meth:`to_dict`)."""

    names: tuple[str, ...]
    seats: tuple[int, ...]
    """The seats analysed."""
    budget: str
    seed: int
    total_decisions: int
    epoch_starts: tuple[int, ...]
    """Decision numbers at which epochs 2 and 3 began."""
    final_scores: tuple[int, ...] | None
    winner: int | None
    decisions: list[DecisionReport] = field(default_factory=list)
    complete: bool = True
    """False when the analysis was interrupted (then ``decisions`` holds those done)."""
    curve: list[tuple[int, tuple[float, ...]]] = field(default_factory=list)
    """Every player's win chance after each decision of the game (decisions made, chances):
    the analysed decisions' own numbers, and a plain estimate of the position after every
    other decision, so the chart covers the whole game ("with best play from here")."""
    strengths: tuple[float, ...] | None = None
    """Each seat's strength on the levels' rating scale, when the analysis was told who played."""
    given: list[tuple[int, tuple[float, ...]]] = field(default_factory=list)
    """With :attr:`strengths`: every player's chance "given who is playing" from the start and
    after each decision (:func:`given_curve`), the chart's second set of lines."""
    reasons: list[str] = field(default_factory=list)
    """What moved the chart at each point of :attr:`given` (:func:`point_reasons`)."""

    def accuracy(self, seat: int) -> float | None:
        """``seat``'s accuracy (0..1) from the chance lost at each of its analysed decisions, as
        lichess computes it (:func:`ra.analysis.accuracy.game_accuracy`); ``None`` without any."""
        mine = [d for d in self.decisions if d.seat == seat]
        percent = game_accuracy([d.best_chance for d in mine], [d.chosen_chance for d in mine])
        return None if percent is None else percent / 100

    def costliest(self, count: int = 3) -> list[DecisionReport]:
        """The ``count`` decisions that lost the most win chance (only those that lost some)."""
        ranked = sorted(self.decisions, key=lambda d: (-d.loss, d.index))
        return [d for d in ranked[:count] if d.loss >= INACCURACY]

    def labelled(self) -> list[DecisionReport]:
        """The mistakes and blunders, in game order."""
        return [d for d in self.decisions if d.label in ("mistake", "blunder")]

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["format"] = FORMAT
        data["summary"] = {
            "accuracy": {str(s): self.accuracy(s) for s in self.seats},
            "costliest": [d.index for d in self.costliest()],
        }
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1) + "\n"

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameAnalysis:
        """Read an analysis written by :meth:`to_dict`; ``ValueError`` says what is wrong."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise AnalysisFormatError("not a game analysis (ra analyze --json writes one)")
        try:
            return cls(
                names=tuple(data["names"]),
                seats=tuple(data["seats"]),
                budget=str(data["budget"]),
                seed=int(data["seed"]),
                total_decisions=int(data["total_decisions"]),
                epoch_starts=tuple(data["epoch_starts"]),
                final_scores=tuple(data["final_scores"]) if data["final_scores"] is not None else None,
                winner=data["winner"],
                decisions=[DecisionReport.from_dict(d) for d in data["decisions"]],
                complete=bool(data.get("complete", True)),
                curve=[(int(i), tuple(float(c) for c in cs)) for i, cs in data.get("curve", [])],
                strengths=None if data.get("strengths") is None else tuple(data["strengths"]),
                given=[(int(i), tuple(float(c) for c in cs)) for i, cs in data.get("given", [])],
                reasons=[str(r) for r in data.get("reasons", [])],
            )
        except (KeyError, TypeError, ValueError) as err:
            field = str(err.args[0]) if isinstance(err, KeyError) and err.args else None
            why = f"a broken game analysis ({type(err).__name__}: {err})"
            raise AnalysisFormatError(why, field) from None


def epoch_starts(game: Game) -> tuple[int, ...]:
    """The decision numbers at which each epoch after the first began (from the engine's log)."""
    return tuple(n for epoch, n in log_epoch_starts(game.events) if epoch > 1)


def decisions_to_analyse(game: Game, seats: Sequence[int]) -> list[int]:
    """The decision numbers of ``seats`` that had a choice (more than one legal action)."""
    probe = Game.from_setup(game.setup)
    out = []
    for i, action in enumerate(game.decisions):
        if probe.to_move in seats and len(probe.legal_actions()) > 1:
            out.append(i)
        probe.apply(action)
    return out


def analyse_decision(
    position: Game, chosen: Action, evaluator: Judge, index: int, edition: str = "original"
) -> DecisionReport:
    """Judge ``chosen`` in ``position`` (the game just before it), from the mover's view."""
    seat = position.to_move
    assert seat is not None
    return decision_report(position, chosen, evaluator.evaluate(position.view(seat)), index, edition)


def decision_report(
    position: Game, chosen: Action, ev: Evaluation, index: int, edition: str = "original"
) -> DecisionReport:
    """The report of ``chosen`` in ``position`` from an evaluation of it (the search's, or the
    model's: ``ev.source == "model"``, whose reasons then come from the game's facts alone)."""
    seat = position.to_move
    assert seat is not None
    view = position.view(seat)
    searched = ev.source != "model"
    told = ev if searched else None
    best = ev.best
    mine = ev.value(chosen)
    loss = ev.loss(chosen)
    label = label_for(loss)
    why: Msg | None
    if label is not None:
        why = mistake_msg(view, chosen, best.action, loss, edition, evaluation=told)
    else:
        why = reason_msg(explain(view, chosen, told), edition)
    text = "" if why is None else words(DEFAULT_LANG).render(why, view.names, you_seat(view.names))
    return DecisionReport(
        index=index,
        seat=seat,
        epoch=position.epoch,
        chosen=str(chosen),
        best=str(best.action),
        chances=mine.chances,
        chosen_chance=mine.chances[seat],
        best_chance=best.chances[seat],
        loss=loss,
        label=label,
        text=text,
        actions=tuple(ActionLine(str(v.action), v.chances[seat], v.margin) for v in ev.actions),
        why=None if why is None else why.to_json(),
        searched=searched,
    )


def full_analysis(
    game: Game,
    seats: Sequence[int] | None,
    budget: Budget | str | int,
    seed: int,
    progress: Callable[[int, int], None] | None,
    edition: str,
    jobs: int,
    forfeited: Collection[int] = (),
) -> GameAnalysis:
    """The full analysis (``ra analyze --deep``): every decision of ``seats`` with a choice judged
    by the search at ``budget``, in ``jobs`` processes (:func:`ra.analysis.analyse.analyse_game`
    is the front door)."""
    analysis, chosen = new_analysis(game, seats, budget, seed, forfeited)
    evaluator = Advisor(budget, seed=seed)
    if jobs == 1:
        _analyse_here(game, chosen, evaluator, analysis, progress, edition)
    else:
        _analyse_in_pool(game, chosen, evaluator.budget, seed, analysis, progress, edition, jobs)
    return analysis


def add_given(analysis: GameAnalysis, game: Game, strengths: Sequence[float] | None) -> None:
    """With the seats' ``strengths``: the chances given who is playing, and what moved them."""
    if strengths is not None:
        analysis.strengths = tuple(float(s) for s in strengths)
        analysis.given = given_curve(game, analysis.strengths)
        analysis.reasons = point_reasons(game)


def new_analysis(
    game: Game,
    seats: Sequence[int] | None,
    budget: Budget | str | int,
    seed: int,
    forfeited: Collection[int] = (),
) -> tuple[GameAnalysis, set[int]]:
    """An empty analysis of ``game`` (its header filled in: the winner is the table's, given
    the seats that ``forfeited``) and the decisions to judge: those of ``seats`` (default: all)
    that had a choice."""
    seats = tuple(range(game.num_players)) if seats is None else tuple(seats)
    for s in seats:
        if not 0 <= s < game.num_players:
            raise ValueError(f"no seat {s + 1} in a {game.num_players}-player game")
    over = game.is_over()
    result = game_result(game, forfeited)
    analysis = GameAnalysis(
        names=game.names,
        seats=seats,
        budget=str(budget if isinstance(budget, Budget) else Budget.parse(budget)),
        seed=seed,
        total_decisions=game.num_decisions,
        epoch_starts=epoch_starts(game),
        final_scores=tuple(s or 0 for s in game.scores) if over else None,
        winner=None if result is None else result.winner,
    )
    return analysis, set(decisions_to_analyse(game, seats))


def fill_analysis(
    analysis: GameAnalysis, results: dict[int, tuple[DecisionReport | None, tuple[float, ...]]]
) -> None:
    """Put :func:`judge_decision`'s results (by decision number) into ``analysis`` in game order."""
    for index in sorted(results):
        report, chances = results[index]
        if report is not None:
            analysis.decisions.append(report)
        analysis.curve.append((index + 1, chances))


def _analyse_here(
    game: Game,
    chosen: set[int],
    evaluator: Judge,
    analysis: GameAnalysis,
    progress: Callable[[int, int], None] | None,
    edition: str,
) -> None:
    playouts = curve_playouts(evaluator.budget, game.num_players)
    probe = Game.from_setup(game.setup)
    try:
        for index, action in enumerate(game.decisions):
            if index in chosen:
                report = analyse_decision(probe, action, evaluator, index, edition)
                analysis.decisions.append(report)
                probe.apply(action)
                chances = report.chances
            else:
                probe.apply(action)
                chances = position_chances(probe, evaluator, playouts)
            analysis.curve.append((index + 1, chances))
            if progress is not None:
                progress(index + 1, game.num_decisions)
    except KeyboardInterrupt:
        analysis.complete = False


def _analyse_in_pool(
    game: Game,
    chosen: set[int],
    budget: Budget,
    seed: int,
    analysis: GameAnalysis,
    progress: Callable[[int, int], None] | None,
    edition: str,
    jobs: int,
) -> None:
    """The decisions judged in worker processes (which leave Ctrl-C to this one); the results
    are put in game order, so they equal :func:`_analyse_here`'s."""
    record = game.to_record()
    total = game.num_decisions
    results: dict[int, tuple[DecisionReport | None, tuple[float, ...]]] = {}
    tasks = [(record, index, index in chosen, budget, seed, edition) for index in range(total)]
    try:
        with running(jobs) as pool:  # fresh processes, never forked from this one (ra.processes)
            for done, (index, report, chances) in enumerate(pool.imap_unordered(_judge_task, tasks), 1):
                results[index] = (report, chances)
                if progress is not None:
                    progress(done, total)
    except KeyboardInterrupt:
        analysis.complete = False  # the decisions under way are dropped, not waited for
    fill_analysis(analysis, results)


def _judge_task(
    task: tuple[dict[str, Any], int, bool, Budget, int, str],
) -> tuple[int, DecisionReport | None, tuple[float, ...]]:
    return judge_decision(*task)


def judge_decision(
    record: dict[str, Any], index: int, analysed: bool, budget: Budget, seed: int, edition: str
) -> tuple[int, DecisionReport | None, tuple[float, ...]]:
    """One decision of the game in ``record``, in a worker process: judged if ``analysed``,
    else the plain estimate of the position after it (the server's analyses run these too)."""
    game = Game.from_record(record)
    probe = Game.from_setup(game.setup)
    for action in game.decisions[:index]:
        probe.apply(action)
    evaluator = Advisor(budget, seed=seed)
    action = game.decisions[index]
    if analysed:
        report = analyse_decision(probe, action, evaluator, index, edition)
        return index, report, report.chances
    probe.apply(action)
    return index, None, position_chances(probe, evaluator, curve_playouts(budget, game.num_players))


def given_curve(game: Game, strengths: Sequence[float]) -> list[tuple[int, tuple[float, ...]]]:
    """Every player's chance given who is playing (the seats' ``strengths``), at the start and
    after each decision: the mean of the model's chances from every seat's view (what the table
    knew between them; shown once the game is over, R9.1), so that the line moves with the game,
    not with whose turn it is; certain once the game is over.  The whole game in about a second."""
    if len(strengths) != game.num_players:
        raise ValueError(f"{game.num_players} strengths wanted (one a seat), got {len(strengths)}")
    model = default_chances_model()
    n = game.num_players
    probe = Game.from_setup(game.setup)
    out = []
    for index in range(game.num_decisions + 1):
        if index:
            probe.apply(game.decisions[index - 1])
        if probe.is_over():
            out.append((index, tuple(float(i == probe.winner) for i in range(n))))
            continue
        views = [model.chances(probe.view(seat), strengths) for seat in range(n)]
        out.append((index, tuple(sum(v[k] for v in views) / n for k in range(n))))
    return out


def point_reasons(game: Game) -> list[str]:
    """What moved the chart at each of its points (the start, then each decision): ``scoring``
    (an epoch was scored, R6, or the game ended), ``auction`` (an auction ended: a lot won or
    left, R4.2), else the decision's kind (``draw``, ``ra``, ``bid``, ``pass``, ``god``,
    ``discard``)."""
    probe = Game.from_setup(game.setup)
    out = ["start"]
    for action in game.decisions:
        epoch, phase = probe.epoch, probe.phase
        probe.apply(action)
        if probe.is_over() or probe.epoch != epoch:
            out.append("scoring")
        elif phase == "bid" and probe.phase != "bid":
            out.append("auction")
        else:
            out.append(action.kind)
    return out


def curve_playouts(budget: Budget, players: int) -> int:
    """Iterations (playouts for the flat evaluator) for a point of the curve between analysed
    decisions: a quarter of the budget's (at least 20), or 2,000 under a time budget."""
    iterations = budget.search_iterations(players)
    return max(20, iterations // 4) if iterations is not None else 2000


def position_chances(position: Game, evaluator: Judge, playouts: int) -> tuple[float, ...]:
    """Every player's chance to win ``position`` (certain once the game is over)."""
    if position.is_over():
        return tuple(float(i == position.winner) for i in range(position.num_players))
    seat = position.to_move
    assert seat is not None
    chances, _, _ = evaluator.position(position.view(seat), playouts)
    return chances


__all__ = [
    "BLUNDER",
    "DEFAULT_SEARCHES",
    "FORMAT",
    "INACCURACY",
    "MISTAKE",
    "ActionLine",
    "AnalysisFormatError",
    "DecisionReport",
    "GameAnalysis",
    "analyse_decision",
    "curve_playouts",
    "decision_report",
    "decisions_to_analyse",
    "epoch_starts",
    "fill_analysis",
    "full_analysis",
    "given_curve",
    "judge_decision",
    "label_for",
    "new_analysis",
    "point_reasons",
    "position_chances",
]
