"""The game server on loopback with real HTTP and WebSocket clients (issue: play Ra online, part 1)."""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

import ra
from ra.web.assets import build_id
from ra.web.protocol import seat_payload
from ra.web.testing import Server
from tests.web.client import Player, create, join, next_frame, over

Pred = Callable[[dict[str, Any]], bool]


async def play(
    players: list[Player], stop: Pred | None = None, timeout: float = 120, think: float = 0.0
) -> None:
    """Every seat plays random legal actions until the game ends (or ``stop`` holds for a state),
    each after ``think`` seconds, as a person would (the servers' work then goes at a person's pace)."""
    done = asyncio.Event()

    async def run(p: Player) -> None:
        acted = -1
        if p.state is not None and p.state["view"] is not None and over(p.state):
            done.set()
            return
        if p.state is not None and p.my_turn:
            acted = p.state["n"]
            await asyncio.sleep(think)
            await p.play_random()
        while not done.is_set():
            try:
                m = await p.recv(timeout=0.5)
            except TimeoutError:
                continue
            if m["type"] == "error" and m["code"] == "rate_limited":
                await asyncio.sleep(0.3)
                acted = -1
                m = await p.state_now()
            if m["type"] != "state" or m["view"] is None:
                continue
            if over(m) or (stop is not None and stop(m)):
                done.set()
                return
            if m["legal"] and m["n"] != acted:
                acted = m["n"]
                await asyncio.sleep(think)
                await p.play_random()
        if stop is None and not (p.state is not None and p.state["view"] is not None and over(p.state)):
            await p.until(over, timeout=30)  # another page saw the end first: this one's comes too

    async with asyncio.timeout(timeout):
        await asyncio.gather(*(run(p) for p in players))


def replayed(record: dict[str, Any]) -> ra.Game:
    return ra.Game.from_record(record)


def assert_logs_match(game: ra.Game, p: Player, seat: int | None, edition: str = "original") -> None:
    expected = seat_payload(game, seat, edition)["events"]
    assert [e["msg"] for e in p.events] == [e["msg"] for e in expected]


async def connect(*players: Player) -> None:
    for p in players:
        await p.connect()
        await p.until(lambda m: m["type"] == "state")


# --- the lobby ---------------------------------------------------------------------


def test_health_and_pages(server: Server) -> None:
    assert httpx.get(server.url + "/health").json() == {"ok": True}
    gid = create(server.url, [{"kind": "human"}, {"kind": "human"}])["game"]["id"]
    for path in ("/", "/rules", f"/g/{gid}", f"/replay/{gid}"):
        r = httpx.get(server.url + path)
        assert r.status_code == 200 and "<html" in r.text.lower(), path
    for path in ("/g/abc", "/replay/abc"):  # no such game: the 404 page (issue 54)
        r = httpx.get(server.url + path)
        assert r.status_code == 404 and "<html" in r.text.lower(), path


def test_a_running_server_tells_what_it_is_doing(server: Server) -> None:
    """kill -USR1 / -USR2 (ra.web.stacks): every thread's stack and every task's chain of awaits
    go to the log, and the server goes on answering."""
    said = server.stacks()
    assert "Current thread" in said or "Thread 0x" in said  # faulthandler's threads
    assert re.search(r"\d+ asyncio tasks:", said)
    assert "events.py" in said and "in sweeping" in said  # a background job, down to its await
    assert httpx.get(server.url + "/health").status_code == 200


