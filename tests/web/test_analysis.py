"""Analysis at the table: a finished game's "Analyse" asks the server once, which judges every
decision in its bot workers and stores the result with the game (a real server on loopback)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

import ra
from ra.web.testing import Server
from tests.web import client

GOLDEN = Path(__file__).parents[1] / "golden"


def imported(base: str, name: str = "3p-greedy.json") -> str:
    record = json.loads((GOLDEN / name).read_text())["record"]
    r = httpx.post(base + "/api/records", json=record)
    assert r.status_code == 200, r.text
    return str(r.json()["game"]["id"])


def wait_done(base: str, game_id: str, lang: str = "en", timeout: float = 60.0) -> dict[str, Any]:
    """Poll the analysis until it is done; the progress only grows on the way."""
    seen = -1
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        reply: dict[str, Any] = httpx.get(
            f"{base}/api/games/{game_id}/analysis", params={"lang": lang}
        ).json()
        assert reply["status"] in ("running", "done"), reply
        assert reply["done"] >= seen
        seen = reply["done"]
        if reply["status"] == "done":
            return reply
        time.sleep(0.2)
    raise AssertionError(f"the analysis of {game_id} did not finish in {timeout} s")


def test_a_finished_game_is_analysed_once_and_stored_with_it(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path
) -> None:
    server = server_factory(sqlite_url, tmp_path / "a.log").start()
    base = server.url
    gid = imported(base)
    game = ra.Game.from_record(json.loads((GOLDEN / "3p-greedy.json").read_text())["record"])
    assert httpx.get(f"{base}/api/games/{gid}/analysis").json()["status"] == "none"
    started = httpx.post(f"{base}/api/games/{gid}/analysis").json()
    assert started["status"] in ("running", "done") and started["budget"] == "200 iterations"
    again = httpx.post(f"{base}/api/games/{gid}/analysis").json()  # asking twice starts nothing new
    assert again["status"] in ("running", "done")
    done = wait_done(base, gid)
    assert done["total"] == game.num_decisions
    chart = done["chart"]
    assert chart.startswith("<svg") and chart.count('class="player"') == 3
    names = [p["name"] for p in done["players"]]
    assert names == list(game.names)
    for p in done["players"]:
        assert p["judged"] > 0 and 0.0 <= p["accuracy"] <= 1.0
        losses = [m["loss"] for m in p["mistakes"]]
        assert losses == sorted(losses, reverse=True) and len(losses) <= 3
        for m in p["mistakes"]:
            assert (
                m["label"] in ("inaccuracy", "mistake", "blunder") and m["why"]["key"] == "analysis.mistake"
            )
    # The chart speaks the asked language.
    ru = httpx.get(f"{base}/api/games/{gid}/analysis", params={"lang": "ru"}).json()
    assert ">решение<" in ru["chart"] and ">decision<" in done["chart"]
    # Stored with the game: a restarted server has it at once, identical.
    server.stop()
    server = server_factory(sqlite_url, tmp_path / "b.log").start()
    after = httpx.get(f"{server.url}/api/games/{gid}/analysis").json()
    assert after == done


def test_only_finished_games_are_analysed(server: Server) -> None:
    base = server.url
    made = client.create(base, [{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    gid = made["game"]["id"]
    for method in ("GET", "POST"):
        r = httpx.request(method, f"{base}/api/games/{gid}/analysis")
        assert r.status_code == 409 and r.json()["error"] == "not_finished", r.text
        r = httpx.request(method, f"{base}/api/games/nosuchgame/analysis")
        assert r.status_code == 404, r.text


@pytest.mark.slow  # a browser
def test_the_replay_analyses_the_game_and_its_chart_moves_the_replay(browser: Any, live_server: str) -> None:
    from tests.web.test_browser import (
        LAPTOP,
        PHONE,
        SHOTS,
        new_page,
        no_js_errors,
        no_sideways_scroll,
        shot,
        wait_js,
    )

    gid = imported(live_server)
    for size, viewport, lang in (("1366", LAPTOP, "en"), ("390", PHONE, "ru")):
        page = new_page(browser, viewport)
        page.goto(f"{live_server}/replay/{gid}?lang={lang}")
        page.wait_for_selector("#analysis-card")
        if size == "1366":
            page.locator("#analyse-btn").click()
            page.wait_for_selector("#analysis-card progress, #analysis-card svg.win-chart")
        # The second viewer gets the stored analysis without asking.
        page.wait_for_selector("#analysis-card svg.win-chart", timeout=60_000)
        assert page.locator(".accuracy-row").count() == 3
        costly = page.locator("#analysis-card circle.costly")
        assert costly.count() > 0
        # A circle no other covers (costly decisions close together overlap; a click takes the top one).
        alone = page.evaluate(
            """() => { const cs = [...document.querySelectorAll('#analysis-card circle.costly')];
              const at = (c) => [c.cx.baseVal.value, c.cy.baseVal.value];
              const far = (c) => cs.every((d) => d === c
                || Math.hypot(at(d)[0] - at(c)[0], at(d)[1] - at(c)[1]) > 16);
              return cs.findIndex(far); }"""
        )
        assert alone >= 0
        n = int(costly.nth(alone).get_attribute("data-decision") or "-1")
        costly.nth(alone).click()
        # The position once that decision is made: "Decision n + 1 of …", the number its tip gives.
        wait_js(page, f"window.__replay.n === {n + 1} && !window.__replay.busy")
        # A click elsewhere on the chart goes to the nearest decision (the middle: half the game).
        plot = page.locator("#analysis-card svg.win-chart rect").first
        box = plot.bounding_box()
        assert box is not None
        plot.click(position={"x": box["width"] / 2, "y": box["height"] / 2})
        wait_js(page, "Math.abs(window.__replay.n - window.__replay.total / 2) <= 1 && !window.__replay.busy")
        # A mistake in the list jumps there too.
        item = page.locator(".mistake-jump").first
        m = int(item.get_attribute("data-n") or "-1")
        item.click()
        wait_js(page, f"window.__replay.n === {m}")
        page.locator("#analysis-card").scroll_into_view_if_needed()
        no_sideways_scroll(page)
        shot(page, f"replay-analysis-{size}-{lang}")
        page.locator("#analysis-card").screenshot(path=str(SHOTS / f"replay-analysis-card-{size}-{lang}.png"))
        no_js_errors(page)
        page.context.close()
