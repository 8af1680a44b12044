"""Game clocks (issue 21): seconds per person for the whole game with an increment after each of
their decisions, charged and stored by the server; when a clock runs out the stand-in bot
decides (the seat marked away, taken back with at least a minute) or, at a forfeit table, the
player forfeits (a bot plays on, the seat cannot be taken back, it ranks last) — here what needs a
real server: the lobby's checks, two servers on PostgreSQL, the browser; the rules themselves are
tested in-process on a fake clock (``test_master_clock.py``)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from ra.record_format import ranks
from ra.web.testing import Server
from tests.web.chromium import needs_chromium
from tests.web.client import Player, create, join

GAME = 10  # seconds a person has for the whole game: the shortest game clock
INCREMENT = 2


async def seated(server: Server, **options: Any) -> tuple[Player, Player]:
    made = create(server.url, [{"kind": "human"}, {"kind": "human"}], stand_in="random", **options)
    gid = made["game"]["id"]
    bob = join(server.url, gid, "Bob")
    ann, bo = Player(server.ws, gid, made["token"]), Player(server.ws, gid, bob["token"])
    for p in (ann, bo):
        await p.connect()
        await p.until(lambda m: m["type"] == "state" and m["view"] is not None)
    return ann, bo


def clock_of(state: dict[str, Any], seat: int) -> float:
    return float(state["game"]["seats"][seat]["clock"])


def test_a_game_clock_is_checked(server: Server) -> None:
    two = [{"kind": "human"}, {"kind": "human"}]
    for bad in (
        {"game_seconds": 5},
        {"game_seconds": 4 * 3600},
        {"game_seconds": 60, "increment": 61},
        {"game_seconds": 60, "move_seconds": 60},
        {"game_seconds": 60, "on_timeout": "explode"},
    ):
        r = httpx.post(server.url + "/api/games", json={"seats": two, "name": "Ann", **bad}, timeout=10)
        assert r.status_code == 422, bad
    plain = create(server.url, [{"kind": "human"}, {"kind": "bot", "level": "random"}])["game"]
    assert plain["options"]["game_seconds"] is None and plain["options"]["on_timeout"] is None
    assert all(s["clock"] is None for s in plain["seats"])


def test_a_forfeited_seat_ranks_last_whatever_its_score() -> None:
    assert ranks([10, 20, 30], winner=2) == [3, 2, 1]
    assert ranks([10, 20, 30], winner=2, forfeited=[2]) == [2, 1, 3]
    assert ranks([10, 20, 20], winner=1, forfeited=[0]) == [3, 1, 2]
    assert ranks([10, 20, 20, 5], winner=1) == [3, 1, 2, 4]


@pytest.mark.slow  # PostgreSQL and two server processes
def test_two_servers_see_the_same_clock_and_a_timeout_on_either(
    server_factory: type[Server], pg_url: str, tmp_path: Path
) -> None:
    a = server_factory(pg_url, tmp_path / "a.log").start()
    b = server_factory(pg_url, tmp_path / "b.log").start()
    made = create(
        a.url,
        [{"kind": "human"}, {"kind": "human"}],
        stand_in="random",
        game_seconds=GAME,
        increment=INCREMENT,
    )
    gid = made["game"]["id"]
    bob = join(b.url, gid, "Bob")

    async def main() -> None:
        ann, bo = Player(a.ws, gid, made["token"]), Player(b.ws, gid, bob["token"])  # one on each
        for p in (ann, bo):
            await p.connect()
            await p.until(lambda m: m["type"] == "state" and m["view"] is not None)
        state = await ann.state_now()
        mover = state["view"]["to_move"]
        players = {0: ann, 1: bo}
        await asyncio.sleep(2)
        await players[mover].state_now()
        await players[mover].play_random()
        # The other server shows the mover's clock as charged (about 10 - 2 + 2), not the whole game's.
        seen = await players[1 - mover].until(
            lambda m: m["type"] == "state" and m["n"] == 1 and clock_of(m, mover) < GAME + INCREMENT - 1.2,
            timeout=10,
        )
        assert clock_of(seen, mover) >= GAME + INCREMENT - 3.5
        # The next mover walks away: whichever server claims the timeout, the stand-in decides.
        walker = seen["view"]["to_move"]
        away = await players[1 - walker].until(
            lambda m: m["type"] == "state" and m["game"]["seats"][walker]["away"], timeout=GAME + 10
        )
        assert away["n"] >= 2
        summary = httpx.get(f"{a.url}/api/games/{gid}", timeout=10).json()
        assert summary["decisions"] >= 2 and summary["seats"][walker]["away"] is True
        for q in (ann, bo):
            await q.close()

    asyncio.run(main())


@pytest.mark.slow
@needs_chromium
def test_the_table_shows_every_persons_time_and_the_lobby_the_game_clock(
    browser: Any, live_server: str
) -> None:
    from tests.web.test_browser import PHONE, new_page, no_js_errors, no_sideways_scroll, shot

    made = create(
        live_server,
        [{"kind": "human"}, {"kind": "human"}],
        game_seconds=300,
        increment=3,
        on_timeout="forfeit",
    )
    gid = made["game"]["id"]
    bob = join(live_server, gid, "Bob")
    ru = new_page(browser, PHONE, "ru-RU")
    ru.goto(f"{live_server}/g/{gid}?seat=1&token={bob['token']}")
    ru.wait_for_selector("#clock:has-text('Осталось времени')")
    text = ru.inner_text("#clock")
    assert "Ann\u00a05:00" in text or "Ann\u00a04:5" in text, text
    no_sideways_scroll(ru)
    shot(ru, "game-clock-ru-phone")
    ru.goto(live_server + "/")
    ru.wait_for_selector(".game-list :text('5 мин + 3 с (с поражением)')")
    no_js_errors(ru)
    ru.context.close()
