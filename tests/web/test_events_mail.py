""" "Your event game is ready" (issue 55), against a real local SMTP server (aiosmtpd): in an
event by turns each player with a confirmed address gets one mail a round, in their language,
with their game's link; nobody else, never twice for one game, and none for a live event."""

from __future__ import annotations

import asyncio
import time

import sqlalchemy as sa

from ra.web import db
from ra.web.events import JoinEvent, NewEvent
from ra.web.services import Services, build_services
from ra.web.settings import Settings
from tests.web.test_events_workers import STATIC, six_accounts
from tests.web.test_mail import Inbox, inbox, text_of

__all__ = ["inbox"]  # the SMTP server's fixture, used by name
DAY = 24 * 3600


def mailing(url: str, port: int) -> Services:
    """A worker that mails through the test's SMTP server, its links to ra.test."""
    smtp = f"smtp://127.0.0.1:{port}?from=ra@test.example"
    return build_services(
        Settings(db_url=url, worker_id="one", smtp_url=smtp, public_url="https://ra.test"), STATIC
    )


async def addresses(site: Services, people: list[tuple[str, str]]) -> None:
    """Every account an address; all confirmed but the last's; the second reads Russian."""
    async with site.store.engine.begin() as conn:
        for i, (account, name) in enumerate(people):
            await conn.execute(
                sa.update(db.accounts)
                .where(db.accounts.c.id == account)
                .values(
                    email=f"{name.lower()}@test.example",
                    email_confirmed=i < len(people) - 1,
                    lang="ru" if i == 1 else "en",
                )
            )


async def settle(box: Inbox, count: int) -> None:
    """Let the background mail go (in threads), then a moment for any extra mail to show."""
    deadline = time.monotonic() + 15
    while len(box.mail) < count and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)


def test_each_confirmed_player_of_an_event_by_turns_is_mailed_once_a_game(
    sqlite_url: str, inbox: tuple[Inbox, int]
) -> None:
    box, port = inbox

    async def main() -> None:
        site = mailing(sqlite_url, port)
        try:
            people = (await six_accounts(site))[:4]
            await addresses(site, people)
            live = (await site.events.create(NewEvent(name="Live Cup", table_size=2), people[0]))["event"][
                "id"
            ]
            slow = await site.events.create(
                NewEvent(name="Slow Cup", table_size=2, move_seconds=DAY), people[0]
            )
            for p in people:
                for eid in (live, slow["event"]["id"]):
                    await site.events.join(eid, JoinEvent(), p)
            await site.events.begin(live)
            await settle(box, 0)
            assert box.mail == []  # a live event: the players are there
            eid = slow["event"]["id"]
            await site.events.begin(eid)
            await settle(box, 3)
            await site.events.sweep()  # nothing new formed: nothing mailed again
            await settle(box, 3)
            tables = (await site.events.view(eid))["tables"]
            game_of = {p: t["game"] for t in tables for p in t["players"]}
            ready = [m for m in box.mail if "Slow Cup" in str(m["Subject"])]
            turns = [m for m in box.mail if m not in ready]  # the first to move: "your turn" too
            assert len(turns) <= len(tables) and all("#" in str(m["Subject"]) for m in turns)
            got = {str(m["To"]): m for m in ready}
            assert len(ready) == 3 and set(got) == {f"{n.lower()}@test.example" for _, n in people[:3]}
            for (account, _), message in ((p, got[f"{p[1].lower()}@test.example"]) for p in people[:3]):
                text = text_of(message)
                assert f"https://ra.test/g/{game_of[account]}" in text and "https://ra.test/e/" + eid in text
                assert message["List-Unsubscribe"]
            assert "готова" in str(got[f"{people[1][1].lower()}@test.example"]["Subject"])
        finally:
            await site.stop()

    asyncio.run(main())
