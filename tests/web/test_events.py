"""Events on the site (issue 55), against a real server on loopback: signed-in accounts create,
join and withdraw; guests watch only; the organiser starts, cancels and removes; the limits
(ra.web.events) hold; starting forms the first round's tables from ra.tournament's pairing."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import httpx
import pytest

from ra.tournament import Entrant, FinishedTable, Seat, Settings, standings
from ra.web.events import MAX_LIVE_EVENTS
from ra.web.testing import Server
from tests.web.client import Player
from tests.web.test_accounts import PASSWORD
from tests.web.test_server import play


@pytest.fixture
def server(server_factory: type[Server], sqlite_url: str, tmp_path: Path) -> Server:
    """A server behind a trusted proxy on loopback: each scripted player signs up from an
    address of their own (one address, or its /24, may sign up only a few accounts a minute)."""
    proxied = ("--forwarded-allow-ips", "127.0.0.1")
    return server_factory(sqlite_url, tmp_path / "server.log", args=proxied).start()


def sign_up(base: str, name: str) -> httpx.Client:
    """A client signed up as ``name`` from its own address, with its CSRF token."""
    n = sum(name.encode()) % 250 + 1
    client = httpx.Client(base_url=base, timeout=10, headers={"X-Forwarded-For": f"10.{n}.0.7"})
    r = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 200, r.text
    client.headers["X-CSRF-Token"] = r.json()["csrf"]
    return client


def new_event(client: httpx.Client, **fields: Any) -> dict[str, Any]:
    r = client.post("/api/events", json={"name": "Nile Cup", **fields})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def test_a_swiss_event_is_created_joined_and_started_with_every_player_seated_once(server: Server) -> None:
    ann = sign_up(server.url, "Ann")
    made = new_event(ann, kind="swiss", table_size=3, rounds=2)
    event = made["event"]
    assert made["invite"] is None and event["status"] == "open" and event["table_size"] == 3
    eid = event["id"]
    people = [ann] + [sign_up(server.url, f"Pl{i}") for i in range(5)]
    for c in people:
        assert c.post(f"/api/events/{eid}/join", json={}).status_code == 200
    guest = httpx.get(f"{server.url}/api/events/{eid}").json()  # guests watch
    assert len(guest["players"]) == 6 and len(guest["standings"]) == 6
    assert people[1].post(f"/api/events/{eid}/start").json()["error"] == "not_organiser"
    started = ann.post(f"/api/events/{eid}/start")
    assert started.status_code == 200, started.text
    view = started.json()
    assert view["status"] == "running"
    tables = [t for t in view["tables"] if t["round"] == 1]
    assert [len(t["players"]) for t in tables] == [3, 3]  # R2.1 table of 3, two tables
    seated = sorted(p for t in tables for p in t["players"])
    assert seated == sorted(p["account"] for p in view["players"])
    again = ann.post(f"/api/events/{eid}/start")
    assert again.status_code == 409 and again.json()["error"] == "event_started"
    assert len(ann.get(f"/api/events/{eid}").json()["tables"]) == 2  # the round is formed once


def test_guests_watch_only_and_bad_settings_are_named(server: Server) -> None:
    r = httpx.post(f"{server.url}/api/events", json={"name": "Guest Cup"})
    assert r.status_code in (401, 403)
    ann = sign_up(server.url, "Ann")
    eid = new_event(ann)["event"]["id"]
    assert httpx.post(f"{server.url}/api/events/{eid}/join", json={}).status_code in (401, 403)
    bad = ann.post("/api/events", json={"name": "X", "table_size": 6})
    assert bad.status_code == 422 and "table_size" in bad.text
    assert ann.post("/api/events", json={"name": "X", "kind": "knockout"}).status_code == 422
    assert ann.get("/api/events/nosuch").status_code == 404
    assert ann.post("/api/events", json={"name": "   "}).json()["error"] == "bad_request"


def test_an_account_runs_at_most_the_limit_of_events_at_once(server: Server) -> None:
    ann = sign_up(server.url, "Ann")
    ids = [new_event(ann, name=f"Cup {i}")["event"]["id"] for i in range(MAX_LIVE_EVENTS)]
    over = ann.post("/api/events", json={"name": "One too many"})
    assert over.status_code == 429 and over.json()["error"] == "event_limit"
    assert ann.post(f"/api/events/{ids[0]}/cancel").json()["status"] == "cancelled"
    assert new_event(ann, name="Room again")["event"]["status"] == "open"
    listed = [e["id"] for e in httpx.get(f"{server.url}/api/events").json()["events"]]
    assert ids[0] not in listed and ids[1] in listed


def test_an_event_by_invitation_takes_only_the_link_and_the_organiser_removes_for_good(
    server: Server,
) -> None:
    ann, bo = sign_up(server.url, "Ann"), sign_up(server.url, "Bo")
    made = new_event(ann, invitation=True)
    eid, invite = made["event"]["id"], made["invite"]
    assert made["event"]["by_invitation"] and isinstance(invite, str)
    assert eid not in [e["id"] for e in httpx.get(f"{server.url}/api/events").json()["events"]]
    assert bo.post(f"/api/events/{eid}/join", json={}).json()["error"] == "invitation"
    assert bo.post(f"/api/events/{eid}/join", json={"invite": "forged"}).json()["error"] == "invitation"
    view = bo.post(f"/api/events/{eid}/join", json={"invite": invite}).json()
    (bo_id,) = [p["account"] for p in view["players"] if p["name"] == "Bo"]
    assert bo.post(f"/api/events/{eid}/withdraw").json()["players"][0]["withdrawn"]
    assert not bo.post(f"/api/events/{eid}/join", json={"invite": invite}).json()["players"][0]["withdrawn"]
    assert bo.post(f"/api/events/{eid}/players/{bo_id}/remove").json()["error"] == "not_organiser"
    removed = ann.post(f"/api/events/{eid}/players/{bo_id}/remove").json()
    assert removed["players"][0]["removed"]
    assert bo.post(f"/api/events/{eid}/join", json={"invite": invite}).json()["error"] == "removed"
    assert ann.post(f"/api/events/{eid}/start").json()["error"] == "too_few"


def play_round(
    server: Server, event: dict[str, Any], clients: dict[str, httpx.Client], round_no: int
) -> None:
    """Every table of ``round_no`` played to its end: each player opens their seat with "Play on
    this device" and plays random legal actions (R9)."""

    async def table(gid: str, players: list[str]) -> None:
        seated = []
        for seat, account in enumerate(players):
            r = clients[account].post(f"/api/account/seats/{gid}/{seat}/here")
            assert r.status_code == 200, r.text
            p = Player(server.ws, gid, r.json()["token"], seed=seat)
            await p.connect()
            seated.append(p)
        await play(seated)
        for p in seated:
            await p.close()

    async def every_table() -> None:
        tables = [t for t in event["tables"] if t["round"] == round_no]
        await asyncio.gather(*(table(t["game"], t["players"]) for t in tables))

    asyncio.run(every_table())


