"""The learned evaluation: what each player still scores, read where the search cuts its rollouts.

The search (:mod:`ra.bots.mcts`, :mod:`ra.bots.native_mcts`) plays each iteration to the end of
the epoch and then judges the position: at the start of epoch 2 or 3, where the displays hold
only what stays (Pharaohs, Niles, Monuments, R6.3) and every sun is face up.  The heuristic
judge is :func:`ra.bots.mcts.projected_scores`; this is the learned one: per player count and
epoch, a linear model over :data:`FEATURES` of the points a player still scores, fitted on
self-play by ``tools/value_model.py`` and shipped as ``ra/data/value_model.json``.

The native core evaluates it in C++ (``native/value.cpp``); :func:`features` and
:meth:`ValueModel.predict` are the same model in Python, for the Python search and the tests.
A missing or damaged model file makes :func:`default_model` warn once and return ``None``: the
search then uses the heuristic.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Final

from ra.scoring import majority_points, monument_points
from ra.state import PHASE_ACTION, State, sun_total
from ra.tiles import T_MONUMENTS, T_NILE, T_PHARAOH

VERSION: Final = 2
"""The model file's format (features and their order); a file of another version is not used."""

FEATURES: Final = (
    "bias",
    "most_pharaohs",
    "fewest_pharaohs",
    "pharaohs_vs_mean",
    "niles",
    "monument_points",
    "monument_kinds",
    "monument_pairs",
    "monument_sets",
    "sun_total_vs_mean",
    "highest_sun_vs_mean",
    "most_sun_total",
    "fewest_sun_total",
    "heuristic",
)
PLAYER_COUNTS: Final = (2, 3, 4, 5)
EPOCHS: Final = (2, 3)
"""The epochs whose start the model judges (the search's cuts)."""


def at_epoch_start(state: State) -> bool:
    """Whether ``state`` is the start of epoch 2 or 3, the positions the model was fitted on."""
    return (
        state.epoch >= 2
        and state.phase_code == PHASE_ACTION
        and state.ra_count == 0
        and not state.track_tiles()
    )


def features(state: State, seat: int, heuristic_gain: float) -> list[float]:
    """The model's features of ``seat`` (native ``State.value_features``, number for number);
    ``heuristic_gain``, the last, is what the heuristic projects ``seat`` still to score, so the
    model learns a correction to the heuristic (and is the heuristic with all else zero)."""
    n = state.num_players
    up, down, displays = state.sun_masks(), state.used_sun_masks(), state.displays()
    masks = [up[i] | down[i] for i in range(n)]
    pharaohs = [displays[i][T_PHARAOH] for i in range(n)]
    totals = [sun_total(m) for m in masks]
    highest = [m.bit_length() - 1 for m in masks]
    d = displays[seat]
    counts = [d[t] for t in T_MONUMENTS]
    return [
        1.0,
        float(majority_points(pharaohs, 1, 0)[seat]),
        float(majority_points(pharaohs, 0, 1)[seat]),
        pharaohs[seat] - sum(pharaohs) / n,
        float(d[T_NILE]),
        float(monument_points(d)),
        float(sum(c > 0 for c in counts)),
        float(sum(c == 2 for c in counts)),
        float(sum(c >= 3 for c in counts)),
        totals[seat] - sum(totals) / n,
        highest[seat] - sum(highest) / n,
        float(majority_points(totals, 1, 0)[seat]),
        float(majority_points(totals, 0, 1)[seat]),
        heuristic_gain,
    ]


@dataclass(frozen=True)
class ValueModel:
    """Coefficients by (player count, epoch), each one per feature of :data:`FEATURES`."""

    coefficients: dict[tuple[int, int], tuple[float, ...]]

    def flat(self) -> tuple[float, ...]:
        """Every coefficient in the native core's order (players 2-5, epoch 2-3, features)."""
        return tuple(c for n in PLAYER_COUNTS for e in EPOCHS for c in self.coefficients[(n, e)])

    def predict(self, state: State, heuristic: Sequence[float]) -> list[float] | None:
        """Each seat's expected final score, given the heuristic's projected scores; ``None``
        away from the start of epoch 2 or 3."""
        if not at_epoch_start(state):
            return None
        coef = self.coefficients[(state.num_players, state.epoch)]
        out = []
        scores = state.known_scores()
        for seat in range(state.num_players):
            gain = 0.0
            score = float(scores[seat])
            for c, f in zip(coef, features(state, seat, heuristic[seat] - score), strict=True):
                gain += c * f
            out.append(score + gain)
        return out

    @classmethod
    def from_json(cls, text: str) -> ValueModel:
        """Read a model file; ``ValueError`` naming what is wrong."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"not JSON ({e})") from None
        if not isinstance(data, dict) or data.get("version") != VERSION:
            raise ValueError(f"not a version-{VERSION} value model")
        if data.get("features") != list(FEATURES):
            raise ValueError("its features are not this version's")
        table = data.get("coefficients") or {}
        coefficients: dict[tuple[int, int], tuple[float, ...]] = {}
        for n in PLAYER_COUNTS:
            for epoch in EPOCHS:
                try:
                    row = table[str(n)][str(epoch)]
                except (KeyError, TypeError):
                    raise ValueError(f"no coefficients for {n} players, epoch {epoch}") from None
                if not (
                    isinstance(row, list)
                    and len(row) == len(FEATURES)
                    and all(
                        isinstance(c, (int, float)) and not isinstance(c, bool) and abs(c) < 1e6 for c in row
                    )
                ):
                    raise ValueError(f"bad coefficients for {n} players, epoch {epoch}")
                coefficients[(n, epoch)] = tuple(float(c) for c in row)
        return cls(coefficients)


MODEL_FILE: Final = "value_model.json"


@cache
def default_model() -> ValueModel | None:
    """The shipped model, read once; ``None`` (with one warning) if it is missing or damaged."""
    problem = ""
    try:
        text = resources.files("ra").joinpath("data").joinpath(MODEL_FILE).read_text(encoding="utf-8")
        return ValueModel.from_json(text)
    except FileNotFoundError:
        problem = "no such file"
    except (OSError, UnicodeDecodeError) as e:
        problem = f"unreadable: {e}"
    except ValueError as e:
        problem = str(e)
    warnings.warn(
        f"the learned evaluation ra/data/{MODEL_FILE} cannot be used ({problem}); "
        "the search judges positions with the heuristic instead",
        RuntimeWarning,
        stacklevel=2,
    )
    return None
