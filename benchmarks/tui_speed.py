"""How much work the terminal game does per decision: a scripted whole game, headless.

Run:  PYTHONPATH=src python benchmarks/tui_speed.py [--compare REV [--rounds 3]] [--lang de]
                                                   [--edition 2016] [--seed 7] [--size 80x24]

Plays the game of ``tests/tui/test_languages.py`` (3 players: a person who always takes the first
offered action by its key, and 2 easy bots; no delay) through Textual's ``run_test`` and prints
the wall clock, the processor time, the screen's layouts (Textual's ``Screen._refresh_layout``),
the time spent in them, and the decisions.  Each run is a fresh process of its own.  With
``--compare REV`` the same game is played first by the code of ``REV`` (a temporary git worktree,
given this tree's native core) and then by this tree's, one after the other in the same call, and
the ratios are printed (of the medians of ``--rounds`` games each, taking turns): on a shared
machine compare within one call, not across calls, and read the processor time and the layouts
rather than the wall clock.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
"""This tree (its ``src`` is the new code)."""

SETTLE_PAUSES = 4000
"""Pauses of 5 ms a turn may take before the run gives up (a bot's move, a layout)."""


def cpu() -> float:
    """Processor seconds used so far by this process (its threads: the bots' searches too)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def count_layouts() -> dict[str, float]:
    """Count the screens' layouts and the time they take, from now on (a wrapper on Textual's
    ``Screen._refresh_layout``, the one place a screen is laid out)."""
    from textual.screen import Screen

    counts = {"layouts": 0.0, "layout_s": 0.0}
    original = Screen._refresh_layout

    def counted(self: Screen[object], *args: object, **kw: object) -> None:
        start = time.perf_counter()
        try:
            original(self, *args, **kw)  # type: ignore[arg-type]
        finally:
            counts["layouts"] += 1
            counts["layout_s"] += time.perf_counter() - start

    Screen._refresh_layout = counted  # type: ignore[method-assign,assignment]
    return counts


def play_one(lang: str, edition: str, seed: int, size: tuple[int, int]) -> dict[str, float]:
    """Play the whole scripted game in this process; its numbers."""
    from textual.pilot import Pilot

    from ra.tui import PlayApp, Session, plan_seats
    from ra.tui.pages import TextScreen

    counts = count_layouts()
    seats = plan_seats(3, [], ["easy", "easy"], None, lang)
    with tempfile.TemporaryDirectory() as tmp:
        session = Session.new(seats, seed=seed, save_path=Path(tmp) / "s.json")
        app = PlayApp(session, delay=0, edition=edition, lang=lang)
        keys = 0

        async def settle(pilot: Pilot[None]) -> None:
            for _ in range(SETTLE_PAUSES):
                if isinstance(app.screen, TextScreen) or (session.game.is_over() and not app.bots.thinking):
                    return
                if session.human_to_move() and not app.bots.thinking and (app.moves.keys or app.moves.bids):
                    return
                await pilot.pause(0.005)
            raise RuntimeError("the game did not settle")

        async def main() -> None:
            nonlocal keys
            async with app.run_test(size=size) as pilot:
                await pilot.pause()
                while True:
                    await settle(pilot)
                    if isinstance(app.screen, TextScreen):
                        await pilot.press("enter")
                    elif session.game.is_over():
                        return
                    else:
                        await pilot.press(*first_keys(app))
                        keys += 1
                    await pilot.pause()

        wall, used = time.perf_counter(), cpu()
        asyncio.run(main())
        wall, used = time.perf_counter() - wall, cpu() - used
        decisions = session.game.num_decisions
    return {"wall_s": wall, "cpu_s": used, **counts, "decisions": decisions, "person_turns": keys}


def code_in(src: Path) -> None:
    """Refuse to measure code other than ``src``'s (an installed copy of ra shadowing it)."""
    import ra

    if not Path(ra.__file__).resolve().is_relative_to(src.resolve()):
        raise SystemExit(f"ra comes from {ra.__file__}, not from {src}")


