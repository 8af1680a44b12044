"""The rows of events (issue 55): an event, its players, its rounds and their tables.

SQL only; the rules (who may do what, the limits, how a round is formed) are
:mod:`ra.web.events`'.  A round's row is the claim to form it: its primary key lets one worker
insert it, so each round is formed exactly once whichever worker sees it first.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ra.web.db import accounts, event_players, event_rounds, event_tables, events, games, now, seats
from ra.web.store import hash_token, new_token

LIVE = ("open", "running")
"""An event in one of these states counts towards its organiser's limit."""


class EventLimitError(Exception):
    """A limit refused the change (the transaction was undone): ``what`` names the limit."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


TableKey = tuple[str, int, int]
"""A table of an event: (event id, round, table number)."""


class TableTakenError(Exception):
    """The table has its game already, or its round's claim passed to another worker."""


class EventStore:
    """Events' rows over the site's database engine."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def create(self, values: dict[str, Any], most_live: int) -> None:
        """Insert an event unless its organiser already has ``most_live`` open or running."""
        async with self.engine.begin() as conn:
            live = await conn.scalar(
                sa.select(sa.func.count())
                .select_from(events)
                .where(events.c.organiser_id == values["organiser_id"], events.c.status.in_(LIVE))
            )
            if (live or 0) >= most_live:
                raise EventLimitError("events")
            await conn.execute(sa.insert(events).values(created_at=now(), **values))

    async def event(self, event_id: str) -> dict[str, Any] | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(events).where(events.c.id == event_id))).mappings().first()
        return None if row is None else dict(row)

    async def listed(self, limit: int = 50) -> list[dict[str, Any]]:
        """Open and running events, soonest first (the lobby's list); one by invitation is not
        listed (its page is for those who have the link)."""
        query = (
            sa.select(events)
            .where(events.c.status.in_(LIVE), events.c.invite_hash.is_(None))
            .order_by(events.c.starts_at)
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            return [dict(r) for r in (await conn.execute(query)).mappings()]

    async def due(self, limit: int = 100) -> list[dict[str, Any]]:
        """Open events whose start time has come, and running ones: what a sweep looks at."""
        query = (
            sa.select(events.c.id, events.c.status)
            .where(
                sa.or_(
                    sa.and_(events.c.status == "open", events.c.starts_at <= now()),
                    events.c.status == "running",
                )
            )
            .order_by(events.c.starts_at)
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            return [dict(r) for r in (await conn.execute(query)).mappings()]

    async def players(self, event_id: str) -> list[dict[str, Any]]:
        """The event's players in the order they joined, each with their account's rating
        (``rating``: the OpenSkill mean, which orders players level on points)."""
        query = (
            sa.select(event_players, accounts.c.rating_mu.label("rating"))
            .select_from(event_players.join(accounts, accounts.c.id == event_players.c.account_id))
            .where(event_players.c.event_id == event_id)
            .order_by(event_players.c.joined_at, event_players.c.account_id)
        )
        async with self.engine.connect() as conn:
            return [dict(r) for r in (await conn.execute(query)).mappings()]

    async def join(self, event_id: str, account_id: str, name: str, most: int) -> None:
        """Enter the account (again, after a withdrawal) unless ``most`` players are in."""
        async with self.engine.begin() as conn:
            if await self._is_in(conn, event_id, account_id):
                return
            count = await conn.scalar(
                sa.select(sa.func.count())
                .select_from(event_players)
                .where(event_players.c.event_id == event_id, event_players.c.withdrawn.is_(False))
            )
            if (count or 0) >= most:
                raise EventLimitError("players")
            done = await conn.execute(
                sa.update(event_players)
                .where(event_players.c.event_id == event_id, event_players.c.account_id == account_id)
                .values(withdrawn=False)
            )
            if done.rowcount == 0:
                await conn.execute(
                    sa.insert(event_players).values(
                        event_id=event_id, account_id=account_id, name=name, joined_at=now()
                    )
                )

    @staticmethod
    async def _is_in(conn: AsyncConnection, event_id: str, account_id: str) -> bool:
        row = await conn.execute(
            sa.select(event_players.c.withdrawn).where(
                event_players.c.event_id == event_id, event_players.c.account_id == account_id
            )
        )
        found = row.first()
        return found is not None and not found.withdrawn

    async def mark(self, event_id: str, account_id: str, **values: bool) -> bool:
        """Set a player's ``withdrawn`` or ``removed``; whether they were in the event."""
        async with self.engine.begin() as conn:
            done = await conn.execute(
                sa.update(event_players)
                .where(event_players.c.event_id == event_id, event_players.c.account_id == account_id)
                .values(**values)
            )
        return done.rowcount == 1

    async def move(self, event_id: str, before: Sequence[str], after: str, **values: Any) -> bool:
        """Change the event's status from one of ``before`` to ``after`` (and set ``values``:
        ``started_at``); whether it did."""
        async with self.engine.begin() as conn:
            done = await conn.execute(
                sa.update(events)
                .where(events.c.id == event_id, events.c.status.in_(tuple(before)))
                .values(status=after, **values)
            )
        return done.rowcount == 1

    async def claim_round(
        self, event_id: str, round_no: int, seed: int, worker: str, tables: Sequence[Sequence[str | None]]
    ) -> bool:
        """Form round ``round_no`` with ``tables`` (account ids in seat order) unless another
        worker formed it first: one transaction, so a round is never half formed (None: a bot's seat)."""
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    sa.insert(event_rounds).values(
                        event_id=event_id, round=round_no, worker=worker, seed=seed, formed_at=now()
                    )
                )
                if tables:
                    await conn.execute(
                        sa.insert(event_tables),
                        [
                            {"event_id": event_id, "round": round_no, "table_no": i, "players": list(t)}
                            for i, t in enumerate(tables, start=1)
                        ],
                    )
        except IntegrityError:
            return False
        return True

    async def rounds(self, event_id: str) -> list[dict[str, Any]]:
        """The rounds formed so far, in order."""
        query = (
            sa.select(event_rounds).where(event_rounds.c.event_id == event_id).order_by(event_rounds.c.round)
        )
        async with self.engine.connect() as conn:
            return [dict(r) for r in (await conn.execute(query)).mappings()]

    async def tables(self, event_id: str) -> list[dict[str, Any]]:
        """Every table of the event, by round and table number."""
        query = (
            sa.select(event_tables)
            .where(event_tables.c.event_id == event_id)
            .order_by(event_tables.c.round, event_tables.c.table_no)
        )
        async with self.engine.connect() as conn:
            return [dict(r) for r in (await conn.execute(query)).mappings()]

    async def played(self, event_id: str) -> list[dict[str, Any]]:
        """Each table of the event with its game's status, final scores (R8) and each seat's
        forfeit, by round: what the standings are derived from."""
        query = (
            sa.select(
                event_tables.c.round,
                event_tables.c.table_no,
                event_tables.c.players,
                event_tables.c.game_id,
                games.c.status,
                games.c.scores,
                games.c.updated_at.label("ended"),  # a finished game's last change: its end
            )
            .select_from(event_tables.outerjoin(games, games.c.id == event_tables.c.game_id))
            .where(event_tables.c.event_id == event_id)
            .order_by(event_tables.c.round, event_tables.c.table_no)
        )
        async with self.engine.connect() as conn:
            rows = [dict(r) for r in (await conn.execute(query)).mappings()]
            ids = [r["game_id"] for r in rows if r["game_id"] is not None]
            lost = await conn.execute(
                sa.select(seats.c.game_id, seats.c.seat).where(seats.c.game_id.in_(ids), seats.c.forfeited)
            )
            forfeits = {(g, s) for g, s in lost}
        for r in rows:
            r["forfeits"] = [(r["game_id"], i) in forfeits for i in range(len(r["players"]))]
        return rows

    async def event_of_game(self, game_id: str) -> str | None:
        """The event whose table ``game_id`` is, if any."""
        async with self.engine.connect() as conn:
            found: str | None = await conn.scalar(
                sa.select(event_tables.c.event_id).where(event_tables.c.game_id == game_id)
            )
        return found

    async def take_over(self, event_id: str, round_no: int, worker: str, lease: float) -> bool:
        """Take over round ``round_no``'s claim to form its tables if its holder has not renewed
        it for ``lease`` seconds (a worker that died mid-round); whether it did.  A live holder
        (this worker too) is left to finish: two makers of one round would only waste games."""
        t = now()
        async with self.engine.begin() as conn:
            done = await conn.execute(
                sa.update(event_rounds)
                .where(
                    event_rounds.c.event_id == event_id,
                    event_rounds.c.round == round_no,
                    event_rounds.c.formed_at < t - timedelta(seconds=lease),
                )
                .values(worker=worker, formed_at=t)
            )
        return done.rowcount == 1

    @staticmethod
    def linker(
        table: TableKey, worker: str, players: Sequence[tuple[int, str, str]]
    ) -> Callable[[AsyncConnection, str], Awaitable[None]]:
        """:meth:`link_table` for one table, as the lobby's creation calls it (with the new id)."""

        async def link(conn: AsyncConnection, game_id: str) -> None:
            await EventStore.link_table(conn, table, worker, game_id, players)

        return link

    @staticmethod
    async def link_table(
        conn: AsyncConnection,
        table: TableKey,
        worker: str,
        game_id: str,
        players: Sequence[tuple[int, str, str]],
    ) -> None:
        """In the new game's own transaction: record it as the table's game and give its human
        seats to their accounts ((seat, account id, name)), each with a token nobody knows (a
        player opens theirs with "Play on this device"), and renew the worker's claim on the
        round.  Raises :class:`TableTakenError` (undoing the game) when the table already has a game
        or another worker took the round over: a table never gets two games."""
        event_id, round_no, table_no = table
        held = await conn.execute(
            sa.update(event_rounds)
            .where(event_rounds.c.event_id == event_id, event_rounds.c.round == round_no)
            .where(event_rounds.c.worker == worker)
            .values(formed_at=now())
        )
        linked = await conn.execute(
            sa.update(event_tables)
            .where(event_tables.c.event_id == event_id, event_tables.c.round == round_no)
            .where(event_tables.c.table_no == table_no, event_tables.c.game_id.is_(None))
            .values(game_id=game_id)
        )
        if held.rowcount != 1 or linked.rowcount != 1:
            raise TableTakenError(table)
        for seat, account_id, name in players:
            await conn.execute(
                sa.update(seats)
                .where(seats.c.game_id == game_id, seats.c.seat == seat, seats.c.token_hash.is_(None))
                .values(account_id=account_id, name=name, token_hash=hash_token(new_token()))
            )
