"""The tokens of the links mailed about an account's address (issue 52): one purpose each
(``confirm`` an address, ``unsubscribe`` from "your turn" mail, ``undo`` a change of address),
256 random bits, stored hashed (a leaked database sends no link anywhere), each expiring; the
ones that change an account for good are spent by their use.  Password links keep their own
table (:data:`ra.web.db.password_resets`), with the same rules."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from ra.web.db import account_tokens, now
from ra.web.store.tokens import hash_token

Purpose = Literal["confirm", "unsubscribe", "undo"]
DAYS: dict[Purpose, int] = {"confirm": 2, "unsubscribe": 60, "undo": 7}
"""How long a link of each purpose works."""
MAX_TOKEN = 100
"""Characters of a token looked at (a real one has 43)."""


@dataclass(frozen=True)
class Link:
    """What a live token is about: its account, the address and the mail's language."""

    account_id: str
    email: str | None
    lang: str


async def mint(conn: AsyncConnection, purpose: Purpose, account_id: str, email: str | None, lang: str) -> str:
    """A new token for ``purpose`` (only its hash is kept), live for :data:`DAYS`; the expired
    tokens of every account are swept on the way."""
    token, t = secrets.token_urlsafe(32), now()
    await conn.execute(sa.delete(account_tokens).where(account_tokens.c.expires_at < t))
    await conn.execute(
        sa.insert(account_tokens).values(
            token_hash=hash_token(token),
            purpose=purpose,
            account_id=account_id,
            email=email,
            lang=lang,
            created_at=t,
            expires_at=t + timedelta(days=DAYS[purpose]),
        )
    )
    return token


def _live(purpose: Purpose, token: str) -> sa.ColumnElement[bool]:
    return sa.and_(
        account_tokens.c.token_hash == hash_token(token[:MAX_TOKEN]),
        account_tokens.c.purpose == purpose,
        account_tokens.c.expires_at > now(),
    )


async def find(conn: AsyncConnection, purpose: Purpose, token: str) -> Link | None:
    """What a live token of ``purpose`` is about (None: unknown, of another purpose, expired)."""
    q = sa.select(account_tokens.c.account_id, account_tokens.c.email, account_tokens.c.lang)
    row = (await conn.execute(q.where(_live(purpose, token)))).first()
    return None if row is None else Link(row.account_id, row.email, row.lang)


async def spend(conn: AsyncConnection, purpose: Purpose, token: str) -> Link | None:
    """:func:`find`, and the token is gone: of two requests using it at once, one gets it."""
    link = await find(conn, purpose, token)
    if link is None:
        return None
    done = await conn.execute(sa.delete(account_tokens).where(_live(purpose, token)))
    return link if done.rowcount == 1 else None


async def drop(conn: AsyncConnection, account_id: str, *purposes: Purpose) -> None:
    """End every token of ``purposes`` the account has."""
    await conn.execute(
        sa.delete(account_tokens).where(
            account_tokens.c.account_id == account_id, account_tokens.c.purpose.in_(purposes)
        )
    )
