"""Sign-ins: a cookie's session, opening one, ending one or all of an account's, and the seat
tokens a session made ("Play on this device"), which end with it (issue 52: a thief's copy of a
cookie must not keep playing the owner's moves once the owner signs out everywhere)."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from ra.web.db import now
from ra.web.store.accounts import AccountStorage
from ra.web.store.tokens import hash_token, new_token

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
    """The sessions of every account, over the store's accounts (:mod:`ra.web.store.accounts`)."""

    def __init__(self, stored: AccountStorage) -> None:
        self.stored = stored
        self.seats_changed: Callable[[str], Awaitable[None]] = _unheard
        """Called with each game whose seat changed hands (a claim, a token ended): its open
        table shows it at once (:meth:`ra.web.hub.Hub.changed`)."""

    async def of(self, token: str | None) -> Session | None:
        """The live session of a cookie's token (None: no cookie, unknown or expired)."""
        if not token or len(token) > 200:
            return None
        row = await self.stored.session(hash_token(token))
        if row is None or row.expires_at < now():
            return None
        return Session(row.account_id, row.name, row.csrf, hash_token(token), row.created_at)

    async def open(self, account_id: str) -> tuple[str, str]:
        """A new session: its cookie token and its CSRF token."""
        token, csrf = new_token(), secrets.token_urlsafe(24)
        await self.stored.open_session(hash_token(token), account_id, csrf, timedelta(days=SESSION_DAYS))
        return token, csrf

    async def close(self, s: Session) -> None:
        """Sign out here: the session ends, and so do the seat tokens it made."""
        await self.tell(await self.stored.close_session(s.token_hash))

    async def end_everywhere(self, account_id: str) -> int:
        """Every session of the account ends, and every seat token a session made: how many
        sessions."""
        done, ended = await self.stored.end_sessions(account_id)
        await self.tell(ended)
        return done

    async def bind_seat(self, cookie: str | None, game_id: str, token: str) -> None:
        """A seat token made for a signed-in page (creating, joining, quick play, a rematch) is
        the session's, as "Play on this device" tokens are: it joins the account and ends when
        the session is signed out, everywhere, or by a new password (issue 52).  A guest's token
        (no session) is left as it is."""
        s = await self.of(cookie)
        if s is None:
            return
        await self.stored.bind_seat(s.account_id, s.token_hash, game_id, hash_token(token))
        await self.seats_changed(game_id)  # this worker's table, once committed (the others are told)

    async def tell(self, games_changed: list[str]) -> None:
        """This worker's tables, once committed: a seat's pages whose token ended close."""
        for game_id in games_changed:
            await self.seats_changed(game_id)
