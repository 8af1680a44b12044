"""Puzzles in the browser (``/puzzles``): the server holds the puzzles, judges the answers and
moves the puzzle rating (:mod:`ra.puzzles`); the page shows the board and the buttons.

Without an account the rating lives in the browser: the page sends it with each answer and keeps
what comes back (it is only that browser's own number).  Signed in, it lives with the account
(``puzzle_solvers``) and only a puzzle's first answer from the account moves it
(``puzzle_attempts``), and only if the answer was not shown to this device or address before
(:func:`ra.web.rating_policy.puzzle_rated`), so asking again cannot farm points; such an answer
is a change to the account and needs the page's CSRF token, as every other.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from ra.labels import action_label
from ra.puzzles import (
    THEMES,
    Puzzle,
    PuzzleAnswerError,
    Solver,
    by_id,
    choose,
    display,
    judge,
    load_puzzles,
    solver_from,
)
from ra.web.limits import Levels, address_prefix
from ra.web.lobby import ApiError
from ra.web.protocol import ViewData, seat_payload
from ra.web.rating_policy import PUZZLE_REVEAL_SECONDS, puzzle_rated
from ra.web.security import client_address
from ra.web.store import Store
from ra.web.store.puzzles import PuzzleStorage
from ra.words import DEFAULT_LANG, normalize, sentence, words

MAX_SEEN = 1000
"""Puzzle ids a page may list as seen (as many as there are puzzles)."""


class SolverData(BaseModel):
    """A solver's puzzle rating as the browser keeps it (ignored when signed in)."""

    mu: float = Field(default=25.0, ge=0, le=100)
    sigma: float = Field(default=25 / 3, ge=0.5, le=25 / 3)
    streak: int = Field(default=0, ge=0, le=10**6)
    best_streak: int = Field(default=0, ge=0, le=10**6)
    solved: int = Field(default=0, ge=0, le=10**6)
    tried: int = Field(default=0, ge=0, le=10**6)


class NextPuzzle(BaseModel):
    solver: SolverData = Field(default_factory=SolverData)
    seen: list[str] = Field(default_factory=list, max_length=MAX_SEEN)
    theme: str | None = Field(default=None, max_length=20)
    lang: str = Field(default=DEFAULT_LANG, max_length=20)


class Answer(BaseModel):
    action: str = Field(max_length=40)
    solver: SolverData = Field(default_factory=SolverData)
    repeat: bool = False
    """This device (the page's list of the puzzles it answered) has seen this puzzle's answer:
    the answer is not rated, for a guest or an account (:func:`ra.web.rating_policy.puzzle_rated`)."""
    lang: str = Field(default=DEFAULT_LANG, max_length=20)


class SolverReply(TypedDict):
    mu: float
    sigma: float
    streak: int
    best_streak: int
    solved: int
    tried: int
    rating: int
    """The rating as shown."""
    step: int
    """How far one answer moves the rating now (a right one to a puzzle of the solver's own
    rating): big for a newcomer, smaller with every answer as the rating settles (its sigma)."""


class Choice(TypedDict):
    action: str
    label: str


class PuzzleReply(TypedDict):
    id: str
    themes: list[str]
    players: int
    mover: int
    rating: int
    view: ViewData
    moves: list[Choice]
    solver: SolverReply
    account: str | None


class Chance(TypedDict):
    action: str
    label: str
    win: float


class AnswerReply(TypedDict):
    id: str
    correct: bool
    answer: str
    answer_label: str
    loss: float
    why: str
    chances: list[Chance]
    rated: bool
    """False when an account answers a puzzle it has answered before."""
    before: SolverReply
    solver: SolverReply


class ThemeCount(TypedDict):
    id: str
    count: int


def solver_reply(solver: Solver) -> SolverReply:
    return SolverReply(
        mu=solver.mu,
        sigma=solver.sigma,
        streak=solver.streak,
        best_streak=solver.best_streak,
        solved=solver.solved,
        tried=solver.tried,
        rating=solver.shown,
        step=solver.after(replace(load_puzzles()[0], rating=solver.mu), correct=True).shown - solver.shown,
    )


def _lang(tag: str) -> str:
    return normalize(tag) or DEFAULT_LANG


def _puzzle(puzzle_id: str) -> Puzzle:
    puzzle = by_id(puzzle_id[:40])
    if puzzle is None:
        raise ApiError(404, "not_found", f"no puzzle {puzzle_id[:40]!r}")
    return puzzle


def puzzle_reply(puzzle: Puzzle, solver: Solver, lang: str, account: str | None) -> PuzzleReply:
    """A puzzle as the page draws it: the solver's view and the legal actions (not the answer)."""
    game = puzzle.game(lang)
    return PuzzleReply(
        id=puzzle.id,
        themes=list(puzzle.themes),
        players=puzzle.players,
        mover=puzzle.mover,
        rating=display(puzzle.rating),
        view=seat_payload(game, puzzle.mover, "original")["view"],
        moves=[Choice(action=str(a), label=action_label(a, lang=lang)) for a in game.legal_actions()],
        solver=solver_reply(solver),
        account=account,
    )


