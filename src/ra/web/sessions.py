"""Sign-ins: a cookie's session, opening one, ending one or all of an account's, and the seat
tokens a session made ("Play on this device"), which end with it (issue 52: a thief's copy of a
cookie must not keep playing the owner's moves once the owner signs out everywhere)."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from ra.web.db import accounts, as_utc, now, seats, sessions
from ra.web.store import Store, hash_token, new_token

COOKIE = "ra_session"
SESSION_DAYS = 30


@dataclass(frozen=True)
class Session:
    """A live sign-in: whose, its CSRF token, its cookie's hash and when it began."""

    account_id: str
    name: str
    csrf: str
    token_hash: str
    signed_in_at: datetime


async def _unheard(game_id: str) -> None:
    """Nobody to tell (sessions not wired to a hub)."""


class Sessions:
    """The sessions of every account, over the server's database."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.seats_changed: Callable[[str], Awaitable[None]] = _unheard
        """Called with each game whose seat changed hands (a claim, a token ended): its open
        table shows it at once (:meth:`ra.web.hub.Hub.changed`)."""

    async def of(self, token: str | None) -> Session | None:
        """The live session of a cookie's token (None: no cookie, unknown or expired)."""
        if not token or len(token) > 200:
            return None
        q = (
            sa.select(
                sessions.c.account_id,
                sessions.c.csrf,
                sessions.c.created_at,
                sessions.c.expires_at,
                accounts.c.name,
            )
            .join(accounts, accounts.c.id == sessions.c.account_id)
            .where(sessions.c.token_hash == hash_token(token))
        )
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(q)).first()
        if row is None or as_utc(row.expires_at) < now():
            return None
        return Session(row.account_id, row.name, row.csrf, hash_token(token), as_utc(row.created_at))

    async def open(self, account_id: str) -> tuple[str, str]:
        """A new session: its cookie token and its CSRF token."""
        token, csrf, t = new_token(), secrets.token_urlsafe(24), now()
        async with self.store.engine.begin() as conn:
            await conn.execute(sa.delete(sessions).where(sessions.c.expires_at < t))  # tidy up
            await conn.execute(
                sa.insert(sessions).values(
                    token_hash=hash_token(token),
                    account_id=account_id,
                    csrf=csrf,
                    created_at=t,
                    expires_at=t + timedelta(days=SESSION_DAYS),
                )
            )
        return token, csrf

    async def close(self, s: Session) -> None:
        """Sign out here: the session ends, and so do the seat tokens it made."""
        async with self.store.engine.begin() as conn:
            await conn.execute(sa.delete(sessions).where(sessions.c.token_hash == s.token_hash))
            ended = await self.end_seats(conn, seats.c.session_hash == s.token_hash)
        await self.tell(ended)

    async def end_everywhere(self, account_id: str) -> int:
        """Every session of the account ends, and every seat token a session made: how many
        sessions."""
        async with self.store.engine.begin() as conn:
            done = await conn.execute(sa.delete(sessions).where(sessions.c.account_id == account_id))
            ended = await self.end_seats(conn, seats.c.account_id == account_id)
        await self.tell(ended)
        return int(done.rowcount)

    async def bind_seat(self, cookie: str | None, game_id: str, token: str) -> None:
        """A seat token made for a signed-in page (creating, joining, quick play, a rematch) is
        the session's, as "Play on this device" tokens are: it joins the account and ends when
        the session is signed out, everywhere, or by a new password (issue 52).  A guest's token
        (no session) is left as it is."""
        s = await self.of(cookie)
        if s is None:
            return
        mine = sa.or_(seats.c.account_id.is_(None), seats.c.account_id == s.account_id)
        async with self.store.engine.begin() as conn:
            await conn.execute(
                sa.update(seats)
                .where(seats.c.game_id == game_id, seats.c.token_hash == hash_token(token), mine)
                .values(account_id=s.account_id, session_hash=s.token_hash)
            )
            await self.store.notify_game(conn, game_id)  # the other workers' tables see the account
        await self.seats_changed(game_id)  # and this worker's, once committed

    async def end_seats(self, conn: AsyncConnection, which: sa.ColumnElement[bool]) -> list[str]:
        """The seat tokens made by a session, of the seats ``which``, stop holding their seats
        (each gets a token nobody knows); the games whose seats changed (for :meth:`tell`, once
        committed)."""
        q = sa.select(seats.c.game_id, seats.c.seat).where(which, seats.c.session_hash.is_not(None))
        found = (await conn.execute(q)).all()
        for game_id, seat in found:
            await conn.execute(
                sa.update(seats)
                .where(seats.c.game_id == game_id, seats.c.seat == seat)
                .values(token_hash=hash_token(new_token()), session_hash=None)
            )
        games_changed = sorted({str(game_id) for game_id, _ in found})
        for game_id in games_changed:
            await self.store.notify_game(conn, game_id)  # the other workers drop its pages
        return games_changed

    async def tell(self, games_changed: list[str]) -> None:
        """This worker's tables, once committed: a seat's pages whose token ended close."""
        for game_id in games_changed:
            await self.seats_changed(game_id)
