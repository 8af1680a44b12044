"""A forfeit and a stand-in are facts of the table (issue 39), on a real server with real clients:
the forfeited seat is last in the table's result, the lobby, the record and a re-imported replay,
and the stand-in's decisions are marked in the log and the record.  (Its own file: the browser
tests of ``test_game_clock.py`` keep Playwright's event loop running through their module.)"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import pytest

from ra.web.testing import Server
from tests.web.client import create, join
from tests.web.test_game_clock import GAME, seated


@pytest.mark.slow
def test_a_forfeited_seat_is_last_everywhere_and_the_stand_ins_decisions_are_marked(server: Server) -> None:
    """Issue 39: the forfeit is the table's fact, not the ratings' alone — the table's result, the
    lobby, the record and a re-imported replay all put the forfeited seat last; the decisions the
    stand-in took for it are marked in the log and the record, and none can be taken back."""

    async def main() -> None:
        ann, bo = await seated(server, game_seconds=GAME, on_timeout="forfeit")
        players = {0: ann, 1: bo}
        walker = (await ann.state_now())["view"]["to_move"]
        other = players[1 - walker]
        await other.until(
            lambda m: m["type"] == "state" and m["game"]["seats"][walker]["forfeited"], timeout=GAME + 10
        )
        end = None
        for _ in range(600):  # the other plays on against the forfeited seat's stand-in
            s = await other.state_now()
            if s["view"]["phase"] == "over":
                end = s
                break
            if s["legal"]:
                await other.play_random()
            await asyncio.sleep(0.05)
        assert end is not None, "the game did not finish"
        summary = end["game"]
        assert summary["winner"] == 1 - walker  # whatever the scores: a forfeited seat never wins
        marked = [e for e in other.events if e.get("stand_in")]
        assert marked and all(e["seat"] == walker for e in marked)
        assert all(e["msg"]["key"] == "log.stand_in" for e in marked)
        gid = summary["id"]
        listed = httpx.get(f"{server.url}/api/games/{gid}").json()
        assert listed["winner"] == 1 - walker and listed["seats"][walker]["forfeited"]
        record = httpx.get(f"{server.url}/api/games/{gid}/record").json()
        assert record["forfeited"] == [walker] and len(record["stand_ins"]) == len(marked)
        # Issue 52: the record's own result says it too (format version 2), and so does the log's
        # last line (the engine's game_over event told as the table's result).
        assert record["version"] == 2 and record["result"]["winner"] == 1 - walker
        assert record["result"]["ranks"][walker] == 2
        assert end["events"][-1]["kind"] == "game_over" and end["events"][-1]["seat"] == 1 - walker
        again = httpx.post(f"{server.url}/api/records", json=record)  # a replay of it says the same
        assert again.status_code == 200, again.text
        imported = again.json()["game"]
        assert imported["winner"] == 1 - walker and imported["seats"][walker]["forfeited"]
        replay = httpx.get(f"{server.url}/api/games/{imported['id']}/replay", params={"n": 999}).json()
        assert sum(1 for e in replay["events"] if e["stand_in"]) == len(marked)
        bad = dict(record, stand_ins=[10**6])  # a bad fact is refused, naming it
        refused = httpx.post(f"{server.url}/api/records", json=bad)
        assert refused.status_code == 422 and "stand_ins" in refused.json()["message"]
        for q in (ann, bo):
            await q.close()

    asyncio.run(main())


DEADLINE = 3
"""Seconds per decision at a table without a clock, for these tests (the site's is days)."""


@pytest.fixture
def deadline_server(server_factory: type[Server], sqlite_url: str, tmp_path: Path) -> Server:
    return server_factory(
        sqlite_url, tmp_path / "server.log", env={"RA_MOVE_DEADLINE": str(DEADLINE)}
    ).start()


@pytest.mark.slow
def test_at_a_table_without_a_clock_a_person_past_the_deadline_forfeits(deadline_server: Server) -> None:
    """Issue 40: a losing player cannot stall a game without a clock (a rated game would never
    end and never be rated): past the site's deadline per decision the seat forfeits, a bot plays
    it to the end, and the other person wins whatever the scores."""
    server = deadline_server

    async def main() -> None:
        ann, bo = await seated(server)  # no clock
        assert (await ann.state_now())["game"]["options"]["move_seconds"] is None
        walker = (await ann.state_now())["view"]["to_move"]
        other = {0: ann, 1: bo}[1 - walker]
        await other.until(
            lambda m: m["type"] == "state" and m["game"]["seats"][walker]["forfeited"], timeout=DEADLINE + 15
        )
        end = None
        for _ in range(600):
            s = await other.state_now()
            if s["view"]["phase"] == "over":
                end = s
                break
            if s["legal"]:
                await other.play_random()
            await asyncio.sleep(0.05)
        assert end is not None and end["game"]["winner"] == 1 - walker
        for q in (ann, bo):
            await q.close()

    asyncio.run(main())


@pytest.mark.slow
def test_a_table_everyone_left_ends_and_says_who_forfeited(deadline_server: Server) -> None:
    """Issue 40, finding 11: a table both players left no longer stays "running · 0 decisions"
    for good: with nobody's page open, each seat forfeits at its deadline and the game is played
    to its end; the lobby shows it finished with both seats forfeited."""
    made = create(deadline_server.url, [{"kind": "human"}, {"kind": "human"}])
    gid = made["game"]["id"]
    join(deadline_server.url, gid, "Bob")
    summary: dict[str, object] = {}
    deadline = time.monotonic() + 4 * DEADLINE + 40  # two deadlines and the sweeps that find them
    while time.monotonic() < deadline:
        summary = httpx.get(f"{deadline_server.url}/api/games/{gid}").json()
        if summary["status"] == "finished":
            break
        time.sleep(0.5)
    assert summary["status"] == "finished", summary
    seats = summary["seats"]
    assert isinstance(seats, list) and all(s["forfeited"] for s in seats)


@pytest.mark.slow
def test_at_a_second_time_table_the_first_timeout_is_stood_in_for_and_the_second_forfeits(
    server: Server,
) -> None:
    """Issue 40, "a second timeout forfeits at a table that says so": the first time a person runs
    out, the stand-in decides and they may come back; the second time, the seat forfeits."""

    async def main() -> None:
        ann, bo = await seated(server, move_seconds=5, on_timeout="second")
        assert (await ann.state_now())["game"]["options"]["on_timeout"] == "second"
        players = {0: ann, 1: bo}
        walker = (await ann.state_now())["view"]["to_move"]
        other, walking = players[1 - walker], players[walker]

        def seat(m: dict[str, object], key: str) -> bool:
            return m["type"] == "state" and bool(m["game"]["seats"][walker][key])  # type: ignore[index]

        first = await other.until(lambda m: seat(m, "away"), timeout=20)
        assert not first["game"]["seats"][walker]["forfeited"]  # the first time: a stand-in
        await walking.state_now()
        await walking.send({"type": "back"})
        await walking.until(lambda m: m["type"] == "state" and not m["game"]["seats"][walker]["away"])
        for _ in range(400):  # the game goes on until it is the walker's turn again, who walks away
            s = await other.state_now()
            if s["game"]["seats"][walker]["forfeited"]:
                break
            if s["legal"]:
                await other.play_random()
            await asyncio.sleep(0.05)
        final = await other.until(lambda m: seat(m, "forfeited"), timeout=30)
        assert final["game"]["seats"][walker]["forfeited"]
        for q in (ann, bo):
            await q.close()

    asyncio.run(main())
