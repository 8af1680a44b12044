"""Regenerate ``src/ra/data/puzzles.json``: positions from bots' games where one action is clearly best.

Bots' games (medium and easy bots; 2 to 5 players; seeded, so the same
command makes the same file) are walked decision by decision.  A decision becomes a puzzle when it
shows a theme (:func:`ra.puzzles.themes_of`) and the advisor's search finds a clear best action:

1. at ``FIRST`` iterations (seed 0), the best action's win chance at least ``GAP`` above every
   other's, and the position still open (the best chance between 5% and 95%);
2. at four times that budget and another seed (1), the same best action and a gap of at least
   ``STABLE`` (these numbers are the ones shipped);
3. at the test's small budget (``CHECK``, seed 2: ``tests/puzzles``), the same best action.

At most four puzzles per game, six decisions apart.  Most clear positions have an easy answer
("pass" or "draw"): once a game has ``EASY_ENOUGH`` of them, a quick look (``SCREEN``
iterations) skips the positions where it too finds an easy answer, but not those of a ``RARE``
theme (a saving only: a puzzle still passes all three looks).  Candidates are gathered until
there are ``POOL`` (``--pool``) times as many as wanted, ``PER_THEME`` of every theme and enough
answers that are not easy (or ``--games`` games were played); the set then takes up to
``QUOTA`` of each theme, the rarer themes first, and at most a quarter of its answers may be
"pass" and a fifth "draw" — of the set as made: with too few other answers, the set is smaller.
A puzzle's rating (mu) grows with each of our bots (easy, medium, hard) that misses the answer
and with a smaller gap.

``--cache FILE`` appends each game's candidates to FILE as it ends; a run given the same file
plays only the games missing (an interrupted run loses at most the games being played).
``--add`` keeps the puzzles of games before ``ADD_FROM`` in ``--out`` and adds those of games
``ADD_FROM`` onwards (run again, it makes the same file).
``--check`` re-verifies every shipped puzzle at the test's budget (the test checks a sample).

    PYTHONPATH=src python -m tools.puzzles [--count 1000] [--jobs 2] [--pool 1.6] [--cache FILE]
    PYTHONPATH=src python -m tools.puzzles --add --count 1000 --games 600 --cache FILE
    PYTHONPATH=src python -m tools.puzzles --check
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import ra
from ra import bots
from ra.bots.advisor import Advisor
from ra.bots.evaluate import Evaluation
from ra.puzzles import THEMES, Puzzle, load_puzzles, themes_of, to_json

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
EASY = ("pass", "draw")
"""The easy answers (``CAPS``): many positions have one, few the other answers."""
SCREEN = 250
"""Search iterations of a quick look that skips, once a game has ``EASY_ENOUGH`` clear positions
with an easy answer, the positions where it too finds an easy answer, unless they show a ``RARE``
theme (it only skips: every puzzle still passes all three looks)."""
EASY_ENOUGH = 2
PLAYERS = (2, 3, 3, 4, 4, 5)
POOL = 1.6
QUOTA = 125
MAX_GAMES = 1200
PER_THEME = 12
"""Candidates of every theme gathered at least (the set needs 10 of each: ``tests/puzzles``)."""
RARE = ("gods", "end_of_epoch")
"""The themes few decisions show: a game keeps their puzzles first."""
CAPS = {"pass": 0.25, "draw": 0.2}
"""The largest share of the set each answer may have."""
LEVELS = ("easy", "medium", "hard")
ADD_FROM = 1001
"""``--add``: the first game played (the first set's puzzles came from games 1 to 207)."""


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


def recheck(puzzles: Iterable[Puzzle]) -> list[tuple[str, str, str]]:
    """The puzzles whose answer the advisor at the test's small budget (``CHECK``, seed 2) no
    longer chooses, as (id, its choice, the shipped answer): none, for a sound set."""
    wrong = []
    for p in puzzles:
        best = str(Advisor(budget=CHECK, seed=2).evaluate(p.game().view(p.mover)).best.action)
        if best != p.answer:
            wrong.append((p.id, best, p.answer))
    return wrong


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
        looked = len(game.legal_actions()) >= 2 and bool(themes)
        screened = not set(themes) & set(RARE) and sum(c[0] for c in clear) >= EASY_ENOUGH
        if looked and not (screened and _easy(game)):
            found = clear_best(game)
            if found is not None:
                puzzle = _puzzle(game, seed, moves, themes, *found)
                clear.append((str(puzzle["answer"]) in EASY, len(moves), puzzle))
        action = seats[seat].choose(game.view(seat))
        moves.append(str(action))
        game.apply(action)
    kept: list[tuple[int, dict[str, object]]] = []
    for _, at, puzzle in sorted(clear, key=lambda c: (c[0], not _rare(c[2]), c[1])):
        if len(kept) < PER_GAME and all(abs(at - other) >= SPACING for other, _ in kept):
            kept.append((at, puzzle))
    return [_rated(p) for _, p in sorted(kept, key=lambda k: k[0])]


def _easy(game: ra.Game) -> bool:
    """Whether a quick look (``SCREEN`` iterations) finds an easy answer ("pass" or "draw")."""
    view = game.view(game.to_move)
    return str(Advisor(budget=SCREEN, seed=0).evaluate(view).best.action) in EASY


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
    """Enough candidates: ``factor`` (default ``POOL``) times the count, ``PER_THEME`` of every
    theme, and enough answers that are not easy for a set of ``count`` under ``CAPS``."""
    counts = theme_counts(pool)
    hard = sum(str(p["answer"]).split()[0] not in EASY for p in pool)
    return (
        len(pool) >= factor * count
        and all(counts[t] >= PER_THEME for t in THEMES)
        and hard >= (1 - sum(CAPS.values())) * count
    )


def cached(cache: Path | None) -> dict[int, list[dict[str, object]]]:
    """The candidates of the games already played, by seed, from ``cache`` (one JSON line per
    game; a line cut short by an interruption is left out and that game played again)."""
    games: dict[int, list[dict[str, object]]] = {}
    if cache is None or not cache.exists():
        return games
    for line in cache.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
            games[int(row["seed"])] = list(row["puzzles"])
        except (ValueError, KeyError, TypeError):
            continue
    return games


def gather(
    count: int,
    jobs: int,
    factor: float = POOL,
    cache: Path | None = None,
    games: int = MAX_GAMES,
    first: int = 1,
) -> list[dict[str, object]]:
    """Candidates from games 1, 2, … until :func:`enough` (or ``games``), with progress; each
    game's candidates are appended to ``cache`` as it ends, so an interrupted run resumes."""
    done = cached(cache)
    pool: list[dict[str, object]] = []
    seed, last = first, first + games - 1
    with ProcessPoolExecutor(jobs) as workers:
        while not enough(pool, count, factor) and seed <= last:
            batch = range(seed, min(seed + 8 * jobs, last + 1))
            todo = [s for s in batch if s not in done]
            for s, result in zip(todo, workers.map(puzzles_of_game, todo), strict=True):
                done[s] = result
                _remember(cache, s, result)
            for s in batch:
                pool.extend(done[s])
            seed += len(batch)
            counts = theme_counts(pool)
            themes = " ".join(f"{t} {counts[t]}" for t in THEMES)
            print(f"\r{len(pool)} candidates from {seed - first} games ({themes})", end="", file=sys.stderr)
    print(file=sys.stderr)
    return pool


def _remember(cache: Path | None, seed: int, puzzles: list[dict[str, object]]) -> None:
    """Append one game's candidates to ``cache`` (flushed: an interruption loses at most the games
    being played)."""
    if cache is not None:
        with cache.open("a", encoding="utf-8") as out:
            out.write(json.dumps({"seed": seed, "puzzles": puzzles}, ensure_ascii=False) + "\n")


def select(
    pool: list[dict[str, object]], count: int, kept: list[dict[str, object]] | None = None
) -> list[dict[str, object]]:
    """The set: ``kept`` (``--add``: the shipped puzzles), then the rarer themes first (``QUOTA``
    each), then the rest in order, under ``CAPS`` — of the set as made: with too few answers that
    are not easy for ``count``, a smaller set."""
    chosen = _select(pool, count, kept or [])
    while len(chosen) < count:
        count = len(chosen)
        chosen = _select(pool, count, kept or [])
    return sorted(chosen, key=lambda p: (int(str(p["id"]).split("-")[0]), int(str(p["id"]).split("-")[1])))


def _select(
    pool: list[dict[str, object]], count: int, kept: list[dict[str, object]]
) -> list[dict[str, object]]:
    """One pass of :func:`select` for a set of ``count``: the caps are shares of ``count``."""
    counts = theme_counts(pool)
    kinds: Counter[str] = Counter(str(p["answer"]).split()[0] for p in kept)
    chosen = list(kept)
    ids = {str(p["id"]) for p in kept}

    def take(p: dict[str, object]) -> None:
        kind = str(p["answer"]).split()[0]
        if str(p["id"]) not in ids and len(chosen) < count and kinds[kind] + 1 <= CAPS.get(kind, 1) * count:
            chosen.append(p)
            ids.add(str(p["id"]))
            kinds[kind] += 1

    for theme in sorted(THEMES, key=lambda t: counts[t]):
        for p in [p for p in pool if theme in p["themes"]][:QUOTA]:  # type: ignore[operator]
            take(p)
    for p in pool:
        take(p)
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.puzzles", description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1000, help="puzzles to find (default 1000)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    parser.add_argument(
        "--pool",
        type=float,
        default=POOL,
        help=f"candidates gathered per puzzle wanted (default {POOL}; more if the easy answers' caps bind)",
    )
    parser.add_argument("--out", type=Path, default=OUT, help="where to write (default: the package's file)")
    parser.add_argument(
        "--cache",
        type=Path,
        default=None,
        help="a file of the games' candidates, appended game by game: a run given the same file resumes",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="re-verify every shipped puzzle at the test's budget instead (the test checks a sample)",
    )
    parser.add_argument("--games", type=int, default=MAX_GAMES, help=f"games at most (default {MAX_GAMES})")
    parser.add_argument(
        "--add",
        action="store_true",
        help=f"keep the puzzles in --out and add those of games {ADD_FROM}, {ADD_FROM + 1}, … up to --count",
    )
    args = parser.parse_args(argv)
    if not ra.native_available():
        parser.error("the generator needs the native core (the advisor's search)")
    if not 1.0 <= args.pool <= 10.0:
        parser.error(f"--pool must be between 1 and 10, got {args.pool}")
    if args.check:
        return _check()
    shipped = json.loads(args.out.read_text(encoding="utf-8")) if args.add else []
    kept = [p for p in shipped if int(p["seed"]) < ADD_FROM]  # a run again makes the same file
    first = ADD_FROM if args.add else 1
    pool = gather(args.count - len(kept), args.jobs, args.pool, args.cache, args.games, first)
    found = select(pool, args.count, kept)
    args.out.write_text(json.dumps(found, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    counts = theme_counts(found)
    print(f"wrote {args.out} ({len(found)} puzzles; " + ", ".join(f"{t} {counts[t]}" for t in THEMES) + ")")
    return 0


def _check() -> int:
    """``--check``: every shipped puzzle re-verified (:func:`recheck`); 1 when one fails."""
    shipped = load_puzzles()
    wrong = recheck(shipped)
    for puzzle_id, best, answer in wrong:
        print(
            f"puzzle {puzzle_id}: the advisor now plays {best!r}, the answer is {answer!r}", file=sys.stderr
        )
    print(f"{len(shipped) - len(wrong)} of {len(shipped)} puzzles re-verified at {CHECK} iterations")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