def test_lobby_create_join_leave_and_errors(server: Server) -> None:
    base = server.url
    made = create(
        base, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "human"}]
    )
    gid = made["game"]["id"]
    assert made["game"]["status"] == "open" and made["seat"] == 0 and made["token"] in made["link"]
    assert made["game"]["options"]["hidden_scores"] is True  # the rulebooks' way by default
    listed = httpx.get(base + "/api/games", params={"status": "open"}).json()["games"]
    assert [g["id"] for g in listed] == [gid]
    # A name already at the table, a bad seat, a bad body: clear errors, nothing changes.
    r = httpx.post(f"{base}/api/games/{gid}/join", json={"name": "ann"})
    assert r.status_code == 409 and r.json()["error"] == "name_taken"
    r = httpx.post(f"{base}/api/games/{gid}/join", json={"name": "Bob", "seat": 2})
    assert r.status_code == 409 and r.json()["error"] == "seat_taken"
    r = httpx.post(f"{base}/api/games/{gid}/join", json={"name": ""})
    assert r.status_code == 422 and "name" in r.json()["message"]
    r = httpx.post(base + "/api/games", json={"seats": [{"kind": "human"}], "name": "X"})
    assert r.status_code == 422 and "seats" in r.json()["message"]
    r = httpx.post(
        base + "/api/games", json={"seats": [{"kind": "bot", "level": "genius"}] * 2, "join": False}
    )
    assert r.status_code == 422 and "genius" in r.json()["message"]
    r = httpx.post(
        base + "/api/games",
        json={"seats": [{"kind": "human"}] * 3, "name": "A", "variant": "long-2p"},
    )
    assert r.status_code == 422 and "2 players" in r.json()["message"]
    assert httpx.get(base + "/api/games/nope").status_code == 404
    # Leave, then the seat is free again (Dee stays: a table its last person left is closed);
    # a wrong token cannot leave.
    join(base, gid, "Dee")
    r = httpx.post(f"{base}/api/games/{gid}/leave", json={"token": "wrong"})
    assert r.status_code == 403
    assert httpx.post(f"{base}/api/games/{gid}/leave", json={"token": made["token"]}).status_code == 200
    seats = httpx.get(f"{base}/api/games/{gid}").json()["seats"]
    assert [s["taken"] for s in seats] == [False, True, True, False]
    # Two people take the free seats: the game starts.
    join(base, gid, "Ann")
    joined = join(base, gid, "Bob")
    assert joined["game"]["status"] == "running"
    r = httpx.post(f"{base}/api/games/{gid}/join", json={"name": "Cy"})
    assert r.status_code == 409 and r.json()["error"] == "not_open"
    # Every level of the user interfaces is a bot seat, expert included.
    expert = create(base, [{"kind": "human"}, {"kind": "bot", "level": "expert"}])
    assert [s.get("level") for s in expert["game"]["seats"]] == [None, "expert"]


def test_lobby_offers_the_2008_disaster_timing(server: Server) -> None:
    # R3.5: the variant "2008 disaster timing" is a table option, shown in the lobby and the view.
    base = server.url
    made = create(base, [{"kind": "human"}, {"kind": "bot", "level": "easy"}], disaster_timing="2008")
    gid = made["game"]["id"]
    assert made["game"]["options"]["disaster_timing"] == "2008"
    plain = create(base, [{"kind": "human"}, {"kind": "bot", "level": "easy"}], name="Bob")
    assert plain["game"]["options"]["disaster_timing"] == "immediate"  # the default
    r = httpx.post(
        base + "/api/games",
        json={"seats": [{"kind": "human"}] * 2, "name": "A", "disaster_timing": "2016"},
    )
    assert r.status_code == 422 and "disaster timing" in r.json()["message"]

    async def look() -> dict[str, Any]:
        ann = Player(server.ws, gid, made["token"], seed=1)
        await connect(ann)
        assert ann.state is not None
        state = ann.state
        await ann.close()
        return state

    state = asyncio.run(look())
    assert state["view"]["disaster_timing"] == "2008" and state["view"]["pending_disasters"] == []


def test_open_games_per_address_are_limited(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path
) -> None:
    import os

    os.environ["RA_MAX_OPEN_GAMES"] = "3"
    try:
        srv = server_factory(sqlite_url, tmp_path / "s.log").start()
    finally:
        del os.environ["RA_MAX_OPEN_GAMES"]
    for _ in range(3):
        create(srv.url, [{"kind": "human"}, {"kind": "human"}])
    r = httpx.post(srv.url + "/api/games", json={"seats": [{"kind": "human"}] * 2, "name": "Z"})
    assert r.status_code == 429 and "3 games" in r.json()["message"]


# --- playing -------------------------------------------------------------------------