def settled(server: Server, eid: str, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The event once ``done`` holds: the last game's end forms the next round just after it."""
    for _ in range(100):
        event: dict[str, Any] = httpx.get(f"{server.url}/api/events/{eid}").json()
        if done(event):
            return event
        time.sleep(0.1)
    return event


def games_made(round_no: int) -> Callable[[dict[str, Any]], bool]:
    """Whether round ``round_no`` is formed and each of its tables (not a bye) has its game."""

    def made(event: dict[str, Any]) -> bool:
        tables = [t for t in event["tables"] if t["round"] == round_no]
        return bool(tables) and all(t["game"] for t in tables if len(t["players"]) > 1)

    return made


def expected_standings(server: Server, event: dict[str, Any]) -> list[tuple[str, str]]:
    """The standings ra.tournament derives from the games' own results, read from the lobby."""
    done = []
    for t in event["tables"]:
        game = httpx.get(f"{server.url}/api/games/{t['game']}").json()
        assert game["status"] == "finished"
        seats = tuple(Seat(p, s) for p, s in zip(t["players"], game["scores"], strict=True))
        done.append(FinishedTable(t["round"], seats))
    lines = standings(
        [Entrant(p["account"]) for p in event["players"]], done, Settings(table_size=3, rounds=2)
    )
    return [(line.player, str(line.points)) for line in lines]


def test_a_swiss_event_of_six_at_tables_of_three_is_played_to_the_end_with_right_standings(
    server: Server,
) -> None:
    ann = sign_up(server.url, "Ann")
    eid = new_event(ann, kind="swiss", table_size=3, rounds=2, rated=False)["event"]["id"]
    people = [ann] + [sign_up(server.url, f"Pl{i}") for i in range(5)]
    clients = {}
    for c in people:
        view = c.post(f"/api/events/{eid}/join", json={}).json()
        clients[view["players"][-1]["account"]] = c
    event = ann.post(f"/api/events/{eid}/start").json()
    play_round(server, event, clients, 1)
    event = settled(server, eid, lambda e: sum(bool(t["game"]) for t in e["tables"]) == 4)
    second = [t for t in event["tables"] if t["round"] == 2]
    assert len(second) == 2 and all(t["game"] for t in second) and event["status"] == "running"
    first = [set(t["players"]) for t in event["tables"] if t["round"] == 1]
    assert all(len(set(t["players"]) & f) < 3 for t in second for f in first)  # not the same table again
    play_round(server, event, clients, 2)
    event = settled(server, eid, lambda e: e["status"] != "running")
    assert event["status"] == "finished" and len(event["tables"]) == 4
    assert [(s["player"], s["points"]) for s in event["standings"]] == expected_standings(server, event)
    assert sum(Fraction(s["points"]) for s in event["standings"]) == 4 * Fraction(3, 2)  # 1 + ½ + 0 a table


def test_a_round_robin_of_three_at_tables_of_two_plays_its_schedule_and_fixes_its_players(
    server: Server,
) -> None:
    ann = sign_up(server.url, "Ann")
    eid = new_event(ann, kind="round-robin", table_size=2, rated=False)["event"]["id"]
    people = [ann, sign_up(server.url, "Bo"), sign_up(server.url, "Cy")]
    clients = {}
    for c in people:
        clients[c.post(f"/api/events/{eid}/join", json={}).json()["players"][-1]["account"]] = c
    event = ann.post(f"/api/events/{eid}/start").json()
    late = sign_up(server.url, "Di").post(f"/api/events/{eid}/join", json={})
    assert late.status_code == 409 and late.json()["error"] == "round_robin_running"
    assert people[1].post(f"/api/events/{eid}/withdraw").json()["error"] == "round_robin_running"
    met: set[frozenset[str]] = set()
    for round_no in (1, 2, 3):  # the circle method: 3 rounds for 3 players, one bye each (R2.1)
        event = settled(server, eid, games_made(round_no))
        pairs = [t for t in event["tables"] if t["round"] == round_no and len(t["players"]) == 2]
        assert len(pairs) == 1
        met.add(frozenset(pairs[0]["players"]))
        play_round(server, {"tables": pairs}, clients, round_no)
    event = settled(server, eid, lambda e: e["status"] != "running")
    assert event["status"] == "finished" and len(met) == 3  # everyone met everyone once
    byes = [t["players"][0] for t in event["tables"] if len(t["players"]) == 1]
    assert sorted(byes) == sorted(clients)
