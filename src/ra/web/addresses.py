"""An account's e-mail address: given, confirmed by a mailed link, switched off, changed, removed.

Finding 3 of issue 40: an account signed up with a stranger's address sent it 47 mails in 4 s;
the address was never confirmed and could not be seen, changed or removed; no mail could be
stopped.  Now an address gets one mail — the link that confirms it (at most one an hour) — and
nothing else until its owner opens that link; each mail of a kind a person may stop carries a
one-click unsubscribe link (``List-Unsubscribe``, RFC 8058); the account page shows the address,
whether it is confirmed, and a switch per kind of mail (only "your turn" so far).
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import sqlalchemy as sa
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from pydantic import BaseModel, Field, field_validator
from typing_extensions import TypedDict

from ra.web.db import accounts, password_resets
from ra.web.lobby import ApiError
from ra.web.mail import Smtp, ask_to_confirm, mail_reset_link, parse_smtp
from ra.web.store import Store

EMAIL = re.compile(r"[^@\s<>\"',;]+@[^@\s<>\"',;]+\.[^@\s<>\"',;]+")
"""An address to send to: one @, a dot in the domain, no spaces, quotes or header separators."""
CONFIRM_EVERY = 3600.0
"""Seconds between two confirmation mails to one address (a stranger's inbox is not a target)."""

SessionOf = Callable[[Request], Awaitable[tuple[str, str] | None]]


class MailSettings(TypedDict):
    email: str | None
    confirmed: bool
    turns: bool


class AddressChange(BaseModel):
    email: str | None = Field(default=None, max_length=254)
    """The new address; None or empty removes it."""
    lang: str = Field(default="en", max_length=8)

    @field_validator("email")
    @classmethod
    def _email(cls, v: str | None) -> str | None:
        v = (v or "").strip()
        if v and not EMAIL.fullmatch(v):
            raise ValueError(f"not an e-mail address: {v!r}")
        return v or None


class MailSwitches(BaseModel):
    turns: bool


@dataclass(frozen=True)
class Confirmer:
    """What mails an account's address its links: the one that confirms it (called), and, once
    confirmed, the one that sets a new password (:meth:`reset`)."""

    smtp: Smtp
    public_url: str

    async def __call__(self, to: str, name: str, token: str, lang: str) -> bool:
        return await ask_to_confirm(self.smtp, self.public_url, to, name, token, lang)

    async def reset(self, to: str, name: str, token: str, lang: str, minutes: int) -> bool:
        return await mail_reset_link(self.smtp, self.public_url, to, name, token, lang, minutes)


def confirmer(smtp_url: str | None, public_url: str) -> Confirmer | None:
    """What mails the links for a server (None: no mail server given)."""
    if smtp_url is None:
        return None
    return Confirmer(parse_smtp(smtp_url), public_url)


class Addresses:
    """The addresses of the accounts, over the server's database."""

    def __init__(self, store: Store, confirm: Confirmer | None) -> None:
        self.store = store
        self.confirm_by_mail = confirm
        self._asked: dict[str, float] = {}  # address (casefolded) -> when its link was last mailed

    async def give(self, account_id: str, name: str, email: str | None, lang: str) -> None:
        """Set (or, with None, remove) the account's address: unconfirmed, with a new token,
        and the confirmation link mailed to it (at most once an hour per address).  Password
        links mailed to the address before stop working: they went to an address the account
        no longer has."""
        token = secrets.token_urlsafe(24) if email else None
        async with self.store.engine.begin() as conn:
            await conn.execute(
                sa.update(accounts)
                .where(accounts.c.id == account_id)
                .values(email=email, email_confirmed=False, mail_token=token)
            )
            await conn.execute(sa.delete(password_resets).where(password_resets.c.account_id == account_id))
        if email and token and self.confirm_by_mail is not None and self._may_ask(email):
            await self.confirm_by_mail(email, name, token, lang)

    @property
    def can_mail(self) -> bool:
        """Whether this server sends mail at all (``ra serve --smtp``)."""
        return self.confirm_by_mail is not None

    async def mail_reset(self, to: str, name: str, token: str, lang: str, minutes: int) -> bool:
        """Mail a confirmed address the link that sets a new password (False: no mail sent)."""
        if self.confirm_by_mail is None:
            return False
        return await self.confirm_by_mail.reset(to, name, token, lang, minutes)

    def _may_ask(self, email: str) -> bool:
        key, t = email.casefold(), time.monotonic()
        if t - self._asked.get(key, -CONFIRM_EVERY) < CONFIRM_EVERY:
            return False
        self._asked[key] = t
        if len(self._asked) > 10_000:
            self._asked = {k: w for k, w in self._asked.items() if t - w < CONFIRM_EVERY}
        return True

    async def confirm(self, token: str) -> None:
        """The owner opened the link: the address gets mail from now on (unless another account
        confirmed the same address first: one address, one account)."""
        async with self.store.engine.begin() as conn:
            row = (
                await conn.execute(
                    sa.select(accounts.c.id, accounts.c.email).where(accounts.c.mail_token == token)
                )
            ).first()
            if row is None or not row.email:
                raise ApiError(404, "not_found", "this link is not valid (any more): ask for a new one")
            other = await conn.scalar(
                sa.select(accounts.c.id).where(
                    sa.func.lower(accounts.c.email) == row.email.lower(),
                    accounts.c.email_confirmed.is_(True),
                    accounts.c.id != row.id,
                )
            )
            if other is not None:
                raise ApiError(409, "email_taken", "another account has confirmed this address")
            await conn.execute(
                sa.update(accounts).where(accounts.c.id == row.id).values(email_confirmed=True)
            )

    async def switch(self, token_or_id: str, turns: bool, by_token: bool) -> None:
        """Turn "your turn" mail on or off (by the unsubscribe link's token, or the account)."""
        column = accounts.c.mail_token if by_token else accounts.c.id
        async with self.store.engine.begin() as conn:
            done = await conn.execute(
                sa.update(accounts).where(column == token_or_id).values(mail_turns=turns)
            )
        if done.rowcount != 1:
            raise ApiError(404, "not_found", "this link is not valid (any more)")

    async def settings(self, account_id: str) -> MailSettings:
        q = sa.select(accounts.c.email, accounts.c.email_confirmed, accounts.c.mail_turns)
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(q.where(accounts.c.id == account_id))).first()
        if row is None:
            raise ApiError(404, "not_found", "no such account")
        return {"email": row.email, "confirmed": bool(row.email_confirmed), "turns": bool(row.mail_turns)}


