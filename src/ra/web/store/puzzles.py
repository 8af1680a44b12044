"""The puzzles' aggregate: each account's puzzle rating and its first answer to each puzzle (what
:mod:`ra.web.puzzles` reads and writes): the interface :class:`PuzzleStorage`, its SQL store
:class:`PuzzleStore` and its in-memory twin :class:`MemoryPuzzles`.  How an answer moves the
rating is the caller's (``rate``: :meth:`ra.puzzles.Solver.after`); the store keeps that only
an account's first answer to a puzzle moves it, and that one account's answers move it one at a
time."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Protocol

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ra.puzzles import Solver, solver_from
from ra.web.db import puzzle_attempts, puzzle_solvers

Rate = Callable[[Solver], Solver]
"""The solver after the answer, from the solver before it."""

Answered = tuple[Solver, Solver, bool]
"""The rating before and after an answer, and whether the answer moved it (a first one)."""


class PuzzleStorage(Protocol):
    """The accounts' puzzle ratings and first answers (``store.puzzles``)."""

    async def solver(self, account_id: str) -> Solver:
        """The account's puzzle rating (a new solver's before its first answer)."""
        ...

    async def first_answer(self, account_id: str, puzzle_id: str, correct: bool, rate: Rate) -> Answered:
        """Record the account's answer to ``puzzle_id`` and move its rating by ``rate`` if it is
        its first answer to it; a later one is not recorded and moves nothing (before, before,
        False).  Answers sent at once are applied one after another, so each counts once."""
        ...


class PuzzleStore:
    """:class:`PuzzleStorage` in the database's ``puzzle_solvers`` and ``puzzle_attempts``."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._locks = [asyncio.Lock() for _ in range(64)]
        """One account's answers one at a time in this process (its row is locked on PostgreSQL,
        where other workers answer too)."""

    async def solver(self, account_id: str) -> Solver:
        async with self.engine.connect() as conn:
            return await _solver(conn, account_id) or Solver()

    async def first_answer(self, account_id: str, puzzle_id: str, correct: bool, rate: Rate) -> Answered:
        async with self._locks[hash(account_id) % len(self._locks)]:
            try:
                return await self._first_answer(account_id, puzzle_id, correct, rate)
            except IntegrityError:  # another worker recorded this first answer a moment ago
                before = await self.solver(account_id)
                return before, before, False

    async def _first_answer(self, account_id: str, puzzle_id: str, correct: bool, rate: Rate) -> Answered:
        mine = puzzle_solvers.c.account_id == account_id
        async with self.engine.begin() as conn:
            stored = await _solver(conn, account_id, lock=True)
            if stored is None:  # the new row is this transaction's until it commits
                await conn.execute(
                    sa.insert(puzzle_solvers).values(account_id=account_id, **asdict(Solver()))
                )
            before = stored or Solver()
            seen = await conn.execute(
                sa.select(puzzle_attempts.c.correct).where(
                    puzzle_attempts.c.account_id == account_id, puzzle_attempts.c.puzzle_id == puzzle_id
                )
            )
            if seen.first() is not None:
                return before, before, False
            after = rate(before)
            attempt = {"account_id": account_id, "puzzle_id": puzzle_id, "correct": correct}
            await conn.execute(sa.insert(puzzle_attempts).values(at=datetime.now(UTC), **attempt))
            await conn.execute(sa.update(puzzle_solvers).where(mine).values(**asdict(after)))
        return before, after, True


async def _solver(conn: AsyncConnection, account_id: str, lock: bool = False) -> Solver | None:
    """The account's stored solver, None if it has none (``lock``: its row held to the end of
    ``conn``'s transaction, on PostgreSQL)."""
    q = sa.select(puzzle_solvers).where(puzzle_solvers.c.account_id == account_id)
    row = (await conn.execute(q.with_for_update() if lock else q)).mappings().first()
    return None if row is None else solver_from(dict(row))


class MemoryPuzzles:
    """:class:`PuzzleStorage` in this process's memory (one step an answer: nothing between
    the read and the write for another answer to slip into)."""

    def __init__(self) -> None:
        self.solvers: dict[str, Solver] = {}
        self.attempts: dict[tuple[str, str], bool] = {}
        """Each account's first answer to each puzzle: whether it was right."""

    async def solver(self, account_id: str) -> Solver:
        return self.solvers.get(account_id, Solver())

    async def first_answer(self, account_id: str, puzzle_id: str, correct: bool, rate: Rate) -> Answered:
        before = await self.solver(account_id)
        if (account_id, puzzle_id) in self.attempts:
            return before, before, False
        self.attempts[(account_id, puzzle_id)] = correct
        self.solvers[account_id] = after = rate(before)
        return before, after, True
