"""The events' aggregate (issue 55): an event, its players, its rounds and their tables (what
:class:`ra.web.events.Events` reads and writes): the interface :class:`EventStorage`, its SQL store
:class:`EventStore` and its in-memory twin :class:`MemoryEvents`.

SQL only; the rules (who may do what, the limits, how a round is formed) are
:mod:`ra.web.events`'.  A round's row is the claim to form it: its primary key lets one worker
insert it, so each round is formed exactly once whichever worker sees it first.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ra.web.db import accounts, event_players, event_rounds, event_tables, events, games, now, seats
from ra.web.store.limits import lock_key
from ra.web.store.tokens import hash_token, new_token

LIVE = ("open", "running")
"""An event in one of these states counts towards its organiser's limit."""


class EventLimitError(Exception):
    """A limit refused the change (the transaction was undone): ``what`` names the limit."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


TableKey = tuple[str, int, int]
"""A table of an event: (event id, round, table number)."""

Given = Sequence[tuple[int, str, str]]
"""A table's human seats given to their players: (seat, account id, name)."""


TableLink = Callable[[AsyncConnection, str], Awaitable[None]]
"""What :meth:`EventStorage.linker` makes: a step of the table's game's creation, which the lobby
runs in the creation's transaction with the new id (the games' ``Linker``, as the lobby takes it:
spelled here because the games' store opens this aggregate, not the other way round)."""


class TableTakenError(Exception):
    """The table has its game already, or its round's claim passed to another worker."""


class EventStorage(Protocol):
    """The stored events (``store.events``); rows as dicts of their columns."""

    async def create(self, values: dict[str, Any], most_live: int) -> None:
        """Store an event unless its organiser already has ``most_live`` open or running
        (:class:`EventLimitError` ``events``: counted and inserted in one step)."""
        ...

    async def event(self, event_id: str) -> dict[str, Any] | None: ...

    async def listed(self, limit: int = 50) -> list[dict[str, Any]]:
        """Open and running events, soonest first (the lobby's list); one by invitation is not
        listed (its page is for those who have the link)."""
        ...

    async def due(self, limit: int = 100) -> list[dict[str, Any]]:
        """Open events whose start time has come, and running ones (``id``, ``status``): what a
        sweep looks at."""
        ...

    async def players(self, event_id: str) -> list[dict[str, Any]]:
        """The event's players in the order they joined, each with their account's rating
        (``rating``: the OpenSkill mean, which orders players level on points)."""
        ...

    async def join(self, event_id: str, account_id: str, name: str, most: int) -> None:
        """Enter the account (again, after a withdrawal) unless ``most`` players are in
        (:class:`EventLimitError` ``players``); nothing if it is in."""
        ...

    async def mark(self, event_id: str, account_id: str, **values: bool) -> bool:
        """Set a player's ``withdrawn`` or ``removed``; whether they were in the event."""
        ...

    async def move(self, event_id: str, before: Sequence[str], after: str, **values: Any) -> bool:
        """Change the event's status from one of ``before`` to ``after`` (and set ``values``:
        ``started_at``); whether it did."""
        ...

    async def claim_round(
        self, event_id: str, round_no: int, seed: int, worker: str, tables: Sequence[Sequence[str | None]]
    ) -> bool:
        """Form round ``round_no`` with ``tables`` (account ids in seat order, None: a bot's seat)
        unless another worker formed it first (False): in one step, never half formed."""
        ...

    async def rounds(self, event_id: str) -> list[dict[str, Any]]:
        """The rounds formed so far, in order."""
        ...

    async def tables(self, event_id: str) -> list[dict[str, Any]]:
        """Every table of the event, by round and table number."""
        ...

    async def played(self, event_id: str) -> list[dict[str, Any]]:
        """Each table of the event with its game's ``status``, final ``scores`` (R8), ``ended``
        and each seat's ``forfeits``, by round: what the standings are derived from."""
        ...

    async def event_of_game(self, game_id: str) -> str | None:
        """The event whose table ``game_id`` is, if any."""
        ...

    async def take_over(self, event_id: str, round_no: int, worker: str, lease: float) -> bool:
        """Take over round ``round_no``'s claim to form its tables if its holder has not renewed
        it for ``lease`` seconds (a worker that died mid-round); whether it did.  A live holder
        (this worker too) is left to finish: two makers of one round would only waste games."""
        ...

    def linker(self, table: TableKey, worker: str, players: Given) -> TableLink:
        """The step of a table's game's creation (the lobby runs it in the creation's
        transaction, with the new id) that records it as the table's game, gives its human seats
        to their accounts, each with a token nobody knows (a player opens theirs with "Play on
        this device"), and renews the worker's claim on the round.  It raises
        :class:`TableTakenError` (undoing the game) when the table has a game already or
        another worker took the round over: a table never gets two games."""
        ...


