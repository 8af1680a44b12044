"""The server's services for one database, built once and kept on ``app.state.services``.

:func:`ra.web.app.create_app` builds them and hands them to the routers
(:mod:`ra.web.routes`); they start and stop with the app.  The wiring between them (who tells
whom that the lobby changed, a game finished or a line was said) is made here, in one place.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from pathlib import Path

from ra.web.accounts import Accounts
from ra.web.addresses import Addresses, confirmer
from ra.web.analyses import Analyses
from ra.web.assets import Pages
from ra.web.chat import Chat
from ra.web.event_feed import EventFeed
from ra.web.event_mail import event_mailer
from ra.web.events import Events
from ra.web.hub import Hub
from ra.web.lobby import Lobby
from ra.web.lobby_feed import LobbyFeed
from ra.web.mail import turn_mailer
from ra.web.metrics import Metrics
from ra.web.pubsub import EventChanged
from ra.web.ratings import rate_game
from ra.web.settings import Settings
from ra.web.store import Store
from ra.words import LOCALE_DIR

log = logging.getLogger("ra.web")


@dataclass(frozen=True)
class Services:
    """Everything a route needs: the store, the hub of rooms and the services around them."""

    settings: Settings
    store: Store
    metrics: Metrics
    hub: Hub
    lobby: Lobby
    analyses: Analyses
    addresses: Addresses
    accounts: Accounts
    chat: Chat
    feed: LobbyFeed
    event_feed: EventFeed
    pages: Pages
    events: Events
    _sweeper: list[asyncio.Task[None]] = field(default_factory=list)

    async def start(self) -> None:
        await self.hub.start()
        self.feed.start()
        self.event_feed.start()
        self._sweeper.append(asyncio.create_task(self.events.sweeping()))

    async def stop(self) -> None:
        for task in self._sweeper:
            task.cancel()
        await self.feed.stop()
        await self.event_feed.stop()
        await self.analyses.stop()
        await self.hub.stop()
        await self.store.close()
        self.accounts.passwords.close()
        self.metrics.close()


def build_services(settings: Settings, static: Path) -> Services:
    """The services over ``settings.db_url``, wired to each other."""
    store = Store(settings.db_url, settings.worker_id)
    metrics = Metrics()
    hub = Hub(store, settings, metrics=metrics)
    hub.ratings = store.analyses
    hub.turn_mailer = turn_mailer(store, settings.smtp_url, settings.public_url)  # reads the accounts
    lobby = Lobby(store, hub, settings)
    addresses = Addresses(store, confirmer(settings.smtp_url, settings.public_url))
    accounts = Accounts(store, addresses)
    chat = Chat(store, hub)
    feed = LobbyFeed(lobby.listing.lists, greeting=chat.lobby_history, limits=(store.levels, store.holds))
    chat.lobby = feed.say
    chat.account_names = accounts.holder
    accounts.sessions.seats_changed = hub.changed
    hub.lobby_said = chat.lobby_posted
    mailer = event_mailer(store, settings.smtp_url, settings.public_url)
    events = Events(store.events, lobby, settings.worker_id, mailer)
    event_feed = EventFeed(lambda eid: events.view(eid, fresh=True), limits=(store.levels, store.holds))

    async def event_changed(event_id: str) -> None:
        event_feed.touch(event_id)  # this worker's pages; the others' through a note
        try:
            await hub.pubsub.publish(EventChanged(event_id, settings.worker_id))
        except Exception:  # their pages' refresh (and fallback poll) catch up
            log.exception("event %s: telling the other workers failed", event_id)

    events.changed = event_changed

    def heard(event_id: str) -> None:
        events.forget(event_id)  # another worker changed it: this worker's pages read it anew
        event_feed.touch(event_id)

    hub.event_changed = heard

    async def finished(game_id: str) -> None:
        try:
            await rate_game(store.ratings, game_id)
        finally:  # an event's next round, once its round is over, even if rating failed
            await events.game_finished(game_id)

    hub.on_finished = finished
    hub.chat_posted = chat.posted
    store.on_change = hub.lobby_changed = feed.touch
    return Services(
        settings=settings,
        store=store,
        metrics=metrics,
        hub=hub,
        lobby=lobby,
        analyses=Analyses(store, hub, settings),
        addresses=addresses,
        accounts=accounts,
        chat=chat,
        feed=feed,
        event_feed=event_feed,
        pages=Pages(static, LOCALE_DIR),
        events=events,
    )