def test_two_humans_and_a_bot_play_to_the_end_with_a_spectator(server: Server) -> None:
    base = server.url
    made = create(
        base, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}], hidden_scores=True
    )
    gid = made["game"]["id"]
    bob = join(base, gid, "Bob")

    async def main() -> None:
        ann = Player(server.ws, gid, made["token"], seed=1)
        bo = Player(server.ws, gid, bob["token"], seed=2)
        spectator = Player(server.ws, gid, None)
        await connect(ann, bo, spectator)
        assert spectator.state is not None and spectator.state["seat"] is None

        async def watch() -> None:
            await spectator.until(over, timeout=120)

        await asyncio.gather(play([ann, bo]), watch())
        record = httpx.get(f"{base}/api/games/{gid}/record").json()
        game = replayed(record)
        assert game.is_over()
        assert_logs_match(game, ann, 0)
        assert_logs_match(game, bo, 1)
        assert_logs_match(game, spectator, None)
        # The spectator saw every decision as it happened: one state per decision at least.
        seen = {m["n"] for m in spectator.messages if m["type"] == "state"}
        assert set(range(1, game.num_decisions + 1)) <= seen
        summary = httpx.get(f"{base}/api/games/{gid}").json()
        assert summary["status"] == "finished" and summary["scores"] == list(game.scores)
        assert summary["winner"] == game.winner
        # Nothing the clients got ever held the seed or the bag order; hidden scores stayed hidden.
        seed = str(record["seed"])
        for p, seat in ((ann, 0), (bo, 1), (spectator, None)):
            for text in p.raw:
                assert seed not in text
                m = json.loads(text)
                assert not {"seed", "bag", "bag_counts"} & set(m)
                if m["type"] == "state" and m["view"] is not None:
                    assert not {"seed", "bag"} & set(m["view"])
                    if m["view"]["phase"] != "over":
                        for i, pl in enumerate(m["view"]["players"]):
                            assert (pl["score"] is not None) == (i == seat), (seat, i)
                        for e in m["events"]:
                            if e["kind"] == "score":
                                assert (e["detail"] is not None) == (e["seat"] == seat)
        for p in (ann, bo, spectator):
            await p.close()

    asyncio.run(main())


def test_bad_input_is_rejected_and_changes_nothing(server: Server) -> None:
    base = server.url
    made = create(base, [{"kind": "human"}, {"kind": "human"}])
    gid = made["game"]["id"]
    bob = join(base, gid, "Bob")

    async def main() -> None:
        ann = Player(server.ws, gid, made["token"])
        bo = Player(server.ws, gid, bob["token"])
        spectator = Player(server.ws, gid, None)
        await connect(ann, bo, spectator)
        assert ann.state is not None
        n = ann.state["n"]
        mover, other = (ann, bo) if ann.my_turn else (bo, ann)
        legal = mover.state["legal"]  # type: ignore[index]

        async def rejected(p: Player, msg: dict[str, Any] | str, code: str) -> None:
            await p.send(msg)
            m = await p.until(lambda m: m["type"] == "error")
            assert m["code"] == code, m

        await rejected(other, {"type": "action", "action": legal[0], "n": n}, "not_your_turn")
        await rejected(spectator, {"type": "action", "action": legal[0], "n": n}, "spectator")
        await rejected(mover, {"type": "action", "action": "bid 99", "n": n}, "illegal")
        await rejected(mover, {"type": "action", "action": "discard ra", "n": n}, "illegal")
        await rejected(mover, {"type": "action", "action": legal[0], "n": n + 5}, "stale")
        await rejected(mover, {"type": "action", "action": legal[0]}, "bad_message")
        await rejected(mover, "{not json", "bad_message")
        await rejected(mover, "[1, 2]", "bad_message")
        await rejected(mover, {"type": "launch", "n": n}, "bad_message")
        await rejected(mover, {"type": "action", "action": "x" * 5000, "n": n}, "too_large")
        await rejected(mover, {"type": "undo", "n": n}, "not_allowed")
        # Nothing changed: still decision n, same mover; the other clients got no error.
        state = await mover.state_now()
        assert state["n"] == n and state["legal"] == legal
        assert all(e["code"] in ("not_your_turn",) for e in other.errors)
        # A wrong token and a missing game: refused and closed.
        for url, token in ((f"{server.ws}/ws/games/{gid}", "forged"), (f"{server.ws}/ws/games/nope", None)):
            async with websockets.connect(url) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                m = json.loads(await next_frame(ws))
                assert m["type"] == "error" and m["code"] in ("bad_token", "not_found")
        async with websockets.connect(f"{server.ws}/ws/games/{gid}") as ws:
            await ws.send("garbage")
            m = json.loads(await next_frame(ws))
            assert m["code"] == "bad_message"
        # An oversized frame closes that connection only.
        async with websockets.connect(f"{server.ws}/ws/games/{gid}", max_size=None) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            await next_frame(ws)
            await ws.send("x" * 100_000)
            with pytest.raises(websockets.ConnectionClosed):
                for _ in range(5):
                    await next_frame(ws)
        assert httpx.get(f"{base}/api/games/{gid}").json()["decisions"] == n
        for p in (ann, bo, spectator):
            await p.close()

    asyncio.run(main())


