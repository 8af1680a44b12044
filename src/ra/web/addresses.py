"""An account's e-mail address: given, confirmed by a mailed link, switched off, changed, removed.

Finding 3 of issue 40: an account signed up with a stranger's address sent it 47 mails in 4 s.
Now an address gets one mail — the link that confirms it — and nothing else until its owner
opens that link and presses its button; each mail of a kind a person may stop carries a
one-click unsubscribe link (``List-Unsubscribe``, RFC 8058).

Issue 52 (mail as a relay, accounts taken from a moment's access): confirmation mails are
limited per account and per inbox, an inbox known by its folded address (:func:`fold_address`),
in the database every worker shares; they name no account; the links' tokens are per purpose
and hashed (:mod:`ra.web.mail_links`); a confirmed address frees the unconfirmed claims of other
accounts on it; a change away from a confirmed address is told to that address, with a link
that undoes it (:meth:`Addresses.undo`).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field, field_validator
from typing_extensions import TypedDict

from ra.web.limits import SharedBucket
from ra.web.lobby import ApiError
from ra.web.mail import Smtp, ask_to_confirm, mail_reset_link, mail_undo_link, parse_smtp
from ra.web.store import Store
from ra.web.store.addresses import AddressTakenError, DeadLinkError, fold_address
from ra.web.store.mail_links import DAYS, Link, Purpose
from ra.words import DEFAULT_LANG, normalize

EMAIL = re.compile(r"[^@\s<>\"',;]+@[^@\s<>\"',;]+\.[^@\s<>\"',;]+")
"""An address to send to: one @, a dot in the domain, no spaces, quotes or header separators."""
CONFIRM_MAILS_PER_ACCOUNT = 3.0
"""Confirmation mails one account may send a day, in bursts of as many (a typo fixed twice)."""
CONFIRM_MAILS_PER_INBOX = 2.0
"""Confirmation mails one inbox (:func:`fold_address`) gets a day, whichever accounts ask, in
bursts of as many: a squatter's link, then its owner's own."""

Kind = Literal["signup", "change"]
SessionOf = Callable[[Request], Awaitable[tuple[str, str] | None]]


class MailSettings(TypedDict):
    email: str | None
    confirmed: bool
    turns: bool


class AddressChanged(MailSettings):
    """The settings after a change, and whether a confirmation link was mailed just now (False:
    the address needs none, mail is off, or the limits held it back)."""

    mailed: bool


class AddressChange(BaseModel):
    email: str | None = Field(default=None, max_length=254)
    """The new address; None or empty removes it."""
    lang: str = Field(default="en", max_length=8)
    """The language of the mails (as the sign-up form's: an unknown one is English)."""
    password: str | None = Field(default=None, max_length=200)
    """The current password: needed unless the session signed in moments ago."""

    @field_validator("email")
    @classmethod
    def _email(cls, v: str | None) -> str | None:
        v = (v or "").strip()
        if v and not EMAIL.fullmatch(v):
            raise ValueError(f"not an e-mail address: {v!r}")
        return v or None

    @field_validator("lang")
    @classmethod
    def _lang(cls, v: str) -> str:
        return normalize(v) or DEFAULT_LANG


class MailSwitches(BaseModel):
    turns: bool


@dataclass(frozen=True)
class Confirmer:
    """What mails an account's address its links: the one that confirms it (called), and, once
    confirmed, the one that sets a new password (:meth:`reset`) and the one that undoes a change
    of address (:meth:`undo`)."""

    smtp: Smtp
    public_url: str

    async def __call__(self, to: str, token: str, lang: str, change: bool) -> bool:
        return await ask_to_confirm(self.smtp, self.public_url, to, token, lang, change)

    async def reset(self, to: str, name: str, token: str, lang: str, minutes: int) -> bool:
        return await mail_reset_link(self.smtp, self.public_url, to, name, token, lang, minutes)

    async def undo(self, to: str, name: str, new: str | None, token: str, lang: str) -> bool:
        days = DAYS["undo"]
        return await mail_undo_link(self.smtp, self.public_url, to, name, new, token, lang, days)


def confirmer(smtp_url: str | None, public_url: str) -> Confirmer | None:
    """What mails the links for a server (None: no mail server given)."""
    if smtp_url is None:
        return None
    return Confirmer(parse_smtp(smtp_url), public_url)


@dataclass(frozen=True)
class Confirmed:
    """What a confirmation did: the address now confirmed."""

    email: str


async def _nobody_told(account_id: str) -> None:
    """Nobody to tell (an :class:`Addresses` not wired to the accounts)."""


class Addresses:
    """The addresses of the accounts, over the server's database."""

    def __init__(self, store: Store, confirm: Confirmer | None) -> None:
        self.store = store
        self.confirm_by_mail = confirm
        levels = store.levels  # one count for every worker of the site
        day = 86400.0
        self._per_account = SharedBucket(
            levels, "confirm-mails-account", CONFIRM_MAILS_PER_ACCOUNT / day, CONFIRM_MAILS_PER_ACCOUNT
        )
        self._per_inbox = SharedBucket(
            levels, "confirm-mails-inbox", CONFIRM_MAILS_PER_INBOX / day, CONFIRM_MAILS_PER_INBOX
        )
        self.taken_back: Callable[[str], Awaitable[None]] = _nobody_told
        """Called with an account whose change of address was undone: every session and every
        seat token a session made ends (:meth:`ra.web.sessions.Sessions.end_everywhere`)."""

    async def give(self, account_id: str, name: str, email: str | None, lang: str, kind: Kind) -> bool:
        """Set (or, with None, remove) the account's address: unconfirmed, its confirmation link
        mailed if the limits allow (the answer: whether it was).  Password and confirmation
        links mailed before stop working; the old address, if it was confirmed, is told, with a
        link that undoes the change.  The same address again changes nothing."""
        key = fold_address(email) if email else None
        change = await self.store.addresses.give(account_id, email, key, lang)
        if change is None:
            raise ApiError(404, "not_found", "no such account")
        confirm, undo = change.confirm, change.undo
        if undo is not None and self.confirm_by_mail is not None:
            assert change.old_email is not None  # an undo link goes to the old, confirmed address
            await self.confirm_by_mail.undo(change.old_email, name, email, undo, change.old_lang)
        if confirm is None or key is None or not await self._may_mail(account_id, key):
            return False
        assert email is not None and self.confirm_by_mail is not None
        return await self.confirm_by_mail(email, confirm, lang, kind == "change")

    async def _may_mail(self, account_id: str, key: str) -> bool:
        """Whether a confirmation mail may go: this account's and this inbox's limits, each
        counted atomically in the store every worker shares."""
        if self.confirm_by_mail is None:
            return False
        return await self._per_account.allow(account_id) and await self._per_inbox.allow(key)

    @property
    def can_mail(self) -> bool:
        """Whether this server sends mail at all (``ra serve --smtp``)."""
        return self.confirm_by_mail is not None

    async def mail_reset(self, to: str, name: str, token: str, lang: str, minutes: int) -> bool:
        """Mail a confirmed address the link that sets a new password (False: no mail sent)."""
        if self.confirm_by_mail is None:
            return False
        return await self.confirm_by_mail.reset(to, name, token, lang, minutes)

    async def confirm(self, token: str) -> Confirmed:
        """The owner pressed the button of the mailed link (once): the address gets mail from
        now on, and any other account's unconfirmed claim on the same inbox is dropped (a
        squatter keeps nothing); unless another account confirmed it first (409)."""
        try:
            return Confirmed(await self.store.addresses.confirm(token))
        except DeadLinkError:
            raise _dead_link() from None
        except AddressTakenError:
            raise _taken() from None

    async def undo(self, token: str) -> Confirmed:
        """The old address's owner undid a change (once, within days): the address is theirs
        again, confirmed; every other undo link of the account dies (whoever made the change
        cannot undo the undoing), and so do the password links; then every session ends."""
        try:
            link = await self.store.addresses.undo(token)
        except DeadLinkError:
            raise _dead_link() from None
        except AddressTakenError:
            raise _taken() from None
        await self.taken_back(link.account_id)
        assert link.email is not None  # an undo link is about the old address
        return Confirmed(link.email)

    async def lang_of(self, purpose: Purpose, token: str) -> str | None:
        """The language of the mail a live token came in (None: no such token)."""
        link = await self.store.addresses.link(purpose, token)
        return None if link is None else link.lang

    async def about(self, purpose: Purpose, token: str) -> Link | None:
        """What a live token is about (its page shows it before its button is pressed)."""
        return await self.store.addresses.link(purpose, token)

    async def unsubscribe(self, token: str) -> None:
        """The unsubscribe link's button (or a provider's one-click POST): "your turn" mail off."""
        link = await self.store.addresses.link("unsubscribe", token)
        if link is None:
            raise _dead_link()
        await self.switch(link.account_id, False)

    async def switch(self, account_id: str, turns: bool) -> None:
        """Turn "your turn" mail on or off."""
        if not await self.store.addresses.switch(account_id, turns):
            raise ApiError(404, "not_found", "no such account")

    async def settings(self, account_id: str) -> MailSettings:
        row = await self.store.addresses.settings(account_id)
        if row is None:
            raise ApiError(404, "not_found", "no such account")
        return {"email": row.email, "confirmed": row.confirmed, "turns": row.turns}


def _taken() -> ApiError:
    return ApiError(409, "email_taken", "another account has confirmed this address")


def _dead_link() -> ApiError:
    return ApiError(404, "bad_link", "this link is not valid (any more): ask for a new one")


def make_router(addresses: Addresses, account_of: SessionOf, changing_account: SessionOf) -> APIRouter:
    """The account page's address settings and switches (the address itself changes through
    :meth:`ra.web.accounts.Accounts.change_address`: it asks for the password)."""
    router = APIRouter()

    @router.get("/api/account/mail")
    async def mail_settings(request: Request) -> MailSettings:
        who = await account_of(request)
        if who is None:
            raise ApiError(401, "sign_in", "sign in first")
        return await addresses.settings(who[0])

    @router.post("/api/account/mail")
    async def switch_mail(body: MailSwitches, request: Request) -> MailSettings:
        who = await changing_account(request)
        assert who is not None
        await addresses.switch(who[0], body.turns)
        return await addresses.settings(who[0])

    return router


__all__ = ["Addresses", "MailSettings", "confirmer", "fold_address", "make_router"]
