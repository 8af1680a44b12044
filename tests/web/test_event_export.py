"""An event's crosstable and downloads (issue 55), against a real server on loopback: the
crosstable agrees with the standings and the games' own results; a finished event's CSV and
records (JSON lines) download, the same bytes each time; an unfinished event's are refused;
one address asking too often is told to wait; the create form's description is the server's
own validation."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from pathlib import Path

import httpx
import pytest

from ra.web.event_export import DOWNLOADS_PER_MINUTE, crosstable_cells, csv_cell
from ra.web.testing import Server
from tests.web.test_events import new_event, play_round, settled, sign_up


@pytest.fixture
def server(server_factory: type[Server], sqlite_url: str, tmp_path: Path) -> Server:
    """A server behind a trusted proxy: each client signs up from an address of its own, and a
    download's address is the one the test says."""
    proxied = ("--forwarded-allow-ips", "127.0.0.1")
    return server_factory(sqlite_url, tmp_path / "server.log", args=proxied).start()


def finished_event(server: Server) -> tuple[str, dict[str, httpx.Client]]:
    """A Swiss event of three at a table of three, one round."""
    ann = sign_up(server.url, "Ann")
    eid = new_event(ann, kind="swiss", table_size=3, rounds=1, rated=False)["event"]["id"]
    clients = {}
    for c in (ann, sign_up(server.url, "Bo"), sign_up(server.url, "Cy")):
        clients[c.post(f"/api/events/{eid}/join", json={}).json()["players"][-1]["account"]] = c
    event = ann.post(f"/api/events/{eid}/start").json()
    play_round(server, event, clients, 1)
    settled(server, eid, lambda e: e["status"] == "finished")
    return eid, clients


def guest(server: Server, addr: str) -> httpx.Client:
    return httpx.Client(base_url=server.url, timeout=10, headers={"X-Forwarded-For": addr})


def test_a_finished_events_crosstable_and_files_agree_with_its_games(server: Server) -> None:
    eid, _ = finished_event(server)
    event = httpx.get(f"{server.url}/api/events/{eid}").json()
    assert event["status"] == "finished"
    table = httpx.get(f"{server.url}/api/events/{eid}/crosstable").json()
    assert table["rounds"] == 1
    assert [(x["name"], x["points"]) for x in table["lines"]] == [
        (s["name"], s["points"]) for s in event["standings"]
    ]
    (game,) = event["tables"]
    scores = httpx.get(f"{server.url}/api/games/{game['game']}").json()["scores"]
    names = {p["account"]: p["name"] for p in event["players"]}
    seated = [names[p] for p in game["players"]]
    cells = {x["name"]: x["cells"][0] for x in table["lines"]}
    assert all(cells[n]["of"] == 3 and cells[n]["game"] == game["game"] for n in seated)
    assert sum(Fraction(cells[n]["points"]) for n in seated) == Fraction(3, 2)  # 1 + ½ + 0
    best = max(scores)
    if scores.count(best) == 1:  # the higher Ra score (R8) is first: place 1, 1 point
        first = cells[seated[scores.index(best)]]
        assert (first["place"], first["points"]) == ("1", "1")

    visitor = guest(server, "10.77.0.1")
    got = visitor.get(f"/api/events/{eid}/crosstable.csv")
    assert got.status_code == 200 and got.headers["content-type"].startswith("text/csv")
    assert "attachment" in got.headers["content-disposition"]
    rows = list(csv.reader(io.StringIO(got.text)))
    assert rows[0] == ["rank", "player", "points", "round 1"]
    assert [r[1] for r in rows[1:]] == [x["name"] for x in table["lines"]]
    assert [r[3] for r in rows[1:]] == [
        f"{c['place']}/3 ({c['points']})" for c in (cells[r[1]] for r in rows[1:])
    ]

    records = visitor.get(f"/api/events/{eid}/records.jsonl")
    assert records.status_code == 200
    (line,) = [json.loads(x) for x in records.text.splitlines()]
    assert line["game"] == game["game"] and line["players"] == seated
    assert line["record"] == httpx.get(f"{server.url}/api/games/{game['game']}/record").json()
    assert visitor.get(f"/api/events/{eid}/records.jsonl").content == records.content  # kept, not rebuilt


def test_downloads_wait_for_the_end_and_one_address_is_limited(server: Server) -> None:
    open_id = new_event(sign_up(server.url, "Dee"), name="Not yet")["event"]["id"]
    refused = httpx.get(f"{server.url}/api/events/{open_id}/records.jsonl")
    assert refused.status_code == 409 and refused.json()["error"] == "event_not_finished"
    assert httpx.get(f"{server.url}/api/events/nosuch/crosstable.csv").status_code == 404
    eid, _ = finished_event(server)
    greedy = guest(server, "10.88.0.1")
    answers = [
        greedy.get(f"/api/events/{eid}/crosstable.csv").status_code for _ in range(DOWNLOADS_PER_MINUTE + 1)
    ]
    assert answers == [200] * DOWNLOADS_PER_MINUTE + [429]
    assert greedy.get(f"/api/events/{eid}/records.jsonl").json()["error"] == "rate_limited"
    other = guest(server, "10.99.0.1")  # another address still may
    assert other.get(f"/api/events/{eid}/records.jsonl").status_code == 200


def test_the_create_form_is_described_by_the_servers_validation(server: Server) -> None:
    schema = httpx.get(f"{server.url}/api/events/form").json()
    fields = schema["properties"]
    assert set(fields["kind"]["enum"]) == {"swiss", "round-robin", "arena"}
    assert fields["minutes"]["type"] == "integer" and fields["bots"]["type"] == "boolean"  # the form's arena
    assert (fields["table_size"]["minimum"], fields["table_size"]["maximum"]) == (2, 5)
    ann = sign_up(server.url, "Ann")
    too_many = ann.post("/api/events", json={"name": "X", "rounds": fields["rounds"]["maximum"] + 1})
    assert too_many.status_code == 422 and too_many.json()["message"].startswith("rounds:")


def test_a_crosstable_cell_says_a_shared_place_a_bye_and_a_table_still_played() -> None:
    played = [
        {
            "round": 1,
            "table_no": 1,
            "players": ["a", "b", None],
            "game_id": "g1",
            "status": "finished",
            "scores": [20, 20, 5],
            "forfeits": [False, False, False],
        },
        {
            "round": 1,
            "table_no": 2,
            "players": ["c"],
            "game_id": None,
            "status": None,
            "scores": None,
            "forfeits": [False],
        },
        {
            "round": 2,
            "table_no": 1,
            "players": ["a", "c"],
            "game_id": "g2",
            "status": "running",
            "scores": None,
            "forfeits": [False, False],
        },
    ]
    cells = crosstable_cells(played)
    assert cells[(1, "a")] == {"place": "1.5", "of": 3, "points": "0.75", "table": 1, "game": "g1"}
    assert cells[(1, "b")]["place"] == "1.5"  # a tie shares the mean of its places; the bot has none
    assert cells[(1, "c")] == {"bye": True, "points": "1"}
    assert (2, "a") not in cells and (2, "c") not in cells  # not finished: no result yet


def test_a_name_is_never_a_spreadsheet_formula_in_the_csv() -> None:
    assert csv_cell("=HYPERLINK(1)") == "'=HYPERLINK(1)" and csv_cell("@SUM") == "'@SUM"
    assert csv_cell("Ann") == "Ann" and csv_cell("") == ""
