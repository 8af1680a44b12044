"""The accounts' aggregate: accounts and their names, sessions, password links, and which
account and session hold a game's seat (what :mod:`ra.web.accounts` and
:mod:`ra.web.sessions` read and write).  The interface :class:`AccountStorage`, its SQL store
:class:`AccountStore` and its in-memory twin :class:`MemoryAccounts`.

Every token arrives here hashed (:func:`ra.web.store.games.hash_token`): the store never sees
a cookie, a seat's token or a link's token.  A change that ends seat tokens returns the games
whose seats changed, for the caller to tell this worker's tables once it is committed (the
other workers are told in the same transaction)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Literal, Protocol, TypeVar

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ra.web.db import (
    accounts,
    as_utc,
    games,
    now,
    password_resets,
    puzzle_attempts,
    puzzle_solvers,
    reserved_names,
    seats,
    sessions,
)
from ra.web.store.tokens import hash_token, new_token

T = TypeVar("T")

Created = Literal["created", "taken", "reserved"]
"""What became of a new account: made, or refused for a name held (or a deleted one's, reserved)."""


@dataclass(frozen=True)
class Credential:
    """An account as signing in reads it."""

    id: str
    name: str
    password_hash: str


@dataclass(frozen=True)
class MailTarget:
    """An account a password link may be mailed for."""

    id: str
    name: str
    email: str | None
    email_confirmed: bool
    lang: str | None


@dataclass(frozen=True)
class SessionRow:
    """A stored session: whose (with the account's name), its CSRF token and its times."""

    account_id: str
    name: str
    csrf: str
    created_at: datetime
    expires_at: datetime


class AccountStorage(Protocol):
    """The stored accounts, sessions, password links and seat holders (``store.accounts``)."""

    async def holder(self, key: str) -> str | None:
        """The id of the account whose name has ``key`` (None: nobody's)."""
        ...

    async def reserved_until(self, key: str) -> datetime | None:
        """Until when a deleted account's name ``key`` is kept from new accounts (None: never was)."""
        ...

    async def create(self, account_id: str, name: str, key: str, digest: str, lang: str) -> Created:
        """A new account, unless its name's key is held or reserved (checked in one step)."""
        ...

    async def credential(self, key: str) -> Credential | None:
        """The account whose name has ``key``, with its password's hash."""
        ...

    async def password_hash(self, account_id: str) -> str | None: ...

    async def name_of(self, account_id: str) -> str | None: ...

    async def set_password(self, account_id: str, digest: str) -> list[str]:
        """A new password: the account's sessions, the seat tokens they made and its password
        links end; the games whose seats changed."""
        ...

    async def claim(self, account_id: str, held: Sequence[tuple[str, str]]) -> tuple[int, list[str]]:
        """Join to the account, in one step, each seat that a token holds (``held``: a game's id
        and the token's hash), unless another account holds it: how many, and their games."""
        ...

    async def play_here(
        self, account_id: str, game_id: str, seat: int, token_hash: str, session_hash: str
    ) -> bool:
        """A new token (the session's) for a seat the account holds in a game not over; False if none."""
        ...

    async def delete(self, account_id: str, key: str, reserved_until: datetime) -> None:
        """The account goes (its seats stay, held by nobody; its sessions, links and puzzle
        results go); its name's key is reserved until ``reserved_until``."""
        ...

    async def mail_targets(self, email_key: str, key: str | None) -> list[MailTarget]:
        """At most two accounts: one whose confirmed address folds to ``email_key``, one named ``key``."""
        ...

    async def new_link(self, account_id: str, token_hash: str, lifetime: timedelta) -> None:
        """A password link for the account, good for ``lifetime`` from now (its older ones and
        every expired one go)."""
        ...

    async def link_holder(self, token_hash: str) -> str | None:
        """The account of a live password link (None: unknown, used or expired)."""
        ...

    async def use_link(self, token_hash: str, digest: str) -> tuple[str, list[str]] | None:
        """Use a live link once to set its account's password (:meth:`set_password`): the
        account's name and the games whose seats changed; None if the link is not live."""
        ...

    async def session(self, token_hash: str) -> SessionRow | None:
        """A stored session by its cookie's hash, expired or not."""
        ...

    async def open_session(self, token_hash: str, account_id: str, csrf: str, lifetime: timedelta) -> None:
        """A new session, good for ``lifetime`` from now (expired ones are swept)."""
        ...

    async def close_session(self, token_hash: str) -> list[str]:
        """End a session and the seat tokens it made: the games whose seats changed."""
        ...

    async def end_sessions(self, account_id: str) -> tuple[int, list[str]]:
        """End every session of the account and every seat token one made: how many sessions,
        and the games whose seats changed."""
        ...

    async def bind_seat(self, account_id: str, session_hash: str, game_id: str, token_hash: str) -> None:
        """The seat ``token_hash`` holds joins the account and becomes the session's (unless
        another account holds it)."""
        ...


Notify = Callable[[AsyncConnection, str], Awaitable[None]]
"""Tells the other workers a game changed, in the writing transaction (:meth:`Store.notify_game`)."""


class AccountStore:
    """:class:`AccountStorage` in the database (``accounts``, ``sessions``, ``password_resets``,
    ``reserved_names``, and the seats' ``account_id`` and ``session_hash``)."""

    def __init__(self, engine: AsyncEngine, notify: Notify) -> None:
        self.engine, self.notify = engine, notify

    async def holder(self, key: str) -> str | None:
        return await self._scalar(sa.select(accounts.c.id).where(accounts.c.name_key == key))

    async def reserved_until(self, key: str) -> datetime | None:
        q = sa.select(reserved_names.c.reserved_until).where(reserved_names.c.name_key == key)
        return as_utc(await self._scalar(q))

    async def create(self, account_id: str, name: str, key: str, digest: str, lang: str) -> Created:
        q = sa.select(reserved_names.c.reserved_until).where(reserved_names.c.name_key == key)
        try:
            async with self.engine.begin() as conn:
                until = await conn.scalar(q)
                if until is not None and as_utc(until) > now():
                    return "reserved"
                values = {"name": name, "name_key": key, "password_hash": digest, "lang": lang}
                await conn.execute(sa.insert(accounts).values(id=account_id, created_at=now(), **values))
        except IntegrityError:
            return "taken"
        return "created"

    async def credential(self, key: str) -> Credential | None:
        q = sa.select(accounts.c.id, accounts.c.name, accounts.c.password_hash)
        async with self.engine.connect() as conn:
            row = (await conn.execute(q.where(accounts.c.name_key == key))).first()
        return None if row is None else Credential(row.id, row.name, row.password_hash)

    async def password_hash(self, account_id: str) -> str | None:
        return await self._scalar(sa.select(accounts.c.password_hash).where(accounts.c.id == account_id))

    async def name_of(self, account_id: str) -> str | None:
        return await self._scalar(sa.select(accounts.c.name).where(accounts.c.id == account_id))

    async def set_password(self, account_id: str, digest: str) -> list[str]:
        async with self.engine.begin() as conn:
            return await self._set_password(conn, account_id, digest)

    async def _set_password(self, conn: AsyncConnection, account_id: str, digest: str) -> list[str]:
        await conn.execute(
            sa.update(accounts).where(accounts.c.id == account_id).values(password_hash=digest)
        )
        await conn.execute(sa.delete(sessions).where(sessions.c.account_id == account_id))
        await conn.execute(sa.delete(password_resets).where(password_resets.c.account_id == account_id))
        return await self._end_seats(conn, seats.c.account_id == account_id)

    async def claim(self, account_id: str, held: Sequence[tuple[str, str]]) -> tuple[int, list[str]]:
        mine = sa.or_(seats.c.account_id.is_(None), seats.c.account_id == account_id)
        done, claimed = 0, set[str]()
        async with self.engine.begin() as conn:
            for game_id, token_hash in held:
                res = await conn.execute(
                    sa.update(seats)
                    .where(seats.c.game_id == game_id, seats.c.token_hash == token_hash, mine)
                    .values(account_id=account_id)
                )
                if res.rowcount:
                    done += res.rowcount
                    claimed.add(game_id)
                    await self.notify(conn, game_id)  # the other workers' tables
        return done, sorted(claimed)

    async def play_here(
        self, account_id: str, game_id: str, seat: int, token_hash: str, session_hash: str
    ) -> bool:
        unfinished = sa.select(games.c.id).where(games.c.id == game_id, games.c.status != "finished")
        held = sa.and_(seats.c.game_id == game_id, seats.c.seat == seat, seats.c.account_id == account_id)
        async with self.engine.begin() as conn:
            res = await conn.execute(
                sa.update(seats)
                .where(held, seats.c.game_id.in_(unfinished))
                .values(token_hash=token_hash, session_hash=session_hash)
            )
            await self.notify(conn, game_id)  # the other workers drop the old token's pages
        return res.rowcount == 1

    async def delete(self, account_id: str, key: str, reserved_until: datetime) -> None:
        stale = sa.or_(reserved_names.c.name_key == key, reserved_names.c.reserved_until < now())
        async with self.engine.begin() as conn:
            await conn.execute(sa.delete(reserved_names).where(stale))
            await conn.execute(sa.insert(reserved_names).values(name_key=key, reserved_until=reserved_until))
            await conn.execute(
                sa.update(seats).where(seats.c.account_id == account_id).values(account_id=None)
            )
            for table in (password_resets, sessions, puzzle_solvers, puzzle_attempts):
                await conn.execute(sa.delete(table).where(table.c.account_id == account_id))
            await conn.execute(sa.delete(accounts).where(accounts.c.id == account_id))

    async def mail_targets(self, email_key: str, key: str | None) -> list[MailTarget]:
        confirmed = sa.and_(accounts.c.email_confirmed.is_(True), accounts.c.email.is_not(None))
        found = [sa.and_(confirmed, accounts.c.email_key == email_key)]
        if key is not None:
            found.append(accounts.c.name_key == key)
        a = accounts.c
        q = sa.select(a.id, a.name, a.email, a.email_confirmed, a.lang).where(sa.or_(*found)).limit(2)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(q)).all()
        return [MailTarget(r.id, r.name, r.email, bool(r.email_confirmed), r.lang) for r in rows]

    async def new_link(self, account_id: str, token_hash: str, lifetime: timedelta) -> None:
        t = now()
        async with self.engine.begin() as conn:
            await conn.execute(sa.delete(password_resets).where(password_resets.c.expires_at < t))
            await conn.execute(sa.delete(password_resets).where(password_resets.c.account_id == account_id))
            values = {"token_hash": token_hash, "account_id": account_id, "expires_at": t + lifetime}
            await conn.execute(sa.insert(password_resets).values(created_at=t, **values))

    async def link_holder(self, token_hash: str) -> str | None:
        return await self._scalar(sa.select(password_resets.c.account_id).where(_live(token_hash)))

    async def use_link(self, token_hash: str, digest: str) -> tuple[str, list[str]] | None:
        live = _live(token_hash)
        try:
            async with self.engine.begin() as conn:
                account_id = await conn.scalar(sa.select(password_resets.c.account_id).where(live))
                used = await conn.execute(sa.delete(password_resets).where(live))
                if account_id is None or used.rowcount != 1:  # another request used it just now
                    raise _UsedError
                name = await conn.scalar(sa.select(accounts.c.name).where(accounts.c.id == account_id))
                ended = await self._set_password(conn, account_id, digest)
        except _UsedError:
            return None
        assert name is not None  # the link is deleted with its account
        return str(name), ended

    async def session(self, token_hash: str) -> SessionRow | None:
        s = sessions.c
        q = (
            sa.select(s.account_id, s.csrf, s.created_at, s.expires_at, accounts.c.name)
            .join(accounts, accounts.c.id == s.account_id)
            .where(s.token_hash == token_hash)
        )
        async with self.engine.connect() as conn:
            row = (await conn.execute(q)).first()
        if row is None:
            return None
        return SessionRow(row.account_id, row.name, row.csrf, as_utc(row.created_at), as_utc(row.expires_at))

    async def open_session(self, token_hash: str, account_id: str, csrf: str, lifetime: timedelta) -> None:
        t = now()
        values = {
            "token_hash": token_hash,
            "account_id": account_id,
            "csrf": csrf,
            "expires_at": t + lifetime,
        }
        async with self.engine.begin() as conn:
            await conn.execute(sa.delete(sessions).where(sessions.c.expires_at < t))  # tidy up
            await conn.execute(sa.insert(sessions).values(created_at=t, **values))

    async def close_session(self, token_hash: str) -> list[str]:
        async with self.engine.begin() as conn:
            await conn.execute(sa.delete(sessions).where(sessions.c.token_hash == token_hash))
            return await self._end_seats(conn, seats.c.session_hash == token_hash)

    async def end_sessions(self, account_id: str) -> tuple[int, list[str]]:
        async with self.engine.begin() as conn:
            done = await conn.execute(sa.delete(sessions).where(sessions.c.account_id == account_id))
            return int(done.rowcount), await self._end_seats(conn, seats.c.account_id == account_id)

    async def bind_seat(self, account_id: str, session_hash: str, game_id: str, token_hash: str) -> None:
        mine = sa.or_(seats.c.account_id.is_(None), seats.c.account_id == account_id)
        async with self.engine.begin() as conn:
            await conn.execute(
                sa.update(seats)
                .where(seats.c.game_id == game_id, seats.c.token_hash == token_hash, mine)
                .values(account_id=account_id, session_hash=session_hash)
            )
            await self.notify(conn, game_id)  # the other workers' tables see the account

    async def _end_seats(self, conn: AsyncConnection, which: sa.ColumnElement[bool]) -> list[str]:
        """The seat tokens made by a session, of the seats ``which``, stop holding their seats
        (each gets a token nobody knows); the games whose seats changed."""
        q = sa.select(seats.c.game_id, seats.c.seat).where(which, seats.c.session_hash.is_not(None))
        found = (await conn.execute(q)).all()
        for game_id, seat in found:
            await conn.execute(
                sa.update(seats)
                .where(seats.c.game_id == game_id, seats.c.seat == seat)
                .values(token_hash=hash_token(new_token()), session_hash=None)
            )
        changed = sorted({str(game_id) for game_id, _ in found})
        for game_id in changed:
            await self.notify(conn, game_id)  # the other workers drop its pages
        return changed

    async def _scalar(self, q: sa.Select[tuple[T]]) -> T | None:
        async with self.engine.connect() as conn:
            found: T | None = await conn.scalar(q)
        return found


