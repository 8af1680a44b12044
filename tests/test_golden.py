"""Golden games: fixed setups and decisions replayed against stored events and scores.

The files in ``tests/golden`` were generated from the engine before the library
refactor (commit 67bd979, see ``tests/golden/generate.py``); any silent change of
behaviour (a rule, the bag order of a seed, the event log, the scoring) fails here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import ra
from tests.golden.generate import event_data

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_there_are_golden_games() -> None:
    assert len(GOLDEN) >= 5


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_game_replays_identically(path: Path) -> None:
    # R9.2: setup and decisions determine the whole game.
    data = load(path)
    game = ra.Game(**data["setup"])
    for text in data["decisions"]:
        game.apply(text)
    assert game.is_over()
    assert [event_data(e) for e in game.events] == data["events"]
    assert [e.to_dict() for e in game.events] == data["events"]  # the public JSON form is this schema
    assert [[b.as_dict() if b else None for b in ep] for ep in game.epoch_scores] == data["epoch_scores"]
    assert list(game.scores) == data["scores"]
    assert game.winner == data["winner"]


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_record_loads_and_round_trips(path: Path) -> None:
    data = load(path)
    game = ra.Game.from_record(data["record"])
    assert [str(a) for a in game.decisions] == data["decisions"]
    assert list(game.scores) == data["scores"]
    assert ra.Game.from_record(game.to_record()) == game
