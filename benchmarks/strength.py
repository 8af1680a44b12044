"""Bot strength benchmark: the arena on fixed seeds, printing win rates.

Run:  python benchmarks/strength.py [--jobs 2] [--scale 1.0] [--json out.json]

The matches, seats rotated with duplicate deals (every deal is played once
per seat rotation, so luck cancels out):

1. 3 players: ``greedy`` against two ``random`` bots (target: greedy wins >= 60%);
2. 3 players: ``mcts`` at its ``hard`` level against two ``greedy`` bots
   (target >= 55%; chance is 33%);
3. 2 players: ``mcts:hard`` against ``greedy`` (target >= 60%);
4. 2 players: ``hard`` (the native search when the core is built) against today's pure-Python
   hard (``mcts:iterations=1200:native=false``), target >= 70%;
5. 3 players: ``hard`` against two Python hards; the target (>= 70%) is on the head-to-head
   rate (the share of old-hard seats it finishes ahead of; R8.1 order), its win rate is shown too
   (chance 33%);
6. 3 players: the hint follower (``advisor``: always plays the advisor's best action at the
   hints' default budget, :mod:`ra.bots.advisor`) against two ``hard`` bots (target >= 33%, its
   fair share);
7. 2 players: the hint follower against ``hard`` (target >= 50%);
8. 2 players: the hint follower against the flat-evaluator follower (the advice before the
   search: flat Monte Carlo, the browser's 1.5 s budget), target >= 60%;
9. 2 players: ``hard`` (tuned weights, ``ra.bots.valuation.SEARCH_WEIGHTS``) against the hand-set
   ``hard:weights=default`` (the hard before the tuning), target >= 65%;
10. 3 players: ``hard`` against two hand-set hards (target >= 65% on the head-to-head rate);
11. 2 players: ``expert`` against the hand-set hard, target >= 75%;
12. 3 players: ``expert`` against two hand-set hards (target >= 75% on the head-to-head rate).

``--calibrate hard`` (or ``expert``) instead times a level: one game per player count (2-5)
with the level in every seat, printing the process CPU seconds per decision (mean, 90th
percentile, max) — how the native budgets of ``ra.bots.NATIVE_MCTS_ITERATIONS`` (by player count) were chosen.

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
from functools import partial
from typing import Any

import ra
from ra import arena, bots

OLD_HARD = "mcts:iterations=1200:native=false"
"""Today's hard level: the pure-Python search at 1,200 iterations a decision."""

FLAT_FOLLOWER = "advisor:flat=true:budget=1.5s"
"""A player who follows the advice as it was before the search: the flat evaluator, 1.5 s."""

HAND_SET_HARD = "hard:weights=default"
"""The hard level before its weights were tuned (ra.bots.valuation.SEARCH_WEIGHTS)."""

MATCHES: list[dict[str, Any]] = [
    {"name": "greedy vs 2 random (3p)", "bots": ["greedy", "random", "random"], "players": 3,
     "games": 300, "bot": "greedy", "target": 0.60},
    {"name": "mcts:hard vs 2 greedy (3p)", "bots": ["mcts:hard", "greedy", "greedy"], "players": 3,
     "games": 150, "bot": "mcts:hard", "target": 0.55},
    {"name": "mcts:hard vs greedy (2p)", "bots": ["mcts:hard", "greedy"], "players": 2,
     "games": 100, "bot": "mcts:hard", "target": 0.60},
    {"name": "hard vs Python hard (2p)", "bots": ["hard", OLD_HARD], "players": 2,
     "games": 40, "bot": "hard", "target": 0.70},
    {"name": "hard vs 2 Python hard (3p)", "bots": ["hard", OLD_HARD, OLD_HARD], "players": 3,
     "games": 24, "bot": "hard", "target": 0.70, "head_to_head": OLD_HARD},
    {"name": "hint follower vs 2 hard (3p)", "bots": ["advisor", "hard", "hard"], "players": 3,
     "games": 60, "bot": "advisor", "target": 1 / 3},
    {"name": "hint follower vs hard (2p)", "bots": ["advisor", "hard"], "players": 2,
     "games": 40, "bot": "advisor", "target": 0.50},
    {"name": "follower vs flat follower (2p)", "bots": ["advisor", FLAT_FOLLOWER], "players": 2,
     "games": 40, "bot": "advisor", "target": 0.60},
    {"name": "hard vs hand-set hard (2p)", "bots": ["hard", HAND_SET_HARD], "players": 2,
     "games": 40, "bot": "hard", "target": 0.65},
    {"name": "hard vs 2 hand-set hard (3p)", "bots": ["hard", HAND_SET_HARD, HAND_SET_HARD], "players": 3,
     "games": 30, "bot": "hard", "target": 0.65, "head_to_head": HAND_SET_HARD},
    {"name": "expert vs hand-set hard (2p)", "bots": ["expert", HAND_SET_HARD], "players": 2,
     "games": 40, "bot": "expert", "target": 0.75},
    {"name": "expert vs 2 hand-set hard (3p)", "bots": ["expert", HAND_SET_HARD, HAND_SET_HARD], "players": 3,
     "games": 30, "bot": "expert", "target": 0.75, "head_to_head": HAND_SET_HARD},
]  # fmt: skip


