"""Clocks and walk-aways (issue 21) on a real server: across a crash and restart with nobody's page
open, the options the lobby checks, and the table's countdown in a browser.  The rules (the stand-in
decides when the clock runs out, the seat is away until its person comes back) are tested
in-process on a fake clock (``test_master_clock.py``)."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from ra.web import db
from ra.web.testing import Server
from tests.web.chromium import needs_chromium
from tests.web.client import create, join

pytestmark = pytest.mark.slow  # each waits for clocks to run out

CLOCK = 5  # seconds a decision: the shortest clock a table may have


def clocked(base: str, **options: Any) -> tuple[str, dict[str, Any], dict[str, Any]]:
    made = create(
        base, [{"kind": "human"}, {"kind": "human"}], move_seconds=CLOCK, stand_in="random", **options
    )
    gid = made["game"]["id"]
    return gid, made, join(base, gid, "Bob")


def test_a_clock_runs_out_across_a_crash_with_nobody_watching(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path
) -> None:
    srv = server_factory(sqlite_url, tmp_path / "s.log").start()
    gid, _, _ = clocked(srv.url)
    assert httpx.get(f"{srv.url}/api/games/{gid}").json()["status"] == "running"
    srv.kill9()  # nobody's page is open, and the server is down when the clock runs out:
    engine = sa.create_engine(sqlite_url)  # the decision fell due a clock and a second ago (no wait)
    with engine.begin() as conn:
        due = datetime.now(UTC) - timedelta(seconds=CLOCK + 1)
        conn.execute(sa.update(db.games).where(db.games.c.id == gid).values(updated_at=due))
    engine.dispose()
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
