"""Puzzles: positions cut from bots' games where one action is clearly best (issue 24).

Each puzzle is a setup (players, seed) and the decisions reaching the position, the player to
move, its themes and the advisor's numbers for every legal action (each player's win chance,
the mover's projected margin, the search's visits), made by ``python -m tools.puzzles`` and
shipped in ``ra/data/puzzles.json``.  A puzzle is kept only when the gap between the best and the
second action is large and stays large with a four times larger budget and another seed.

One place for every front end (``ra puzzle``, ``/puzzles``): the themes, judging an answer (the
engine says whether it is legal, R-sections in its refusal), the explanation (the hints' reason
for the answer, compared with the action chosen: :mod:`ra.bots.explain`), and the puzzle rating
(OpenSkill's Plackett-Luce: the solver against the puzzle, a win when solved) with a streak.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources

from openskill.models import PlackettLuce

from ra.actions import Action
from ra.bots.evaluate import ActionValue, Evaluation
from ra.bots.explain import explain, mistake_msg, reason_msg
from ra.engine import Game
from ra.errors import NotationError
from ra.tiles import DISASTERS, TILE_IDS
from ra.words import DEFAULT_LANG, Msg, msg, words

THEMES = ("bidding", "invoking", "gods", "disasters", "end_of_epoch")
"""Puzzle themes: a bid or pass (R4), draw or invoke Ra (R3.2), God tiles (R3.5), a Disaster in the
lot or its losses to choose (R5), and the last Ra tile of an epoch within reach (R6.1)."""

MODEL = PlackettLuce()
PUZZLE_SIGMA = 2.0
"""The uncertainty of a puzzle's own rating: puzzles are rated once, by the generator."""

DISPLAY_SCALE = 60
"""The rating shown is ``round(mu * DISPLAY_SCALE)``: a new solver (mu 25) shows 1500."""


class PuzzleDataError(ValueError):
    """The puzzles file is malformed: the message names the puzzle and the field."""


class PuzzleAnswerError(ValueError):
    """An answer that is not an action, or not a legal one here: ``message`` says which in any
    language (the engine's own reason, with its rule, for an illegal action)."""

    def __init__(self, message: Msg) -> None:
        super().__init__(words().render(message))
        self.message = message


def themes_of(game: Game) -> tuple[str, ...]:
    """The themes a position shows (possibly none), for the player to move."""
    kinds = {a.kind for a in game.legal_actions()}
    track = set(game.auction_track)
    found = []
    if "bid" in kinds or ("pass" in kinds and game.phase == "bid"):
        found.append("bidding")
    if {"draw", "ra"} <= kinds:
        found.append("invoking")
    if "god" in kinds:
        found.append("gods")
    if "discard" in kinds or track & {TILE_IDS[t] for t in DISASTERS}:
        found.append("disasters")
    if game.ra_count + 1 >= game.ra_track_length and kinds & {"draw", "ra", "bid"}:
        found.append("end_of_epoch")
    return tuple(found)


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: the position (setup and decisions), its themes, answer and numbers."""

    id: str
    players: int
    seed: int
    moves: tuple[str, ...]
    mover: int
    themes: tuple[str, ...]
    answer: str
    rating: float
    """The puzzle's own rating (mu), harder when fewer of our bots find the answer."""
    budget: int
    actions: tuple[ActionValue, ...]

    def names(self, language: str = DEFAULT_LANG) -> list[str]:
        """The players' names: "You" for the solver, "Player 2"… for the others."""
        w = words(language)
        return [
            w("player.you") if i == self.mover else w("player.numbered", n=i + 1) for i in range(self.players)
        ]

    def game(self, language: str = DEFAULT_LANG) -> Game:
        """The game at the puzzle's position, replayed from its setup (each move checked legal)."""
        game = Game(players=self.names(language), seed=self.seed)
        for number, text in enumerate(self.moves, 1):
            action = Action.parse(text)
            if action not in game.legal_actions():
                raise PuzzleDataError(f"puzzle {self.id}: move {number} ({text!r}) is not legal there")
            game.apply(action)
        return game

    def evaluation(self) -> Evaluation:
        """The advisor's numbers for the position, as the advisor gave them (best first)."""
        return Evaluation(self.mover, self.actions, sum(a.playouts for a in self.actions), "search")

    def chance(self, action: str) -> float:
        """The solver's win chance after ``action`` (0-1)."""
        return next(a.chances[self.mover] for a in self.actions if str(a.action) == action)

    @property
    def gap(self) -> float:
        """How much better the answer is than the second best action (win chance)."""
        others = [a.chances[self.mover] for a in self.actions[1:]]
        return self.chance(self.answer) - max(others)


