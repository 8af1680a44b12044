"""How long a whole game's analysis and a hint take (issue 53 asks 30 s and 1 s).

Run:  PYTHONPATH=src:. python benchmarks/analysis_speed.py [--players 3] [--budget expert] [--jobs 2]
                                                         [--hints 10] [--seed 53]

Plays one game of ``medium`` bots (hidden scores), then times: the analysis of every seat's
decisions at ``--budget`` in ``--jobs`` processes (``ra analyze``'s work), the chances given who
is playing for the whole game (:func:`ra.analysis.game.given_curve`), and ``--hints`` hints at
the hints' default budget on positions spread over the game (one process, as a hint is made).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import ra
from ra import bots
from ra.analysis.chances import LEVEL_STRENGTH
from ra.analysis.game import analyse_game, decisions_to_analyse, given_curve
from ra.bots.advisor import DEFAULT_BUDGET, Advisor


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--budget", default=DEFAULT_BUDGET)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--hints", type=int, default=10)
    parser.add_argument("--seed", type=int, default=53)
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

    times = []
    probe = ra.Game.from_setup(game.setup)
    every = max(1, len(judged) // max(1, args.hints))
    picked = set(judged[::every][: args.hints])
    for index, action in enumerate(game.decisions):
        if index in picked:
            seat = probe.to_move
            assert seat is not None
            start = time.perf_counter()
            Advisor(DEFAULT_BUDGET, seed=0).evaluate(probe.view(seat))
            times.append(time.perf_counter() - start)
        probe.apply(action)
    if times:
        print(
            f"a hint at {DEFAULT_BUDGET!r}: median {statistics.median(times):.2f} s, max {max(times):.2f} s"
        )

    start = time.perf_counter()
    analyse_game(game, budget=args.budget, jobs=args.jobs)
    print(f"whole analysis at {args.budget!r}, {args.jobs} processes: {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