UNSUBSCRIBE_PAGE = """<!doctype html><html lang="en"><meta charset="utf-8"><title>Ra: mail</title>
<main><p>Stop the "your turn" mail of this account?</p>
<form method="post"><button>Stop it</button></form></main></html>"""


STOPPED_PAGE = """<!doctype html><html lang="en"><meta charset="utf-8"><title>Ra: mail</title>
<main><p>No more "your turn" mail. The account page can turn it back on.</p></main></html>"""


def make_router(addresses: Addresses, account_of: SessionOf, changing_account: SessionOf) -> APIRouter:
    """The links in the mail, and the account page's address and switches."""
    router = APIRouter()

    @router.get("/api/mail/confirm/{token}", include_in_schema=False)
    async def confirm(token: str) -> RedirectResponse:
        await addresses.confirm(token[:64])
        return RedirectResponse("/account?mail=confirmed", status_code=303)

    @router.get("/api/mail/unsubscribe/{token}", include_in_schema=False)
    async def unsubscribe_page(token: str) -> HTMLResponse:
        """A page that asks first: mail scanners open links, and a GET must not unsubscribe."""
        return HTMLResponse(UNSUBSCRIBE_PAGE, headers={"Cache-Control": "no-store"})

    @router.post("/api/mail/unsubscribe/{token}", include_in_schema=False)
    async def unsubscribe(token: str) -> HTMLResponse:
        """RFC 8058's one-click unsubscribe (the mail provider posts it) and the page's button."""
        await addresses.switch(token[:64], False, by_token=True)
        return HTMLResponse(
            '<!doctype html><p>No more "your turn" mail. The account page can turn it back on.'
        )

    @router.get("/api/account/mail")
    async def mail_settings(request: Request) -> MailSettings:
        who = await account_of(request)
        if who is None:
            raise ApiError(401, "sign_in", "sign in first")
        return await addresses.settings(who[0])

    @router.post("/api/account/email")
    async def change_address(body: AddressChange, request: Request) -> MailSettings:
        """Set, change or remove the address (a new one is confirmed by a mailed link first)."""
        who = await changing_account(request)
        assert who is not None
        await addresses.give(who[0], who[1], body.email, body.lang)
        return await addresses.settings(who[0])

    @router.post("/api/account/mail")
    async def switch_mail(body: MailSwitches, request: Request) -> MailSettings:
        who = await changing_account(request)
        assert who is not None
        await addresses.switch(who[0], body.turns, by_token=False)
        return await addresses.settings(who[0])

    return router


__all__ = ["Addresses", "MailSettings", "confirmer", "make_router"]
