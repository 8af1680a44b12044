"""Win chances given who is playing (ra.analysis.chances): the shipped model, its inputs and its
refusals (the fit: tests/train/test_chances_fit.py)."""

from __future__ import annotations

import json

import pytest

import ra
from ra.analysis.chances import LEVEL_STRENGTH, MODEL_FILE, ChancesModel, default_model, slot_strengths


def test_the_shipped_model_gives_every_seat_a_chance_summing_to_one() -> None:
    model = default_model()
    for players in (2, 3, 4, 5):
        game = ra.Game(players=players, seed=players, hidden_scores=True)
        for _ in range(12):
            game.apply(game.legal_actions()[0])
        seat = game.to_move
        assert seat is not None
        chances = model.chances(game.view(seat), [LEVEL_STRENGTH["medium"]] * players)
        assert len(chances) == players and sum(chances) == pytest.approx(1.0)
        assert all(0 < c < 1 for c in chances)


def test_the_stronger_player_is_given_the_better_chance() -> None:
    """The same opening position, a random player against a medium one: whoever is medium is
    the favourite, and swapping the seats' strengths swaps the favourite."""
    game = ra.Game(players=2, seed=7, hidden_scores=True)
    view = game.view(0)
    weak, strong = LEVEL_STRENGTH["random"], LEVEL_STRENGTH["medium"]
    first = default_model().chances(view, [weak, strong])
    second = default_model().chances(view, [strong, weak])
    assert first[1] > 0.6 and second[0] > 0.6


def test_a_strength_for_each_seat_is_required() -> None:
    view = ra.Game(players=3, seed=1).view(0)
    with pytest.raises(ValueError, match="3 strengths wanted"):
        default_model().chances(view, [25.0, 25.0])


def test_slot_order_starts_with_the_viewer() -> None:
    assert slot_strengths([1.0, 2.0, 3.0], 1) == [2.0, 3.0, 1.0, 0.0, 0.0]


def test_a_model_file_of_another_kind_is_refused() -> None:
    data = json.loads(MODEL_FILE.read_text(encoding="utf-8"))
    with pytest.raises(ValueError, match="another observation layout"):
        ChancesModel.from_json(json.dumps({**data, "features": 3}))
    with pytest.raises(ValueError, match="weights or scale"):
        ChancesModel.from_json(json.dumps({**data, "weights": data["weights"][:-1]}))
    with pytest.raises(ValueError, match="not a version"):
        ChancesModel.from_json("[]")
