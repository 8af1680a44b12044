"""The site's analysis chart shows each player's chance *given who is playing* beside "with best
play from here" (issue 53, as ``ra analyze --strengths``): the strengths are the bots' levels and
the people's ratings (a guest or an account without a rated game: a new account's 25), and each
point says what moved it (a tile, a bid, the scoring).  A real server on loopback and its
database; the page's side is in tests/web/test_browser_webfix.py."""

from __future__ import annotations

import asyncio
import random
import re
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import httpx
import sqlalchemy as sa

import ra
from ra.analysis.chances import LEVEL_STRENGTH, PERSON_STRENGTH
from ra.analysis.game import given_curve, point_reasons
from ra.web.db import accounts, decisions, games
from ra.web.store import Store
from ra.web.testing import Server
from tests.web.test_analysis import wait_done
from tests.web.test_rating_store import GAME, account

RATED_MU = 31.5
"""Ann's rating (an account with rated games)."""


def played(seed: int = 4) -> ra.Game:
    """A whole three-player game, random moves (the deal of the stored game)."""
    game, rng = ra.Game(players=3, seed=GAME["seed"], hidden_scores=True), random.Random(seed)
    while not game.is_over():
        game.apply(rng.choice(game.legal_actions()))
    return game


def stored_game(sqlite_url: str) -> tuple[str, ra.Game]:
    """The game above in the server's database, finished: Ann (an account rated ``RATED_MU``), a
    ``hard`` bot and Cleo, a guest."""

    async def main() -> str:
        store = Store(sqlite_url)
        try:
            await account(store, "Ann", games=3)
            async with store.engine.begin() as conn:
                ann = sa.update(accounts).where(accounts.c.id == "Ann")
                await conn.execute(ann.values(rating_mu=RATED_MU))
            seats = [
                {"seat": 0, "kind": "human", "level": None, "name": "Ann", "account_id": "Ann"},
                {"seat": 1, "kind": "bot", "level": "hard", "name": "Hard bot", "account_id": None},
                {"seat": 2, "kind": "human", "level": None, "name": "Cleo", "account_id": None},
            ]
            values = {**GAME, "players": 3, "casual": True, "scores": [p.score for p in game.players]}
            gid = await store.create_game({**values, "winner": game.winner}, seats)
            rows = [
                {"game_id": gid, "n": n, "seat": seat, "action": str(a), "created_at": datetime.now(UTC)}
                for n, (seat, a) in enumerate(zip(movers, game.decisions, strict=True))
            ]
            async with store.engine.begin() as conn:
                await conn.execute(sa.insert(decisions), rows)
                await conn.execute(sa.update(games).where(games.c.id == gid).values(num_decisions=len(rows)))
            return gid
        finally:
            await store.close()

    game = played()
    probe, movers = ra.Game.from_setup(game.setup), []
    for a in game.decisions:
        movers.append(probe.to_move)
        probe.apply(a)
    with ThreadPoolExecutor(1) as pool:  # its own loop: a browser test's Playwright owns this thread's
        return pool.submit(asyncio.run, main()).result(), game


def given_lines(chart: str) -> list[dict[str, str]]:
    """The chart's dashed lines, their data attributes by name."""
    found = re.findall(r"<polyline class=\"given\"[^>]*>", chart)
    return [dict(re.findall(r'data-(\w+)="([^"]*)"', m)) for m in found]


def test_the_sites_chart_has_the_chances_given_who_is_playing_with_their_reasons(
    server: Server, sqlite_url: str
) -> None:
    gid, game = stored_game(sqlite_url)
    assert httpx.post(f"{server.url}/api/games/{gid}/analysis").status_code == 200
    done = wait_done(server.url, gid, timeout=120)
    lines = given_lines(done["chart"])
    assert [int(x["seat"]) for x in lines] == [0, 1, 2]
    # The bot's level and the person's rating, and 25 for the guest (docs/online.md says so).
    strengths = (RATED_MU, LEVEL_STRENGTH["hard"], PERSON_STRENGTH)
    curve = given_curve(game, strengths)
    for line in lines:
        seat = int(line["seat"])
        assert line["values"] == ",".join(f"{cs[seat]:.4f}" for _, cs in curve)
        assert line["reasons"].split(",") == point_reasons(game)
    assert set(point_reasons(game)) >= {"start", "scoring", "draw", "bid"}
    # Not what every-seat-alike strengths give: the chart reads who is playing.
    alike = given_curve(game, (25.0, 25.0, 25.0))
    assert lines[1]["values"] != ",".join(f"{cs[1]:.4f}" for _, cs in alike)
    assert "dashed: given who is playing" in done["chart"]
