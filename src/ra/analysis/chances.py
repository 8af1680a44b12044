"""Win chances given who is playing: a model of each seat's chance to win from a player's view
and every seat's strength.

The search's chances (:mod:`ra.bots.advisor`) say what happens if everyone plays like the search
from here ("with best play from here"); between players of different strength they are far off.
This model answers "who wins, as these players play": a conditional logit over the seats — each
seat's score is a linear function of its own part of the observation (:mod:`ra.encode`, by
epoch, and apart for the viewer's own slot, whose score alone is known under hidden scores,
R9.1) and of its strength; the chances are the softmax of the scores over the seats at the
table.  A strength is a rating on the levels' OpenSkill scale (:data:`LEVEL_STRENGTH`; a
person's rating is on the same scale).  The forward pass here is plain Python (playing needs no
numpy); :mod:`ra.train.chances` has the same pass in numpy and the fit, ``tools/chances_model.py``
plays the games and writes the file (:data:`MODEL_FILE`), ``benchmarks/chances.py`` measures it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

from ra.bots import LEVEL_RATINGS, parse_spec
from ra.encode import FIELDS, OBSERVATION_HIGH, OBSERVATION_SIZE, SLOT_SIZE, observation
from ra.setup import EPOCHS, MAX_PLAYERS
from ra.views import PlayerView

MODEL_FILE: Final = Path(__file__).resolve().parent.parent / "data" / "chances_model.json"
VERSION: Final = 1

LEVEL_STRENGTH: Final[dict[str, float]] = {
    "random": -12.5,
    "greedy": 22.8,
    **{level: mu for level, (mu, _) in LEVEL_RATINGS.items()},
}
"""Each bot's rating μ on the levels' OpenSkill scale (docs/bots.md, Levels): the strength the
model reads (a new account starts at 25)."""

PERSON_STRENGTH: Final = 25.0
"""A person whose strength nobody knows (a guest, a new account, the terminal's player): a new
account's rating μ, the scale's middle (:func:`strength_term` reads it as 0)."""


def strength_of(level: str | None) -> float:
    """The strength of a seat: a bot's by its ``level`` (:data:`LEVEL_STRENGTH`), a person's
    (``None``) :data:`PERSON_STRENGTH`, as is a bot of a level the model does not know."""
    return PERSON_STRENGTH if level is None else LEVEL_STRENGTH.get(level, PERSON_STRENGTH)


def spec_strength(spec: str | None) -> float:
    """The strength of a table's seat (:class:`ra.table.Seat`): a person (``None``), or a bot by
    its spec (``hard``, ``mcts:hard``, ``random``: its level, else its name)."""
    if spec is None:
        return PERSON_STRENGTH
    try:
        name, level, _ = parse_spec(spec)
    except ValueError:
        return PERSON_STRENGTH
    return strength_of(level or name)


SLOT0: Final = FIELDS["slot0.present"][0]
EPOCH: Final = FIELDS["epoch"][0]
PLAYERS: Final = FIELDS["players"][0]
PER_SEAT: Final = (FIELDS["to_move"][0], FIELDS["ra_player"][0], FIELDS["high_bidder"][0])
"""Where the global fields about one seat start (to move, Ra caller, high bidder; by slot)."""
FEATURES: Final = SLOT_SIZE * (EPOCHS + 1) + 2 * EPOCHS + len(PER_SEAT) + 1
"""Per seat: its slot by epoch, its slot again if it is the viewer's own, its strength and
strength squared by epoch, the global fields about it, and whether it is the viewer."""


def strength_term(strength: float) -> float:
    """A strength as the model reads it: 0 at a new account's 25, 1 at 50."""
    return (strength - PERSON_STRENGTH) / 25.0


def slot_strengths(strengths: Sequence[float], seat: int) -> list[float]:
    """``strengths`` by seat, in the slot order of ``seat``'s observation (its own first)."""
    n = len(strengths)
    return [strengths[(seat + k) % n] for k in range(n)] + [0.0] * (MAX_PLAYERS - n)


def seat_features(obs: Sequence[float], strengths: Sequence[float]) -> list[list[float]]:
    """The features of each seat at the table (slot order) from an observation and the slot
    strengths (:func:`slot_strengths`)."""
    epoch = min(EPOCHS, max(1, int(obs[EPOCH]))) - 1
    out = []
    for k in range(int(obs[PLAYERS])):
        at = SLOT0 + k * SLOT_SIZE
        slot = [obs[i] / OBSERVATION_HIGH[i] for i in range(at, at + SLOT_SIZE)]
        blank = [0.0] * SLOT_SIZE
        row = [v for e in range(EPOCHS) for v in (slot if e == epoch else blank)]
        row += slot if k == 0 else blank
        s = strength_term(strengths[k])
        row += [s if e == epoch else 0.0 for e in range(EPOCHS)]
        row += [s * s if e == epoch else 0.0 for e in range(EPOCHS)]
        row += [obs[start + k] for start in PER_SEAT]
        row.append(1.0 if k == 0 else 0.0)
        out.append(row)
    return out


@dataclass(frozen=True)
class ChancesModel:
    """The fitted weights (one per feature) and the features' scales (the fit divides each
    feature by its scale)."""

    weights: tuple[float, ...]
    scale: tuple[float, ...]

    def predict(self, obs: Sequence[float], strengths: Sequence[float]) -> list[float]:
        """Each seat's chance to win in the observation's slot order."""
        scores = [
            sum(w * x / c for w, x, c in zip(self.weights, row, self.scale, strict=True))
            for row in seat_features(obs, strengths)
        ]
        top = max(scores)
        e = [math.exp(s - top) for s in scores]
        total = sum(e)
        return [x / total for x in e]

    def chances(self, view: PlayerView, strengths: Sequence[float]) -> tuple[float, ...]:
        """Each seat's chance to win (by seat) seen from ``view``, with the seats' strengths."""
        n = view.num_players
        if len(strengths) != n:
            raise ValueError(f"{n} strengths wanted (one a seat), got {len(strengths)}")
        seat = view.seat if view.seat is not None else 0
        by_slot = self.predict(observation(view), slot_strengths(strengths, seat))
        return tuple(by_slot[(s - seat) % n] for s in range(n))

    def to_json(self) -> str:
        weights = [round(a, 6) for a in self.weights]
        scale = [round(a, 6) for a in self.scale]
        layout = {"version": VERSION, "observation": OBSERVATION_SIZE, "features": FEATURES}
        return json.dumps({**layout, "weights": weights, "scale": scale}) + "\n"

    @classmethod
    def from_json(cls, text: str) -> ChancesModel:
        """Read a model file; ``ValueError`` says what is wrong with it."""
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("version") != VERSION:
            raise ValueError(f"not a version {VERSION} model of win chances")
        if data.get("observation") != OBSERVATION_SIZE or data.get("features") != FEATURES:
            raise ValueError("a model of win chances for another observation layout")
        weights, scale = data.get("weights"), data.get("scale")
        if (
            not isinstance(weights, list)
            or not isinstance(scale, list)
            or {len(weights), len(scale)} != {FEATURES}
        ):
            raise ValueError("a broken model of win chances (weights or scale)")
        return cls(tuple(float(a) for a in weights), tuple(float(a) for a in scale))


@cache
def default_model() -> ChancesModel:
    """The model shipped with the package (:data:`MODEL_FILE`)."""
    return ChancesModel.from_json(MODEL_FILE.read_text(encoding="utf-8"))


__all__ = [
    "FEATURES",
    "LEVEL_STRENGTH",
    "MODEL_FILE",
    "PERSON_STRENGTH",
    "ChancesModel",
    "default_model",
    "seat_features",
    "slot_strengths",
    "spec_strength",
    "strength_of",
    "strength_term",
]
