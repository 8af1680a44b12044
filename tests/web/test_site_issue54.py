"""Issue 54, the site's part, against a real ``ra serve``: presence is one fact every viewer
reads (a spectator sees a seated player online as the players do), an open table whose people
have all gone leaves the lobby (and comes back with them), and pages of things that do not
exist answer 404 in the reader's language."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from ra.web.testing import Server
from tests.web.client import Player, create


def test_a_spectator_sees_the_seated_creator_online_as_she_does(server: Server) -> None:
    """Issue 54: a spectator's first state reckoned presence from its own connection alone (the
    room's clients swapped for it), so "Seat 1: Lotte ○ offline" while her page was open."""
    made = create(server.url, [{"kind": "human"}, {"kind": "human"}], name="Lotte")
    gid = made["game"]["id"]

    async def main() -> tuple[list[bool], list[bool]]:
        lotte = Player(server.ws, gid, made["token"])
        await lotte.connect()
        await lotte.state_now()
        visitor = Player(server.ws, gid, None)
        await visitor.connect()
        state = await visitor.state_now()
        seen = [bool(s["connected"]) for s in state["game"]["seats"]]
        api: dict[str, Any] = httpx.get(f"{server.url}/api/games/{gid}", timeout=10).json()
        await lotte.close()
        await visitor.close()
        return seen, [s["connected"] for s in api["seats"]]

    seen, told = asyncio.run(main())
    assert seen == told == [True, False]
