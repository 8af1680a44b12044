"""An account's games as its pages need them (issue 40): each game of the profile with its
opponents (people by name, bots by level, free seats), whose turn it is, its epoch, decisions and
the account seat's away and forfeit marks; and what the server rates (GET /api/ratings), which
the leaderboard page says in words — against a real server on loopback."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

from ra.bots import LEVEL_RATINGS, LEVELS
from ra.web.rating_policy import MIN_OWN_DECISIONS, PROVISIONAL_GAMES, STAND_IN_DECISIONS
from ra.web.ratings import level_rating
from ra.web.testing import Server
from tests.web.client import Player, create, join
from tests.web.test_accounts import sign_up
from tests.web.test_server import play


def run(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """``asyncio.run`` in a thread of its own: a browser test's thread runs Playwright's loop."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, main()).result()


def summary(base: str, gid: str) -> dict[str, Any]:
    r = httpx.get(f"{base}/api/games/{gid}", timeout=10)
    assert r.status_code == 200, r.text
    return dict(r.json())


def until_turn_of(base: str, gid: str, seat: int, movers: dict[int, str], timeout: float = 60) -> None:
    """Play random actions for the seats in ``movers`` (seat -> token) until it is ``seat``'s turn."""

    async def main() -> None:
        players = {s: Player(base.replace("http", "ws"), gid, tok, seed=s) for s, tok in movers.items()}
        for p in players.values():
            await p.connect()
        async with asyncio.timeout(timeout):
            while True:
                for p in players.values():
                    await p.state_now() if p.state else await p.until(lambda m: m["type"] == "state")
                now = summary(base, gid)
                if now["status"] == "running" and now["to_move"] == seat:
                    break
                mover = players.get(now["to_move"])
                if mover is not None and mover.my_turn:
                    await mover.play_random()
                await asyncio.sleep(0.1)
        for p in players.values():
            await p.close()

    run(main)


def make_games(base: str) -> dict[str, Any]:
    """Ann's four games: her turn against an easy bot; Bob's turn (Bob and a medium bot); one
    waiting for a second person; one finished against a random bot. Ann signs up with them."""
    turn = create(base, [{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    until_turn_of(base, turn["game"]["id"], 0, {0: turn["token"]})
    three = create(base, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "medium"}])
    bob = join(base, three["game"]["id"], "Bob")
    until_turn_of(base, three["game"]["id"], 1, {0: three["token"]})
    waiting = create(base, [{"kind": "human"}, {"kind": "human"}])
    done = create(base, [{"kind": "human"}, {"kind": "bot", "level": "random"}])

    async def finish() -> None:
        ann = Player(base.replace("http", "ws"), done["game"]["id"], done["token"], seed=5)
        await ann.connect()
        await play([ann])
        await ann.close()

    run(finish)
    made: dict[str, Any] = {"turn": turn, "three": three, "bob": bob, "waiting": waiting, "done": done}
    keys = ("turn", "three", "waiting", "done")
    seats = [{"game": made[k]["game"]["id"], "token": made[k]["token"]} for k in keys]
    made["ann"] = sign_up(base, "Ann", seats)
    return made


def test_the_profile_lists_each_game_with_opponents_turn_and_state(server: Server) -> None:
    made = make_games(server.url)
    games = {g["id"]: g for g in httpx.get(f"{server.url}/api/players/Ann", timeout=10).json()["games"]}
    ids = {k: made[k]["game"]["id"] for k in ("turn", "three", "waiting", "done")}
    assert set(games) == set(ids.values())

    turn = games[ids["turn"]]
    assert turn["status"] == "running" and turn["seat"] == 0 and turn["to_move"] == 0
    assert turn["opponents"] == [{"seat": 1, "kind": "bot", "name": "Easy bot", "level": "easy"}]
    assert turn["epoch"] == 1 and turn["decisions"] == summary(server.url, ids["turn"])["decisions"]
    assert turn["away"] is False and turn["forfeited"] is False

    three = games[ids["three"]]
    assert three["to_move"] == 1 and three["players"] == 3
    assert three["opponents"] == [
        {"seat": 1, "kind": "human", "name": "Bob", "level": None},
        {"seat": 2, "kind": "bot", "name": "Medium bot", "level": "medium"},
    ]

    waiting = games[ids["waiting"]]
    assert waiting["status"] == "open" and waiting["to_move"] is None
    assert waiting["opponents"] == [{"seat": 1, "kind": "human", "name": None, "level": None}]

    done = games[ids["done"]]
    winner = summary(server.url, ids["done"])["winner"]
    assert done["status"] == "finished" and done["to_move"] is None and done["won"] is (winner == 0)
    assert done["epoch"] == 3 and done["scores"] is not None
    assert done["opponents"][0]["kind"] == "bot" and done["opponents"][0]["level"] == "random"
    # The export carries the same list.
    exported = made["ann"].get("/api/account/export").json()
    assert "games" in exported, exported  # a table still waiting has no record: the export still answers
    assert len(exported["records"]) == 3
    listed = {g["id"]: g["opponents"] for g in exported["games"]}
    assert listed == {i: g["opponents"] for i, g in games.items()}


def test_the_server_says_which_games_it_rates(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path
) -> None:
    srv = server_factory(sqlite_url, tmp_path / "s.log", env={"RA_MOVE_DEADLINE": "86400"}).start()
    rules = httpx.get(f"{srv.url}/api/ratings", timeout=10).json()
    assert rules == {
        "levels": [{"level": lv, "rating": level_rating(lv)} for lv in LEVELS],
        "stand_in_decisions": STAND_IN_DECISIONS,
        "min_own_decisions": MIN_OWN_DECISIONS,
        "provisional_games": PROVISIONAL_GAMES,
        "move_deadline": 86400.0,
    }
    assert {lv["level"] for lv in rules["levels"]} == set(LEVEL_RATINGS)
