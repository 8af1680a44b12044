"""The chat's aggregate: lines of the tables' and the lobby's chat, and the reports on them
(what :mod:`ra.web.chat` and ``ra admin`` read and write): the interface :class:`ChatStorage`,
its SQL store :class:`ChatStore` and its in-memory twin :class:`MemoryChat`."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from ra.web.db import as_utc, chat, chat_reports, now


@dataclass(frozen=True)
class ChatRow:
    """One line of chat: a table's (``channel``: players or spectators, never both) or the
    lobby's (``game_id`` None, ``channel`` lobby)."""

    id: int
    game_id: str | None
    channel: str
    seat: int | None
    name: str
    text: str
    created_at: datetime
    addr: str | None = None
    hidden: bool = False
    account: bool = False
    """Said by an account under its own name (a seat it holds, or signed in): the name is its profile's."""


@dataclass(frozen=True)
class ReportRow:
    """A chat line reported by someone (an admin hides the line or dismisses the report)."""

    id: int
    line: ChatRow
    reporter: str
    created_at: datetime
    reports: int
    """How many people reported the line."""


class ChatStorage(Protocol):
    """The stored chat (``store.chat``)."""

    async def add(
        self,
        game_id: str | None,
        channel: str,
        seat: int | None,
        name: str,
        addr: str,
        text: str,
        account: bool = False,
    ) -> ChatRow:
        """Store a line (``game_id`` None: the lobby's); the line as stored, with its id."""
        ...

    async def line(self, chat_id: int) -> ChatRow | None:
        """One line by its id, hidden or not (None: no such line)."""
        ...

    async def history(self, game_id: str | None, channel: str, limit: int) -> list[ChatRow]:
        """The last ``limit`` lines of a channel not hidden by an admin, oldest first (``game_id``
        None: the lobby's)."""
        ...

    async def report(self, chat_id: int, reporter: str) -> bool:
        """Report a line (once per reporter's address); False if this address already had, or
        there is no such line."""
        ...

    async def open_reports(self) -> list[ReportRow]:
        """Reported lines nobody acted on yet, one row per line (its first report), oldest first."""
        ...

    async def resolve(self, chat_id: int, hide: bool) -> bool:
        """Hide a line (it is no longer sent to anyone) or dismiss its reports; False: no such line."""
        ...


