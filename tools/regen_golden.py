"""Regenerate the golden files: the perft file, the playthroughs and the game records
(tests/perft, tests/playthroughs, tests/golden/*.json).

    python tools/regen_golden.py            # write them
    python tools/regen_golden.py --check    # exit 1 if what is stored differs from a fresh run

The tests replay both with the Python engine and the native core (tests/test_perft.py).  Run
this only for a deliberate change of the rules or of the observation layout, and say so in the
CHANGELOG: any difference is a change of behaviour.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

import ra  # noqa: E402
from ra.encode import observation_of  # noqa: E402
from ra.native import core  # noqa: E402
from tools.perft import perft, perft_native  # noqa: E402

PERFT_FILE = ROOT / "tests" / "perft" / "ra.perft"
PLAYTHROUGHS = ROOT / "tests" / "playthroughs"
GOLDEN = ROOT / "tests" / "golden"
NODE_LIMIT = 60_000
"""Deepest perft stored for a position: the last depth whose count stays under this."""


@dataclass(frozen=True)
class Start:
    """A position: a setup and the decisions played from it (chosen at random by ``walk``)."""

    name: str
    players: int
    seed: int
    variant: str = "standard"
    hidden_scores: bool = False
    walk: int = 0

    def game(self) -> ra.Game:
        return ra.Game(self.players, seed=self.seed, variant=self.variant, hidden_scores=self.hidden_scores)


PERFT_STARTS = [
    Start(f"{n}p-s{seed}-{walk}", n, seed, walk=walk)
    for n in (2, 3, 4, 5)
    for seed in (1, 2)
    for walk in (0, 25, 70, 120)
] + [Start(f"long2p-s3-{walk}", 2, 3, variant="long-2p", walk=walk) for walk in (0, 60, 150)]

PLAYTHROUGH_STARTS = [
    Start("2p-seed7", 2, 7),
    Start("3p-hidden-seed8", 3, 8, hidden_scores=True),
    Start("5p-seed9", 5, 9),
    Start("long2p-seed10", 2, 10, variant="long-2p"),
]


def walked(start: Start) -> ra.Game:
    """The start's setup after ``walk`` random decisions (seeded by the seed); shorter if the
    game ends first."""
    game, rng = start.game(), random.Random(start.seed * 1000 + start.walk)
    for _ in range(start.walk):
        if game.is_over():
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def count_sequences(game: ra.Game, depth: int) -> int:
    """Perft of ``game``: with the native core when it is built (the same counts, which
    tests/test_perft.py checks with both engines; many times faster), else with the engine."""
    return perft(game, depth) if core is None else perft_native(core.State.from_game(game), depth)


def perft_text() -> str:
    lines = [
        "# Ra perft: decision sequences of each length from each position (tools/regen_golden.py).",
        "# Draws come out as the seed fixes them (R9.2); a sequence that ends the game counts once.",
        "# A position: its setup, then the decisions played (notation); then `perft DEPTH COUNT`.",
        "",
    ]
    for start in PERFT_STARTS:
        game = walked(start)
        lines += [
            f"id {start.name}",
            f"setup players={start.players} seed={start.seed} variant={start.variant}",
            "decisions " + " ; ".join(str(a) for a in game.decisions),
        ]
        depth = 1
        while True:
            count = count_sequences(game, depth)
            lines.append(f"perft {depth} {count}")
            if count > NODE_LIMIT or game.is_over() or depth >= 12:
                break
            depth += 1
        lines.append("")
    return "\n".join(lines)


def observation_text(values: list[float]) -> str:
    """The non-zero entries of an observation, ``index:value`` (values as Python reads them back)."""
    return " ".join(f"{i}:{v!r}" for i, v in enumerate(values) if v)


def playthrough_text(start: Start) -> str:
    game = start.game()
    rng = random.Random(start.seed)
    lines = [
        f"# Ra playthrough {start.name}: every decision of one game (tools/regen_golden.py).",
        "# For each decision: who is to move, the legal actions, every player's observation (ra.encode,",
        "# non-zero entries as index:value; OpenSpiel's style: a leak into another seat's view shows",
        "# in the diff), and the action taken (uniformly at random, seeded).",
        f"setup players={start.players} seed={start.seed} variant={start.variant} "
        f"hidden_scores={start.hidden_scores}",
        "",
    ]
    while not game.is_over():
        seat = game.to_move
        assert seat is not None
        legal = game.legal_actions()
        action = rng.choice(legal)
        lines += [
            f"decision {game.num_decisions} player {seat + 1} {game.phase}",
            "legal " + " | ".join(str(a) for a in legal),
            *(
                f"observation player {p + 1} " + observation_text(observation_of(game, p))
                for p in range(game.num_players)
            ),
            f"action {action}",
            "",
        ]
        game.apply(action)
    lines += [
        f"returns {' '.join(str(s) for s in game.scores)}",
        f"winner player {(game.winner or 0) + 1}",
        "",
    ]
    return "\n".join(lines)


def outputs() -> dict[Path, str]:
    from tests.golden.generate import GAMES, golden_text

    files = {PERFT_FILE: perft_text()}
    for start in PLAYTHROUGH_STARTS:
        files[PLAYTHROUGHS / f"{start.name}.txt"] = playthrough_text(start)
    for name in GAMES:
        files[GOLDEN / f"{name}.json"] = golden_text(name)
    return files


def main() -> int:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--check", action="store_true", help="compare with the stored files; write nothing")
    args = parser.parse_args()
    stale = []
    for path, text in outputs().items():
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(path)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)} ({len(text) // 1024} KiB)")
    for path in stale:
        print(f"differs: {path.relative_to(ROOT)}", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
