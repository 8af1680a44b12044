"""Make the value net that ships (``ra/data/value_net.json``) from self-play rows (issue 53).

    python -m tools.value_net rows runs/value --chunks 52     # play, 10 games a chunk, low priority
    python -m tools.value_net fit runs/value --hidden 16 --epochs 10 --weight-decay 1e-4 --out value_net.json

``rows`` plays 2-player hidden-scores games (R9.1) between copies of the ``master`` search
(``expert``'s settings and reward, the shipped policy as its prior at ``master``'s 2-player
weight) at 1,000 iterations a decision, and stores every decision with a choice as a row
(:func:`ra.train.selfplay.play_chunk`; game ``i`` of chunk ``c`` is dealt with seed
900000 + 10c + i); a chunk already stored is skipped, so a run cut off continues.  ``fit`` fits
:func:`ra.train.net.fit_value` on the chunks in order (the last tenth of the rows held out: whole
games) and writes the net with its held-out numbers in its ``info``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ra.bots import LEVEL_PRIORS, level_options
from ra.bots.policy import default_policy
from ra.train.net import fit_value, load_rows, save_rows
from ra.train.selfplay import Chunk, Searcher, play_chunk

ITERATIONS = 1000
"""Search iterations a self-play decision."""
FIRST_SEED = 900_000


def searcher() -> Searcher:
    """``master``'s 2-player search at :data:`ITERATIONS`."""
    settings = {k: v for k, v in level_options("expert").items() if not k.startswith("iterations")}
    return Searcher({**settings, "iterations": ITERATIONS}, default_policy(), LEVEL_PRIORS["master"][0])


def play(folder: Path, chunks: int) -> None:
    """Store chunks ``0 .. chunks-1`` of 10 games each (``rows_<c>.npz``), skipping stored ones."""
    folder.mkdir(parents=True, exist_ok=True)
    search = searcher()
    for c in range(chunks):
        path = folder / f"rows_{c:04d}.npz"
        if path.exists():
            continue
        games = tuple((2, FIRST_SEED + c * 10 + i) for i in range(10))
        rows = play_chunk(Chunk(search, games))
        save_rows(path, rows)
        print(f"chunk {c}: {len(rows)} rows", flush=True)


def fit(folder: Path, hidden: tuple[int, ...], epochs: int, weight_decay: float, out: Path) -> None:
    """Fit the net on the folder's chunks and write it."""
    paths = sorted(folder.glob("rows_*.npz"))
    data = load_rows(paths)
    info = {
        "rows": len(data["obs"]),
        "games": 10 * len(paths),
        "epochs": epochs,
        "weight_decay": weight_decay,
        "seed": 1,
        "made_by": f"tools/value_net.py: master's 2-player self-play, {ITERATIONS} iterations, hidden scores",
    }
    net, scores = fit_value(data, hidden, epochs, 1, info, weight_decay=weight_decay)
    out.write_text(json.dumps(net.to_dict()), encoding="utf-8")
    print(json.dumps(scores))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.value_net", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    rows = sub.add_parser("rows", help="play self-play chunks")
    rows.add_argument("folder", type=Path)
    rows.add_argument("--chunks", type=int, default=52)
    fitting = sub.add_parser("fit", help="fit the value net on the chunks")
    fitting.add_argument("folder", type=Path)
    fitting.add_argument("--hidden", default="16", help="hidden widths, e.g. 16 or 64,32")
    fitting.add_argument("--epochs", type=int, default=10)
    fitting.add_argument("--weight-decay", type=float, default=1e-4)
    fitting.add_argument("--out", type=Path, default=Path("value_net.json"))
    args = parser.parse_args(argv)
    if args.command == "rows":
        play(args.folder, args.chunks)
    else:
        fit(
            args.folder,
            tuple(int(h) for h in args.hidden.split(",")),
            args.epochs,
            args.weight_decay,
            args.out,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
