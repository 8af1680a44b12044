"""The addresses' aggregate: an account's e-mail address, given, confirmed, taken back, its
"your turn" switch, and the links mailed about it (what :mod:`ra.web.addresses` reads and
writes): the interface :class:`AddressStorage`, its SQL store :class:`AddressStore` and its
in-memory twin :class:`MemoryAddresses` (on :class:`ra.web.store.accounts.MemoryAccounts`'s
accounts: the address is a part of the account).  Each change is one transaction with the
links it mints, spends or ends."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ra.web.db import accounts, now, password_resets
from ra.web.store import mail_links
from ra.web.store.accounts import MemoryAccounts
from ra.web.store.mail_links import DAYS, MAX_TOKEN, Link, Purpose
from ra.web.store.tokens import hash_token

GMAIL = ("gmail.com", "googlemail.com")
"""Domains whose provider ignores dots in the local part (``a.nn@`` is ``ann@``)."""


def fold_address(email: str) -> str:
    """The inbox an address reaches, as its provider folds it: case, a trailing dot of the
    domain, a ``+tag``, and Gmail's dots (``A.nn+x@Gmail.com.`` → ``ann@gmail.com``).  Every
    limit and "one address, one account" compares these."""
    local, _, domain = email.strip().casefold().rpartition("@")
    domain = domain.rstrip(".")
    local = local.split("+", 1)[0] or local
    if domain in GMAIL:
        local, domain = local.replace(".", ""), GMAIL[0]
    return f"{local}@{domain}"


class DeadLinkError(Exception):
    """A link unknown, of another purpose, expired, spent, or about an address no longer the account's."""


class AddressTakenError(Exception):
    """Another account has confirmed the address (one address, one account)."""


@dataclass(frozen=True)
class AddressChange:
    """What giving an address did: the tokens of the links to mail (None: none to mail)."""

    confirm: str | None
    """The link that confirms the new address (None: no new address, or the same one again)."""
    undo: str | None
    """The link to the old, confirmed address that undoes the change (None: nothing to tell)."""
    old_email: str | None
    old_lang: str


@dataclass(frozen=True)
class MailRow:
    """An account's mail settings as stored."""

    email: str | None
    confirmed: bool
    turns: bool


class AddressStorage(Protocol):
    """The stored addresses and their links (``store.addresses``)."""

    async def give(
        self, account_id: str, email: str | None, key: str | None, lang: str
    ) -> AddressChange | None:
        """Set (``email`` None: remove) the account's address, folded to ``key``, unconfirmed: its
        password and confirmation links end; a confirmation link is minted for a new address,
        an undo link for the old one if it was confirmed.  The same address again changes
        nothing (no link).  None: no such account."""
        ...

    async def confirm(self, token: str) -> str:
        """Spend a confirmation link: its address is confirmed (the address), and the other
        accounts' unconfirmed claims on that inbox are dropped.  :class:`DeadLinkError`,
        :class:`AddressTakenError`."""
        ...

    async def undo(self, token: str) -> Link:
        """Spend an undo link: the old address is the account's again, confirmed; its other undo
        and confirmation links and its password links end.  :class:`DeadLinkError`,
        :class:`AddressTakenError`."""
        ...

    async def link(self, purpose: Purpose, token: str) -> Link | None:
        """What a live link is about (None: unknown, of another purpose, or expired)."""
        ...

    async def new_link(self, purpose: Purpose, account_id: str, email: str | None, lang: str) -> str:
        """A new link's token (an unsubscribe link in a "your turn" mail)."""
        ...

    async def switch(self, account_id: str, turns: bool) -> bool:
        """Turn "your turn" mail on or off; False: no such account."""
        ...

    async def settings(self, account_id: str) -> MailRow | None: ...


def _address_of(account_id: str) -> sa.Select[tuple[str | None, str | None, bool, str]]:
    a = accounts.c
    return sa.select(a.email, a.email_key, a.email_confirmed, a.lang).where(a.id == account_id)


