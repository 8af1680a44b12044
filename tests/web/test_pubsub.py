"""The workers' notes: typed, round-tripped through their text, and delivered by the in-process
pub/sub (the PostgreSQL one is exercised by the two-server tests in test_server.py)."""

from __future__ import annotations

import asyncio

import pytest

from ra.web.pubsub import EventChanged, GameChanged, LocalPubSub, Note, PresenceChanged, decode, encode


@pytest.mark.parametrize(
    "note",
    [
        GameChanged("abc", "w1", 12),
        GameChanged("abc", "w1", 12, 2, "bid 9"),
        GameChanged("abc", "w1", None),
        PresenceChanged("abc", "w2", (True, False, True)),
        EventChanged("ev1", "w2"),
    ],
)
def test_notes_round_trip(note: Note) -> None:
    assert decode(encode(note)) == note


@pytest.mark.parametrize(
    "text",
    ["", "g:abc:w1:a3", "{}", '{"k": "x", "g": 1, "w": 2}', '{"k": "p", "g": 1}', '{"k": "e", "w": 1}'],
)
def test_malformed_notes_are_ignored(text: str) -> None:
    assert decode(text) is None


def test_local_pubsub_delivers_to_every_subscriber() -> None:
    async def main() -> tuple[list[Note], list[Note]]:
        bus = LocalPubSub()
        a, b = bus.notes(), bus.notes()
        first_a, first_b = asyncio.ensure_future(anext(a)), asyncio.ensure_future(anext(b))
        await asyncio.sleep(0)
        await bus.publish(GameChanged("g", "w", 1))
        await bus.publish(PresenceChanged("g", "w", (True,)))
        got_a = [await first_a, await anext(a)]
        got_b = [await first_b, await anext(b)]
        await bus.close()
        return got_a, got_b

    got_a, got_b = asyncio.run(main())
    assert got_a == got_b == [GameChanged("g", "w", 1), PresenceChanged("g", "w", (True,))]