def _live(token_hash: str) -> sa.ColumnElement[bool]:
    return sa.and_(password_resets.c.token_hash == token_hash, password_resets.c.expires_at > now())


class _UsedError(Exception):
    """A password link another request used first (its transaction is undone)."""


@dataclass
class AccountRecord:
    """One account in :class:`MemoryAccounts` (a row of ``accounts``)."""

    name: str
    key: str
    password_hash: str
    lang: str
    email: str | None = None
    email_key: str | None = None
    email_confirmed: bool = False


@dataclass
class SeatHolder:
    """Who holds a game's seat in :class:`MemoryAccounts`: its token's hash, the account it is
    joined to and the session that made its token (columns of ``seats``)."""

    token_hash: str | None
    account_id: str | None = None
    session_hash: str | None = None
    finished: bool = False
    """Its game is over (a finished game's seat is not played on another device)."""


@dataclass
class _Live:
    """A session's or a password link's row in :class:`MemoryAccounts`."""

    account_id: str
    expires_at: datetime
    csrf: str = ""
    created_at: datetime = field(default_factory=now)


class MemoryAccounts:
    """:class:`AccountStorage` in this process's memory, with the same rules as the database;
    the seats it knows are the ones :meth:`put_seat` gave it (the games' twin keeps the rest of
    a seat)."""

    def __init__(self) -> None:
        self.accounts: dict[str, AccountRecord] = {}
        self.reserved: dict[str, datetime] = {}
        self.sessions: dict[str, _Live] = {}
        self.links: dict[str, _Live] = {}
        self.seats: dict[tuple[str, int], SeatHolder] = {}

    def put_seat(self, game_id: str, seat: int, holder: SeatHolder) -> None:
        """A seat of a stored game, as the lobby leaves it when a person takes it."""
        self.seats[game_id, seat] = holder

    async def holder(self, key: str) -> str | None:
        return next((i for i, a in self.accounts.items() if a.key == key), None)

    async def reserved_until(self, key: str) -> datetime | None:
        return self.reserved.get(key)

    async def create(self, account_id: str, name: str, key: str, digest: str, lang: str) -> Created:
        until = self.reserved.get(key)
        if until is not None and until > now():
            return "reserved"
        if await self.holder(key) is not None:
            return "taken"
        self.accounts[account_id] = AccountRecord(name, key, digest, lang)
        return "created"

    async def credential(self, key: str) -> Credential | None:
        found = await self.holder(key)
        return None if found is None else Credential(found, *self._name_and_hash(found))

    async def password_hash(self, account_id: str) -> str | None:
        a = self.accounts.get(account_id)
        return None if a is None else a.password_hash

    async def name_of(self, account_id: str) -> str | None:
        a = self.accounts.get(account_id)
        return None if a is None else a.name

    async def set_password(self, account_id: str, digest: str) -> list[str]:
        if account_id in self.accounts:
            self.accounts[account_id].password_hash = digest
        self._drop(self.sessions, account_id)
        self._drop(self.links, account_id)
        return self._end_seats(lambda h: h.account_id == account_id)

    async def claim(self, account_id: str, held: Sequence[tuple[str, str]]) -> tuple[int, list[str]]:
        done, claimed = 0, set[str]()
        for (game_id, _), h in self.seats.items():
            if (game_id, h.token_hash) in held and h.account_id in (None, account_id):
                h.account_id = account_id
                done += 1
                claimed.add(game_id)
        return done, sorted(claimed)

    async def play_here(
        self, account_id: str, game_id: str, seat: int, token_hash: str, session_hash: str
    ) -> bool:
        h = self.seats.get((game_id, seat))
        if h is None or h.account_id != account_id or h.finished:
            return False
        h.token_hash, h.session_hash = token_hash, session_hash
        return True

    async def delete(self, account_id: str, key: str, reserved_until: datetime) -> None:
        t = now()
        self.reserved = {k: u for k, u in self.reserved.items() if u >= t}
        self.reserved[key] = reserved_until
        for h in self.seats.values():
            if h.account_id == account_id:
                h.account_id = None
        self._drop(self.sessions, account_id)
        self._drop(self.links, account_id)
        self.accounts.pop(account_id, None)

    async def mail_targets(self, email_key: str, key: str | None) -> list[MailTarget]:
        found = [
            MailTarget(i, a.name, a.email, a.email_confirmed, a.lang)
            for i, a in self.accounts.items()
            if (a.email_confirmed and a.email is not None and a.email_key == email_key) or a.key == key
        ]
        return found[:2]

    async def new_link(self, account_id: str, token_hash: str, lifetime: timedelta) -> None:
        t = now()
        self.links = {h: k for h, k in self.links.items() if k.expires_at >= t and k.account_id != account_id}
        self.links[token_hash] = _Live(account_id, t + lifetime, created_at=t)

    async def link_holder(self, token_hash: str) -> str | None:
        link = self.links.get(token_hash)
        return link.account_id if link is not None and link.expires_at > now() else None

    async def use_link(self, token_hash: str, digest: str) -> tuple[str, list[str]] | None:
        account_id = await self.link_holder(token_hash)
        if account_id is None:
            return None
        del self.links[token_hash]
        name = self.accounts[account_id].name
        return name, await self.set_password(account_id, digest)

    async def session(self, token_hash: str) -> SessionRow | None:
        s = self.sessions.get(token_hash)
        if s is None or s.account_id not in self.accounts:
            return None
        return SessionRow(s.account_id, self.accounts[s.account_id].name, s.csrf, s.created_at, s.expires_at)

    async def open_session(self, token_hash: str, account_id: str, csrf: str, lifetime: timedelta) -> None:
        t = now()
        self.sessions = {h: s for h, s in self.sessions.items() if s.expires_at >= t}
        self.sessions[token_hash] = _Live(account_id, t + lifetime, csrf, t)

    async def close_session(self, token_hash: str) -> list[str]:
        self.sessions.pop(token_hash, None)
        return self._end_seats(lambda h: h.session_hash == token_hash)

    async def end_sessions(self, account_id: str) -> tuple[int, list[str]]:
        done = self._drop(self.sessions, account_id)
        return done, self._end_seats(lambda h: h.account_id == account_id)

    async def bind_seat(self, account_id: str, session_hash: str, game_id: str, token_hash: str) -> None:
        for (g, _), h in self.seats.items():
            if g == game_id and h.token_hash == token_hash and h.account_id in (None, account_id):
                h.account_id, h.session_hash = account_id, session_hash

    def end_password_links(self, account_id: str) -> None:
        """The account's password links stop working (its address changed)."""
        self._drop(self.links, account_id)

    def _name_and_hash(self, account_id: str) -> tuple[str, str]:
        a = self.accounts[account_id]
        return a.name, a.password_hash

    @staticmethod
    def _drop(rows: dict[str, _Live], account_id: str) -> int:
        gone = [h for h, r in rows.items() if r.account_id == account_id]
        for h in gone:
            del rows[h]
        return len(gone)

    def _end_seats(self, which: Callable[[SeatHolder], bool]) -> list[str]:
        changed: set[str] = set()
        for (game_id, _), h in self.seats.items():
            if which(h) and h.session_hash is not None:
                h.token_hash, h.session_hash = hash_token(new_token()), None
                changed.add(game_id)
        return sorted(changed)
