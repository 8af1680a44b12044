"""Bot strength benchmark: the arena on fixed seeds, printing win rates.

Run:  python benchmarks/strength.py [--jobs 2] [--scale 1.0] [--json out.json]

Three matches, seats rotated with duplicate deals (every deal is played once
per seat rotation, so luck cancels out):

1. 3 players: ``greedy`` against two ``random`` bots (target: greedy wins >= 60%);
2. 3 players: ``mcts`` at its ``hard`` level against two ``greedy`` bots
   (target >= 55%; chance is 33%);
3. 2 players: ``mcts:hard`` against ``greedy`` (target >= 60%).

Each line gives the win rate with its 95% (Wilson) confidence interval and the
mean thinking time per decision.  ``--scale`` multiplies the number of games
(the defaults take about three hours on a 2-core machine with 2 jobs).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

from ra import arena, bots

MATCHES: list[dict[str, Any]] = [
    {"name": "greedy vs 2 random (3p)", "bots": ["greedy", "random", "random"], "players": 3,
     "games": 300, "bot": "greedy", "target": 0.60},
    {"name": "mcts:hard vs 2 greedy (3p)", "bots": ["mcts:hard", "greedy", "greedy"], "players": 3,
     "games": 150, "bot": "mcts:hard", "target": 0.55},
    {"name": "mcts:hard vs greedy (2p)", "bots": ["mcts:hard", "greedy"], "players": 2,
     "games": 100, "bot": "mcts:hard", "target": 0.60},
]  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel processes")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the number of games")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the deals")
    parser.add_argument("--only", type=int, choices=[1, 2, 3], action="append", help="run only these matches")
    parser.add_argument("--json", metavar="PATH", help="also write the numbers as JSON")
    args = parser.parse_args(argv)

    print(f"hard = mcts with {bots.MCTS_ITERATIONS['hard']} iterations per decision; jobs = {args.jobs}")
    report = []
    for number, match in enumerate(MATCHES, 1):
        if args.only and number not in args.only:
            continue
        players = match["players"]
        games = max(players, round(match["games"] * args.scale))
        specs = arena.schedule(match["bots"], players, games, seed=args.seed + number, duplicate=True)
        start = time.perf_counter()
        results, interrupted = arena.run_games(specs, jobs=args.jobs)
        elapsed = time.perf_counter() - start
        summary = {b.bot: b for b in arena.summarize(results)}
        b = summary[match["bot"]]
        met = b.win_rate >= match["target"]
        line = (
            f"{match['name']:<28} {b.wins:>5g}/{b.games:<4} = {100 * b.win_rate:5.1f}% "
            f"(95% CI {100 * b.ci_low:.1f}-{100 * b.ci_high:.1f}%), target {100 * match['target']:.0f}%: "
            f"{'met' if met else 'NOT met'}; {b.ms_per_decision:.0f} ms/decision; {elapsed / 60:.1f} min"
        )
        print(line, flush=True)
        others = ", ".join(
            f"{o.bot} {100 * o.win_rate:.1f}% ({o.ms_per_decision:.1f} ms)"
            for o in summary.values()
            if o is not b
        )
        print(f"{'':<28} others: {others}", flush=True)
        report.append(
            {
                "match": match["name"],
                "games": len(results),
                "interrupted": interrupted,
                "minutes": round(elapsed / 60, 2),
                "target": match["target"],
                "met": met,
                "summary": [s.to_dict() for s in summary.values()],
            }
        )
        if interrupted:
            break
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"python": sys.version.split()[0], "jobs": args.jobs, "matches": report}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
