"""E-mail: "your event game is ready" (issue 55), once a game, for events by turns.

An event by turns (a clock of :data:`ra.web.mail.BY_TURNS_SECONDS` or more a decision) seats its
players without them watching: the worker that makes a round's games (only it: the games are
made once, :meth:`ra.web.events.Events.form_round`) mails each player, batched like "your turn"
mail — one mail an account for all its games of that round, only to a confirmed address that has
not stopped game mail.
"""

from __future__ import annotations

import asyncio
import logging
import smtplib
from collections.abc import Sequence
from dataclasses import dataclass

from ra.web.mail import Person, Smtp, parse_smtp, send
from ra.web.store import Store
from ra.words import words

log = logging.getLogger("ra.web")


@dataclass(frozen=True, slots=True)
class ReadyGame:
    """A game an event just made for one of its players."""

    account_id: str
    game_id: str


class EventMailer:
    """Mails "your event game is ready" for a server."""

    def __init__(self, store: Store, smtp: Smtp, public_url: str) -> None:
        self.store, self.smtp, self.site = store, smtp, public_url.rstrip("/")

    async def __call__(self, event_id: str, event_name: str, ready: Sequence[ReadyGame]) -> int:
        """Mail each account its ready games (one mail an account); how many mails went."""
        games: dict[str, list[str]] = {}
        for r in ready:
            games.setdefault(r.account_id, []).append(r.game_id)
        sent = 0
        for person in await self.store.turn_mail.game_mail(list(games)):
            sent += await self._mail(person, event_id, event_name, games[person.id])
        return sent

    async def _mail(self, person: Person, event_id: str, event_name: str, games: list[str]) -> bool:
        """One mail to ``person`` (its own unsubscribe link); False if it could not go."""
        if not person.email:
            return False
        token = await self.store.addresses.new_link(
            "unsubscribe", person.id, person.email, person.lang or "en"
        )
        stop = f"{self.site}/api/mail/unsubscribe/{token}"
        w = words(person.lang or "en")
        links = "\n".join(f"{self.site}/g/{g}" for g in games)
        subject = w("mail.event_ready.subject", event=event_name)
        body = w("mail.event_ready.body", name=person.name, event=event_name, links=links)
        body += "\n" + w("mail.event_ready.page", link=f"{self.site}/e/{event_id}")
        try:
            await asyncio.to_thread(
                send, self.smtp, person.email, subject, body + "\n\n" + w("mail.unsubscribe", link=stop), stop
            )
        except (OSError, smtplib.SMTPException) as err:
            log.warning("could not mail %s that their event game is ready: %s", person.name, err)
            return False
        return True


def event_mailer(store: Store, smtp_url: str | None, public_url: str) -> EventMailer | None:
    """What mails "your event game is ready" for a server (None: no mail server given)."""
    if smtp_url is None:
        return None
    return EventMailer(store, parse_smtp(smtp_url), public_url)
