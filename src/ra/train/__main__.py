"""``python -m ra.train RUN_DIR``: rerun the expert-iteration baseline (docs/training.md)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ra.train.pipeline import RunConfig


def main(argv: list[str] | None = None) -> int:
    """Parse the options, run every step not done yet, print the results."""
    default = RunConfig()
    parser = argparse.ArgumentParser(prog="python -m ra.train", description=__doc__)
    parser.add_argument("run", type=Path, help="the run's folder (made if new; a run cut off continues)")
    for name in ("seed", "generations", "games", "chunk", "iterations", "epochs", "window"):
        parser.add_argument(f"--{name.replace('_', '-')}", type=int, default=getattr(default, name))
    parser.add_argument("--match-games", type=int, default=default.match_games)
    parser.add_argument("--ladder-games", type=int, default=default.ladder_games)
    parser.add_argument("--c-puct", type=float, default=default.c_puct)
    parser.add_argument(
        "--hidden", default=",".join(map(str, default.hidden)), help="hidden widths, e.g. 128,64"
    )
    parser.add_argument("--ladder", default=",".join(default.ladder), help="the ladder's bots")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    args = parser.parse_args(argv)
    from ra import native_available

    if not native_available():
        parser.error("the baseline needs the native core (a C++ compiler at install; RA_NATIVE unset)")
    config = RunConfig(
        **{k: getattr(args, k) for k in ("seed", "generations", "games", "chunk", "iterations", "epochs")},
        window=args.window,
        match_games=args.match_games,
        ladder_games=args.ladder_games,
        c_puct=args.c_puct,
        hidden=tuple(int(h) for h in args.hidden.split(",")),
        ladder=tuple(args.ladder.split(",")),
    )
    from ra.train.pipeline import Run

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, disable=args.quiet) as progress:
        report = Run(args.run, config, progress).all()
    json.dump(report["generations"], sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
