"""Rated and casual tables on a real server (issue 52, "a rating policy, in one function"): the
lobby's create API says rated or casual before the game starts, a rated table refuses hints, a
running game's record imported elsewhere is not analysed, and a seat that walks away before a
few decisions of its own aborts the game for rating (the farm of throw-away accounts)."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import httpx
import pytest

from ra.web.testing import Server
from tests.web.client import Player, create, join
from tests.web.test_accounts import sign_up

BOTS = [{"kind": "human"}, {"kind": "bot", "level": "easy"}]
DEADLINE = 3
"""Seconds per decision at a table without a clock, for the walk-away test (the site's is days)."""


def test_a_table_says_rated_or_casual_when_it_is_made(server: Server) -> None:
    base = server.url
    usual = create(base, BOTS)["game"]["options"]  # one person with the bots: hints, so casual
    assert usual["hints"] and usual["casual"]
    rated = create(base, BOTS, rated=True)["game"]["options"]
    assert rated["casual"] is False and rated["hints"] is False  # a rated table offers no hints
    two = create(base, [{"kind": "human"}, {"kind": "human"}])["game"]["options"]
    assert two["casual"] is False and two["hints"] is False
    refused = httpx.post(
        base + "/api/games", json={"seats": BOTS, "name": "Ann", "rated": True, "hints": True}
    )
    assert refused.status_code == 422 and refused.json()["error"] == "rated_hints"
    assert "casual" in refused.json()["message"]


def test_a_rated_table_refuses_a_hint_until_it_ends(server: Server) -> None:
    made = create(server.url, BOTS, rated=True)

    async def main() -> None:
        ann = Player(server.ws, made["game"]["id"], made["token"])
        await ann.connect()
        state = await ann.until(lambda m: m["type"] == "state" and bool(m["legal"]))
        await ann.send({"type": "hint", "n": state["n"]})
        err = await ann.until(lambda m: m["type"] == "error", timeout=10)
        assert err["code"] == "no_hints" and "rated" in err["message"]
        await ann.close()

    asyncio.run(main())


def test_a_running_games_record_imported_elsewhere_is_not_analysed(server: Server) -> None:
    base = server.url
    made = create(base, [{"kind": "human"}, {"kind": "human"}])
    gid = made["game"]["id"]
    join(base, gid, "Bob")
    record = httpx.get(f"{base}/api/games/{gid}/record").json()  # the public record, mid-game
    imported = httpx.post(base + "/api/records", json=record)
    assert imported.status_code == 200, imported.text
    other = imported.json()["game"]["id"]
    r = httpx.post(f"{base}/api/games/{other}/analysis")
    assert r.status_code == 409 and r.json()["error"] == "not_finished"


@pytest.fixture
def deadline_server(server_factory: type[Server], sqlite_url: str, tmp_path: Path) -> Server:
    return server_factory(sqlite_url, tmp_path / "s.log", env={"RA_MOVE_DEADLINE": str(DEADLINE)}).start()


@pytest.mark.slow
def test_a_seat_that_walks_away_at_once_aborts_the_game_for_rating(deadline_server: Server) -> None:
    """Issue 52: two accounts, one lets its time run out before its first decision — the other
    wins the game, and nobody's rating moves (before, the farmer gained a rated win)."""
    base = deadline_server.url
    made = create(base, [{"kind": "human"}, {"kind": "human"}], name="Ann", rated=True)
    gid = made["game"]["id"]
    bob = join(base, gid, "Bob")
    sign_up(base, "Ann", [{"game": gid, "token": made["token"]}])
    sign_up(base, "Bob", [{"game": gid, "token": bob["token"]}])

    async def main() -> int:
        ann, bo = (
            Player(deadline_server.ws, gid, made["token"]),
            Player(deadline_server.ws, gid, bob["token"]),
        )
        for p in (ann, bo):
            await p.connect()
        state = await ann.until(lambda m: m["type"] == "state" and m["view"] is not None)
        walker = state["view"]["to_move"]
        other = {0: ann, 1: bo}[1 - walker]
        await other.until(
            lambda m: m["type"] == "state" and m["game"]["seats"][walker]["forfeited"], timeout=30
        )
        for _ in range(1200):
            s = await other.state_now()
            if s["view"]["phase"] == "over":
                break
            if s["legal"]:
                await other.play_random()
            await asyncio.sleep(0.02)
        for p in (ann, bo):
            await p.close()
        return int(walker)

    walker = asyncio.run(main())
    game = httpx.get(f"{base}/api/games/{gid}").json()
    assert game["status"] == "finished" and game["winner"] == 1 - walker
    deadline = time.monotonic() + 3  # a rating is applied as the game ends: give it time to show
    while time.monotonic() < deadline:
        games = [httpx.get(f"{base}/api/players/{n}").json()["rating"]["games"] for n in ("ann", "bob")]
        assert games == [0, 0], json.dumps(games)
        time.sleep(0.3)
