"""Make the model of win chances given who is playing (``ra/data/chances_model.json``).

    python -m tools.chances_model games --games 1500 --out chances.npz   # play, low priority
    python -m tools.chances_model fit chances.npz                        # fit, write the model

``games`` plays games between different levels (one level drawn per seat from
:data:`TRAINING_LEVELS`, 2 to 5 players, hidden scores, R9.1) and keeps every third decision's
position from its mover's view: the observation (:func:`ra.encode.observation`), each seat's
strength (its level's rating, :data:`ra.analysis.chances.LEVEL_STRENGTH`), in the view's slot
order, and which slot won.  ``fit`` fits :class:`ra.analysis.chances.ChancesModel`
(:mod:`ra.train.chances`) on three games in five, its temperature on the fourth (the games
whose number is 1 modulo :data:`HELD_OUT_EVERY`), and writes the file; the games whose number is a multiple of
:data:`HELD_OUT_EVERY` are held out for the measurement (``benchmarks/chances.py``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import ra
from ra import bots
from ra.analysis.chances import LEVEL_STRENGTH, MODEL_FILE, slot_strengths
from ra.encode import observation
from ra.train import chances

TRAINING_LEVELS = ("random", "easy", "greedy", "medium")
"""The levels the games are played by (the fast ones: ``hard`` takes about a second a decision)."""
HELD_OUT_EVERY = 5
"""Game numbers divisible by this are held out of the fit (for benchmarks/chances.py)."""
EVERY = 3
"""Every third decision of a game is kept."""


@dataclass(frozen=True)
class Position:
    """A kept position: the mover's view, the seats' levels and the game's winner."""

    view: ra.PlayerView
    levels: tuple[str, ...]
    winner: int
    game: int

    @property
    def seat(self) -> int:
        assert self.view.seat is not None
        return self.view.seat

    def strengths(self) -> list[float]:
        """The seats' strengths (by seat)."""
        return [LEVEL_STRENGTH[level.split(":")[0]] for level in self.levels]


def play(number: int, seed: int, levels: Sequence[str] = TRAINING_LEVELS) -> list[Position]:
    """Game ``number``'s kept positions (the same for the same number and seed)."""
    rng = random.Random(f"chances/{seed}/{number}")
    players = rng.choice((2, 3, 4, 5))
    drawn = tuple(rng.choice(levels) for _ in range(players))
    seated = [bots.from_spec(level, seed=rng.getrandbits(32)) for level in drawn]
    game = ra.Game(players=players, seed=rng.getrandbits(32), hidden_scores=True)
    kept: list[ra.PlayerView] = []
    while not game.is_over():
        mover = game.to_move
        assert mover is not None
        view = game.view(mover)
        if game.num_decisions % EVERY == 0:
            kept.append(view)
        game.apply(seated[mover].choose(view))
    assert game.winner is not None
    return [Position(view, drawn, game.winner, number) for view in kept]


def rows(positions: Sequence[Position]) -> dict[str, npt.NDArray[Any]]:
    """The positions as the model's arrays."""
    return {
        "obs": np.array([observation(p.view) for p in positions], dtype=np.float32),
        "strengths": np.array([slot_strengths(p.strengths(), p.seat) for p in positions], dtype=np.float32),
        "winner": np.array([(p.winner - p.seat) % len(p.levels) for p in positions], dtype=np.int16),
        "game": np.array([p.game for p in positions], dtype=np.int32),
    }


def games(count: int, out: Path, seed: int, minutes: float, levels: Sequence[str]) -> None:
    """Play up to ``count`` games (or ``minutes``), write the positions to ``out`` (.npz)."""
    kept: list[Position] = []
    start = time.monotonic()
    for number in range(count):
        kept += play(number, seed, levels)
        if time.monotonic() - start > 60 * minutes:
            break
    data = rows(kept)
    np.savez_compressed(
        out, obs=data["obs"], strengths=data["strengths"], winner=data["winner"], game=data["game"]
    )
    print(f"{kept[-1].game + 1} games, {len(kept)} positions in {time.monotonic() - start:.0f} s -> {out}")


def fit(data: Path, out: Path) -> None:
    """Fit the weights on three games in five, the temperature on the fourth, write the model
    (the fifth, held out, is for benchmarks/chances.py)."""
    d = np.load(data)
    part = d["game"] % HELD_OUT_EVERY
    train, tune = part >= 2, part == 1
    model = chances.fit(d["obs"][train], d["strengths"][train], d["winner"][train])
    model = chances.tempered(model, d["obs"][tune], d["strengths"][tune], d["winner"][tune])
    out.write_text(model.to_json(), encoding="utf-8")
    print(f"fitted on {int(train.sum())} positions, tempered on {int(tune.sum())} -> {out}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.chances_model", description=__doc__.split("\n\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("games", help="play the games and keep their positions")
    g.add_argument("--games", type=int, default=1500)
    g.add_argument("--minutes", type=float, default=15.0, help="stop after this long (default 15)")
    g.add_argument("--seed", type=int, default=53)
    g.add_argument("--out", type=Path, default=Path("chances.npz"))
    g.add_argument("--levels", default=",".join(TRAINING_LEVELS), help="drawn per seat (comma-separated)")
    f = sub.add_parser("fit", help="fit the model and write it")
    f.add_argument("data", type=Path)
    f.add_argument("--out", type=Path, default=MODEL_FILE)
    args = parser.parse_args(argv)
    if args.command == "games":
        games(args.games, args.out, args.seed, args.minutes, args.levels.split(","))
    else:
        fit(args.data, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
