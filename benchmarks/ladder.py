"""The levels' ladder from arena runs: one OpenSkill rating per bot over every game of the given
``ra arena --out`` files (matches of any player count together), and each pair's head-to-head
(as ``ra arena`` counts it: pairs of seats, the winner first, then by score).

OpenSkill rates games one after another, so the order of the games moves the ratings; the
ratings printed are the mean over ``--shuffles`` random orders (their spread is printed too).
``--python`` prints them as the ``LEVEL_RATINGS`` of ``ra.bots``.

    python benchmarks/ladder.py ladder3.json ladder2_em.json ladder2_mh.json

``--rate BOT`` rates a new bot onto the ladder as it stands: the other levels of ``LEVEL_RATINGS``
keep their ratings and ``BOT`` (and any bot that is no level) is rated against them, game after
game, the way the site rates a person against the levels.  The match logs of
``benchmarks/policy_budget.py`` (``.jsonl``, hidden scores) are read too; ``--as`` names their bots:

    python benchmarks/ladder.py --rate master --as gen3=master --as expert:iterations=150000=expert \
        --as expert:iterations=90000=expert s5/gen3/budget_150000_150000_2p.jsonl ...
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

from ra.arena.runner import GameResult
from ra.arena.stats import head_to_head, standing, summarize
from ra.bots import LEVEL_RATINGS
from ra.train.measure import read_log

Rating = tuple[float, float]
"""An OpenSkill rating: mu, sigma."""
FIELDS = ("index", "seed", "rotation", "seats", "names", "scores", "winner", "decisions", "seconds")


def load(paths: list[Path], rule: str = "both") -> tuple[list[GameResult], dict[str, int]]:
    """Every finished game of the arena result files played under ``rule`` ("hidden" scores,
    R9.1, the game people play; "open"; or "both"), and how many games each rule gave."""
    games: list[GameResult] = []
    counts = {"hidden": 0, "open": 0}
    for path in paths:
        if path.suffix == ".jsonl":  # a match log (benchmarks/policy_budget.py): hidden scores
            if rule != "open":
                logged = list(read_log(path).values())
                games.extend(logged)
                counts["hidden"] += len(logged)
            continue
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        hidden = (
            "hidden" if data.get("config", {}).get("hidden_scores", data.get("hidden_scores")) else "open"
        )
        for g in data["games"]:
            if g.get("error") is None and rule in ("both", hidden):
                games.append(GameResult(**{k: g[k] for k in FIELDS}))
                counts[hidden] += 1
    return games, counts


Rated = dict[str, tuple[float, float, float]]
"""Each bot's mean mu, mean sigma and the spread of mu over orders of the games."""


def over_orders(
    games: list[GameResult], shuffles: int, seed: int, rate: Callable[[list[GameResult]], dict[str, Rating]]
) -> Rated:
    """``rate``'s (mu, sigma) of each bot over ``shuffles`` random orders of the games, averaged."""
    rng = random.Random(seed)
    mus: dict[str, list[float]] = defaultdict(list)
    sigmas: dict[str, list[float]] = defaultdict(list)
    for _ in range(shuffles):
        for bot, (mu, sigma) in rate(rng.sample(games, len(games))).items():
            mus[bot].append(mu)
            sigmas[bot].append(sigma)
    return {
        bot: (statistics.fmean(mus[bot]), statistics.fmean(sigmas[bot]), statistics.pstdev(mus[bot]))
        for bot in mus
    }


def ratings(games: list[GameResult], shuffles: int, seed: int) -> Rated:
    """Every bot rated from scratch (the arena's ratings), over ``shuffles`` orders of the games."""

    def in_order(order: list[GameResult]) -> dict[str, Rating]:
        renumbered = [GameResult(**{**g.__dict__, "index": i}) for i, g in enumerate(order)]
        return {s.bot: (s.rating_mu, s.rating_sigma) for s in summarize(renumbered)}

    return over_orders(games, shuffles, seed, in_order)


def renamed(games: list[GameResult], names: dict[str, str]) -> list[GameResult]:
    """The games with their bots named by ``names`` (``--as``) where it names them."""
    return [GameResult(**{**g.__dict__, "seats": [names.get(b, b) for b in g.seats]}) for g in games]


def anchored(games: list[GameResult], fixed: dict[str, Rating], shuffles: int, seed: int) -> Rated:
    """Each bot not in ``fixed`` rated against the fixed ones (which never move), over ``shuffles``
    orders of the games."""
    return over_orders(games, shuffles, seed, lambda order: against(order, fixed))


def against(order: list[GameResult], fixed: dict[str, Rating]) -> dict[str, Rating]:
    """The (mu, sigma) of each bot not in ``fixed`` after the games in ``order``, the fixed ones
    keeping theirs; a bot in several seats of a game takes the mean of its seats' updates."""
    model = PlackettLuce()
    rated: dict[str, PlackettLuceRating] = {b: model.rating(mu=m, sigma=s) for b, (m, s) in fixed.items()}
    for g in order:
        for bot in g.seats:
            rated.setdefault(bot, model.rating())
        after = model.rate([[rated[b]] for b in g.seats], ranks=[float(p + 1) for p in standing(g)])
        moved: dict[str, list[PlackettLuceRating]] = defaultdict(list)
        for bot, team in zip(g.seats, after, strict=True):
            if bot not in fixed:
                moved[bot].append(team[0])
        for bot, new in moved.items():
            rated[bot] = model.rating(
                mu=statistics.fmean(r.mu for r in new), sigma=statistics.fmean(r.sigma for r in new)
            )
    return {bot: (r.mu, r.sigma) for bot, r in rated.items() if bot not in fixed}


def markdown(games: list[GameResult], rated: Rated) -> str:
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
    parser.add_argument("results", nargs="+", type=Path, help="ra arena --out files, or match logs (.jsonl)")
    parser.add_argument(
        "--as",
        dest="names",
        action="append",
        default=[],
        metavar="NAME=BOT",
        help="count the bot NAME of the results as BOT (gen3=master)",
    )
    parser.add_argument(
        "--rate",
        action="append",
        default=[],
        metavar="BOT",
        help="rate BOT against the other levels, which keep their ratings (ra.bots.LEVEL_RATINGS)",
    )
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
    names = dict(n.rpartition("=")[::2] for n in args.names)
    if "" in names or "" in names.values():
        parser.error("--as takes NAME=BOT, e.g. gen3=master")
    games = renamed(games, names)
    if args.rate:
        fixed = {bot: rating for bot, rating in LEVEL_RATINGS.items() if bot not in args.rate}
        rated = anchored(games, fixed, args.shuffles, args.seed)
        if not set(args.rate) & set(rated):
            parser.error(f"--rate: {', '.join(args.rate)} played no game of the results")
    else:
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
