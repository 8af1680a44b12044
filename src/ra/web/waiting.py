"""Who waits at an open table: an open table whose seated people have all been gone (no page of
theirs open there) for :attr:`ra.web.settings.Settings.open_table_wait` seconds leaves the lobby
and quick play's choices, as a seek does on other sites when its creator leaves; it comes back
when one of them does (a creator who reloads never left).  A table by turns waits for its people
by mail, pages closed: it stays.  Issue 54: a newcomer who joined an abandoned table waited days
for "Lotte ○ offline".

The fact is each seat's ``gone_at`` in the database (one for every worker): written by the worker
whose page connected or went, from the room's presence across workers."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

from ra.web.hub import Hub, Room
from ra.web.mail import BY_TURNS_SECONDS
from ra.web.store import GameRow, Store, mark_here


def deserted(row: GameRow, at: datetime, wait: float) -> bool:
    """Whether ``row`` is an open table whose seated people have all been gone ``wait``
    seconds at ``at`` (a table nobody sits at yet waits for the people its link was sent to; a
    table by turns, for its people's mail)."""
    people = [s for s in row.seats if s.kind == "human" and s.token_hash is not None]
    if row.status != "open" or not people or (row.move_seconds or 0) >= BY_TURNS_SECONDS:
        return False
    since = at - timedelta(seconds=wait)
    return all(s.gone_at is not None and s.gone_at <= since for s in people)


async def note_waiting(room: Room, hub: Hub, store: Store) -> None:
    """Store which seated people of an open table have a page open there now (after a page
    connected or went); once they are all gone, the lobby is told again when the wait is over."""
    if room.row.status != "open":
        return
    here = room.audience.presence()
    changed = False
    for s in room.row.seats:
        if s.kind == "human" and s.token_hash is not None and here[s.seat] != (s.gone_at is None):
            await mark_here(store, room.id, s.seat, here[s.seat])
            changed = True
    if changed:
        await room.resync()
        if not any(here[s.seat] for s in room.row.seats if s.kind == "human"):
            asyncio.get_running_loop().call_later(hub.settings.open_table_wait + 0.5, hub.lobby_changed)


__all__ = ["deserted", "note_waiting"]
