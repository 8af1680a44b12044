"""How long a whole game's analysis and a hint take (issue 53 asks 30 s and 1 s).

Run:  PYTHONPATH=src:. python benchmarks/analysis_speed.py [--players 3] [--budget expert] [--jobs 2]
                                                         [--hints 10] [--seed 53] [--no-full]

Plays one game of ``medium`` bots (hidden scores), then times: the chances given who is playing
for the whole game (:func:`ra.analysis.game.given_curve`); ``--hints`` hints on positions spread
over the game (one process, as a hint is made) from the model alone, at the quick budget, at the
hints' default budget (``hard``) and at ``expert``'s (median and 90th percentile); the default
analysis of every seat's decisions (a short search on each, the full one on the costliest) and
the full one (every decision at the budget, ``ra analyze --deep``; skipped with ``--no-full``),
both at ``--budget`` in ``--jobs`` processes, in the same run so that their ratio holds on a
loaded machine.  Each time is given as the wall clock's and as the processor time used (this
process' and its workers'): on a shared machine the wall clock counts the other programs' turns
too, the processor time is what the work itself took (divided by ``--jobs``: the wall clock on
as many idle cores).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from collections.abc import Callable

import ra
from ra import bots
from ra.analysis.analyse import analyse_game
from ra.analysis.chances import LEVEL_STRENGTH
from ra.analysis.game import DEFAULT_SEARCHES, decisions_to_analyse, given_curve
from ra.analysis.quick import model_hint
from ra.bots.advisor import DEFAULT_BUDGET, HINT_BUDGET, Advisor, quick_hint
from ra.bots.evaluate import Evaluation
from ra.views import PlayerView


def budget_hint(budget: str) -> Callable[[PlayerView], Evaluation]:
    """A hint at ``budget`` (a level's search)."""
    return lambda view: Advisor(budget, seed=0).evaluate(view)


HINTS: dict[str, Callable[[PlayerView], Evaluation]] = {
    "the model alone": model_hint,
    "quick": quick_hint,
    f"the default, {HINT_BUDGET!r}": budget_hint(HINT_BUDGET),
    repr(DEFAULT_BUDGET): budget_hint(DEFAULT_BUDGET),
}


def cpu() -> float:
    """Processor seconds used so far by this process and its finished workers."""
    own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def spread(times: list[float]) -> str:
    """``median X s, p90 Y s`` of ``times``."""
    p90 = sorted(times)[min(len(times) - 1, int(0.9 * len(times)))]
    return f"median {statistics.median(times):.2f} s, p90 {p90:.2f} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--budget", default=DEFAULT_BUDGET)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--hints", type=int, default=10)
    parser.add_argument("--seed", type=int, default=53)
    parser.add_argument("--no-full", action="store_true", help="skip the full analysis (minutes)")
    args = parser.parse_args(argv)
    game = ra.Game(players=args.players, seed=args.seed, hidden_scores=True)
    seated = [bots.from_spec("medium", seed=i) for i in range(args.players)]
    while not game.is_over():
        mover = game.to_move
        assert mover is not None
        game.apply(seated[mover].choose(game.view(mover)))
    judged = decisions_to_analyse(game, range(args.players))
    total = game.num_decisions
    print(f"a {args.players}-player game of medium bots: {total} decisions, {len(judged)} with a choice")

    start = time.perf_counter()
    given_curve(game, [LEVEL_STRENGTH["medium"]] * args.players)
    print(f"chances given who is playing, whole game: {time.perf_counter() - start:.2f} s")

    views = hint_views(game, judged, args.hints)
    for name, hint in HINTS.items():
        wall, used = [], []
        for view in views:
            start, spent = time.perf_counter(), time.process_time()
            hint(view)
            wall.append(time.perf_counter() - start)
            used.append(time.process_time() - spent)
        if wall:
            print(f"a hint, {name}: wall {spread(wall)}; processor {spread(used)}")

    start, spent = time.perf_counter(), cpu()
    quick = analyse_game(game, budget=args.budget, jobs=args.jobs)
    fast, fast_cpu = time.perf_counter() - start, cpu() - spent
    searched = sum(d.searched for d in quick.decisions)
    print(
        f"default analysis (a short search on each, the full one on at most {DEFAULT_SEARCHES}:"
        f" {searched} searched) at {args.budget!r}, {args.jobs} processes: wall {fast:.1f} s,"
        f" processor {fast_cpu:.1f} s ({fast_cpu / args.jobs:.1f} s a process)"
    )
    if not args.no_full:
        start, spent = time.perf_counter(), cpu()
        analyse_game(game, budget=args.budget, jobs=args.jobs, searches=None)
        full, full_cpu = time.perf_counter() - start, cpu() - spent
        print(
            f"full analysis (every decision searched) at {args.budget!r}, {args.jobs} processes:"
            f" wall {full:.0f} s, processor {full_cpu:.0f} s"
        )
        print(
            f"the default analysis takes {fast / full:.1%} of the full one's wall time"
            f" and {fast_cpu / full_cpu:.1%} of its processor time"
        )
    return 0


def hint_views(game: ra.Game, judged: list[int], count: int) -> list[PlayerView]:
    """The movers' views at ``count`` of the ``judged`` decisions, spread over the game."""
    probe = ra.Game.from_setup(game.setup)
    every = max(1, len(judged) // max(1, count))
    picked = set(judged[::every][:count])
    views = []
    for index, action in enumerate(game.decisions):
        if index in picked:
            seat = probe.to_move
            assert seat is not None
            views.append(probe.view(seat))
        probe.apply(action)
    return views


if __name__ == "__main__":
    sys.exit(main())