class EventStore:
    """:class:`EventStorage` in the database's ``events``, ``event_players``, ``event_rounds``
    and ``event_tables`` tables (reading the games' and accounts' rows they point to)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._counting = asyncio.Lock()
        """A limit's count and its insert one at a time in this process (PostgreSQL's workers
        also take the key's lock: :func:`ra.web.store.limits.lock_key`)."""

    async def create(self, values: dict[str, Any], most_live: int) -> None:
        mine = events.c.organiser_id == values["organiser_id"]
        async with self._counting, self.engine.begin() as conn:
            await lock_key(conn, f"events\n{values['organiser_id']}")
            live = await conn.scalar(
                sa.select(sa.func.count()).select_from(events).where(mine, events.c.status.in_(LIVE))
            )
            if (live or 0) >= most_live:
                raise EventLimitError("events")
            await conn.execute(sa.insert(events).values(created_at=now(), **values))

    async def event(self, event_id: str) -> dict[str, Any] | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(events).where(events.c.id == event_id))).mappings().first()
        return None if row is None else dict(row)

    async def listed(self, limit: int = 50) -> list[dict[str, Any]]:
        query = (
            sa.select(events)
            .where(events.c.status.in_(LIVE), events.c.invite_hash.is_(None))
            .order_by(events.c.starts_at)
            .limit(limit)
        )
        return await self._rows(query)

    async def due(self, limit: int = 100) -> list[dict[str, Any]]:
        started = sa.and_(events.c.status == "open", events.c.starts_at <= now())
        query = (
            sa.select(events.c.id, events.c.status)
            .where(sa.or_(started, events.c.status == "running"))
            .order_by(events.c.starts_at)
            .limit(limit)
        )
        return await self._rows(query)

    async def players(self, event_id: str) -> list[dict[str, Any]]:
        query = (
            sa.select(event_players, accounts.c.rating_mu.label("rating"))
            .select_from(event_players.join(accounts, accounts.c.id == event_players.c.account_id))
            .where(event_players.c.event_id == event_id)
            .order_by(event_players.c.joined_at, event_players.c.account_id)
        )
        return await self._rows(query)

    async def join(self, event_id: str, account_id: str, name: str, most: int) -> None:
        player = sa.and_(event_players.c.event_id == event_id, event_players.c.account_id == account_id)
        async with self._counting, self.engine.begin() as conn:
            await lock_key(conn, f"event players\n{event_id}")
            found = (await conn.execute(sa.select(event_players.c.withdrawn).where(player))).first()
            if found is not None and not found.withdrawn:
                return
            count = await conn.scalar(
                sa.select(sa.func.count())
                .select_from(event_players)
                .where(event_players.c.event_id == event_id, event_players.c.withdrawn.is_(False))
            )
            if (count or 0) >= most:
                raise EventLimitError("players")
            if found is not None:
                await conn.execute(sa.update(event_players).where(player).values(withdrawn=False))
                return
            await conn.execute(
                sa.insert(event_players).values(
                    event_id=event_id, account_id=account_id, name=name, joined_at=now()
                )
            )

    async def mark(self, event_id: str, account_id: str, **values: bool) -> bool:
        async with self.engine.begin() as conn:
            done = await conn.execute(
                sa.update(event_players)
                .where(event_players.c.event_id == event_id, event_players.c.account_id == account_id)
                .values(**values)
            )
        return done.rowcount == 1

    async def move(self, event_id: str, before: Sequence[str], after: str, **values: Any) -> bool:
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
        round_row = {"event_id": event_id, "round": round_no, "worker": worker, "seed": seed}
        try:
            async with self.engine.begin() as conn:
                await conn.execute(sa.insert(event_rounds).values(formed_at=now(), **round_row))
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
        query = (
            sa.select(event_rounds).where(event_rounds.c.event_id == event_id).order_by(event_rounds.c.round)
        )
        return await self._rows(query)

    async def tables(self, event_id: str) -> list[dict[str, Any]]:
        query = (
            sa.select(event_tables)
            .where(event_tables.c.event_id == event_id)
            .order_by(event_tables.c.round, event_tables.c.table_no)
        )
        return await self._rows(query)

    async def played(self, event_id: str) -> list[dict[str, Any]]:
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
        async with self.engine.connect() as conn:
            found: str | None = await conn.scalar(
                sa.select(event_tables.c.event_id).where(event_tables.c.game_id == game_id)
            )
        return found

    async def take_over(self, event_id: str, round_no: int, worker: str, lease: float) -> bool:
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

    def linker(self, table: TableKey, worker: str, players: Given) -> TableLink:
        async def link(conn: AsyncConnection, game_id: str) -> None:
            await link_table(conn, table, worker, game_id, players)

        return link

    async def _rows(self, query: sa.Select[Any]) -> list[dict[str, Any]]:
        async with self.engine.connect() as conn:
            return [dict(r) for r in (await conn.execute(query)).mappings()]


