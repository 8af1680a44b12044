"""The levels' ladder from arena runs: one OpenSkill rating per bot over every game of the given
``ra arena --out`` files (matches of any player count together), and each pair's head-to-head
(as ``ra arena`` counts it: pairs of seats, the winner first, then by score).

OpenSkill rates games one after another, so the order of the games moves the ratings; the
ratings printed are the mean over ``--shuffles`` random orders (their spread is printed too).
``--python`` prints them as the ``LEVEL_RATINGS`` of ``ra.bots``.

    python benchmarks/ladder.py ladder3.json ladder2_em.json ladder2_mh.json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from ra.arena.runner import GameResult
from ra.arena.stats import head_to_head, summarize

FIELDS = ("index", "seed", "rotation", "seats", "names", "scores", "winner", "decisions", "seconds")


def load(paths: list[Path], rule: str = "both") -> tuple[list[GameResult], dict[str, int]]:
    """Every finished game of the arena result files played under ``rule`` ("hidden" scores,
    R9.1, the game people play; "open"; or "both"), and how many games each rule gave."""
    games: list[GameResult] = []
    counts = {"hidden": 0, "open": 0}
    for path in paths:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        hidden = (
            "hidden" if data.get("config", {}).get("hidden_scores", data.get("hidden_scores")) else "open"
        )
        for g in data["games"]:
            if g.get("error") is None and rule in ("both", hidden):
                games.append(GameResult(**{k: g[k] for k in FIELDS}))
                counts[hidden] += 1
    return games, counts


def ratings(games: list[GameResult], shuffles: int, seed: int) -> dict[str, tuple[float, float, float]]:
    """Each bot's mean mu and sigma over ``shuffles`` orders of the games, and the spread of mu."""
    rng = random.Random(seed)
    mus: dict[str, list[float]] = defaultdict(list)
    sigmas: dict[str, list[float]] = defaultdict(list)
    for _ in range(shuffles):
        order = rng.sample(games, len(games))
        renumbered = [GameResult(**{**g.__dict__, "index": i}) for i, g in enumerate(order)]
        for s in summarize(renumbered):
            mus[s.bot].append(s.rating_mu)
            sigmas[s.bot].append(s.rating_sigma)
    return {
        bot: (statistics.fmean(mus[bot]), statistics.fmean(sigmas[bot]), statistics.pstdev(mus[bot]))
        for bot in mus
    }


def markdown(games: list[GameResult], rated: dict[str, tuple[float, float, float]]) -> str:
    """The ladder as one table: each bot's rating with its 95% interval (mu ± 1.96 sigma), its
    games, and how it fared against the bot rated next below it (pairs of seats it finished ahead in)."""
    played: dict[str, int] = defaultdict(int)
    for g in games:
        for bot in set(g.seats):
            played[bot] += 1
    pairs = {(h.bot, h.other): h for h in head_to_head(games)}
    ranked = sorted(rated, key=lambda b: -rated[b][0])
    lines = [
        "| bot | rating μ ± σ | 95% interval | games | against the next below: ahead / pairs of seats |",
        "|---|---|---|---|---|",
    ]
    for i, bot in enumerate(ranked):
        mu, sigma, _ = rated[bot]
        against = ""
        if i + 1 < len(ranked):
            below = ranked[i + 1]
            h = pairs.get((bot, below))
            against = f"{below}: {h.ahead}/{h.pairs}" if h else f"{below}: never at one table"
        lo, hi = mu - 1.96 * sigma, mu + 1.96 * sigma
        lines.append(f"| {bot} | {mu:.1f} ± {sigma:.1f} | {lo:.1f} to {hi:.1f} | {played[bot]} | {against} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python benchmarks/ladder.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="+", type=Path, help="ra arena --out files")
    parser.add_argument("--shuffles", type=int, default=50, help="orders of the games averaged (default 50)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--python", action="store_true", help="print LEVEL_RATINGS for ra.bots")
    parser.add_argument("--markdown", action="store_true", help="print the ladder as a Markdown table")
    parser.add_argument(
        "--scores",
        choices=("both", "hidden", "open"),
        default="both",
        help="rate the games played with hidden scores (R9.1, the default game), open ones, or both",
    )
    args = parser.parse_args(argv)
    try:
        games, counts = load(args.results, args.scores)
    except (OSError, ValueError, KeyError, TypeError) as err:
        parser.error(f"cannot read the results: {err}")
    rated = ratings(games, args.shuffles, args.seed)
    if args.python:
        body = "".join(f'    "{bot}": ({mu:.1f}, {sigma:.1f}),\n' for bot, (mu, sigma, _) in rated.items())
        print("LEVEL_RATINGS = {\n" + body + "}")
        return 0
    if args.markdown:
        print(markdown(games, rated))
        return 0
    print(
        f"{len(games)} games ({counts['hidden']} with hidden scores, {counts['open']} with open ones); "
        f"ratings over {args.shuffles} orders (mu ± sigma, spread of mu over orders)"
    )
    for bot, (mu, sigma, spread) in sorted(rated.items(), key=lambda kv: -kv[1][0]):
        print(f"  {bot:10} {mu:6.1f} ± {sigma:4.1f}   (spread {spread:.1f})")
    print("head to head (pairs of seats, the first ahead / all):")
    for h in head_to_head(games):
        print(f"  {h.bot} ahead of {h.other}: {h.ahead}/{h.pairs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
