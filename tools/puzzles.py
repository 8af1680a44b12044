"""Regenerate ``src/ra/data/puzzles.json``: positions from bots' games where one action is clearly best.

Bots' games (medium and easy bots; 2 to 5 players; seeded, so the same
command makes the same file) are walked decision by decision.  A decision becomes a puzzle when it
shows a theme (:func:`ra.puzzles.themes_of`) and the advisor's search finds a clear best action:

1. at ``FIRST`` iterations (seed 0), the best action's win chance at least ``GAP`` above every
   other's, and the position still open (the best chance between 5% and 95%);
2. at four times that budget and another seed (1), the same best action and a gap of at least
   ``STABLE`` (these numbers are the ones shipped);
3. at the test's small budget (``CHECK``, seed 2: ``tests/puzzles``), the same best action.

At most four puzzles per game, six decisions apart.  Candidates are gathered until there are
``POOL`` (``--pool``) times as many as wanted and ``PER_THEME`` of every theme (or ``MAX_GAMES``
games were played); the set then takes up to
``QUOTA`` of each theme, the rarer themes first, and at most a quarter of its answers
may be "pass" and a fifth "draw" (the easy answers).  A puzzle's rating (mu) grows with each of
our bots (easy, medium, hard) that misses the answer and with a smaller gap.

    PYTHONPATH=src python -m tools.puzzles [--count 320] [--jobs 2] [--pool 2.4]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import ra
from ra import bots
from ra.bots.advisor import Advisor
from ra.bots.evaluate import Evaluation
from ra.puzzles import THEMES, Puzzle, themes_of, to_json

OUT = Path(__file__).resolve().parent.parent / "src" / "ra" / "data" / "puzzles.json"
FIRST = 2000
"""Search iterations of the first look."""
CONFIRM = 4 * FIRST
"""Search iterations of the second look (another seed): the numbers shipped."""
CHECK = 1000
"""Search iterations of the re-verification test (seed 2)."""
GAP = 0.10
STABLE = 0.07
SPACING = 6
PER_GAME = 4
PLAYERS = (2, 3, 3, 4, 4, 5)
POOL = 1.6
QUOTA = 40
MAX_GAMES = 400
PER_THEME = 12
"""Candidates of every theme gathered at least (the set needs 10 of each: ``tests/puzzles``)."""
RARE = ("gods", "end_of_epoch")
"""The themes few decisions show: a game keeps their puzzles first."""
CAPS = {"pass": 0.25, "draw": 0.2}
"""The largest share of the set each answer may have."""
LEVELS = ("easy", "medium", "hard")


def mover_gap(evaluation: Evaluation) -> tuple[str, float, float]:
    """The best action (by the mover's win chance), its chance and its lead over the second."""
    mover = evaluation.mover
    ranked = sorted(evaluation.actions, key=lambda v: -v.chances[mover])
    best, second = ranked[0], ranked[1]
    return str(best.action), best.chances[mover], best.chances[mover] - second.chances[mover]


def clear_best(game: ra.Game) -> tuple[Evaluation, float] | None:
    """The advisor's numbers and gap when the position has a clear and stable best action."""
    view = game.view(game.to_move)
    first = Advisor(budget=FIRST, seed=0).evaluate(view)
    action, chance, gap = mover_gap(first)
    if gap < GAP or not 0.05 <= chance <= 0.95 or str(first.best.action) != action:
        return None
    second = Advisor(budget=CONFIRM, seed=1).evaluate(view)
    again, _, gap2 = mover_gap(second)
    if again != action or gap2 < STABLE or str(second.best.action) != action:
        return None
    if str(Advisor(budget=CHECK, seed=2).evaluate(view).best.action) != action:
        return None
    return second, gap2


def found_by(game: ra.Game, answer: str, seed: int) -> list[str]:
    """Which of our bot levels play the answer from the mover's view."""
    view = game.view(game.to_move)
    return [lvl for lvl in LEVELS if str(bots.make(lvl, seed=seed).choose(view)) == answer]


def rating(found: list[str], gap: float) -> float:
    """A puzzle's rating (mu): 20 when every bot finds it with a wide gap, up to 40."""
    return round(20 + 5 * (len(LEVELS) - len(found)) + 20 * (0.25 - min(gap, 0.25)), 2)


def table(seed: int) -> tuple[int, list[ra.bots.Bot]]:
    """The players and bots of game ``seed``: medium and easy bots."""
    rng = random.Random(f"puzzles/{seed}")
    players = rng.choice(PLAYERS)
    levels = [rng.choice(("easy", "medium", "medium")) for _ in range(players)]
    return players, [bots.make(lvl, seed=seed * 10 + i) for i, lvl in enumerate(levels)]


def puzzles_of_game(seed: int) -> list[dict[str, object]]:
    """The puzzles found in the bots' game ``seed``: every decision with a theme is looked at,
    and of the clear ones at most ``PER_GAME``, ``SPACING`` decisions apart, are kept, those
    whose answer is neither "pass" nor "draw" first, then those of a ``RARE`` theme."""
    players, seats = table(seed)
    game = ra.Game(players=players, seed=seed)
    moves: list[str] = []
    clear: list[tuple[bool, int, dict[str, object]]] = []
    while not game.is_over():
        seat = game.to_move
        assert seat is not None
        themes = themes_of(game)
        if len(game.legal_actions()) >= 2 and themes:
            found = clear_best(game)
            if found is not None:
                puzzle = _puzzle(game, seed, moves, themes, *found)
                clear.append((str(puzzle["answer"]) in ("pass", "draw"), len(moves), puzzle))
        action = seats[seat].choose(game.view(seat))
        moves.append(str(action))
        game.apply(action)
    kept: list[tuple[int, dict[str, object]]] = []
    for _, at, puzzle in sorted(clear, key=lambda c: (c[0], not _rare(c[2]), c[1])):
        if len(kept) < PER_GAME and all(abs(at - other) >= SPACING for other, _ in kept):
            kept.append((at, puzzle))
    return [_rated(p) for _, p in sorted(kept, key=lambda k: k[0])]


def _rare(puzzle: dict[str, object]) -> bool:
    """Whether the puzzle shows a ``RARE`` theme."""
    return any(t in RARE for t in puzzle["themes"])  # type: ignore[attr-defined]


def _rated(puzzle: dict[str, object]) -> dict[str, object]:
    """The puzzle with its rating (which of our bots find the answer: costly, so only for kept ones)."""
    game = ra.Game(players=int(puzzle["players"]), seed=int(puzzle["seed"]))  # type: ignore[call-overload]
    for move in puzzle["moves"]:  # type: ignore[attr-defined]
        game.apply(ra.Action.parse(move))
    gap = float(puzzle.pop("gap"))  # type: ignore[arg-type]
    return {**puzzle, "rating": rating(found_by(game, str(puzzle["answer"]), int(puzzle["seed"])), gap)}  # type: ignore[call-overload]


def _puzzle(
    game: ra.Game, seed: int, moves: list[str], themes: tuple[str, ...], ev: Evaluation, gap: float
) -> dict[str, object]:
    answer = str(ev.best.action)
    puzzle = Puzzle(
        id=f"{seed}-{len(moves)}",
        players=game.num_players,
        seed=seed,
        moves=tuple(moves),
        mover=ev.mover,
        themes=themes,
        answer=answer,
        rating=0.0,  # set by _rated
        budget=CONFIRM,
        actions=ev.actions,
    )
    return {**to_json(puzzle), "gap": gap}


def theme_counts(puzzles: list[dict[str, object]]) -> Counter[str]:
    """How many of the puzzles show each theme."""
    return Counter(t for p in puzzles for t in p["themes"])  # type: ignore[attr-defined]


def enough(pool: list[dict[str, object]], count: int, factor: float = POOL) -> bool:
    """Enough candidates: ``factor`` (default ``POOL``) times the count, and ``PER_THEME`` of
    every theme."""
    counts = theme_counts(pool)
    return len(pool) >= factor * count and all(counts[t] >= PER_THEME for t in THEMES)


def gather(count: int, jobs: int, factor: float = POOL) -> list[dict[str, object]]:
    """Candidates from games 1, 2, … until :func:`enough` (or ``MAX_GAMES``), with progress."""
    pool: list[dict[str, object]] = []
    seed = 1
    with ProcessPoolExecutor(jobs) as workers:
        while not enough(pool, count, factor) and seed <= MAX_GAMES:
            batch = range(seed, seed + 8 * jobs)
            for result in workers.map(puzzles_of_game, batch):
                pool.extend(result)
            seed += len(batch)
            counts = theme_counts(pool)
            themes = " ".join(f"{t} {counts[t]}" for t in THEMES)
            print(f"\r{len(pool)} candidates from {seed - 1} games ({themes})", end="", file=sys.stderr)
    print(file=sys.stderr)
    return pool


def select(pool: list[dict[str, object]], count: int) -> list[dict[str, object]]:
    """The set: the rarer themes first (``QUOTA`` each), then the rest in order, under ``CAPS``."""
    counts = theme_counts(pool)
    kinds: Counter[str] = Counter()
    chosen: list[dict[str, object]] = []

    def take(p: dict[str, object]) -> None:
        kind = str(p["answer"]).split()[0]
        if p not in chosen and len(chosen) < count and kinds[kind] < CAPS.get(kind, 1) * count:
            chosen.append(p)
            kinds[kind] += 1

    for theme in sorted(THEMES, key=lambda t: counts[t]):
        for p in [p for p in pool if theme in p["themes"]][:QUOTA]:  # type: ignore[operator]
            take(p)
    for p in pool:
        take(p)
    return sorted(chosen, key=lambda p: (int(str(p["id"]).split("-")[0]), int(str(p["id"]).split("-")[1])))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.puzzles", description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=320, help="puzzles to find (default 320)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    parser.add_argument(
        "--pool",
        type=float,
        default=POOL,
        help=f"candidates gathered per puzzle wanted (default {POOL}; more if the easy answers' caps bind)",
    )
    parser.add_argument("--out", type=Path, default=OUT, help="where to write (default: the package's file)")
    args = parser.parse_args(argv)
    if not ra.native_available():
        parser.error("the generator needs the native core (the advisor's search)")
    if not 1.0 <= args.pool <= 10.0:
        parser.error(f"--pool must be between 1 and 10, got {args.pool}")
    pool = gather(args.count, args.jobs, args.pool)
    found = select(pool, args.count)
    args.out.write_text(json.dumps(found, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    counts = theme_counts(found)
    print(f"wrote {args.out} ({len(found)} puzzles; " + ", ".join(f"{t} {counts[t]}" for t in THEMES) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