async def link_table(
    conn: AsyncConnection, table: TableKey, worker: str, game_id: str, players: Given
) -> None:
    """:meth:`EventStorage.linker`'s step on the new game's transaction (``conn``)."""
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


@dataclass
class TableGame:
    """A table's game as the twin keeps it for :meth:`MemoryEvents.played` (the games' rows)."""

    status: str = "open"
    scores: list[int] | None = None
    ended: datetime | None = None
    forfeits: set[int] = field(default_factory=set)


START_RATING = 25.0
"""An account's rating before its first rated game (the accounts' ``rating_mu`` default)."""


class MemoryEvents:
    """:class:`EventStorage` in this process's memory, with the database's rules: the limits
    counted with the insert, a round claimed once, a table linked to one game by the round's
    holder.  ``ratings``: the accounts' ratings the players read (unset: the start's);
    ``games``: the tables' games as :meth:`played` reads them; ``given``: the seats a link gave
    ((game id, seat): (account id, name)), as the games' rows would hold them.  It keeps no
    accounts: an organiser's or a player's account is taken to exist (the database's keys
    refuse one that does not, which :class:`ra.web.events.Events` never asks for)."""

    def __init__(self) -> None:
        self.rows: dict[str, dict[str, Any]] = {}
        self.entered: dict[str, dict[str, dict[str, Any]]] = {}
        self.formed: dict[tuple[str, int], dict[str, Any]] = {}
        self.laid: dict[TableKey, dict[str, Any]] = {}
        self.ratings: dict[str, float] = {}
        self.games: dict[str, TableGame] = {}
        self.given: dict[tuple[str, int], tuple[str, str]] = {}

    async def create(self, values: dict[str, Any], most_live: int) -> None:
        mine = [r for r in self.rows.values() if r["organiser_id"] == values["organiser_id"]]
        if sum(r["status"] in LIVE for r in mine) >= most_live:
            raise EventLimitError("events")
        empty = dict.fromkeys(events.c.keys()) | {"bots": False, "byes": False}
        self.rows[values["id"]] = empty | values | {"created_at": now()}

    async def event(self, event_id: str) -> dict[str, Any] | None:
        row = self.rows.get(event_id)
        return None if row is None else dict(row)

    async def listed(self, limit: int = 50) -> list[dict[str, Any]]:
        shown = [r for r in self.rows.values() if r["status"] in LIVE and r["invite_hash"] is None]
        return [dict(r) for r in sorted(shown, key=lambda r: r["starts_at"])[:limit]]

    async def due(self, limit: int = 100) -> list[dict[str, Any]]:
        t = now()
        found = [
            r
            for r in sorted(self.rows.values(), key=lambda r: r["starts_at"])
            if r["status"] == "running" or (r["status"] == "open" and r["starts_at"] <= t)
        ]
        return [{"id": r["id"], "status": r["status"]} for r in found[:limit]]

    async def players(self, event_id: str) -> list[dict[str, Any]]:
        entered = sorted(
            self.entered.get(event_id, {}).values(), key=lambda p: (p["joined_at"], p["account_id"])
        )
        return [p | {"rating": self.ratings.get(p["account_id"], START_RATING)} for p in entered]

    async def join(self, event_id: str, account_id: str, name: str, most: int) -> None:
        entered = self.entered.setdefault(event_id, {})
        found = entered.get(account_id)
        if found is not None and not found["withdrawn"]:
            return
        if sum(not p["withdrawn"] for p in entered.values()) >= most:
            raise EventLimitError("players")
        if found is not None:
            found["withdrawn"] = False
            return
        entered[account_id] = {
            "event_id": event_id,
            "account_id": account_id,
            "name": name,
            "joined_at": now(),
            "withdrawn": False,
            "removed": False,
        }

    async def mark(self, event_id: str, account_id: str, **values: bool) -> bool:
        found = self.entered.get(event_id, {}).get(account_id)
        if found is not None:
            found.update(values)
        return found is not None

    async def move(self, event_id: str, before: Sequence[str], after: str, **values: Any) -> bool:
        row = self.rows.get(event_id)
        if row is None or row["status"] not in before:
            return False
        row.update(values, status=after)
        return True

    async def claim_round(
        self, event_id: str, round_no: int, seed: int, worker: str, tables: Sequence[Sequence[str | None]]
    ) -> bool:
        if event_id not in self.rows or (event_id, round_no) in self.formed:
            return False  # the database's keys refuse the row
        round_row = {"event_id": event_id, "round": round_no, "worker": worker, "seed": seed}
        self.formed[(event_id, round_no)] = round_row | {"formed_at": now()}
        for i, t in enumerate(tables, start=1):
            row = {"event_id": event_id, "round": round_no, "table_no": i, "players": list(t)}
            self.laid[(event_id, round_no, i)] = row | {"game_id": None}
        return True

    async def rounds(self, event_id: str) -> list[dict[str, Any]]:
        return [dict(r) for k, r in sorted(self.formed.items()) if k[0] == event_id]

    async def tables(self, event_id: str) -> list[dict[str, Any]]:
        return [dict(r) for k, r in sorted(self.laid.items()) if k[0] == event_id]

    async def played(self, event_id: str) -> list[dict[str, Any]]:
        out = []
        for t in await self.tables(event_id):
            game = None if t["game_id"] is None else self.games.get(t["game_id"])
            of_game = (None, None, None) if game is None else (game.status, game.scores, game.ended)
            lost = set() if game is None else game.forfeits
            del t["event_id"]
            t |= dict(zip(("status", "scores", "ended"), of_game, strict=True))
            out.append(t | {"forfeits": [i in lost for i in range(len(t["players"]))]})
        return out

    async def event_of_game(self, game_id: str) -> str | None:
        return next((str(k[0]) for k, t in self.laid.items() if t["game_id"] == game_id), None)

    async def take_over(self, event_id: str, round_no: int, worker: str, lease: float) -> bool:
        t = now()
        found = self.formed.get((event_id, round_no))
        if found is None or not found["formed_at"] < t - timedelta(seconds=lease):
            return False
        found.update(worker=worker, formed_at=t)
        return True

    def linker(self, table: TableKey, worker: str, players: Given) -> TableLink:
        async def link(conn: AsyncConnection | None, game_id: str) -> None:
            """The link on these rows (no connection: one process, one step)."""
            held = self.formed.get(table[:2])
            laid = self.laid.get(table)
            if held is None or held["worker"] != worker or laid is None or laid["game_id"] is not None:
                raise TableTakenError(table)
            held["formed_at"], laid["game_id"] = now(), game_id
            self.games.setdefault(game_id, TableGame())
            self.given.update({(game_id, seat): (account, name) for seat, account, name in players})

        return link
