"""Clocks and walk-aways (issue 21): a time per decision; when it runs out, the table's stand-in
bot decides for the seat, which is marked away until its person comes back — on a real server,
across a crash and restart with nobody's page open."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from ra.web.testing import Server
from tests.web.chromium import needs_chromium
from tests.web.client import Player, create, join

pytestmark = pytest.mark.slow  # each waits for clocks to run out

CLOCK = 5  # seconds a decision: the shortest clock a table may have


def clocked(base: str, **options: Any) -> tuple[str, dict[str, Any], dict[str, Any]]:
    made = create(
        base, [{"kind": "human"}, {"kind": "human"}], move_seconds=CLOCK, stand_in="random", **options
    )
    gid = made["game"]["id"]
    return gid, made, join(base, gid, "Bob")


def test_a_walk_away_is_played_by_the_stand_in_until_the_person_comes_back(server: Server) -> None:
    gid, made, bob = clocked(server.url)

    async def main() -> None:
        ann = Player(server.ws, gid, made["token"])
        bo = Player(server.ws, gid, bob["token"])
        for p in (ann, bo):
            await p.connect()
            await p.until(lambda m: m["type"] == "state" and m["view"] is not None)
        players = {0: ann, 1: bo}
        state = await ann.state_now()
        walker = state["view"]["to_move"]
        stays = players[1 - walker]
        assert 0 < state["clock_left"] <= CLOCK
        assert state["game"]["options"]["move_seconds"] == CLOCK
        # The walker does nothing: at the end of the clock the stand-in decides, the seat is away.
        t0 = time.monotonic()
        moved = await stays.until(lambda m: m["type"] == "state" and m["n"] == 1, timeout=CLOCK + 10)
        assert CLOCK - 1 <= time.monotonic() - t0 <= CLOCK + 6
        await stays.until(lambda m: m["type"] == "state" and m["game"]["seats"][walker]["away"], timeout=5)
        # From now on the walker's turns are decided at the table's pace, not after a whole clock.
        for _ in range(12):
            s = await stays.state_now()
            if s["view"]["phase"] == "over":
                break
            if s["view"]["to_move"] == walker:
                n = s["n"]
                t1 = time.monotonic()
                await stays.until(lambda m, n=n: m["type"] == "state" and m["n"] > n, timeout=CLOCK)
                assert time.monotonic() - t1 < CLOCK - 1
            elif s["legal"]:
                await stays.play_random()
                await stays.until(lambda m, n=s["n"]: m["type"] == "state" and m["n"] > n, timeout=10)
        # The person comes back: the seat is theirs again, with a whole clock for their turn.
        walked = players[walker]
        await walked.send({"type": "back"})
        back = await walked.until(
            lambda m: m["type"] == "state" and not m["game"]["seats"][walker]["away"], timeout=10
        )
        assert back["game"]["seats"][walker]["away"] is False
        assert moved["game"]["seats"][1 - walker]["away"] is False
        for p in (ann, bo):
            await p.close()

    asyncio.run(main())


def test_a_clock_runs_out_across_a_crash_with_nobody_watching(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path
) -> None:
    srv = server_factory(sqlite_url, tmp_path / "s.log").start()
    gid, _, _ = clocked(srv.url)
    assert httpx.get(f"{srv.url}/api/games/{gid}").json()["status"] == "running"
    srv.kill9()  # nobody's page is open, and the server is down when the clock runs out
    time.sleep(CLOCK + 1)
    srv.start()
    deadline = time.monotonic() + 30
    summary = httpx.get(f"{srv.url}/api/games/{gid}").json()
    while summary["decisions"] == 0 and time.monotonic() < deadline:
        time.sleep(0.2)
        summary = httpx.get(f"{srv.url}/api/games/{gid}").json()
    assert summary["decisions"] >= 1
    assert sum(s["away"] for s in summary["seats"]) == 1


def test_a_clock_is_checked(server: Server) -> None:
    for bad in (
        {"move_seconds": 2},
        {"move_seconds": 4 * 24 * 3600},
        {"move_seconds": 60, "stand_in": "god"},
    ):
        body = {"seats": [{"kind": "human"}, {"kind": "human"}], "name": "Ann", **bad}
        r = httpx.post(server.url + "/api/games", json=body)
        assert r.status_code == 422, bad
    plain = create(server.url, [{"kind": "human"}, {"kind": "bot", "level": "random"}])
    options = plain["game"]["options"]
    assert options["move_seconds"] is None and options["stand_in"] is None


@needs_chromium
def test_the_table_counts_down_marks_the_walk_away_and_takes_the_seat_back(
    browser: Any, live_server: str
) -> None:
    from tests.web.test_browser import LAPTOP, PHONE, new_page, no_js_errors, no_sideways_scroll, shot

    made = create(  # the bots at a slow pace: the game goes on while the test looks
        live_server, [{"kind": "human"}, {"kind": "bot", "level": "random"}], move_seconds=CLOCK, bot_delay=3
    )
    gid = made["game"]["id"]
    ann = new_page(browser, LAPTOP)
    ann.goto(f"{live_server}/g/{gid}?seat=0&token={made['token']}")
    ann.wait_for_selector("#clock:has-text('your time')")
    ann.wait_for_selector("#away-box:not([hidden])", timeout=(CLOCK + 10) * 1000)
    assert ann.locator(".player", has_text="away").count() >= 1 or "away" in ann.inner_text("#players")
    shot(ann, "clock-away-en-laptop")
    ann.click("#back-btn")
    ann.wait_for_selector("#away-box", state="hidden")
    no_js_errors(ann)
    ann.context.close()
    # The lobby names a table's clock.
    create(live_server, [{"kind": "human"}, {"kind": "human"}], name="Cy", move_seconds=86400)
    ru = new_page(browser, PHONE, "ru-RU")
    ru.goto(live_server + "/")
    ru.wait_for_selector("#list-open :text('1 день на ход')")
    ru.select_option("#clock", "3600")
    shot(ru, "clock-lobby-ru-phone")
    no_sideways_scroll(ru)
    no_js_errors(ru)
    ru.context.close()