def test_a_race_for_one_decision_applies_exactly_one(server: Server) -> None:
    base = server.url
    made = create(base, [{"kind": "human"}, {"kind": "human"}])
    gid = made["game"]["id"]
    bob = join(base, gid, "Bob")

    async def main() -> None:
        first = Player(server.ws, gid, made["token"])
        second = Player(server.ws, gid, bob["token"])
        await connect(first, second)
        mover_token = made["token"] if first.my_turn else bob["token"]
        state = first.state if first.my_turn else second.state
        assert state is not None
        n = state["n"]
        # Twelve connections of the mover's seat send the same decision number at once.
        conns = [Player(server.ws, gid, mover_token) for _ in range(12)]
        await connect(*conns)
        await asyncio.gather(
            *(c.send({"type": "action", "action": c.rng.choice(state["legal"]), "n": n}) for c in conns)
        )
        await asyncio.sleep(1.0)
        for c in conns:
            await c.state_now()
        stale = sum(1 for c in conns for e in c.errors if e["code"] == "stale")
        assert stale == len(conns) - 1
        assert httpx.get(f"{base}/api/games/{gid}").json()["decisions"] == n + 1
        assert all(c.state is not None and c.state["n"] == n + 1 for c in conns)
        for c in (*conns, first, second):
            await c.close()

    asyncio.run(main())


def test_undo_takes_back_your_own_last_decision(server: Server) -> None:
    """Ann undoes a decision that revealed nothing.  The bot waits its pace (1.5 s), so the
    position right after Ann's first bid, pass or Ra is undoable: the test never depends on the
    random bot leaving one by chance (with no pace it answered at once and the game could end
    before an undoable position came, leaving the loop waiting for a state that never came)."""
    made = create(server.url, [{"kind": "human"}, {"kind": "bot", "level": "random"}], bot_delay=1.5)
    gid = made["game"]["id"]

    async def main() -> None:
        ann = Player(server.ws, gid, made["token"], seed=3)
        await connect(ann)
        for _ in range(400):
            st = await ann.state_now()
            assert st["view"]["phase"] != "over", "the game ended before an undoable position"
            if st["can_undo"]:
                break
            if st["legal"]:
                safe = [a for a in st["legal"] if a != "draw"]
                n = st["n"]
                await ann.send({"type": "action", "action": ann.rng.choice(safe or st["legal"]), "n": n})
                await ann.until(lambda m, n=n: m["type"] == "error" or (m["type"] == "state" and m["n"] > n))
            else:
                await ann.until(lambda m: m["type"] == "state")
        st = await ann.state_now()
        assert st["can_undo"], "no undoable position reached"
        n_before, events_before = st["n"], len(ann.events)
        await ann.send({"type": "undo", "n": st["n"]})
        m = await ann.until(lambda m: m["type"] in ("state", "error"))
        assert m["type"] == "state", m
        assert m["n"] < n_before and len(ann.events) < events_before and m["legal"]
        stored = httpx.get(f"{server.url}/api/games/{gid}").json()["decisions"]
        assert stored == m["n"]
        await ann.close()

    asyncio.run(main())


