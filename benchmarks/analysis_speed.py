"""How long a whole game's analysis and a hint take (issue 53 asks 30 s and 1 s).

Run:  PYTHONPATH=src:. python benchmarks/analysis_speed.py [--players 3] [--budget expert] [--jobs 2]
                                                         [--hints 10] [--seed 53] [--no-full]

Plays one game of ``medium`` bots (hidden scores), then times: the chances given who is playing
for the whole game (:func:`ra.analysis.game.given_curve`); ``--hints`` hints on positions spread
over the game (one process, as a hint is made) from the model alone, at the quick budget and at
the hints' default budget; the default analysis of every seat's decisions (the model, and the
search on the costliest) and the full one (every decision searched, ``ra analyze --deep``;
skipped with ``--no-full``), both at ``--budget`` in ``--jobs`` processes, in the same run so
that their ratio holds on a loaded machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable

import ra
from ra import bots
from ra.analysis.chances import LEVEL_STRENGTH
from ra.analysis.game import DEFAULT_SEARCHES, analyse_game, decisions_to_analyse, given_curve
from ra.analysis.quick import model_hint
from ra.bots.advisor import DEFAULT_BUDGET, Advisor, quick_hint
from ra.bots.evaluate import Evaluation
from ra.views import PlayerView


def expert_hint(view: PlayerView) -> Evaluation:
    """A hint at the hints' default budget (what the site and the terminal give today)."""
    return Advisor(DEFAULT_BUDGET, seed=0).evaluate(view)


HINTS: dict[str, Callable[[PlayerView], Evaluation]] = {
    "the model alone": model_hint,
    "quick": quick_hint,
    repr(DEFAULT_BUDGET): expert_hint,
}


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
        times = []
        for view in views:
            start = time.perf_counter()
            hint(view)
            times.append(time.perf_counter() - start)
        if times:
            print(f"a hint, {name}: median {statistics.median(times):.2f} s, max {max(times):.2f} s")

    start = time.perf_counter()
    quick = analyse_game(game, budget=args.budget, jobs=args.jobs)
    fast = time.perf_counter() - start
    searched = sum(d.searched for d in quick.decisions)
    print(
        f"default analysis (the model, the search on at most {DEFAULT_SEARCHES}: {searched} searched)"
        f" at {args.budget!r}, {args.jobs} processes: {fast:.1f} s"
    )
    if not args.no_full:
        start = time.perf_counter()
        analyse_game(game, budget=args.budget, jobs=args.jobs, searches=None)
        full = time.perf_counter() - start
        print(
            f"full analysis (every decision searched) at {args.budget!r}, {args.jobs} processes: {full:.0f} s"
        )
        print(
            f"the default analysis takes {fast / full:.1%} of the full one's time"
            f" ({full / fast:.0f} times faster)"
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
