"""Issue 38's measure: the searches as they are against the searches as they were, in the game
people play (hidden scores, R9.1), on duplicate deals with the seats rotated.

Until version 0.x the native core packed a player's view from its private fields, so under
hidden scores every search believed that each other player had -1 points and no epoch scores.
``blind:SPEC`` rebuilds that search exactly: the view's own packed form (``view.position()``)
with the other players' scores set to -1 and their epoch breakdowns dropped, the bytes the old
bridge wrote.  Everything else goes through ``ra.arena`` (the same schedule, seeds and counting
as ``ra arena``); the games are played with hidden scores unless ``--open-scores`` is given.

    python benchmarks/hidden_scores.py -p 3 -b hard,blind:hard,blind:hard -n 60 --seed 4711 -j 2

prints each bot's wins with a 95% interval, the head-to-head of every pair of seats, and writes
the games as ``ra arena --out`` does with ``--out`` (``benchmarks/ladder.py`` reads them).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import signal
import sys
from pathlib import Path
from typing import Any

from ra import bots, processes
from ra.actions import Action
from ra.arena import head_to_head, summarize
from ra.arena.runner import GameResult, GameSpec, play_game, schedule
from ra.position import LAYOUT
from ra.records import atomic_write
from ra.views import PlayerView

FIELDS = ("index", "seed", "rotation", "seats", "names", "scores", "winner", "decisions", "seconds")

BLIND = "blind:"


class _BlindView:
    """A view whose packed form is the one the old bridge wrote under hidden scores (R9.1's
    placeholders for every other player); everything else is the view's own."""

    determinize = PlayerView.determinize  # the native bot asks whether it was overridden

    def __init__(self, view: PlayerView) -> None:
        self._view = view

    def __getattr__(self, name: str) -> Any:
        return getattr(self._view, name)

    def pack(self) -> bytes:
        view = self._view
        position = view.position()
        if not view.hidden_scores or view.is_over():
            return view.pack()
        seat = view.seat
        blind = dataclasses.replace(
            position,
            scores=tuple(s if i == seat else -1 for i, s in enumerate(position.scores)),
            breakdowns=tuple(tuple(r for r in rows if r[1] == seat) for rows in position.breakdowns),
        )
        return blind.pack(LAYOUT.unpack(view.pack())[-1])


class BlindBot:
    """``SPEC`` searching from the placeholders of hidden scores, as every search did before."""

    def __init__(self, inner: bots.Bot) -> None:
        self.inner = inner
        self.name = f"{BLIND}{getattr(inner, 'name', 'bot')}"

    def choose(self, view: PlayerView) -> Action:
        return self.inner.choose(_BlindView(view))  # type: ignore[arg-type]


def make_bot(spec: str, seed: int | None = None) -> bots.Bot:
    """``blind:SPEC`` or any spec ``ra arena`` takes."""
    if spec.startswith(BLIND):
        return BlindBot(bots.from_spec(spec[len(BLIND) :], seed=seed))
    return bots.from_spec(spec, seed=seed)


def play(spec: GameSpec) -> GameResult:
    return play_game(spec, make_bot=make_bot)


def report(results: list[GameResult], players: int, rule: str, seed: int) -> None:
    """Each bot's wins with a 95% interval and every pair's head-to-head."""
    print(f"{len(results)} games, {players} players, {rule} scores, duplicate deals, seed {seed}")
    for row in summarize(results):
        print(
            f"  {row.bot:<20} won {row.wins:g}/{row.games} seats ({100 * row.win_rate:.1f}%, "
            f"95% {100 * row.ci_low:.0f}-{100 * row.ci_high:.0f}%), margin {row.mean_margin:+.1f}, "
            f"{row.ms_per_decision:.0f} ms a decision"
        )
    for pair in head_to_head(results):
        print(
            f"  {pair.bot} ahead of {pair.other} in {pair.ahead}/{pair.pairs} pairs of seats "
            f"({100 * pair.share:.1f}%, 95% {100 * pair.ci_low:.0f}-{100 * pair.ci_high:.0f}%)"
        )


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-p", "--players", type=int, default=3)
    parser.add_argument("-b", "--bots", default="hard,blind:hard,blind:hard", help="one spec per seat")
    parser.add_argument("-n", "--games", type=int, default=60, help="rounded up to whole deals")
    parser.add_argument("--seed", type=int, default=4711)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--open-scores", action="store_true", help="play with open scores instead")
    parser.add_argument(
        "--out",
        type=Path,
        help="the games, written after each one (JSON, as ra arena --out); a run cut off continues",
    )
    args = parser.parse_args(argv)
    seats = [s.strip() for s in args.bots.split(",")]
    for s in set(seats):
        make_bot(s)  # a bad spec fails here, with its reason, before any game
    hidden = not args.open_scores
    specs = schedule(seats, args.players, args.games, args.seed, duplicate=True, hidden_scores=hidden)
    config = {"bots": seats, "players": args.players, "seed": args.seed, "hidden_scores": hidden}
    results: list[GameResult] = []
    if args.out is not None and args.out.exists():
        data = json.loads(args.out.read_text(encoding="utf-8"))
        if data.get("config") != config:
            parser.error(f"{args.out} holds another run ({data.get('config')}): give another --out")
        results = [GameResult(**{k: g[k] for k in FIELDS}) for g in data["games"]]
    done = {r.index for r in results}
    todo = [s for s in specs if s.index not in done]
    signal.signal(signal.SIGTERM, _stop)
    try:
        with processes.running(args.jobs) as pool:  # fresh processes that leave Ctrl-C to this one
            for r in pool.imap_unordered(play, todo):
                results.append(r)
                print(f"\r{len(results)}/{len(specs)} games", end="", file=sys.stderr, flush=True)
                if args.out is not None:
                    games = [g.to_dict() for g in sorted(results, key=lambda g: g.index)]
                    atomic_write(args.out, json.dumps({"config": config, "games": games}, indent=1))
    except KeyboardInterrupt:
        print("\nstopped: the games that finished follow", file=sys.stderr)
    print(file=sys.stderr)
    report(results, args.players, "hidden" if hidden else "open", args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
