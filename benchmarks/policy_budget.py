"""One generation of an expert-iteration run against ``expert`` at another budget (docs/training.md).

Both sides search ``--iterations`` a decision (the generation with its policy as PUCT prior,
``expert`` with its settings; ``--expert-iterations`` gives the expert another budget): duplicate
deals, seats rotated, hidden scores, 95% interval.  Games are logged in the run's folder
(``gen<k>/budget_<n>_<m>_<players>p.jsonl``, apart from the run's own matches), so a cut-off match continues.

    python benchmarks/policy_budget.py runs/baseline --generation 3 --iterations 5000 --games 60
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.progress import Progress

from ra.train.measure import Lineup, play_match, summary


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("run", type=Path, help="the run's folder (python -m ra.train)")
    parser.add_argument("--generation", type=int, default=3, help="the generation to measure")
    parser.add_argument("--iterations", type=int, default=5000, help="its search's budget a decision")
    parser.add_argument("--expert-iterations", type=int, default=0, help="the expert's (0: the same)")
    parser.add_argument("--players", type=int, default=2, help="2: one against one; 3+: one against experts")
    parser.add_argument("--games", type=int, default=60, help="games (rounded up to whole rotations)")
    parser.add_argument("--seed", type=int, default=5, help="the deals' seed")
    args = parser.parse_args()
    config = json.loads((args.run / "config.json").read_text(encoding="utf-8"))
    lineup = Lineup(args.run, args.iterations, config["c_puct"])
    gen = f"gen{args.generation}"
    expert = f"expert:iterations={args.expert_iterations or args.iterations}"
    seats = [gen] + [expert] * (args.players - 1)
    name = f"budget_{args.iterations}_{args.expert_iterations or args.iterations}_{args.players}p"
    log = args.run / gen / f"{name}.jsonl"
    with Progress() as progress:
        task = progress.add_task(name, total=-(-args.games // args.players) * args.players)
        results = play_match(lineup, seats, args.games, args.seed, log, lambda: progress.advance(task))
    print(json.dumps(summary(results, gen, expert), indent=1))


if __name__ == "__main__":
    main()