def test_undo_is_told_to_everyone_and_refused_once_a_bot_answered(server: Server) -> None:
    """ra.table's one undo policy at the browser table: before the bot answers (it waits its
    pace) Ann may take back invoking Ra, and a spectator is told; once the bot has bid, no."""
    made = create(server.url, [{"kind": "human"}, {"kind": "bot", "level": "random"}], bot_delay=1.5)
    gid = made["game"]["id"]

    async def main() -> None:
        ann, watcher = Player(server.ws, gid, made["token"]), Player(server.ws, gid, None)
        await connect(ann, watcher)
        st = await ann.state_now()
        while "ra" not in st["legal"]:  # play on (bids, passes) until Ann may invoke Ra
            if st["legal"]:
                n = st["n"]
                await ann.send({"type": "action", "action": st["legal"][-1], "n": n})
                st = await ann.until(lambda m, n=n: m["type"] == "state" and m["n"] > n, timeout=60)
            else:
                st = await ann.until(lambda m: m["type"] == "state" and bool(m["legal"]), timeout=60)
            st = await ann.state_now()
        await ann.send({"type": "action", "action": "ra", "n": st["n"]})
        after = await ann.until(lambda m: m["type"] == "state" and m["n"] == st["n"] + 1)
        assert after["can_undo"]
        await ann.send({"type": "undo", "n": after["n"]})
        told = await watcher.until(lambda m: m["type"] == "undone")
        assert told == {"type": "undone", "seat": 0, "name": "Ann", "action": "ra", "n": st["n"]}
        back = await ann.until(lambda m: m["type"] == "state" and m["n"] == st["n"])
        assert "ra" in back["legal"]
        # Again, and this time let the bot bid: then Ann's decision stays.
        await ann.send({"type": "action", "action": "ra", "n": st["n"]})
        answered = await ann.until(lambda m: m["type"] == "state" and m["n"] >= st["n"] + 2, timeout=30)
        assert not answered["can_undo"]
        await ann.send({"type": "undo", "n": answered["n"]})
        refused = await ann.until(lambda m: m["type"] == "error")
        assert refused["code"] == "not_allowed" and "Random bot decided last" in refused["message"]
        await ann.close()
        await watcher.close()

    asyncio.run(main())


def simulate(seed: int, stop: Pred | None, names: list[str]) -> tuple[ra.Game, int | None]:
    """The game the scripted clients (seeds 5 and 6) and a random bot play with this seed,
    exactly as the server runs it; and the decision number where ``stop`` first holds."""
    from ra.bots import RandomBot
    from ra.table import bot_seed

    game = ra.Game(players=names, seed=seed, hidden_scores=True)
    rngs = [random.Random(5), random.Random(6)]
    stop_at = None
    while not game.is_over():
        n = game.num_decisions
        if (
            stop_at is None
            and stop is not None
            and stop({"n": n, "view": {"phase": game.phase, "to_move": game.to_move}})
        ):
            stop_at = n
        seat = game.to_move
        assert seat is not None
        legal = [str(a) for a in game.legal_actions()]
        if seat < 2:
            game.apply(rngs[seat].choice(legal))
        else:
            game.apply(RandomBot(seed=bot_seed(seed, n)).choose(game.view(seat)))
    return game, stop_at


@pytest.mark.slow  # three server restarts
@pytest.mark.parametrize("where", ["bid", "discard", "action"])
def test_kill_9_mid_game_loses_nothing(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path, where: str
) -> None:
    """kill -9 mid-auction, mid-discard, mid-turn: restart, reconnect, and the game ends exactly
    as the same players would have ended it without the crash."""

    def stop(m: dict[str, Any]) -> bool:
        v = m["view"]
        return bool(v["phase"] == where and v["to_move"] in (0, 1) and m["n"] >= 20)

    names = ["Ann", "Bob", "Random bot"]
    seed = next(s for s in range(1000) if simulate(s, stop, names)[1] is not None)
    expected, stop_at = simulate(seed, stop, names)
    srv = server_factory(sqlite_url, tmp_path / "s.log", env={"RA_GAME_SEED": str(seed)}).start()
    made = create(srv.url, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}])
    gid = made["game"]["id"]
    bob = join(srv.url, gid, "Bob")

    async def main() -> None:
        ann = Player(srv.ws, gid, made["token"], seed=5)
        bo = Player(srv.ws, gid, bob["token"], seed=6)
        spectator = Player(srv.ws, gid, None)
        await connect(ann, bo, spectator)
        await play([ann, bo], stop=stop, timeout=120)
        st = await ann.state_now()
        assert st["n"] == stop_at and st["view"]["phase"] == where
        srv.kill9()
        for p in (ann, bo, spectator):  # every client sees its connection drop
            with pytest.raises((websockets.ConnectionClosed, TimeoutError)):
                for _ in range(10_000):
                    await p.recv(timeout=5)
        srv.start()
        again = httpx.get(f"{srv.url}/api/games/{gid}")
        assert again.status_code == 200, again.text  # (once, under load, a body with no decisions)
        assert again.json()["decisions"] == stop_at
        for p in (ann, bo, spectator):
            p.url = f"{srv.ws}/ws/games/{gid}"
        await connect(ann, bo, spectator)
        await asyncio.gather(play([ann, bo]), spectator.until(over, timeout=120))
        record = httpx.get(f"{srv.url}/api/games/{gid}/record").json()
        game = replayed(record)  # the stored decisions replay to the stored result
        assert record["decisions"] == [str(a) for a in expected.decisions]
        assert game.scores == expected.scores and game.winner == expected.winner
        assert_logs_match(game, ann, 0)
        assert_logs_match(game, bo, 1)
        assert_logs_match(game, spectator, None)
        for p in (ann, bo, spectator):
            await p.close()

    asyncio.run(main())


