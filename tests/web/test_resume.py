"""A reconnecting client gets only the log entries it is missing (issue 26), never a log that
no longer holds (after an undo, or the end's reveal of hidden scores)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from ra.web.testing import Server
from tests.web.client import Player, create, join


async def hello(p: Player, since: int | None, key: str | None) -> dict[str, Any]:
    await p.connect_raw()
    await p.send({"type": "hello", "token": p.token, "since": since, "key": key})
    return await p.until(lambda m: m["type"] == "state")


def test_resume_sends_only_what_is_missing(server: Server) -> None:
    made = create(server.url, [{"kind": "human"}, {"kind": "human"}], hidden_scores=True)
    gid = made["game"]["id"]
    bob = join(server.url, gid, "Bob")

    async def main() -> None:
        ann, bo = Player(server.ws, gid, made["token"], seed=1), Player(server.ws, gid, bob["token"], seed=2)
        for p in (ann, bo):
            await p.connect()
            await p.until(lambda m: m["type"] == "state")
        # A few decisions, then Ann goes away holding her log.
        for _ in range(6):
            await ann.state_now()
            await bo.state_now()
            mover = ann if ann.my_turn else bo
            n = mover.state["n"]  # type: ignore[index]
            await mover.play_random()
            await mover.until(lambda m, n=n: m["type"] == "state" and m["n"] > n)
        held = await ann.state_now()
        since, key = len(ann.events), held["log_key"]
        await ann.close()
        # Bob moves on while Ann is away.
        await bo.state_now()
        if bo.my_turn:
            n = bo.state["n"]  # type: ignore[index]
            await bo.play_random()
            await bo.until(lambda m, n=n: m["type"] == "state" and m["n"] > n)
        back = Player(server.ws, gid, made["token"])
        back.events = list(ann.events)
        first = await hello(back, since, key)
        assert first["events_from"] == since and len(first["events"]) < since
        assert [e["i"] for e in back.events] == list(range(len(back.events)))
        await back.close()
        # A wrong key (another log) gets the whole log.
        other = Player(server.ws, gid, made["token"])
        full = await hello(other, since, "0" * 24)
        assert full["events_from"] == 0
        await other.close()
        await bo.close()

    asyncio.run(main())


def test_after_an_undo_the_old_log_is_not_resumed(server: Server) -> None:
    made = create(server.url, [{"kind": "human"}, {"kind": "human"}])
    gid = made["game"]["id"]
    bob = join(server.url, gid, "Bob")

    async def main() -> None:
        ann, bo = Player(server.ws, gid, made["token"], seed=1), Player(server.ws, gid, bob["token"], seed=2)
        for p in (ann, bo):
            await p.connect()
            await p.until(lambda m: m["type"] == "state")
        await ann.state_now()
        await bo.state_now()
        mover = ann if ann.my_turn else bo
        other = bo if mover is ann else ann
        state = await mover.state_now()
        await mover.send({"type": "action", "action": "ra", "n": state["n"]})  # invoke Ra: undoable
        await mover.until(lambda m: m["type"] == "state" and m["n"] > state["n"])
        held = await other.state_now()
        since, key = len(other.events), held["log_key"]
        await other.close()
        await mover.send({"type": "undo", "n": state["n"] + 1})
        await mover.until(lambda m: m["type"] == "undone")
        back = Player(server.ws, gid, other.token)
        first = await hello(back, since, key)
        assert first["events_from"] == 0
        assert json.dumps(first["events"])  # a whole log
        await back.close()
        await mover.close()

    asyncio.run(main())