class Solvers:
    """The puzzle ratings of accounts (the browser keeps its own), over the puzzles' store."""

    def __init__(self, store: PuzzleStorage) -> None:
        self.store = store

    async def get(self, account_id: str) -> Solver:
        return await self.store.solver(account_id)

    async def answer(self, account_id: str, puzzle: Puzzle, correct: bool) -> tuple[Solver, Solver, bool]:
        """The rating before and after a first answer (unchanged, False, for a repeated one):
        only an account's first answer to a puzzle moves it, and answers sent at once all count
        (the store applies them one at a time)."""
        return await self.store.first_answer(
            account_id, puzzle.id, correct, lambda s: s.after(puzzle, correct)
        )


SessionOf = Callable[[Request], Awaitable[tuple[str, str] | None]]
"""The signed-in account of a request (its id and name), or None; for a change it also checks
the request's origin and CSRF token (raising the refusal)."""


class Answered:
    """Which puzzles' answers were shown to which addresses (an IPv6 /64) lately
    (:data:`ra.web.rating_policy.PUZZLE_REVEAL_SECONDS`): an account's answer from there is rated
    only if no answer went there before — a guest asking first, then signing in to answer right,
    farmed the rating (issue 40, finding 9).  In the site's shared levels (``Store.levels``: the
    database when workers share PostgreSQL), so a second worker does not forget it."""

    def __init__(self, levels: Levels) -> None:
        self.levels = levels

    async def seen(self, prefix: str, puzzle_id: str) -> bool:
        """Whether ``puzzle_id``'s answer went to ``prefix`` lately; it has now."""
        key = f"puzzle-answer\n{prefix}\n{puzzle_id}"  # one atomic step: 1 while it lasts, else marked now
        return not await self.levels.take(key, 1 / PUZZLE_REVEAL_SECONDS, 1.0)


def make_router(store: Store, account_of: SessionOf, changing_account: SessionOf) -> APIRouter:
    """The puzzles' API over the server's database."""
    router = APIRouter()
    solvers = Solvers(store.puzzles)

    @router.get("/api/puzzles/themes")
    async def themes() -> dict[str, list[ThemeCount]]:
        """The themes and how many puzzles each has."""
        found = load_puzzles()
        return {"themes": [ThemeCount(id=t, count=sum(t in p.themes for p in found)) for t in THEMES]}

    @router.post("/api/puzzles/next")
    async def next_puzzle(body: NextPuzzle, request: Request) -> PuzzleReply:
        """A puzzle near the solver's rating, of the theme, not in ``seen`` (while any is left)."""
        if body.theme is not None and body.theme not in THEMES:
            raise ApiError(422, "bad_theme", f"the theme is one of {', '.join(THEMES)}")
        who = await account_of(request)
        solver = await solvers.get(who[0]) if who else solver_from(body.solver.model_dump())
        try:
            puzzle = choose(load_puzzles(), solver, body.seen, body.theme)
        except ValueError as err:
            raise ApiError(404, "no_puzzles", str(err)) from None
        return puzzle_reply(puzzle, solver, _lang(body.lang), who[1] if who else None)

    @router.get("/api/puzzles/{puzzle_id}")
    async def one_puzzle(puzzle_id: str, request: Request, lang: str = DEFAULT_LANG) -> PuzzleReply:
        """One puzzle by its id (a link to it)."""
        who = await account_of(request)
        solver = await solvers.get(who[0]) if who else Solver()
        return puzzle_reply(_puzzle(puzzle_id), solver, _lang(lang), who[1] if who else None)

    answered = Answered(store.levels)

    @router.post("/api/puzzles/{puzzle_id}/answer")
    async def answer(puzzle_id: str, body: Answer, request: Request) -> AnswerReply:
        """Judge an answer; the solution, why, and the solver's rating and streak after it."""
        puzzle = _puzzle(puzzle_id)
        lang = _lang(body.lang)
        try:
            verdict = judge(puzzle, body.action)
        except PuzzleAnswerError as err:
            raise ApiError(422, "illegal", words(lang).render(err.message)) from None
        who = await changing_account(request) if await account_of(request) else None
        answered_here = await answered.seen(address_prefix(client_address(request)), puzzle.id)
        if who and not puzzle_rated(True, body.repeat, answered_here):  # shown here already: not rated
            before = after = await solvers.get(who[0])
            rated = False
        elif who:  # the account's first answer (its attempts are in the database) moves its rating
            before, after, rated = await solvers.answer(who[0], puzzle, verdict.correct)
        else:
            before, rated = solver_from(body.solver.model_dump()), not body.repeat
            after = before.after(puzzle, verdict.correct) if rated else before
        return AnswerReply(
            id=puzzle.id,
            correct=verdict.correct,
            answer=str(verdict.answer),
            answer_label=action_label(verdict.answer, lang=lang),
            loss=round(verdict.loss, 3),
            why=sentence(words(lang).render(verdict.why, puzzle.names(lang), puzzle.mover)),
            chances=[
                Chance(
                    action=str(a.action),
                    label=action_label(a.action, lang=lang),
                    win=round(a.chances[puzzle.mover], 3),
                )
                for a in puzzle.actions
            ],
            rated=rated,
            before=solver_reply(before),
            solver=solver_reply(after),
        )

    return router