@pytest.mark.slow  # a server restart mid-game
def test_bots_resume_after_a_restart(server_factory: type[Server], sqlite_url: str, tmp_path: Path) -> None:
    srv = server_factory(sqlite_url, tmp_path / "s.log").start()
    made = create(srv.url, [{"kind": "bot", "level": "random"}] * 3, name=None, bot_delay=0.02)
    gid = made["game"]["id"]
    deadline = time.monotonic() + 30
    while httpx.get(f"{srv.url}/api/games/{gid}").json()["decisions"] < 5 and time.monotonic() < deadline:
        time.sleep(0.05)
    srv.kill9()
    srv.start()
    before = httpx.get(f"{srv.url}/api/games/{gid}").json()
    assert before["status"] == "running" and before["decisions"] >= 5

    async def main() -> None:
        spectator = Player(srv.ws, gid, None)
        await connect(spectator)
        if not over(spectator.state or {"type": ""}):
            await spectator.until(over, timeout=120)

    asyncio.run(main())
    after = httpx.get(f"{srv.url}/api/games/{gid}").json()
    assert after["status"] == "finished" and after["decisions"] > before["decisions"]


# --- records, replays, rematch -----------------------------------------------------------


def test_records_replay_api_import_and_rematch(server: Server) -> None:
    base = server.url
    made = create(base, [{"kind": "human"}, {"kind": "bot", "level": "random"}], hidden_scores=True)
    gid = made["game"]["id"]
    running = httpx.get(f"{base}/api/games/{gid}/record").json()
    assert "seed" not in running and "bag" not in running and running["result"] == {"over": False}
    assert httpx.get(f"{base}/api/games/{gid}/replay").status_code == 409

    async def main() -> None:
        ann = Player(server.ws, gid, made["token"], seed=9)
        await connect(ann)
        await play([ann])
        again = httpx.post(f"{base}/api/games/{gid}/again", json={"token": made["token"]}).json()
        assert again["game"]["id"] != gid and again["seat"] == 0
        assert again["game"]["status"] == "running"  # the bot seat was kept, Ann took hers
        rematch = await ann.until(lambda m: m["type"] == "rematch")
        assert rematch["game"] == again["game"]["id"]
        # Asking twice gives the same rematch table, not a second one.
        r = httpx.post(f"{base}/api/games/{gid}/again", json={"token": made["token"]})
        assert r.status_code == 409  # Ann already sits there
        await ann.close()

    asyncio.run(main())
    record = httpx.get(f"{base}/api/games/{gid}/record").json()
    game = ra.Game.from_record(record)
    total = game.num_decisions
    mid = httpx.get(f"{base}/api/games/{gid}/replay", params={"n": total // 2, "seat": 1}).json()
    assert mid["n"] == total // 2 and mid["total"] == total and mid["view"]["seat"] == 1
    assert [e[0] for e in mid["epochs"]] == [1, 2, 3]
    # The game is over: its replay hides nothing any more (R9.1), at any decision.
    assert all(p["score"] is not None for p in mid["view"]["players"]), mid["view"]["players"]
    scored = [e for e in mid["events"] if e["kind"] == "score"]
    assert scored and all(e["detail"] is not None for e in scored)
    end = httpx.get(f"{base}/api/games/{gid}/replay", params={"n": 10**6}).json()
    assert end["n"] == total and end["view"]["phase"] == "over"
    # Import the record: a finished game to watch, with the same result.
    imported = httpx.post(base + "/api/records", json=record).json()["game"]
    assert imported["imported"] and imported["scores"] == list(game.scores)
    # Bad records: one clear error each.
    for body in (
        b"\xff\xfe",
        b"[" * 100_000,
        b'{"players": 3}',
        json.dumps({**record, "decisions": ["bid 77"]}),
    ):
        r = httpx.post(base + "/api/records", content=body, headers={"Content-Type": "application/json"})
        assert r.status_code in (413, 422) and r.json()["error"] in ("bad_record", "too_large"), r.text


# --- PostgreSQL, several workers -----------------------------------------------------------


@pytest.mark.slow  # PostgreSQL and several server processes
def test_postgresql_two_servers_share_games(
    server_factory: type[Server], pg_url: str, tmp_path: Path
) -> None:
    a = server_factory(pg_url, tmp_path / "a.log", workers=2).start()
    b = server_factory(pg_url, tmp_path / "b.log").start()
    made = create(a.url, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}])
    gid = made["game"]["id"]
    bob = join(b.url, gid, "Bob")

    async def main() -> None:
        ann = Player(a.ws, gid, made["token"], seed=11)  # on server a (2 workers)
        bo = Player(b.ws, gid, bob["token"], seed=12)  # on server b
        spec_a, spec_b = Player(a.ws, gid, None), Player(b.ws, gid, None)
        await connect(ann, bo, spec_a, spec_b)
        await asyncio.gather(
            play([ann, bo], timeout=180), spec_a.until(over, timeout=180), spec_b.until(over, timeout=180)
        )
        record = httpx.get(f"{b.url}/api/games/{gid}/record").json()
        game = replayed(record)
        for p, seat in ((ann, 0), (bo, 1), (spec_a, None), (spec_b, None)):
            assert_logs_match(game, p, seat)
        for p in (ann, bo, spec_a, spec_b):
            await p.close()

    asyncio.run(main())


