"""The "your turn" mail's aggregate: who at a seat gets the mail, and the games by turns where it
is an account's turn (what :class:`ra.web.mail.TurnMailer` reads), and which of an event's
players get its game mail (:class:`ra.web.event_mail.EventMailer`): the interface
:class:`TurnMailStorage`, its SQL store :class:`TurnMailStore` and its in-memory twin
:class:`MemoryTurnMail`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from ra.web.db import accounts, games, seats

BY_TURNS_SECONDS = 3600
"""A clock of at least this many seconds a decision makes a game by turns: its players get mail."""


@dataclass(frozen=True)
class Person:
    """An account that gets "your turn" mail."""

    id: str
    name: str
    email: str | None
    lang: str | None


class TurnMailStorage(Protocol):
    """The stored facts "your turn" mail reads (``store.turn_mail``)."""

    async def person(self, game_id: str, seat: int) -> Person | None:
        """The account at ``seat`` if it has a confirmed address and wants "your turn" mail."""
        ...

    async def waiting(self, account_id: str) -> list[str]:
        """The account's running games by turns (:data:`BY_TURNS_SECONDS`) where it is its turn
        and its seat is not away, longest waiting first."""
        ...

    async def game_mail(self, account_ids: Sequence[str]) -> list[Person]:
        """The accounts among ``account_ids`` with a confirmed address that want game mail (an
        event's "your game is ready" goes to them), in no particular order."""
        ...


class TurnMailStore:
    """:class:`TurnMailStorage` in the site's database."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def person(self, game_id: str, seat: int) -> Person | None:
        q = (
            sa.select(accounts.c.id, accounts.c.name, accounts.c.email, accounts.c.lang)
            .join(seats, seats.c.account_id == accounts.c.id)
            .where(
                seats.c.game_id == game_id,
                seats.c.seat == seat,
                accounts.c.email_confirmed.is_(True),
                accounts.c.mail_turns.is_(True),
            )
        )
        async with self.engine.connect() as conn:
            row = (await conn.execute(q)).first()
        return None if row is None else Person(*row)

    async def waiting(self, account_id: str) -> list[str]:
        q = (
            sa.select(games.c.id)
            .join(seats, sa.and_(seats.c.game_id == games.c.id, seats.c.seat == games.c.to_move))
            .where(
                seats.c.account_id == account_id,
                seats.c.away.is_(False),
                games.c.status == "running",
                games.c.move_seconds >= BY_TURNS_SECONDS,
            )
            .order_by(games.c.updated_at)
        )
        async with self.engine.connect() as conn:
            return [str(g) for g in (await conn.execute(q)).scalars()]

    async def game_mail(self, account_ids: Sequence[str]) -> list[Person]:
        q = sa.select(accounts.c.id, accounts.c.name, accounts.c.email, accounts.c.lang).where(
            accounts.c.id.in_(account_ids),
            accounts.c.email_confirmed.is_(True),
            accounts.c.mail_turns.is_(True),
        )
        async with self.engine.connect() as conn:
            return [Person(*row) for row in await conn.execute(q)]


@dataclass
class TurnGame:
    """A game as the twin keeps it for the mail: who holds each seat, whose turn, its clock."""

    holders: dict[int, str]
    status: str
    to_move: int | None
    move_seconds: int | None
    updated_at: datetime
    away: set[int] = field(default_factory=set)


class MemoryTurnMail:
    """:class:`TurnMailStorage` in this process's memory (``people``: each account and whether it
    gets the mail, a confirmed address and the mail on; ``games``: what the games would store)."""

    def __init__(self) -> None:
        self.people: dict[str, tuple[Person, bool]] = {}
        self.games: dict[str, TurnGame] = {}

    async def person(self, game_id: str, seat: int) -> Person | None:
        game = self.games.get(game_id)
        holder = None if game is None else game.holders.get(seat)
        found = None if holder is None else self.people.get(holder)
        return found[0] if found is not None and found[1] else None

    async def waiting(self, account_id: str) -> list[str]:
        def due(g: TurnGame) -> bool:
            mine = g.to_move is not None and g.holders.get(g.to_move) == account_id
            by_turns = g.move_seconds is not None and g.move_seconds >= BY_TURNS_SECONDS
            return mine and g.to_move not in g.away and g.status == "running" and by_turns

        return [i for i, g in sorted(self.games.items(), key=lambda ig: ig[1].updated_at) if due(g)]

    async def game_mail(self, account_ids: Sequence[str]) -> list[Person]:
        found = [self.people.get(a) for a in dict.fromkeys(account_ids)]
        return [f[0] for f in found if f is not None and f[1]]
