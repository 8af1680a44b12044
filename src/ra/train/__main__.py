"""``python -m ra.train RUN_DIR``: rerun the expert-iteration baseline (docs/training.md)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ra.train.pipeline import Run, RunConfig
from ra.train.workers import BACKENDS, Workers, make

HELP = {
    "seed": "the run's seed (deals, searches, fitting)",
    "generations": "generations of policies after generation 0 (the plain search)",
    "games": "self-play games a generation (half at 2 players, half at 3)",
    "chunk": "self-play games a stored chunk (the unit a cut-off run redoes)",
    "iterations": "search iterations a decision (self-play, the generations, hard and expert)",
    "epochs": "passes over the rows when fitting",
    "window": "generations of rows a fit reads (the latest ones)",
}


def main(argv: list[str] | None = None) -> int:
    """Parse the options, run every step not done yet, print the results."""
    default = RunConfig()
    parser = argparse.ArgumentParser(
        prog="python -m ra.train", description=__doc__, formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    parser.add_argument("run", type=Path, help="the run's folder (made if new; a run cut off continues)")
    for name in ("seed", "generations", "games", "chunk", "iterations", "epochs", "window"):
        parser.add_argument(f"--{name}", type=int, default=getattr(default, name), help=HELP[name])
    parser.add_argument("--match-games", type=int, default=default.match_games, help="games of a 2p match")
    parser.add_argument(
        "--match-games-3p", type=int, default=default.match_games_3p, help="games of the 3p match"
    )
    parser.add_argument(
        "--ladder-games", type=int, default=default.ladder_games, help="games against each rung"
    )
    parser.add_argument("--c-puct", type=float, default=default.c_puct, help="the prior's weight in PUCT")
    parser.add_argument(
        "--hidden", default=",".join(map(str, default.hidden)), help="hidden widths, e.g. 128,64"
    )
    parser.add_argument(
        "--value-hidden",
        default="",
        help="also fit a value net (each seat's chance to win) with these hidden widths, e.g. 128,64",
    )
    parser.add_argument("--ladder", default=",".join(default.ladder), help="the ladder's bots")
    parser.add_argument(
        "--start",
        default=default.start,
        metavar="POLICY",
        help="generation 0 searches with this policy as its prior (a policy.json, or 'shipped': the "
        "package's) instead of the plain search: go on from a policy at another budget",
    )
    parser.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=None,
        help="games at once, for self-play and the matches (default: 1 local process; with --backend "
        "ray, one per CPU of the cluster); the rows and the games are the same for any number",
    )
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="local",
        help="where the games are played: this machine's processes, or a Ray cluster (the cluster extra)",
    )
    parser.add_argument(
        "--ray-address",
        "--address",
        dest="address",
        default=None,
        metavar="HOST:PORT",
        help="the Ray cluster's head (`ray start --head`); without it --backend ray starts a local Ray",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    args = parser.parse_args(argv)
    from ra import native_available

    if not native_available():
        parser.error("the baseline needs the native core (a C++ compiler at install; RA_NATIVE unset)")
    config = RunConfig(
        **{k: getattr(args, k) for k in ("seed", "generations", "games", "chunk", "iterations", "epochs")},
        window=args.window,
        match_games=args.match_games,
        match_games_3p=args.match_games_3p,
        ladder_games=args.ladder_games,
        c_puct=args.c_puct,
        hidden=tuple(int(h) for h in args.hidden.split(",")),
        value_hidden=tuple(int(h) for h in args.value_hidden.split(",") if h),
        ladder=tuple(args.ladder.split(",")),
        start=args.start,
    )
    try:  # the folder's settings and the start policy, before any worker starts
        run = Run(args.run, config)
    except ValueError as e:
        parser.error(str(e))
    try:  # Ray missing or a cluster out of reach: one line, no traceback
        workers = make(args.backend, args.jobs, args.address)
    except (ValueError, ConnectionError) as e:
        parser.error(str(e))
    try:
        return _run(run, workers, args.quiet)
    finally:
        workers.close()


def _run(run: Run, workers: Workers, quiet: bool) -> int:
    """Every step not done yet, with progress bars; the generations' results on standard output."""
    run.workers = workers
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, disable=quiet) as progress:
        run.progress = progress
        try:
            report = run.all()
        except KeyboardInterrupt:
            progress.stop()
            again = f"the same command continues {run.folder}"
            print(f"Interrupted: what is done is kept; {again}.", file=sys.stderr)
            return 130
    json.dump(report["generations"], sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
