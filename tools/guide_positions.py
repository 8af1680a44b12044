"""Regenerate ``src/ra/data/guide_positions.json``: one position per section of the strategy guide.

Each position is a setup (players, seed) and the actions reaching it (random legal moves from a
fixed generator, stopped at the first real choice after ``plies`` moves), with the advisor's
numbers for the player to move: each legal action's win chance and the best action.

    PYTHONPATH=src python -m tools.guide_positions
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import ra
from ra.bots.advisor import Advisor

OUT = Path(__file__).resolve().parent.parent / "src" / "ra" / "data" / "guide_positions.json"
BUDGET = 400
"""The advisor's search iterations: small, so that the test can recompute the best action."""

SPECS: tuple[tuple[str, int, int, int], ...] = (
    # name, players, seed, plies
    ("lot_value", 3, 11, 9),
    ("invoke", 3, 12, 7),
    ("ra_track", 4, 13, 30),
    ("suns", 3, 14, 14),
    ("centre_sun", 3, 15, 18),
    ("gods", 4, 16, 16),
    ("disasters", 3, 17, 22),
    ("races", 4, 18, 60),
    ("monuments", 3, 19, 80),
    ("outbid", 5, 20, 12),
    ("two_players", 2, 21, 10),
)


def reach(players: int, seed: int, plies: int) -> tuple[ra.Game, list[str]]:
    """The game after random legal moves, stopped at the first choice of two or more actions."""
    game = ra.Game(players=players, seed=seed)
    rng = random.Random(seed)
    moves: list[str] = []
    while not game.is_over() and (len(moves) < plies or len(game.legal_actions()) < 2):
        action = rng.choice(game.legal_actions())
        moves.append(str(action))
        game.apply(action)
    return game, moves


def position(name: str, players: int, seed: int, plies: int) -> dict[str, object]:
    """One position and the advisor's numbers for the player to move."""
    game, moves = reach(players, seed, plies)
    view = game.view(game.to_move)
    evaluation = Advisor(budget=BUDGET, seed=0).evaluate(view)
    mover = evaluation.mover
    return {
        "name": name,
        "players": players,
        "seed": seed,
        "moves": moves,
        "mover": mover,
        "budget": BUDGET,
        "best": str(evaluation.actions[0].action),
        "actions": [{"action": str(v.action), "win": round(v.chances[mover], 3)} for v in evaluation.actions],
    }


def main() -> None:
    """Write the positions file."""
    data = [position(*spec) for spec in SPECS]
    OUT.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(data)} positions)")


if __name__ == "__main__":
    main()