class ChatStore:
    """:class:`ChatStorage` in the database's ``chat`` and ``chat_reports`` tables."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def add(
        self,
        game_id: str | None,
        channel: str,
        seat: int | None,
        name: str,
        addr: str,
        text: str,
        account: bool = False,
    ) -> ChatRow:
        t = now()
        values = {
            "game_id": game_id,
            "channel": channel,
            "seat": seat,
            "name": name,
            "text": text,
            "account": account,
        }
        async with self.engine.begin() as conn:
            res = await conn.execute(sa.insert(chat).values(addr=addr, created_at=t, **values))
            key = res.inserted_primary_key
            assert key is not None  # an insert of one row has its key
            chat_id = int(key[0])
        return ChatRow(chat_id, game_id, channel, seat, name, text, t, addr, account=account)

    async def line(self, chat_id: int) -> ChatRow | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(chat).where(chat.c.id == chat_id))).mappings().first()
        return None if row is None else chat_row(row)

    async def history(self, game_id: str | None, channel: str, limit: int) -> list[ChatRow]:
        at = chat.c.game_id.is_(None) if game_id is None else chat.c.game_id == game_id
        q = (
            sa.select(chat)
            .where(at, chat.c.channel == channel, chat.c.hidden.is_(False))
            .order_by(chat.c.id.desc())
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(q)).mappings().all()
        return [chat_row(r) for r in reversed(rows)]

    async def report(self, chat_id: int, reporter: str) -> bool:
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    sa.insert(chat_reports).values(chat_id=chat_id, reporter=reporter, created_at=now())
                )
        except IntegrityError:
            return False
        return True

    async def open_reports(self) -> list[ReportRow]:
        count = sa.func.count(chat_reports.c.id).label("reports")
        first = sa.func.min(chat_reports.c.id).label("first")
        q = (
            sa.select(first, count, sa.func.min(chat_reports.c.created_at).label("at"), chat)
            .join(chat, chat.c.id == chat_reports.c.chat_id)
            .where(chat_reports.c.resolved.is_(None))
            .group_by(chat.c.id)
            .order_by(first)
        )
        out: list[ReportRow] = []
        async with self.engine.connect() as conn:
            for r in (await conn.execute(q)).mappings():
                reporter = await conn.scalar(
                    sa.select(chat_reports.c.reporter).where(chat_reports.c.id == r["first"])
                )
                out.append(
                    ReportRow(r["first"], chat_row(r), str(reporter), as_utc(r["at"]) or now(), r["reports"])
                )
        return out

    async def resolve(self, chat_id: int, hide: bool) -> bool:
        async with self.engine.begin() as conn:
            found = await conn.scalar(sa.select(chat.c.id).where(chat.c.id == chat_id)) is not None
            if hide:
                await conn.execute(sa.update(chat).where(chat.c.id == chat_id).values(hidden=True))
            await conn.execute(
                sa.update(chat_reports)
                .where(chat_reports.c.chat_id == chat_id, chat_reports.c.resolved.is_(None))
                .values(resolved="hidden" if hide else "dismissed")
            )
        return found


class MemoryChat:
    """:class:`ChatStorage` in this process's memory: the same ids, order and rules as the
    database (a report once per line and address, on a line that exists)."""

    def __init__(self) -> None:
        self.lines: dict[int, ChatRow] = {}
        self.reports: list[_Report] = []

    async def add(
        self,
        game_id: str | None,
        channel: str,
        seat: int | None,
        name: str,
        addr: str,
        text: str,
        account: bool = False,
    ) -> ChatRow:
        chat_id = len(self.lines) + 1
        row = ChatRow(chat_id, game_id, channel, seat, name, text, now(), addr, account=account)
        self.lines[chat_id] = row
        return row

    async def line(self, chat_id: int) -> ChatRow | None:
        return self.lines.get(chat_id)

    async def history(self, game_id: str | None, channel: str, limit: int) -> list[ChatRow]:
        said = [
            r for r in self.lines.values() if r.game_id == game_id and r.channel == channel and not r.hidden
        ]
        return said[-limit:] if limit > 0 else []

    async def report(self, chat_id: int, reporter: str) -> bool:
        if chat_id not in self.lines or any(
            r.chat_id == chat_id and r.reporter == reporter for r in self.reports
        ):
            return False
        self.reports.append(_Report(len(self.reports) + 1, chat_id, reporter, now()))
        return True

    async def open_reports(self) -> list[ReportRow]:
        first: dict[int, tuple[_Report, int]] = {}
        for r in self.reports:
            if r.resolved is None:
                seen = first.get(r.chat_id)
                first[r.chat_id] = (r, 1) if seen is None else (seen[0], seen[1] + 1)
        return [
            ReportRow(r.id, self.lines[r.chat_id], r.reporter, r.created_at, n) for r, n in first.values()
        ]

    async def resolve(self, chat_id: int, hide: bool) -> bool:
        line = self.lines.get(chat_id)
        if line is not None and hide:
            self.lines[chat_id] = dataclasses.replace(line, hidden=True)
        for r in self.reports:
            if r.chat_id == chat_id and r.resolved is None:
                r.resolved = "hidden" if hide else "dismissed"
        return line is not None


@dataclass
class _Report:
    """One report in :class:`MemoryChat` (a row of ``chat_reports``)."""

    id: int
    chat_id: int
    reporter: str
    created_at: datetime
    resolved: str | None = None


def chat_row(r: Any) -> ChatRow:
    return ChatRow(
        r["id"],
        r["game_id"],
        r["channel"],
        r["seat"],
        r["name"],
        r["text"],
        as_utc(r["created_at"]) or now(),
        r["addr"],
        bool(r["hidden"]),
        bool(r["account"]),
    )