# --- migrations ------------------------------------------------------------------------------


def test_migrations_upgrade_downgrade_and_match_the_tables(empty_sqlite_url: str) -> None:
    import sqlalchemy as sa
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from ra.web import db

    db.upgrade(empty_sqlite_url)
    db.downgrade(empty_sqlite_url, "base")
    engine = sa.create_engine(empty_sqlite_url)
    assert set(sa.inspect(engine).get_table_names()) <= {"alembic_version"}
    db.upgrade(empty_sqlite_url)
    assert {"games", "seats", "decisions"} <= set(sa.inspect(engine).get_table_names())
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
    assert diff == []
    engine.dispose()


# --- limits and shutdown -----------------------------------------------------------------------


def test_message_rate_is_limited_per_connection(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path
) -> None:
    srv = server_factory(sqlite_url, tmp_path / "s.log", env={"RA_MESSAGE_RATE": "20"}).start()
    made = create(srv.url, [{"kind": "human"}, {"kind": "human"}])

    async def main() -> None:
        p = Player(srv.ws, made["game"]["id"], made["token"])
        await connect(p)
        for _ in range(100):
            await p.send({"type": "ping"})
        await asyncio.sleep(1.0)
        await p.state_now()
        limited = [e for e in p.errors if e["code"] == "rate_limited"]
        pongs = [m for m in p.messages if m["type"] == "pong"]
        assert limited and len(pongs) + len(limited) == 100 and 30 <= len(pongs) < 100
        await p.send({"type": "ping"})  # the connection is still served after a pause
        assert (await p.until(lambda m: m["type"] in ("pong", "error")))["type"] == "pong"
        await p.close()

    asyncio.run(main())


