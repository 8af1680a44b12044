"""Game clocks (issue 21): seconds per person for the whole game with an increment after each of
their decisions, charged and stored by the server; when a clock runs out the stand-in bot
decides (the seat marked away, taken back with at least a minute) or, at a forfeit table, the
player forfeits (a bot plays on, the seat cannot be taken back, it ranks last) — on a real
server with real clients."""

from __future__ import annotations

import asyncio
import time
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


@pytest.mark.slow
def test_each_decision_is_charged_with_the_increment_and_a_walk_away_is_played(server: Server) -> None:
    async def main() -> None:
        ann, bo = await seated(server, game_seconds=GAME, increment=INCREMENT)
        players = {0: ann, 1: bo}
        state = await ann.state_now()
        opts = state["game"]["options"]
        assert (opts["game_seconds"], opts["increment"], opts["on_timeout"]) == (GAME, INCREMENT, "stand_in")
        mover = state["view"]["to_move"]
        assert GAME - 1 <= state["clock_left"] <= GAME and clock_of(state, 1 - mover) == GAME
        # The mover thinks for 2 s, then moves: 10 - 2 + 2 = about 10 s left.
        await asyncio.sleep(2)
        p = players[mover]
        await p.state_now()
        await p.play_random()
        after = await p.until(lambda m: m["type"] == "state" and m["n"] == 1)
        assert GAME + INCREMENT - 3.5 <= clock_of(after, mover) <= GAME + INCREMENT - 1.5
        charged = clock_of(after, mover)
        # The stored clock survives: a new page (a reload) sees the same time.
        fresh = Player(server.ws, state["game"]["id"], p.token)
        await fresh.connect()
        again = await fresh.until(lambda m: m["type"] == "state" and m["view"] is not None)
        assert clock_of(again, mover) == pytest.approx(charged, abs=0.2)
        await fresh.close()
        # Whoever moves next walks away: when their whole clock is spent, the stand-in decides.
        walker = after["view"]["to_move"]
        other = players[1 - walker]
        t0 = time.monotonic()
        left = clock_of(after, walker)
        await other.until(
            lambda m: m["type"] == "state" and m["game"]["seats"][walker]["away"], timeout=left + 10
        )
        assert left - 1 <= time.monotonic() - t0 <= left + 6
        # Back: what the clock had (it ran out) plus the increment, never more (issue 40, finding 8).
        await players[walker].state_now()  # what came while away: read and passed over
        await players[walker].send({"type": "back"})
        back = await players[walker].until(
            lambda m: m["type"] == "state" and m["n"] >= 2 and not m["game"]["seats"][walker]["away"],
            timeout=10,
        )
        assert clock_of(back, walker) <= INCREMENT
        for q in (ann, bo):
            await q.close()

    asyncio.run(main())


@pytest.mark.slow
def test_at_a_forfeit_table_a_player_out_of_time_forfeits_for_good(server: Server) -> None:
    async def main() -> None:
        ann, bo = await seated(server, game_seconds=GAME, on_timeout="forfeit")
        players = {0: ann, 1: bo}
        state = await ann.state_now()
        walker = state["view"]["to_move"]
        other = players[1 - walker]
        gone = await other.until(
            lambda m: m["type"] == "state" and m["game"]["seats"][walker]["forfeited"], timeout=GAME + 10
        )
        assert gone["game"]["seats"][walker]["away"] is True
        me = players[walker]
        await me.send({"type": "back"})
        refused = await me.until(lambda m: m["type"] == "error", timeout=10)
        assert refused["code"] == "forfeited" and "bot plays it to the end" in refused["message"]
        # The game goes on: the bot plays the forfeited seat at the table's pace.
        s = await other.state_now()
        n = s["n"]
        for _ in range(6):
            s = await other.state_now()
            if s["legal"]:
                await other.play_random()
            await asyncio.sleep(0.5)
        assert (await other.state_now())["n"] > n + 1
        mine = await me.state_now()
        if mine["view"]["to_move"] == walker and mine["legal"]:
            await me.play_random()
            err = await me.until(lambda m: m["type"] == "error", timeout=10)
            assert err["code"] == "forfeited"
        for q in (ann, bo):
            await q.close()

    asyncio.run(main())


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
