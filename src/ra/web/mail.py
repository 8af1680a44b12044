"""E-mail: a person whose turn comes in a game by turns is told by mail (``ra serve --smtp``).

A table is by turns when its clock gives an hour or more a decision; the worker that commits a
decision tells the next person, once, if their seat is an account's with an address.  Mail goes
through the standard library's SMTP client in a thread (the server's loop never waits on it).
"""

from __future__ import annotations

import asyncio
import email.utils
import logging
import smtplib
import time
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import parse_qs, unquote, urlsplit

from ra.web.store import Store
from ra.web.store.turn_mail import BY_TURNS_SECONDS, Person
from ra.words import worded, words

log = logging.getLogger("ra.web")


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
        raise worded(ValueError, "serve.err.smtp_url", url=repr(url))
    try:
        port = u.port or (465 if u.scheme == "smtps" else 25)
    except ValueError:
        raise worded(ValueError, "serve.err.smtp_port", url=repr(url)) from None
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


BATCH_SECONDS = 1800.0
"""After a "your turn" mail, an account's next turns wait this long; the next mail then lists
every game where it is the account's turn ("it is your turn in 3 games")."""


class TurnMailer:
    """Mails "your turn" for a server: one mail an account for every game where it is its turn,
    at most one every :data:`BATCH_SECONDS` (per worker)."""

    def __init__(self, store: Store, smtp: Smtp, public_url: str) -> None:
        self.store, self.smtp, self.site = store, smtp, public_url.rstrip("/")
        self.last: dict[str, float] = {}

    async def __call__(self, game_id: str, seat: int) -> bool:
        """Mail the person of ``seat`` at ``game_id`` (False: no confirmed address, mail off,
        a mail went to them a moment ago, or it failed: a later turn may mail)."""
        person = await self.store.turn_mail.person(game_id, seat)
        if person is None or not person.email:
            return False
        t = time.monotonic()
        if t - self.last.get(person.id, -BATCH_SECONDS) < BATCH_SECONDS:
            return False  # batched: the next mail lists this game too, if it still waits
        waiting = [game_id, *(g for g in await self.store.turn_mail.waiting(person.id) if g != game_id)]
        self.last[person.id] = t
        lang = person.lang or "en"  # each mail its own unsubscribe link
        token = await self.store.addresses.new_link("unsubscribe", person.id, person.email, lang)
        stop = f"{self.site}/api/mail/unsubscribe/{token}"
        subject, body = self._words(person, waiting, stop)
        try:
            await asyncio.to_thread(send, self.smtp, person.email, subject, body, stop)
        except (OSError, smtplib.SMTPException) as err:
            log.warning("could not mail %s about game %s: %s", person.name, game_id, err)
            self.last.pop(person.id, None)
            return False
        return True

    def _words(self, person: Person, waiting: list[str], unsubscribe: str) -> tuple[str, str]:
        """The subject and body in the person's language: one table's, or a list of them."""
        w = words(person.lang or "en")
        links = [f"{self.site}/g/{g}" for g in waiting]
        stop = w("mail.unsubscribe", link=unsubscribe)
        if len(waiting) == 1:
            subject = w("mail.turn.subject", id=waiting[0])
            body = w("mail.turn.body", name=person.name, id=waiting[0], link=links[0])
        else:
            subject = w("mail.turns.subject", n=len(waiting))
            body = w("mail.turns.body", name=person.name, n=len(waiting), links="\n".join(links))
        return subject, body + "\n\n" + stop


def turn_mailer(store: Store, smtp_url: str | None, public_url: str) -> TurnMailer | None:
    """What mails "your turn" for a server (None: no mail server given)."""
    if smtp_url is None:
        return None
    return TurnMailer(store, parse_smtp(smtp_url), public_url)


async def ask_to_confirm(smtp: Smtp, public_url: str, to: str, token: str, lang: str, change: bool) -> bool:
    """Mail ``to`` the link that confirms it is an account's address: the only mail an address
    gets before it is confirmed, for a new account or a ``change`` of address.  It names no
    account: a name is its owner's choice, and must not be a way to write to strangers (issue
    52).  False: it could not be sent."""
    w = words(lang)
    link = f"{public_url.rstrip('/')}/api/mail/confirm/{token}"
    body = w("mail.confirm.change.body" if change else "mail.confirm.body", link=link)
    return await _mail_link(smtp, to, w("mail.confirm.subject"), body, "a confirmation link")


async def mail_undo_link(
    smtp: Smtp, public_url: str, to: str, name: str, new: str | None, token: str, lang: str, days: int
) -> bool:
    """Tell ``to``, the account's confirmed address until now, that it was changed to ``new``
    (None: removed), with the link that undoes the change for ``days`` (False: not sent)."""
    w = words(lang)
    link = f"{public_url.rstrip('/')}/api/mail/undo/{token}"
    body = w("mail.undo.body", name=name, email=new or w("mail.undo.none"), link=link, days=days)
    return await _mail_link(smtp, to, w("mail.undo.subject"), body, f"{name} an undo link")


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


__all__ = [  # BY_TURNS_SECONDS and Person: the turn mail store's, read here by hub, waiting, event_mail
    "BATCH_SECONDS",
    "BY_TURNS_SECONDS",
    "RESET_PATH",
    "Person",
    "Smtp",
    "TurnMailer",
    "ask_to_confirm",
    "mail_reset_link",
    "mail_undo_link",
    "parse_smtp",
    "send",
    "turn_mailer",
]