def test_graceful_shutdown_tells_clients_and_they_resume(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path
) -> None:
    srv = server_factory(sqlite_url, tmp_path / "s.log").start()
    made = create(srv.url, [{"kind": "human"}, {"kind": "bot", "level": "random"}])
    gid = made["game"]["id"]

    async def main() -> None:
        ann = Player(srv.ws, gid, made["token"], seed=4)
        await connect(ann)
        await play([ann], stop=lambda m: bool(m["n"] >= 10 and m["legal"]))
        n = (await ann.state_now())["n"]
        assert srv.proc is not None
        srv.stop()  # SIGTERM: a clean stop
        assert srv.proc.returncode in (0, -15)  # uvicorn re-raises SIGTERM after its clean stop
        with pytest.raises(websockets.ConnectionClosed) as closed:
            for _ in range(10_000):
                await ann.recv(timeout=5)
        code = closed.value.rcvd.code if closed.value.rcvd is not None else None
        assert code in (1001, 1012), code  # going away / service restart: reconnect
        srv.start()
        ann.url = f"{srv.ws}/ws/games/{gid}"
        await connect(ann)
        assert ann.state is not None and ann.state["n"] == n
        await play([ann])
        await ann.close()

    asyncio.run(main())


# --- static files ------------------------------------------------------------------------


def test_pages_link_this_builds_static_files_for_a_year(server: Server) -> None:
    gid = create(server.url, [{"kind": "human"}, {"kind": "human"}])["game"]["id"]
    page = httpx.get(f"{server.url}/g/{gid}")
    assert page.headers["cache-control"] == "no-cache"
    found = re.search(r'src="/static/([0-9a-f]{12})/table\.js"', page.text)
    assert found, page.text
    build = found.group(1)
    assert f'href="/static/{build}/style.css"' in page.text
    versioned = httpx.get(f"{server.url}/static/{build}/i18n.js")  # imported relatively by table.js
    assert versioned.status_code == 200 and "immutable" in versioned.headers["cache-control"]
    plain = httpx.get(f"{server.url}/static/i18n.js")
    assert plain.status_code == 200 and plain.headers["cache-control"] == "no-cache"
    assert plain.content == versioned.content
    assert httpx.get(f"{server.url}/static/000000000000/i18n.js").status_code == 404
    missing = httpx.get(server.url + "/no/such/page")  # the 404 page links this build too
    assert missing.status_code == 404 and f"/static/{build}/" in missing.text


def test_a_changed_file_is_a_new_build(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text("one")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.css").write_text("two")
    first = build_id(tmp_path)
    assert build_id(tmp_path) == first
    (tmp_path / "sub" / "b.css").write_text("three")
    assert build_id(tmp_path) != first


@pytest.mark.slow  # PostgreSQL and two server processes
def test_a_spectator_on_another_server_sees_who_is_connected(
    server_factory: type[Server], pg_url: str, tmp_path: Path
) -> None:
    """Issue 40, finding 11: presence went out only when it changed, so a worker that opened a
    table after its players had connected elsewhere showed them offline to its spectators. And
    again after the spectator left and came back (a play-test found it): the other worker still
    knew this one from its first visit, so it told the reopened table nothing."""
    a = server_factory(pg_url, tmp_path / "a.log").start()
    b = server_factory(pg_url, tmp_path / "b.log").start()
    made = create(a.url, [{"kind": "human"}, {"kind": "human"}])
    gid = made["game"]["id"]
    bob = join(a.url, gid, "Bob")

    async def main() -> None:
        ann, bo = Player(a.ws, gid, made["token"]), Player(a.ws, gid, bob["token"])
        await connect(ann, bo)  # both players on server a
        await asyncio.sleep(1.0)
        spectator = Player(b.ws, gid, None)  # server b opens the table only now
        await connect(spectator)

        def both_online(m: dict[str, Any]) -> bool:
            if m["type"] == "state":
                connected: list[bool] = [s["connected"] for s in m["game"]["seats"]]
            elif m["type"] == "presence":
                connected = list(m["connected"])
            else:
                return False
            return all(connected[:2])

        if not (spectator.state and both_online(spectator.state)):
            await spectator.until(both_online, timeout=10)
        await spectator.close()  # server b forgets the table (nobody there)
        await asyncio.sleep(1.0)
        back = Player(b.ws, gid, None)  # and opens it again
        await connect(back)
        if not (back.state and both_online(back.state)):
            await back.until(both_online, timeout=10)
        for p in (ann, bo, back):
            await p.close()

    asyncio.run(main())
