"""A forfeit and a stand-in are facts of the table (issue 39), on a real server with real clients:
the forfeited seat is last in the table's result, the lobby, the record and a re-imported replay,
and the stand-in's decisions are marked in the log and the record.  (Its own file: the browser
tests of ``test_game_clock.py`` keep Playwright's event loop running through their module.)  The
rules of forfeits — the site's deadline, a second time-out, an abandoned table — are tested
in-process on a fake clock (``test_master_clock.py``)."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from ra.web.testing import Server
from tests.web.test_game_clock import seated

CLOCK = 5
"""Seconds a decision (the shortest clock a table may have): the walker forfeits after them."""


@pytest.mark.slow
def test_a_forfeited_seat_is_last_everywhere_and_the_stand_ins_decisions_are_marked(server: Server) -> None:
    """Issue 39: the forfeit is the table's fact, not the ratings' alone — the table's result, the
    lobby, the record and a re-imported replay all put the forfeited seat last; the decisions the
    stand-in took for it are marked in the log and the record, and none can be taken back."""

    async def main() -> None:
        ann, bo = await seated(server, move_seconds=CLOCK, on_timeout="forfeit")
        players = {0: ann, 1: bo}
        walker = (await ann.state_now())["view"]["to_move"]
        other = players[1 - walker]
        await other.until(
            lambda m: m["type"] == "state" and m["game"]["seats"][walker]["forfeited"], timeout=CLOCK + 10
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
