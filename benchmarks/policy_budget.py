"""One generation of an expert-iteration run against ``expert`` at another budget (docs/training.md).

Both sides search ``--iterations`` a decision (the generation with its policy as PUCT prior,
``expert`` with its settings; ``--expert-iterations`` gives the expert another budget): duplicate
deals, seats rotated, hidden scores, 95% interval.  Games are logged in the run's folder
(``gen<k>/budget_<n>_<m>_<players>p.jsonl``, apart from the run's own matches), so a cut-off match continues.

    python benchmarks/policy_budget.py runs/baseline --generation 3 --iterations 5000 --games 60

``--shipped`` measures the policy that ships with the package (``ra/data/policy.json``, the
baseline's generation 3, PUCT weight 1) instead of a run's; the folder then keeps its games' log:

    python benchmarks/policy_budget.py runs/shipped --shipped --iterations 150000 --games 30 --seed 5

``--c-puct`` searches with another prior weight than the run's (``config.json``); its games go to
a log of their own (``budget_<n>_<m>_<players>p_c<weight>.jsonl``), so weights never mix.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.progress import Progress

from ra.bots.policy import C_PUCT, SHIPPED_POLICY
from ra.train.measure import Lineup, play_match, summary


def shipped_run(folder: Path, generation: int) -> None:
    """Lay out ``folder`` as a run whose generation ``generation`` is the shipped policy, with the
    PUCT weight it was searched with (:data:`ra.bots.policy.C_PUCT`)."""
    policy = folder / f"gen{generation}" / "policy.json"
    policy.parent.mkdir(parents=True, exist_ok=True)
    if not policy.exists():
        policy.write_bytes(SHIPPED_POLICY.read_bytes())
    if not (folder / "config.json").exists():
        (folder / "config.json").write_text(json.dumps({"c_puct": C_PUCT}), encoding="utf-8")


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
    parser.add_argument("--shipped", action="store_true", help="the package's own policy, not a run's")
    parser.add_argument(
        "--c-puct", type=float, default=None, help="the prior's weight (default: the run's config.json)"
    )
    args = parser.parse_args()
    if args.shipped:
        if not SHIPPED_POLICY.is_file():
            parser.error("no policy is shipped with this package (ra/data/policy.json)")
        shipped_run(args.run, args.generation)
    for need in (args.run / "config.json", args.run / f"gen{args.generation}" / "policy.json"):
        if not need.is_file():
            parser.error(f"{need} not found: give a run's folder (python -m ra.train) or --shipped")
    if args.c_puct is not None and not 0.0 <= args.c_puct <= 100.0:
        parser.error(f"--c-puct must be from 0 to 100, got {args.c_puct:g}")
    config = json.loads((args.run / "config.json").read_text(encoding="utf-8"))
    c_puct = config["c_puct"] if args.c_puct is None else args.c_puct
    lineup = Lineup(args.run, args.iterations, c_puct)
    gen = f"gen{args.generation}"
    expert = f"expert:iterations={args.expert_iterations or args.iterations}"
    seats = [gen] + [expert] * (args.players - 1)
    name = f"budget_{args.iterations}_{args.expert_iterations or args.iterations}_{args.players}p"
    if args.c_puct is not None:
        name += f"_c{args.c_puct:g}"
    log = args.run / gen / f"{name}.jsonl"
    with Progress() as progress:
        task = progress.add_task(name, total=-(-args.games // args.players) * args.players)
        results = play_match(lineup, seats, args.games, args.seed, log, lambda: progress.advance(task))
    print(json.dumps(summary(results, gen, expert), indent=1))


if __name__ == "__main__":
    main()