class AddressStore:
    """:class:`AddressStorage` in the database (``accounts``' address columns, ``account_tokens``)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def give(
        self, account_id: str, email: str | None, key: str | None, lang: str
    ) -> AddressChange | None:
        async with self.engine.begin() as conn:
            old = (await conn.execute(_address_of(account_id))).first()
            if old is None:
                return None
            if key == old.email_key and (old.email_confirmed or key is None):
                return AddressChange(None, None, old.email, old.lang)
            values = {"email": email, "email_key": key, "email_confirmed": False, "lang": lang}
            await conn.execute(sa.update(accounts).where(accounts.c.id == account_id).values(**values))
            await conn.execute(sa.delete(password_resets).where(password_resets.c.account_id == account_id))
            await mail_links.drop(conn, account_id, "confirm")
            confirm = await mail_links.mint(conn, "confirm", account_id, email, lang) if email else None
            told = old.email_confirmed and old.email and old.email_key != key
            undo = await mail_links.mint(conn, "undo", account_id, old.email, old.lang) if told else None
        return AddressChange(confirm, undo, old.email, old.lang)

    async def confirm(self, token: str) -> str:
        async with self.engine.begin() as conn:
            link = await mail_links.find(conn, "confirm", token)
            row = None if link is None else (await conn.execute(_address_of(link.account_id))).first()
            if link is None or row is None or row.email != link.email or not row.email_key:
                raise DeadLinkError
            await _refuse_taken(conn, row.email_key, link.account_id)
            if await mail_links.spend(conn, "confirm", token) is None:
                raise DeadLinkError  # another request used it just now
            await _free_claims(conn, row.email_key, link.account_id)
            mine = accounts.c.id == link.account_id
            await conn.execute(sa.update(accounts).where(mine).values(email_confirmed=True))
        return str(row.email)

    async def undo(self, token: str) -> Link:
        async with self.engine.begin() as conn:
            link = await mail_links.find(conn, "undo", token)
            if link is None or not link.email:
                raise DeadLinkError
            key = fold_address(link.email)
            await _refuse_taken(conn, key, link.account_id)
            if await mail_links.spend(conn, "undo", token) is None:
                raise DeadLinkError
            await mail_links.drop(conn, link.account_id, "undo", "confirm")
            mine = password_resets.c.account_id == link.account_id
            await conn.execute(sa.delete(password_resets).where(mine))
            values = {"email": link.email, "email_key": key, "email_confirmed": True}
            await conn.execute(sa.update(accounts).where(accounts.c.id == link.account_id).values(**values))
        return link

    async def link(self, purpose: Purpose, token: str) -> Link | None:
        async with self.engine.connect() as conn:
            return await mail_links.find(conn, purpose, token)

    async def new_link(self, purpose: Purpose, account_id: str, email: str | None, lang: str) -> str:
        async with self.engine.begin() as conn:
            return await mail_links.mint(conn, purpose, account_id, email, lang)

    async def switch(self, account_id: str, turns: bool) -> bool:
        async with self.engine.begin() as conn:
            done = await conn.execute(
                sa.update(accounts).where(accounts.c.id == account_id).values(mail_turns=turns)
            )
        return done.rowcount == 1

    async def settings(self, account_id: str) -> MailRow | None:
        q = sa.select(accounts.c.email, accounts.c.email_confirmed, accounts.c.mail_turns)
        async with self.engine.connect() as conn:
            row = (await conn.execute(q.where(accounts.c.id == account_id))).first()
        return None if row is None else MailRow(row.email, bool(row.email_confirmed), bool(row.mail_turns))


async def _refuse_taken(conn: AsyncConnection, key: str, account_id: str) -> None:
    a = accounts.c
    q = sa.select(a.id).where(a.email_key == key, a.email_confirmed.is_(True), a.id != account_id)
    if await conn.scalar(q) is not None:
        raise AddressTakenError


async def _free_claims(conn: AsyncConnection, key: str, account_id: str) -> None:
    """Other accounts that gave the inbox ``key`` without confirming it lose it (and its link)."""
    a = accounts.c
    q = sa.select(a.id).where(a.email_key == key, a.email_confirmed.is_(False), a.id != account_id)
    for other in (await conn.execute(q)).scalars().all():
        await mail_links.drop(conn, other, "confirm")
        await conn.execute(sa.update(accounts).where(a.id == other).values(email=None, email_key=None))


@dataclass
class _MailLink:
    """A link in :class:`MemoryAddresses` (a row of ``account_tokens``)."""

    purpose: Purpose
    link: Link
    expires_at: datetime


class MemoryAddresses:
    """:class:`AddressStorage` on :class:`ra.web.store.accounts.MemoryAccounts`'s accounts, with
    the same rules as the database."""

    def __init__(self, accounts: MemoryAccounts) -> None:
        self.accounts = accounts
        self.links: dict[str, _MailLink] = {}
        self.turns_off: set[str] = set()

    async def give(
        self, account_id: str, email: str | None, key: str | None, lang: str
    ) -> AddressChange | None:
        a = self.accounts.accounts.get(account_id)
        if a is None:
            return None
        old_email, old_key, old_confirmed, old_lang = a.email, a.email_key, a.email_confirmed, a.lang
        if key == old_key and (old_confirmed or key is None):
            return AddressChange(None, None, old_email, old_lang)
        a.email, a.email_key, a.email_confirmed, a.lang = email, key, False, lang
        self.accounts.end_password_links(account_id)
        self._drop(account_id, "confirm")
        confirm = self._mint("confirm", account_id, email, lang) if email else None
        told = old_confirmed and old_email and old_key != key
        undo = self._mint("undo", account_id, old_email, old_lang) if told else None
        return AddressChange(confirm, undo, old_email, old_lang)

    async def confirm(self, token: str) -> str:
        link = await self.link("confirm", token)
        a = None if link is None else self.accounts.accounts.get(link.account_id)
        if link is None or a is None or a.email != link.email or not a.email_key:
            raise DeadLinkError
        self._refuse_taken(a.email_key, link.account_id)
        del self.links[_hash(token)]
        for other_id, other in self.accounts.accounts.items():
            if other.email_key == a.email_key and not other.email_confirmed and other_id != link.account_id:
                self._drop(other_id, "confirm")
                other.email, other.email_key = None, None
        a.email_confirmed = True
        return str(a.email)

    async def undo(self, token: str) -> Link:
        link = await self.link("undo", token)
        if link is None or not link.email:
            raise DeadLinkError
        key = fold_address(link.email)
        self._refuse_taken(key, link.account_id)
        del self.links[_hash(token)]
        self._drop(link.account_id, "undo", "confirm")
        self.accounts.end_password_links(link.account_id)
        a = self.accounts.accounts.get(link.account_id)
        if a is not None:
            a.email, a.email_key, a.email_confirmed = link.email, key, True
        return link

    async def link(self, purpose: Purpose, token: str) -> Link | None:
        found = self.links.get(_hash(token))
        if found is None or found.purpose != purpose or found.expires_at <= now():
            return None
        return found.link

    async def new_link(self, purpose: Purpose, account_id: str, email: str | None, lang: str) -> str:
        return self._mint(purpose, account_id, email, lang)

    async def switch(self, account_id: str, turns: bool) -> bool:
        if account_id not in self.accounts.accounts:
            return False
        (self.turns_off.discard if turns else self.turns_off.add)(account_id)
        return True

    async def settings(self, account_id: str) -> MailRow | None:
        a = self.accounts.accounts.get(account_id)
        return None if a is None else MailRow(a.email, a.email_confirmed, account_id not in self.turns_off)

    def _mint(self, purpose: Purpose, account_id: str, email: str | None, lang: str) -> str:
        token, t = secrets.token_urlsafe(32), now()
        self.links = {h: k for h, k in self.links.items() if k.expires_at >= t}
        expires = t + timedelta(days=DAYS[purpose])
        self.links[hash_token(token)] = _MailLink(purpose, Link(account_id, email, lang), expires)
        return token

    def _drop(self, account_id: str, *purposes: Purpose) -> None:
        self.links = {
            h: k
            for h, k in self.links.items()
            if not (k.link.account_id == account_id and k.purpose in purposes)
        }

    def _refuse_taken(self, key: str, account_id: str) -> None:
        if any(
            a.email_key == key and a.email_confirmed and i != account_id
            for i, a in self.accounts.accounts.items()
        ):
            raise AddressTakenError


def _hash(token: str) -> str:
    return hash_token(token[:MAX_TOKEN])
