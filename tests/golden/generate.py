"""Write the golden game records (tests/golden/*.json) from the engine on the path.

The files were first generated from commit 67bd979 (before the library refactor) with
``PYTHONPATH=<that checkout>/src python tests/golden/generate.py``, so replaying
them proves behaviour unchanged.  Each holds the setup, the decisions, every
event as data (not text) and the per-epoch score breakdowns.  ``tools/regen_golden.py``
writes and checks them with the other golden files; on 2026-11-28 it rewrote them and
only their records changed (they gained the ``disaster_timing`` field): decisions,
events, breakdowns, scores and winners are those of 67bd979.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import ra

HERE = Path(__file__).resolve().parent

# name -> (Game keyword arguments, decision-picking seed, greedy?)
GAMES: dict[str, tuple[dict[str, Any], int, bool]] = {
    "2p-random": ({"players": 2, "seed": 11}, 1, False),
    "3p-random": ({"players": ["Ann", "Bob", "Cy"], "seed": 7}, 2, False),
    "4p-random": ({"players": 4, "seed": 2024}, 3, False),
    "5p-random": ({"players": 5, "seed": 99}, 4, False),
    "3p-greedy": ({"players": 3, "seed": 5}, 5, True),
    "long-2p-7": ({"players": 2, "seed": 3, "variant": "long-2p", "suns_per_player": 7}, 6, False),
    "4p-hidden": ({"players": 4, "seed": 8, "hidden_scores": True}, 7, True),
}


def detail_data(detail: Any) -> Any:
    """An event's detail as JSON data (a score breakdown becomes its fields)."""
    if isinstance(detail, ra.ScoreBreakdown):
        return {"epoch": detail.epoch, "seat": detail.seat, **detail.as_dict()}
    if isinstance(detail, tuple):
        return list(detail)
    return detail


def event_data(e: ra.Event) -> dict[str, Any]:
    """One event as JSON data."""
    return {
        "kind": e.kind,
        "seat": e.seat,
        "tile": str(e.tile) if e.tile is not None else None,
        "sun": e.sun,
        "tiles": [str(t) for t in e.tiles],
        "auto": e.auto,
        "detail": detail_data(e.detail),
    }


def play(kwargs: dict[str, Any], pick_seed: int, greedy: bool) -> dict[str, Any]:
    """Play one game and return its golden data."""
    from ra import bots

    game = ra.Game(**kwargs)
    rng = random.Random(pick_seed)
    bot = bots.make("greedy", seed=pick_seed, epsilon=0.2) if greedy else None
    while not game.is_over():
        if bot is not None:
            seat = game.to_move
            assert seat is not None
            action = bot.choose(game.view(seat))
        else:
            action = rng.choice(game.legal_actions())
        game.apply(action)
    return {
        "setup": kwargs,
        "decisions": [str(a) for a in game.decisions],
        "events": [event_data(e) for e in game.events],
        "epoch_scores": [[b.as_dict() if b else None for b in epoch] for epoch in game.epoch_scores],
        "scores": list(game.scores),
        "winner": game.winner,
        "record": game.to_record(),
    }


def golden_text(name: str) -> str:
    """The text of ``tests/golden/<name>.json`` as the engine on the path plays it."""
    kwargs, pick_seed, greedy = GAMES[name]
    return json.dumps(play(kwargs, pick_seed, greedy), indent=0) + "\n"


def main() -> int:
    """Write every golden record (``tools/regen_golden.py`` writes and checks them with the rest)."""
    for name in GAMES:
        text = golden_text(name)
        (HERE / f"{name}.json").write_text(text, encoding="utf-8")
        print(name, len(text) // 1024, "KiB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
