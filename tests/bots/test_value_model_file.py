"""The shipped learned evaluation's file: read and checked; a missing or damaged one falls back
to the heuristic with one warning (ra.bots.value_model.default_model)."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from importlib import resources

import pytest

import ra
from ra.bots import value_model
from ra.bots.mcts import MCTSBot
from ra.bots.value_model import FEATURES, VERSION, ValueModel


@pytest.fixture
def fresh_cache() -> Iterator[None]:
    value_model.default_model.cache_clear()
    yield
    value_model.default_model.cache_clear()


def test_the_shipped_model_reads_and_values_sensibly(fresh_cache: None) -> None:
    model = value_model.default_model()
    assert model is not None
    for n in value_model.PLAYER_COUNTS:
        for e in value_model.EPOCHS:
            coef = dict(zip(FEATURES, model.coefficients[(n, e)], strict=True))
            # What the rules make worth something is worth something to the model: three of one
            # Monument (R7.3: 5 points at the end, and it stays, R6.3) ...
            assert 5 * coef["monument_points"] + coef["monument_kinds"] + coef["monument_sets"] > 0, (n, e)
            # ... and holding the most Pharaohs rather than the fewest (R7.2), one apart.
            most = coef["most_pharaohs"] + coef["pharaohs_vs_mean"] / 2
            fewest = coef["fewest_pharaohs"] - coef["pharaohs_vs_mean"] / 2
            assert most > fewest, (n, e)
    text = resources.files("ra").joinpath("data").joinpath("value_model.json").read_text(encoding="utf-8")
    assert json.loads(text)["version"] == VERSION


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{", "not JSON"),
        ('{"version": 99}', f"not a version-{VERSION} value model"),
        (json.dumps({"version": VERSION, "features": ["x"]}), "features"),
        (
            json.dumps({"version": VERSION, "features": list(FEATURES), "coefficients": {}}),
            "no coefficients for 2 players",
        ),
        (
            json.dumps(
                {
                    "version": VERSION,
                    "features": list(FEATURES),
                    "coefficients": {str(n): {"2": [1.0], "3": [1.0]} for n in (2, 3, 4, 5)},
                }
            ),
            "bad coefficients for 2 players, epoch 2",
        ),
    ],
)
def test_a_damaged_model_is_named(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        ValueModel.from_json(text)


def test_a_missing_model_warns_once_and_the_search_uses_the_heuristic(
    fresh_cache: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(value_model, "MODEL_FILE", "no_such_model.json")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        learned = MCTSBot(seed=1, iterations=60, value="learned")
        heuristic = MCTSBot(seed=1, iterations=60)
        MCTSBot(seed=1, iterations=60, value="learned")
    assert [str(w.message) for w in caught if "learned evaluation" in str(w.message)] == [
        "the learned evaluation ra/data/no_such_model.json cannot be used (no such file); "
        "the search judges positions with the heuristic instead"
    ]
    game = ra.Game(2, seed=3)
    view = game.view(0)
    assert learned.choose(view) == heuristic.choose(view)