def first_keys(app: object) -> list[str]:
    """The keys that choose the first offered action: its letter, or a bid's number."""
    moves = app.moves  # type: ignore[attr-defined]
    if moves.keys:
        return [next(iter(moves.keys))]
    sun = next(iter(moves.bids))
    longer = any(s.startswith(sun) and s != sun for s in moves.bids)
    return [*sun, "enter"] if longer else [*sun]


def run_in(src: Path, args: argparse.Namespace) -> dict[str, float]:
    """Play the game in a fresh process with ``src`` first on the path; its numbers."""
    command = [sys.executable, __file__, "--one", "--lang", args.lang, "--edition", args.edition]
    command += ["--seed", str(args.seed), "--size", args.size]
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the run in {src} failed:\n{done.stderr}")
    numbers: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return numbers


def old_tree(rev: str, where: Path) -> Path:
    """A worktree of ``rev`` at ``where`` with this tree's native core copied in (it is built,
    not committed); its ``src``."""
    subprocess.run(
        ["git", "-C", str(HERE), "worktree", "add", "--detach", str(where), rev],
        check=True,
        capture_output=True,
    )
    for core in (HERE / "src" / "ra").glob("_core*.so"):
        shutil.copy2(core, where / "src" / "ra" / core.name)
    return where / "src"


def line(name: str, n: dict[str, float]) -> str:
    per = 1000 * n["wall_s"] / max(1, n["decisions"])
    return (
        f"{name:>8}: wall {n['wall_s']:6.1f} s  cpu {n['cpu_s']:6.1f} s  layouts {int(n['layouts']):5d}"
        f" ({n['layout_s']:5.1f} s)  decisions {int(n['decisions'])}  person turns {int(n['person_turns'])}"
        f"  {per:.0f} ms a decision"
    )


def median(runs: list[dict[str, float]]) -> dict[str, float]:
    """Each number's median over ``runs``."""
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def compare(args: argparse.Namespace) -> None:
    """Play the game with ``args.compare``'s code and with this tree's, ``args.rounds`` times
    each, taking turns; print the medians and their ratios."""
    old_runs: list[dict[str, float]] = []
    new_runs: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp) / "old"
        try:
            old_src = old_tree(args.compare, where)
            for _ in range(args.rounds):
                old_runs.append(run_in(old_src, args))
                print(line(args.compare[:8], old_runs[-1]), flush=True)
                new_runs.append(run_in(HERE / "src", args))
                print(line("this", new_runs[-1]), flush=True)
        finally:
            subprocess.run(["git", "-C", str(HERE), "worktree", "remove", "--force", str(where)], check=False)
    old, new = median(old_runs), median(new_runs)
    if args.rounds > 1:
        print(f"medians of {args.rounds} rounds:")
        print(line(args.compare[:8], old))
        print(line("this", new))
    if old["decisions"] != new["decisions"]:
        print(f"note: the games differ ({int(old['decisions'])} and {int(new['decisions'])} decisions)")
    for key in ("wall_s", "cpu_s", "layouts", "layout_s"):
        print(f"{key:>9}: old/new = {old[key] / max(new[key], 1e-9):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", metavar="REV", help="also play with the code of this git revision")
    parser.add_argument("--rounds", type=int, default=1, help="games of each, taking turns (medians)")
    parser.add_argument("--lang", default="de")
    parser.add_argument("--edition", default="2016")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--size", default="80x24", help="columns x lines")
    parser.add_argument("--one", action="store_true", help="play once in this process, print JSON")
    args = parser.parse_args()
    if args.one:
        code_in(Path(os.environ["PYTHONPATH"].split(os.pathsep)[0]))
        cols, rows = (int(x) for x in args.size.split("x"))
        print(json.dumps(play_one(args.lang, args.edition, args.seed, (cols, rows))))
    elif args.compare:
        compare(args)
    else:
        print(line("this", run_in(HERE / "src", args)))


if __name__ == "__main__":
    main()