@dataclass(frozen=True)
class Verdict:
    """What an answer was worth: right or not, the loss of win chance and the explanation."""

    correct: bool
    chosen: Action
    answer: Action
    loss: float
    why: Msg


def judge(puzzle: Puzzle, text: str) -> Verdict:
    """Judge an answer given in notation (``bid 9``): :class:`PuzzleAnswerError` when it is not
    an action or not legal in the position (the engine's own reason), else the verdict."""
    game = puzzle.game()
    try:
        chosen = Action.parse(text)
    except NotationError:
        raise PuzzleAnswerError(msg("puzzle.not_action", text=text[:40])) from None
    refusal = game.why_illegal_message(chosen)
    if refusal is not None:
        raise PuzzleAnswerError(refusal)
    answer = Action.parse(puzzle.answer)
    loss = max(0.0, puzzle.chance(puzzle.answer) - puzzle.chance(str(chosen)))
    evaluation = puzzle.evaluation()
    if chosen is answer:
        why = reason_msg(explain(game, answer, evaluation)) or msg("puzzle.no_reason")
    else:
        why = mistake_msg(game, chosen, answer, loss, evaluation=evaluation)
    return Verdict(chosen is answer, chosen, answer, loss, why)


@dataclass(frozen=True)
class Solver:
    """A solver's puzzle rating (OpenSkill mu and sigma), streak and counts."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    streak: int = 0
    best_streak: int = 0
    solved: int = 0
    tried: int = 0

    @property
    def shown(self) -> int:
        """The rating as shown (1500 for a newcomer)."""
        return display(self.mu)

    def after(self, puzzle: Puzzle, correct: bool) -> Solver:
        """The solver after an answer: the rating moves towards the result (a solved puzzle
        is a win against the puzzle's rating), the streak grows or restarts."""
        me = MODEL.rating(mu=self.mu, sigma=self.sigma)
        it = MODEL.rating(mu=puzzle.rating, sigma=PUZZLE_SIGMA)
        [[new], _] = MODEL.rate([[me], [it]], ranks=[1, 2] if correct else [2, 1])
        streak = self.streak + 1 if correct else 0
        return replace(
            self,
            mu=round(new.mu, 4),
            sigma=round(max(new.sigma, 0.5), 4),
            streak=streak,
            best_streak=max(self.best_streak, streak),
            solved=self.solved + correct,
            tried=self.tried + 1,
        )


def display(mu: float) -> int:
    """A rating (mu) as the number people see."""
    return round(mu * DISPLAY_SCALE)


def solver_from(raw: object) -> Solver:
    """A solver from stored or sent data (unknown fields ignored; bad values: a new solver's)."""
    if not isinstance(raw, dict):
        return Solver()
    base = Solver()
    try:
        mu = float(raw.get("mu", base.mu))
        sigma = float(raw.get("sigma", base.sigma))
        counts = [int(raw.get(k, 0)) for k in ("streak", "best_streak", "solved", "tried")]
    except (TypeError, ValueError):
        return base
    if not (0 <= mu <= 100 and 0.5 <= sigma <= base.sigma) or not all(0 <= c <= 10**6 for c in counts):
        return base
    return Solver(mu, sigma, *counts)


def choose(
    puzzles: Sequence[Puzzle],
    solver: Solver,
    seen: Iterable[str] = (),
    theme: str | None = None,
    rng: random.Random | None = None,
) -> Puzzle:
    """The next puzzle: of the theme (any when None), not yet seen (all again once every one
    has been), among the eight rated nearest the solver's rating."""
    pool = [p for p in puzzles if theme is None or theme in p.themes]
    if not pool:
        raise ValueError(f"no puzzles of the theme {theme!r}")
    done = set(seen)
    fresh = [p for p in pool if p.id not in done] or pool
    fresh.sort(key=lambda p: (abs(p.rating - solver.mu), p.id))
    return (rng or random.Random()).choice(fresh[:8])


def _action_value(raw: dict[str, object], players: int) -> ActionValue:
    chances = tuple(float(c) for c in raw["chances"])  # type: ignore[attr-defined]
    if len(chances) != players:
        raise ValueError("chances: one per player")
    return ActionValue(
        action=Action.parse(str(raw["action"])),
        chances=chances,
        margin=float(raw["margin"]),  # type: ignore[arg-type]
        wins=chances,
        playouts=int(raw["playouts"]),  # type: ignore[call-overload]
    )


def puzzle_from(raw: object) -> Puzzle:
    """One puzzle from its JSON form, checked (not replayed: :meth:`Puzzle.game` does that)."""
    if not isinstance(raw, dict):
        raise PuzzleDataError(f"a puzzle must be an object, got {raw!r}")
    pid = raw.get("id")
    try:
        players = int(raw["players"])
        puzzle = Puzzle(
            id=str(pid),
            players=players,
            seed=int(raw["seed"]),
            moves=tuple(str(m) for m in raw["moves"]),
            mover=int(raw["mover"]),
            themes=tuple(str(t) for t in raw["themes"]),
            answer=str(raw["answer"]),
            rating=float(raw["rating"]),
            budget=int(raw["budget"]),
            actions=tuple(_action_value(a, players) for a in raw["actions"]),
        )
    except (KeyError, TypeError, ValueError, NotationError) as err:
        raise PuzzleDataError(f"puzzle {pid!r}: missing or malformed field {err}") from None
    if not set(puzzle.themes) <= set(THEMES) or not puzzle.themes:
        raise PuzzleDataError(f"puzzle {pid!r}: themes must be some of {', '.join(THEMES)}")
    if not puzzle.actions or str(puzzle.actions[0].action) != puzzle.answer:
        raise PuzzleDataError(f"puzzle {pid!r}: the answer must be the first action")
    shown = [v.shown(puzzle.mover)[0] for v in puzzle.actions]  # whole per cent: ties keep any order
    if shown != sorted(shown, reverse=True):  # the list a player reads falls by the chance it shows
        raise PuzzleDataError(f"puzzle {pid!r}: the actions must be ordered by the mover's win chance")
    return puzzle


def to_json(puzzle: Puzzle) -> dict[str, object]:
    """A puzzle's JSON form (the inverse of :func:`puzzle_from`)."""
    return {
        "id": puzzle.id,
        "players": puzzle.players,
        "seed": puzzle.seed,
        "moves": list(puzzle.moves),
        "mover": puzzle.mover,
        "themes": list(puzzle.themes),
        "answer": puzzle.answer,
        "rating": puzzle.rating,
        "budget": puzzle.budget,
        "actions": [
            {
                "action": str(a.action),
                "chances": [round(c, 4) for c in a.chances],
                "margin": round(a.margin, 2),
                "playouts": a.playouts,
            }
            for a in puzzle.actions
        ],
    }


@cache
def load_puzzles() -> tuple[Puzzle, ...]:
    """The shipped puzzles (``ra/data/puzzles.json``, made by ``python -m tools.puzzles``)."""
    path = resources.files("ra").joinpath("data").joinpath("puzzles.json")
    raw = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(raw, list):
        raise PuzzleDataError("puzzles.json must hold a list of puzzles")
    return tuple(puzzle_from(p) for p in raw)


def by_id(puzzle_id: str) -> Puzzle | None:
    """A shipped puzzle by its id."""
    return next((p for p in load_puzzles() if p.id == puzzle_id), None)


__all__ = [
    "THEMES",
    "Puzzle",
    "PuzzleAnswerError",
    "PuzzleDataError",
    "Solver",
    "Verdict",
    "by_id",
    "choose",
    "display",
    "judge",
    "load_puzzles",
    "puzzle_from",
    "solver_from",
    "themes_of",
    "to_json",
]
