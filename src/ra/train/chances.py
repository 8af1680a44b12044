"""The model of win chances given who is playing (:mod:`ra.analysis.chances`) in numpy: the same
features and forward pass over many positions at once, and the fit.  numpy is imported here
only (the ``train`` extra); the package's pass is plain Python, and the tests hold both equal.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ra.analysis.chances import EPOCH, FEATURES, PER_SEAT, PLAYERS, SLOT0, ChancesModel
from ra.encode import OBSERVATION_HIGH, SLOT_SIZE
from ra.setup import EPOCHS, MAX_PLAYERS

Array = npt.NDArray[np.float64]

_HIGH = np.array(OBSERVATION_HIGH, dtype=np.float64)


def features(obs: Array, strengths: Array) -> Array:
    """Each slot's features, shape (positions, MAX_PLAYERS, FEATURES), from observations
    (positions, OBSERVATION_SIZE) and slot strengths (positions, MAX_PLAYERS); absent slots'
    rows are not used (:func:`present`)."""
    obs = obs.astype(np.float64)
    rows = obs.shape[0]
    epoch = np.zeros((rows, EPOCHS))
    epoch[np.arange(rows), np.clip(obs[:, EPOCH].astype(int), 1, EPOCHS) - 1] = 1.0
    scaled = obs / _HIGH
    slots = scaled[:, SLOT0 : SLOT0 + SLOT_SIZE * MAX_PLAYERS].reshape(rows, MAX_PLAYERS, SLOT_SIZE)
    mine = np.zeros((rows, MAX_PLAYERS, 1))
    mine[:, 0, 0] = 1.0
    s = ((strengths.astype(np.float64) - 25.0) / 25.0)[:, :, None]
    by_epoch = (slots[:, :, None, :] * epoch[:, None, :, None]).reshape(rows, MAX_PLAYERS, SLOT_SIZE * EPOCHS)
    out = [by_epoch, slots * mine, s * epoch[:, None, :], s * s * epoch[:, None, :]]
    out += [obs[:, at : at + MAX_PLAYERS][:, :, None] for at in PER_SEAT]
    out.append(mine)
    return np.concatenate(out, axis=2)


def present(obs: Array) -> Array:
    """Which slots hold a player (positions, MAX_PLAYERS)."""
    n = obs[:, PLAYERS].astype(int)
    return (np.arange(MAX_PLAYERS)[None, :] < n[:, None]).astype(np.float64)


def softmax(scores: Array, seated: Array) -> Array:
    """The softmax of each position's scores over its seated slots (absent slots 0)."""
    scores = np.where(seated > 0, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=1, keepdims=True)) * seated
    out: Array = e / e.sum(axis=1, keepdims=True)
    return out


def predict(model: ChancesModel, obs: Array, strengths: Array) -> Array:
    """Each slot's chance to win (positions, MAX_PLAYERS), as :meth:`ChancesModel.predict`."""
    x = features(obs, strengths) / np.array(model.scale)
    return softmax(x @ np.array(model.weights), present(obs))


def log_loss(model: ChancesModel, obs: Array, strengths: Array, winner: npt.NDArray[np.int16]) -> float:
    """Mean negative log chance given to the winning slot."""
    p = predict(model, obs, strengths)[np.arange(len(winner)), winner.astype(int)]
    return float(-np.log(np.maximum(p, 1e-12)).mean())


def fit(obs: Array, strengths: Array, winner: npt.NDArray[np.int16], steps: int = 400) -> ChancesModel:
    """Weights by full-batch Adam on the log loss of the winning slot, with a little L2."""
    x = features(obs, strengths)
    seated = present(obs)
    scale = np.maximum(x[seated > 0].std(axis=0), 1e-3)
    x /= scale
    target = np.zeros_like(seated)
    target[np.arange(len(winner)), winner.astype(int)] = 1.0
    w, m, v = np.zeros(FEATURES), np.zeros(FEATURES), np.zeros(FEATURES)
    for t in range(1, steps + 1):
        grad = np.einsum("pk,pkf->f", softmax(x @ w, seated) - target, x) / len(winner) + 1e-3 * w
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= 0.05 * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return ChancesModel(tuple(float(a) for a in w), tuple(float(a) for a in scale))


def tempered(
    model: ChancesModel, obs: Array, strengths: Array, winner: npt.NDArray[np.int16]
) -> ChancesModel:
    """The model with its scores divided by the temperature (0.5 to 3) that minimises the log
    loss on these positions (other games than the fit's: a fit is overconfident)."""
    candidates = (
        ChancesModel(tuple(a / t for a in model.weights), model.scale) for t in np.arange(0.5, 3.0, 0.02)
    )
    return min(candidates, key=lambda m: log_loss(m, obs, strengths, winner))


__all__ = ["features", "fit", "log_loss", "predict", "present", "softmax", "tempered"]
