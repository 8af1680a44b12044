"""Hints at the browser table (issue 13): asked over the WebSocket, answered from the seat's view."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import cast

import httpx
import pytest

import ra
from ra.analysis.chances import PERSON_STRENGTH, default_model, strength_of
from ra.bots.advisor import ADVICE_SEED, Advisor
from ra.bots.explain import msg_from_json
from ra.web.testing import Server
from ra.words import MsgJson, words
from tests.web.client import Player, create

SEED = 4242


def test_a_hint_is_the_advisors_answer_and_never_holds_up_a_move(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path
) -> None:
    server = server_factory(sqlite_url, tmp_path / "s.log", env={"RA_GAME_SEED": str(SEED)}).start()
    seats = [{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]
    made = create(server.url, seats)
    gid = made["game"]["id"]
    assert made["game"]["options"]["hints"] is True  # one human: hints on by default

    async def main() -> None:
        ann = Player(server.ws, gid, made["token"])
        await ann.connect()
        state = await ann.until(lambda m: m["type"] == "state" and bool(m["legal"]))
        n = state["n"]
        await ann.send({"type": "hint", "n": n})
        await ann.send({"type": "ping"})
        await ann.until(lambda m: m["type"] == "pong", timeout=10)
        hint = await ann.until(lambda m: m["type"] == "hint", timeout=60)
        assert hint["n"] == n and hint["seat"] == 0
        assert sorted(a["action"] for a in hint["actions"]) == sorted(state["legal"])
        assert hint["best"] == hint["actions"][0]["action"]
        assert hint["source"] == ("search" if ra.native_available() else "flat")
        assert sum(hint["chances"]) == pytest.approx(1, abs=1e-3) and len(hint["chances"]) == 3
        # The reason is a message (players by seat), rendered in any language.
        assert isinstance(hint["reason"], dict) and hint["reason"]["key"].startswith("hint.")
        why = msg_from_json(cast("MsgJson", hint["reason"]))
        names = ["Ann", "Easy bot", "Easy bot 2"]
        assert "% to win" in words("en").render(why, names, 0)
        assert "шанс на победу" in words("ru").render(why, names, 0)

        # The numbers are the advisor's for Ann's view (the same seed gives the same search).
        record = httpx.get(f"{server.url}/api/games/{gid}/record").json()
        game = ra.Game(players=record["players"], seed=SEED, hidden_scores=record["hidden_scores"])
        for d in record["decisions"]:
            game.apply(d)
        assert game.num_decisions == n
        evaluation = Advisor("40", seed=ADVICE_SEED).evaluate(game.view(0))
        assert [(a["action"], a["chance"]) for a in hint["actions"]] == [
            (str(v.action), round(v.chances[0], 4)) for v in evaluation.actions
        ]
        # Beside them, Ann's chance given who is playing (issue 53): the model the analysis'
        # chart reads, Ann a new account (no rating yet) against two easy bots.
        strengths = (PERSON_STRENGTH, strength_of("easy"), strength_of("easy"))
        assert hint["given"] == round(default_model().chances(game.view(0), strengths)[0], 4)

        # Asking again gets the same answer; a move right after asking goes through at once.
        await ann.send({"type": "hint", "n": n})
        again = await ann.until(lambda m: m["type"] == "hint", timeout=60)
        assert again == hint
        await ann.send({"type": "hint", "n": n})
        await ann.send({"type": "action", "action": hint["best"], "n": n})
        moved = await ann.until(lambda m: m["type"] == "state" and m["n"] > n, timeout=30)
        assert moved["n"] > n

        # Refusals: an old decision number, a seat not to move, a spectator.
        await ann.send({"type": "hint", "n": n})
        err = await ann.until(lambda m: m["type"] == "error", timeout=10)
        assert err["code"] in ("stale", "not_your_turn", "not_allowed")
        watcher = Player(server.ws, gid, None)
        await watcher.connect()
        await watcher.until(lambda m: m["type"] == "state")
        await watcher.send({"type": "hint", "n": 0})
        err = await watcher.until(lambda m: m["type"] == "error", timeout=10)
        assert err["code"] == "spectator"
        for p in (ann, watcher):
            await p.close()

    asyncio.run(main())


def test_the_chance_given_who_is_playing_knows_the_opponents() -> None:
    """The hint's second chance (issue 53) reads the seats' strengths from the seat's view only:
    the same position against stronger bots gives less, and the search's numbers are kept."""
    from ra.web.hints import given_too
    from ra.web.protocol import HintReply

    game = ra.Game(players=3, seed=SEED, hidden_scores=True)
    reply: HintReply = {
        "type": "hint", "n": 0, "seat": 0, "chances": [0.4, 0.3, 0.3], "actions": [], "best": "draw",
        "starred": "draw", "tied": [], "reason": None, "playouts": 10, "source": "search",
    }  # fmt: skip
    weak = given_too(reply, game.view(0), (PERSON_STRENGTH, strength_of("random"), strength_of("random")))
    strong = given_too(reply, game.view(0), (PERSON_STRENGTH, strength_of("master"), strength_of("master")))
    assert 0 < strong["given"] < 1 / 3 < weak["given"] < 1
    assert {k: v for k, v in weak.items() if k != "given"} == reply


def test_hints_are_a_table_option_off_by_default_with_several_humans(server: Server) -> None:
    made = create(server.url, [{"kind": "human"}, {"kind": "human"}])
    assert made["game"]["options"]["hints"] is False
    gid = made["game"]["id"]
    bob = httpx.post(f"{server.url}/api/games/{gid}/join", json={"name": "Bob"}, timeout=10).json()
    chosen = create(server.url, [{"kind": "human"}, {"kind": "human"}], hints=True)
    assert chosen["game"]["options"]["hints"] is True

    async def main() -> None:
        ann = Player(server.ws, gid, made["token"])
        bo = Player(server.ws, gid, bob["token"])
        for p in (ann, bo):
            await p.connect()
        state = await ann.until(lambda m: m["type"] == "state" and m["view"] is not None)
        mover = ann if state["legal"] else bo
        await mover.send({"type": "hint", "n": state["n"]})
        err = await mover.until(lambda m: m["type"] == "error", timeout=10)
        assert err["code"] == "no_hints"
        for p in (ann, bo):
            await p.close()

    asyncio.run(main())
