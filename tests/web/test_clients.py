"""A connection's send queue, in-process (issue 40, finding 7: no socket left open and silent)."""

from __future__ import annotations

import asyncio

from ra.web.clients import TRY_AGAIN, Client
from ra.web.settings import Settings


def test_a_client_too_far_behind_is_closed_not_left_open_and_silent() -> None:
    """A page that stopped reading fills its queue: it is closed with "try again" (its page
    reconnects and resyncs) instead of being left connected and sent nothing ever after."""

    async def main() -> None:
        sent: list[str] = []
        closed: list[int] = []

        async def send(text: str) -> None:
            sent.append(text)

        async def close(code: int) -> None:
            closed.append(code)

        client = Client(0, send, Settings(db_url="sqlite://"), close=close)
        client.state_n = 7
        for _ in range(client.queue.maxsize + 5):
            client.put({"type": "pong"})
        assert client.closed and client.close_code == TRY_AGAIN
        await asyncio.wait_for(client.run_sender(), 2)
        assert closed == [TRY_AGAIN] and sent == []  # the stale backlog is dropped
        assert "last state at decision 7" in client.trace()

    asyncio.run(main())


def test_a_client_that_keeps_up_gets_every_message_in_order() -> None:
    async def main() -> None:
        sent: list[str] = []

        async def send(text: str) -> None:
            sent.append(text)

        client = Client(None, send, Settings(db_url="sqlite://"))
        sender = asyncio.create_task(client.run_sender())
        for i in range(1000):
            client.put(f'{{"type":"pong","i":{i}}}')
            if i % 100 == 0:
                await asyncio.sleep(0)
        client.finish()
        await asyncio.wait_for(sender, 2)
        assert len(sent) == 1000 and sent[-1].endswith('"i":999}') and not client.close_code

    asyncio.run(main())
