"""``ra serve --bot-backend ray``: bots think on a Ray cluster started in other processes,
move exactly as the local pool would for the same seed, and a worker killed mid-search
costs a retry, never a second move (issue 26)."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from ra.web.testing import Server
from tests.ray_head import ray_head
from tests.web.client import Player, create

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        importlib.util.find_spec("ray") is None,
        reason="Ray is not installed (pip install 'ra-boardgame[cluster]')",
    ),
]
"""Ray itself runs in the cluster's processes: importing it here would cost every run's collection."""


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A Ray head with two CPUs, started by `ray start` in its own processes; its address."""
    with ray_head(cpus=2) as (address, _):
        yield address


def play_first_actions(server: Server, level: str, decisions: int) -> list[str]:
    """A person who always takes the first legal action against one bot; the game's decisions."""
    made = create(server.url, [{"kind": "human"}, {"kind": "bot", "level": level}], bot_delay=0)
    gid = made["game"]["id"]

    async def main() -> None:
        p = Player(server.ws, gid, made["token"])
        await p.connect()
        state = await p.until(lambda m: m["type"] == "state" and m["view"] is not None)
        while state["n"] < decisions and state["view"]["phase"] != "over":
            if state["legal"]:
                await p.send({"type": "action", "action": state["legal"][0], "n": state["n"]})
            n = state["n"]
            state = await p.until(lambda m, n=n: m["type"] == "state" and m["n"] > n, timeout=120)
        await p.close()

    asyncio.run(main())
    record = httpx.get(f"{server.url}/api/games/{gid}/record").json()
    return list(record["decisions"])[:decisions]


def test_the_cluster_moves_as_the_local_pool(
    cluster: str, server_factory: type[Server], tmp_path: Path
) -> None:
    env = {"RA_GAME_SEED": "4242", "RAY_AUTH_MODE": "disabled"}
    remote = server_factory(
        f"sqlite:///{tmp_path / 'r.db'}",
        tmp_path / "r.log",
        env=env,
        args=("--bot-backend", "ray", "--ray-address", cluster),
    ).start()
    local = server_factory(f"sqlite:///{tmp_path / 'l.db'}", tmp_path / "l.log", env=env).start()
    on_cluster = play_first_actions(remote, "medium", 14)
    on_pool = play_first_actions(local, "medium", 14)
    assert len(on_cluster) == 14 and on_cluster == on_pool


def _search_workers() -> list[int]:
    out = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            with contextlib.suppress(OSError):
                if (proc / "cmdline").read_bytes().startswith(b"ray::decide"):
                    out.append(int(proc.name))
    return out


def test_a_worker_killed_mid_search_costs_a_retry_not_a_second_move(
    cluster: str, server_factory: type[Server], tmp_path: Path
) -> None:
    env = {"RA_GAME_SEED": "99", "RAY_AUTH_MODE": "disabled"}
    s = server_factory(
        f"sqlite:///{tmp_path / 'k.db'}",
        tmp_path / "k.log",
        env=env,
        args=("--bot-backend", "ray", "--ray-address", cluster),
    ).start()
    made = create(s.url, [{"kind": "human"}, {"kind": "bot", "level": "expert"}], bot_delay=0)
    gid = made["game"]["id"]
    killed: list[int] = []

    async def main() -> None:
        p = Player(s.ws, gid, made["token"])
        await p.connect()
        state = await p.until(lambda m: m["type"] == "state" and m["view"] is not None)
        while not killed and state["view"]["phase"] != "over":
            if state["legal"]:
                n = state["n"]
                await p.send({"type": "action", "action": state["legal"][0], "n": n})
                await p.until(lambda m, n=n: m["type"] == "state" and m["n"] > n)
                for _ in range(100):  # the bot's search starts on a worker: kill it mid-search
                    pids = _search_workers()
                    if pids:
                        os.kill(pids[0], signal.SIGKILL)
                        killed.append(pids[0])
                        break
                    await asyncio.sleep(0.05)
            n = (await p.state_now())["n"]
            state = await p.until(
                lambda m, n=n: m["type"] == "state" and (bool(m["legal"]) or m["n"] > n), 180
            )
        # The bot answered all the same (the task ran again on another worker process).
        assert state["legal"] or state["view"]["phase"] == "over"
        await p.close()

    asyncio.run(main())
    assert killed, "no search worker was seen: nothing was tested"
    record = httpx.get(f"{s.url}/api/games/{gid}/record").json()
    import ra

    game = ra.Game.from_record(record)  # every stored decision legal, in order: none twice
    assert game.num_decisions == len(record["decisions"])
