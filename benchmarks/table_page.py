"""What a game's page costs the browser: a whole game by clicks against two bots, traced.

A real ``ra serve`` on loopback (a fresh SQLite file, the game's deal fixed by ``--seed``) and
Debian's Chromium through Playwright, as the browser tests drive it (software drawing, reduced
motion). The person's page clicks legal actions until the game is over while Chromium's trace
records it; the script prints how long the page's main thread was busy, how much of it was the
page's handling of the server's messages, how much went on layouts the page's own script forced
(reading a size or a scroll position after writing the page) and the script lines that forced
them, how long the raster workers drew the page's tiles again (a tile is drawn again when
anything in it changed), and the processor time of all Chromium's processes over the game (the
trace's own cost included). ``--server-path`` runs the server (and so the pages it serves) from
another checkout's ``src`` (a before/after in one run, as the machines are shared and noisy)::

    python benchmarks/table_page.py --runs 2
    python benchmarks/table_page.py --server-path /tmp/old/src --json
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from web_load import cpu_of, family  # a sibling: benchmarks/ is the script's own folder

CATEGORIES = [
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "disabled-by-default-devtools.timeline.stack",
    "toplevel",
    "blink",
]
"""Chromium's trace categories: the timeline's tasks, layouts and script calls, with the script's
stack where a layout was forced."""
MAIN = "CrRendererMain"


def browser_cpu() -> float:
    """Processor seconds so far of this process's descendants that are Chromium (its browser,
    renderer and GPU processes; not the server)."""

    def chromium(pid: int) -> bool:
        try:
            return b"chromium" in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0]
        except OSError:
            return False

    return cpu_of(p for p in family(os.getpid()) if chromium(p))


def play_traced(base: str, trace: Path, seed: int) -> dict[str, Any]:
    """One whole game by clicks at a new table (a person against two easy bots), traced."""
    from tests.web.chromium import CHROMIUM
    from tests.web.client import create
    from tests.web.test_browser import ARGS, decisions, new_page, play, sync_api

    table = create(
        base, [{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]
    )
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = new_page(browser)
        page.goto(base + table["link"])
        browser.start_tracing(page=page, path=str(trace), categories=CATEGORIES)
        started, cpu = time.monotonic(), browser_cpu()
        clicks = play(page, random.Random(seed))  # the browser tests' whole game by clicks
        seconds, cpu = time.monotonic() - started, browser_cpu() - cpu
        browser.stop_tracing()
        decided = decisions(page)
        browser.close()
    return {
        "decisions": decided,
        "clicks": clicks,
        "seconds": round(seconds, 1),
        "browser_cpu_s": round(cpu, 2),  # the trace's own cost included
    }


def trace_events(trace: Path) -> list[dict[str, Any]]:
    data = json.loads(trace.read_text())
    return list(data["traceEvents"] if isinstance(data, dict) else data)


def raster(events: list[dict[str, Any]]) -> dict[str, Any]:
    """How long the raster workers drew the page's tiles, and how many tiles they drew."""
    tiles = [e for e in events if e.get("ph") == "X" and e.get("name") == "RasterTask" and "dur" in e]
    return {"raster_s": round(sum(float(e["dur"]) for e in tiles) / 1e6, 3), "tiles_drawn": len(tiles)}


def main_thread_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The complete events of the page's main thread."""
    main = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("ph") == "M" and e.get("name") == "thread_name" and e["args"].get("name") == MAIN
    }
    return [e for e in events if e.get("ph") == "X" and "dur" in e and (e["pid"], e["tid"]) in main]


def where(frame: dict[str, Any]) -> str:
    script = str(frame.get("url", "")).rsplit("/", 1)[-1]
    return f"{frame.get('functionName') or '(anonymous)'} {script}:{frame.get('lineNumber')}"


def summary(events: list[dict[str, Any]]) -> dict[str, Any]:
    """Busy time, message handling and forced layouts (seconds), and what forced the layouts."""

    def total(name: str) -> float:
        return round(sum(float(e["dur"]) for e in events if e["name"] == name) / 1e6, 3)

    calls = sorted((e for e in events if e["name"] == "FunctionCall"), key=lambda e: e["ts"])
    messages = [c for c in calls if c["args"].get("data", {}).get("functionName") == "ws.onmessage"]
    forced = [e for e in events if e["name"] == "Blink.ForcedStyleAndLayout.UpdateTime"]
    stacks: Counter[str] = Counter()
    for e in events:
        frames = e.get("args", {}).get("beginData", {}).get("stackTrace")
        if e["name"] == "Layout" and frames:
            stacks[" < ".join(where(f) for f in frames[:3])] += e["dur"] / 1e6
    starts = [m["ts"] for m in messages]
    in_messages = 0
    for f in forced:
        i = bisect.bisect_right(starts, f["ts"]) - 1
        in_messages += i >= 0 and f["ts"] <= messages[i]["ts"] + messages[i]["dur"]
    return {
        "main_thread_busy_s": total("ThreadControllerImpl::RunTask"),
        "messages": len(messages),
        "message_handling_s": round(sum(m["dur"] for m in messages) / 1e6, 3),
        "forced_layouts": len(forced),
        "forced_layouts_while_handling_a_message": in_messages,
        "forced_layout_s": total("Blink.ForcedStyleAndLayout.UpdateTime"),
        "forced_by": {k: round(v, 3) for k, v in stacks.most_common(5)},
    }


def run_once(seed: int, server_path: str | None) -> dict[str, Any]:
    from ra.web.testing import Server

    env = {"RA_MESSAGE_RATE": "1000", "RA_GAME_SEED": str(seed)}
    if server_path:
        env["PYTHONPATH"] = server_path
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(f"sqlite:///{Path(tmp) / 'ra.db'}", Path(tmp) / "server.log", env=env).start()
        try:
            game = play_traced(server.url, Path(tmp) / "trace.json", seed)
            events = trace_events(Path(tmp) / "trace.json")
            return {**game, **summary(main_thread_events(events)), **raster(events)}
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=77, help="the game's deal and the person's clicks")
    parser.add_argument("--runs", type=int, default=1, help="games, one after another")
    parser.add_argument("--server-path", default=None, help="run the server from this src/ (a before/after)")
    parser.add_argument("--json", action="store_true", help="print one JSON object a run")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.server_path:
        os.environ["RA_TEST_FORK"] = "0"  # forked from this process, the server would run our code
    for run in range(args.runs):
        result = run_once(args.seed, args.server_path)
        if args.json:
            print(json.dumps(result))
            continue
        print(f"run {run + 1}:")
        for key, value in result.items():
            if isinstance(value, dict):
                print(f"{key:>42}:")
                for where_, seconds in value.items():
                    print(f"{seconds:>48.3f} s  {where_}")
            else:
                print(f"{key:>42}: {value}")


if __name__ == "__main__":
    main()