def report_game(
    done: list[arena.GameResult], total: int, bot: str, other: str | None, result: arena.GameResult
) -> None:
    """A progress line after each game (long matches can be read before they end)."""
    done.append(result)
    wins = sum(1 for g in done if g.error is None and g.seats[g.winner] == bot)
    ahead = ""
    if other is not None:
        h = ahead_of(done, bot, other)
        ahead = f", ahead of {h.ahead}/{h.pairs} {other} seats"
    mine = [1000 * g.seconds[i] / g.decisions[i] for g in done for i, b in enumerate(g.seats) if b == bot]
    rest = [1000 * g.seconds[i] / g.decisions[i] for g in done for i, b in enumerate(g.seats) if b != bot]
    print(
        f"  game {len(done)}/{total}: {bot} won {wins}{ahead}; {sum(mine) / len(mine):.0f} ms/decision "
        f"(others {sum(rest) / len(rest):.0f} ms)",
        flush=True,
    )


def calibrate(level: str, seed: int, counts: tuple[int, ...] = (2, 3, 4, 5)) -> None:
    """Process CPU seconds per real decision of ``level`` in every seat, one game per player count."""
    search = "native" if ra.native_available() else "Python"
    print(f"{level}: {bots.LEVEL_HELP[level]}; {search} search, process CPU time")
    for players in counts:
        game = ra.Game(players, seed=seed + players)
        seated = [bots.make(level, seed=seed + i) for i in range(players)]
        times = []
        while not game.is_over():
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            start = time.process_time()
            action = seated[seat].choose(view)
            if len(view.legal_actions()) > 1:
                times.append(time.process_time() - start)
            game.apply(action)
        times.sort()
        print(
            f"  {players} players ({bots.MCTS_ITERATIONS[level][players - 2]:,} iterations): "
            f"{len(times)} decisions, mean {sum(times) / len(times):.3f} s, "
            f"90% {times[int(0.9 * len(times))]:.3f} s, max {times[-1]:.3f} s",
            flush=True,
        )


def player_counts(text: str) -> tuple[int, ...]:
    """``--players``: player counts such as ``4,5`` (each 2 to 5)."""
    try:
        counts = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"player counts are numbers such as 4,5, got {text!r}") from None
    if not counts or any(not ra.MIN_PLAYERS <= n <= ra.MAX_PLAYERS for n in counts):
        raise argparse.ArgumentTypeError(f"player counts are 2 to 5, got {text!r}")
    return counts


def ahead_of(results: list[arena.GameResult], bot: str, other: str) -> arena.HeadToHead:
    """How often ``bot`` finished ahead of ``other``'s seats (no pairs: 0 of 0)."""
    for h in arena.head_to_head(results):
        if (h.bot, h.other) == (bot, other):
            return h
    return arena.HeadToHead(bot, other, 0, 0, 0.0, *arena.wilson_interval(0, 0))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel processes")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the number of games")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the deals")
    parser.add_argument(
        "--only", type=int, choices=range(1, len(MATCHES) + 1), action="append", help="run only these matches"
    )
    parser.add_argument("--progress", action="store_true", help="print a line after every game")
    parser.add_argument("--json", metavar="PATH", help="also write the numbers as JSON")
    parser.add_argument("--calibrate", choices=bots.LEVELS[1:], help="time a level instead (CPU s/decision)")
    parser.add_argument(
        "--players",
        type=player_counts,
        default=(2, 3, 4, 5),
        help="with --calibrate: the player counts (default 2,3,4,5)",
    )
    args = parser.parse_args(argv)
    if args.calibrate:
        calibrate(args.calibrate, args.seed, args.players)
        return 0

    search = "native" if ra.native_available() else "pure-Python"
    print(f"hard = {search} mcts, {bots.LEVEL_HELP['hard']}; jobs = {args.jobs}")
    report = []
    for number, match in enumerate(MATCHES, 1):
        if args.only and number not in args.only:
            continue
        players = match["players"]
        games = max(players, round(match["games"] * args.scale))
        specs = arena.schedule(match["bots"], players, games, seed=args.seed + number, duplicate=True)
        start = time.perf_counter()
        progress = (
            partial(report_game, [], len(specs), match["bot"], match.get("head_to_head"))
            if args.progress
            else None
        )
        results, interrupted = arena.run_games(specs, jobs=args.jobs, on_result=progress)
        elapsed = time.perf_counter() - start
        summary = {b.bot: b for b in arena.summarize(results)}
        b = summary[match["bot"]]
        rate, low, high, what = b.win_rate, b.ci_low, b.ci_high, f"{b.wins:>5g}/{b.games:<4}"
        if "head_to_head" in match:
            h = ahead_of(results, match["bot"], match["head_to_head"])
            rate, low, high = h.share, h.ci_low, h.ci_high
            what = f"ahead {h.ahead}/{h.pairs} (wins {b.wins:g}/{b.games})"
        met = rate >= match["target"]
        line = (
            f"{match['name']:<28} {what} = {100 * rate:5.1f}% "
            f"(95% CI {100 * low:.1f}-{100 * high:.1f}%), target {100 * match['target']:.0f}%: "
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
