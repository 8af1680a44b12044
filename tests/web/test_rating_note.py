"""A game aborted for rating says so at its end (issue 52's follow-up): the rating policy's
verdict (:func:`ra.web.rating_policy.verdict`, the one place) is served by
``GET /api/games/<id>/rating`` from a real server, and the table page names who walked away
(tests/web/test_browser_webfix.py shows it in a browser)."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

import httpx
import sqlalchemy as sa

import ra
from ra.web.db import decisions, games
from ra.web.rating_policy import MIN_OWN_DECISIONS
from ra.web.store import Store
from ra.web.testing import Server
from tests.web.test_rating_store import GAME, account


async def _finished(store: Store, walked: int | None, casual: bool = False) -> str:
    """A whole two-player game of Ann (seat 0) and Bob (seat 1), both accounts, at a rated
    table (unless ``casual``); seat ``walked`` forfeited after ``MIN_OWN_DECISIONS - 1`` decisions
    of its own, a stand-in taking the rest."""
    game, rng = ra.Game(players=2, seed=GAME["seed"]), random.Random(3)
    rows: list[dict[str, Any]] = []
    own = [0, 0]
    while not game.is_over():
        seat = game.to_move
        assert seat is not None
        action = rng.choice(game.legal_actions())
        stood = seat == walked and own[seat] >= MIN_OWN_DECISIONS - 1
        own[seat] += not stood
        rows.append({"n": len(rows), "seat": seat, "action": str(action), "stand_in": stood})
        game.apply(action)
    seats = [
        {"seat": i, "kind": "human", "name": n, "account_id": n, "forfeited": i == walked}
        for i, n in enumerate(("Ann", "Bob"))
    ]
    scores = [p.score for p in game.players]
    values = {**GAME, "casual": casual, "scores": scores, "winner": 1 - walked if walked is not None else 0}
    gid = await store.create_game(values, seats)
    async with store.engine.begin() as conn:
        now = datetime.now(UTC)
        await conn.execute(sa.insert(decisions), [{"game_id": gid, "created_at": now, **r} for r in rows])
        await conn.execute(sa.update(games).where(games.c.id == gid).values(num_decisions=len(rows)))
    return gid


def aborted_games(sqlite_url: str) -> dict[str, str]:
    """Games in the server's database: one Bob walked away from, one played out, one casual."""

    async def main() -> dict[str, str]:
        store = Store(sqlite_url)
        try:
            for name in ("Ann", "Bob"):
                await account(store, name)
            return {
                "walked": await _finished(store, walked=1),
                "played": await _finished(store, walked=None),
                "casual": await _finished(store, walked=1, casual=True),
            }
        finally:
            await store.close()

    with ThreadPoolExecutor(1) as pool:  # its own thread: a browser test's Playwright owns this one's loop
        return pool.submit(asyncio.run, main()).result()


def test_the_server_says_a_game_was_aborted_for_rating_and_by_whom(server: Server, sqlite_url: str) -> None:
    made = aborted_games(sqlite_url)
    note: dict[str, Any] = httpx.get(f"{server.url}/api/games/{made['walked']}/rating").json()
    assert note == {"rated": False, "why": "aborted", "walked": [1], "min_decisions": MIN_OWN_DECISIONS}
    played = httpx.get(f"{server.url}/api/games/{made['played']}/rating").json()
    assert played["rated"] and played["why"] == "rated" and played["walked"] == []
    casual = httpx.get(f"{server.url}/api/games/{made['casual']}/rating").json()
    assert casual["why"] == "casual" and casual["walked"] == []  # casual first: nothing to abort
    missing = httpx.get(f"{server.url}/api/games/nosuchgame/rating")
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"


def test_the_policy_names_the_seats_that_walked_away() -> None:
    from ra.web.rating_policy import SeatFacts, verdict

    ann = SeatFacts(human=True, account="ann", own=40)
    bob = SeatFacts(human=True, account="bob", forfeited=True, own=MIN_OWN_DECISIONS - 1)
    cy = SeatFacts(human=True, account="cy", own=0, stood=10)
    assert verdict(True, True, False, (ann, bob, cy), ("easy",)).walked == {1, 2}
    assert verdict(True, True, False, (ann, ann), ("easy",)).walked == frozenset()
