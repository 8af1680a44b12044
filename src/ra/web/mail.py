"""E-mail: a person whose turn comes in a game by turns is told by mail (``ra serve --smtp``).

A table is by turns when its clock gives an hour or more a decision; the worker that commits a
decision tells the next person, once, if their seat is an account's with an address.  Mail goes
through the standard library's SMTP client in a thread (the server's loop never waits on it).
"""

from __future__ import annotations

import asyncio
import email.utils
import functools
import logging
import smtplib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import parse_qs, unquote, urlsplit

import sqlalchemy as sa

from ra.web.db import accounts, seats
from ra.web.store import Store
from ra.words import words

log = logging.getLogger("ra.web")
BY_TURNS_SECONDS = 3600
"""A clock of at least this many seconds a decision makes a game by turns: its players get mail."""


@dataclass(frozen=True)
class Smtp:
    """Where mail goes: ``smtp://[user:password@]host[:port][?from=ra@example.org]`` (STARTTLS
    when the server offers it), or ``smtps://`` for TLS from the start."""

    host: str
    port: int
    tls: bool
    user: str | None
    password: str | None
    sender: str


def parse_smtp(url: str) -> Smtp:
    """The SMTP server of ``url``, or ``ValueError`` naming what is wrong."""
    u = urlsplit(url)
    if u.scheme not in ("smtp", "smtps") or not u.hostname:
        raise ValueError(f"not an SMTP URL: {url!r} (e.g. smtp://user:password@mail.example.org:587)")
    try:
        port = u.port or (465 if u.scheme == "smtps" else 25)
    except ValueError:
        raise ValueError(f"bad port in the SMTP URL {url!r}") from None
    sender = parse_qs(u.query).get("from", [f"ra@{u.hostname}"])[0]
    user = unquote(u.username) if u.username else None
    password = unquote(u.password) if u.password else None
    return Smtp(u.hostname, port, u.scheme == "smtps", user, password, sender)


def send(smtp: Smtp, to: str, subject: str, body: str, unsubscribe: str | None = None) -> None:
    """Send one plain-text message (blocking: call it in a thread), with the headers large
    providers require (RFC 5322 ``Date`` and ``Message-ID``) and, for mail a person may stop,
    a one-click ``List-Unsubscribe`` (RFC 8058) to ``unsubscribe``."""
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = smtp.sender, to, subject
    msg["Date"] = email.utils.formatdate(usegmt=True)
    msg["Message-ID"] = email.utils.make_msgid(domain=smtp.sender.rpartition("@")[2] or None)
    if unsubscribe is not None:
        msg["List-Unsubscribe"] = f"<{unsubscribe}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    msg.set_content(body)
    client = smtplib.SMTP_SSL if smtp.tls else smtplib.SMTP
    with client(smtp.host, smtp.port, timeout=20) as s:
        if not smtp.tls and s.has_extn("starttls"):
            s.starttls()
        if smtp.user and smtp.password:
            s.login(smtp.user, smtp.password)
        s.send_message(msg)


async def tell_turn(store: Store, smtp: Smtp, public_url: str, game_id: str, seat: int) -> bool:
    """Mail the person of ``seat`` that it is their turn at ``game_id`` (False: no confirmed
    address, or they switched "your turn" mail off)."""
    q = (
        sa.select(accounts.c.name, accounts.c.email, accounts.c.lang, accounts.c.mail_token)
        .join(seats, seats.c.account_id == accounts.c.id)
        .where(
            seats.c.game_id == game_id,
            seats.c.seat == seat,
            accounts.c.email_confirmed.is_(True),
            accounts.c.mail_turns.is_(True),
        )
    )
    async with store.engine.connect() as conn:
        row = (await conn.execute(q)).first()
    if row is None or not row.email or not row.mail_token:
        return False
    w = words(row.lang or "en")
    site = public_url.rstrip("/")
    link = f"{site}/g/{game_id}"
    stop = f"{site}/api/mail/unsubscribe/{row.mail_token}"
    subject = w("mail.turn.subject", id=game_id)
    body = (
        w("mail.turn.body", name=row.name, id=game_id, link=link) + "\n\n" + w("mail.unsubscribe", link=stop)
    )
    try:
        await asyncio.to_thread(send, smtp, row.email, subject, body, stop)
    except (OSError, smtplib.SMTPException) as err:
        log.warning("could not mail %s about game %s: %s", row.name, game_id, err)
        return False
    return True


def turn_mailer(
    store: Store, smtp_url: str | None, public_url: str
) -> Callable[[str, int], Awaitable[bool]] | None:
    """What mails "your turn" for a server (None: no mail server given)."""
    if smtp_url is None:
        return None
    return functools.partial(tell_turn, store, parse_smtp(smtp_url), public_url)


async def ask_to_confirm(smtp: Smtp, public_url: str, to: str, name: str, token: str, lang: str) -> bool:
    """Mail ``to`` the link that confirms it is ``name``'s address: the only mail an address
    gets before it is confirmed (False: it could not be sent)."""
    w = words(lang)
    link = f"{public_url.rstrip('/')}/api/mail/confirm/{token}"
    body = w("mail.confirm.body", name=name, link=link)
    return await _mail_link(smtp, to, w("mail.confirm.subject"), body, f"{name} the confirmation link")


RESET_PATH = "/account#reset="
"""Where a reset link lands: the account page, the token in the fragment (a browser never sends
a fragment, so the token reaches no access log, proxy or ``Referer``)."""


async def mail_reset_link(
    smtp: Smtp, public_url: str, to: str, name: str, token: str, lang: str, minutes: int
) -> bool:
    """Mail ``to`` (an account's confirmed address) the link that sets ``name``'s new password;
    it works once, for ``minutes`` (False: it could not be sent).  The link is made from the
    configured public address, never from what a request said its host was."""
    w = words(lang)
    link = f"{public_url.rstrip('/')}{RESET_PATH}{token}"
    body = w("mail.reset.body", name=name, link=link, minutes=minutes)
    return await _mail_link(smtp, to, w("mail.reset.subject"), body, f"{name} a password link")


async def _mail_link(smtp: Smtp, to: str, subject: str, body: str, what: str) -> bool:
    try:
        await asyncio.to_thread(send, smtp, to, subject, body)
    except (OSError, smtplib.SMTPException) as err:
        log.warning("could not mail %s: %s", what, err)
        return False
    return True
