"""The policy and value nets: rows on disk, the numpy forward pass, fitting with PyTorch, export.

The net is an MLP over :mod:`ra.encode`'s 370 numbers, each divided by its bound
(:data:`ra.encode.OBSERVATION_HIGH`), ReLU between layers, 54 logits; fitted by cross-entropy
between the softmax over the legal actions and the search's visit shares.  The export folds
the division into the first layer, so :class:`ra.bots.policy.Policy` takes the raw numbers.
The value net (:class:`ra.bots.value_net.ValueNet`) is the same kind of MLP with one output,
fitted by binary cross-entropy on the rows' results (did the mover win).
numpy and torch are imported here only: the ``train`` extra.
"""

from __future__ import annotations

import random
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ra.bots.mlp import Layer
from ra.bots.policy import Policy
from ra.bots.value_net import ValueNet
from ra.encode import OBSERVATION_HIGH, OBSERVATION_SIZE
from ra.train.selfplay import NUM_ACTIONS, Rows

Array = npt.NDArray[Any]


def save_rows(path: Path, rows: Rows) -> None:
    """Store rows as a compressed ``.npz`` (written to a temporary name, then renamed).

    The archive's dates are fixed (not the time of writing, as ``np.savez`` has them), so the
    same rows make the same bytes: two runs' chunks compare by their files."""
    arrays = {
        "obs": np.asarray(rows.obs, dtype=np.int16).reshape(-1, OBSERVATION_SIZE),
        "legal": np.asarray(rows.legal, dtype=bool).reshape(-1, NUM_ACTIONS),
        "target": np.asarray(rows.target, dtype=np.float32).reshape(-1, NUM_ACTIONS),
        "result": np.asarray(rows.result, dtype=np.float32),
        "players": np.asarray(rows.players, dtype=np.int8),
    }
    tmp = path.with_suffix(".tmp.npz")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, array in arrays.items():
            entry = zipfile.ZipInfo(f"{name}.npy", date_time=ROWS_DATE)
            entry.compress_type = zipfile.ZIP_DEFLATED
            with archive.open(entry, "w", force_zip64=True) as out:
                np.lib.format.write_array(out, array, allow_pickle=False)
    tmp.replace(path)


ROWS_DATE = (1980, 1, 1, 0, 0, 0)
"""The date of every file in a rows archive (the earliest a zip file can say)."""


def load_rows(paths: list[Path]) -> dict[str, Array]:
    """The rows of several ``.npz`` files, concatenated."""
    parts: dict[str, list[Array]] = {}
    for path in paths:
        with np.load(path) as data:
            for key in data.files:
                parts.setdefault(key, []).append(data[key])
    return {key: np.concatenate(value) for key, value in parts.items()}


def numpy_logits(policy: Policy | ValueNet, obs: Array) -> Array:
    """The logits of one observation by numpy, in the native pass's order (the reference the
    tests compare the C++ and the pure-Python passes with): each output starts at its bias and
    adds input ``i``'s row times ``x[i]``, inputs in order, zeros skipped; float64 throughout."""
    x = np.asarray(obs, dtype=np.float64)
    last = len(policy.layers) - 1
    for k, (rows, bias) in enumerate(policy.layers):
        w = np.asarray(rows, dtype=np.float64)
        y = np.array(bias, dtype=np.float64)
        for i in np.flatnonzero(x):
            y = y + w[i] * x[i]
        x = y if k == last else np.where(y > 0.0, y, 0.0)
    return x


DEVICES = {"cuda": "the GPU", "cpu": "the CPU"}
"""Where a fit runs, and how the progress output says it."""


def fit_device(module: Any = None) -> str:
    """``cuda`` when torch (``module``; none: torch imported here) finds a GPU
    (``torch.cuda.is_available()``), ``cpu`` otherwise."""
    if module is None:
        import torch

        module = torch
    return "cuda" if module.cuda.is_available() else "cpu"


def fit(
    data: dict[str, Array],
    hidden: tuple[int, ...],
    epochs: int,
    seed: int,
    info: dict[str, Any],
    device: str = "cpu",
) -> tuple[Policy, dict[str, float]]:
    """A policy fitted to ``data`` (torch, one CPU thread, on ``device``); its held-out numbers
    (a tenth).  The rows' order and the batches are drawn on the CPU, the same on either device."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    scale = torch.tensor(OBSERVATION_HIGH, dtype=torch.float32)
    x = (torch.tensor(data["obs"], dtype=torch.float32) / scale).to(device)
    legal = torch.tensor(data["legal"]).to(device)
    target = torch.tensor(data["target"]).to(device)
    order = list(range(len(x)))
    random.Random(seed).shuffle(order)
    cut = len(order) // 10
    test, train = torch.tensor(order[:cut]).to(device), torch.tensor(order[cut:])
    model = _mlp(hidden).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-5)
    for _ in range(epochs):
        model.train()
        for batch in train[torch.randperm(len(train))].split(256):
            batch = batch.to(device)
            optimizer.zero_grad()
            loss = _loss(model(x[batch]), legal[batch], target[batch])
            loss.backward()
            optimizer.step()
    model.eval()
    with torch.no_grad():
        scores = _held_out(model(x[test]), legal[test], target[test])
    return export(model.cpu(), hidden, {**info, **scores}), scores


def _mlp(hidden: tuple[int, ...], outputs: int = NUM_ACTIONS) -> Any:
    import torch

    layers: list[Any] = []
    width = OBSERVATION_SIZE
    for h in hidden:
        layers += [torch.nn.Linear(width, h), torch.nn.ReLU()]
        width = h
    layers.append(torch.nn.Linear(width, outputs))
    return torch.nn.Sequential(*layers)


def _masked(logits: Any, legal: Any) -> Any:
    return logits.masked_fill(~legal, -1e9).log_softmax(dim=1)


def _loss(logits: Any, legal: Any, target: Any) -> Any:
    """Cross-entropy between the softmax over the legal actions and the visit shares."""
    return -(target * _masked(logits, legal)).sum(dim=1).mean()


def _held_out(logits: Any, legal: Any, target: Any) -> dict[str, float]:
    """The loss and how often the net's top action is the search's most visited one."""
    agree = (_masked(logits, legal).argmax(dim=1) == target.argmax(dim=1)).float().mean()
    return {
        "held_out_loss": round(float(_loss(logits, legal, target)), 4),
        "held_out_top1": round(float(agree), 4),
    }


def export(model: Any, hidden: tuple[int, ...], info: dict[str, Any]) -> Policy:
    """The torch model as a :class:`Policy` in float64, the inputs' scaling folded into layer 0."""
    return Policy((OBSERVATION_SIZE, *hidden, NUM_ACTIONS), _layers(model), info)


def _layers(model: Any) -> tuple[Layer, ...]:
    """A torch MLP's layers in float64, as :class:`Policy` and :class:`ValueNet` keep them (the
    inputs' scaling by :data:`OBSERVATION_HIGH` folded into layer 0)."""
    linear = [m for m in model if hasattr(m, "weight")]
    high = [float(h) for h in OBSERVATION_HIGH]
    layers = []
    for k, m in enumerate(linear):
        w = m.weight.detach().double().numpy().T  # [in][out]
        rows = tuple(tuple(float(v) / (high[i] if k == 0 else 1.0) for v in w[i]) for i in range(w.shape[0]))
        layers.append((rows, tuple(float(b) for b in m.bias.detach().double().numpy())))
    return tuple(layers)


def numpy_chance(net: ValueNet, obs: Array) -> float:
    """The value net's chance by numpy (the reference for the Python and native passes): the
    policy's numpy pass (:func:`numpy_logits` takes any MLP), then ``1 / (1 + exp(-z))``."""
    z = float(numpy_logits(net, obs)[0])
    return float(1.0 / (1.0 + np.exp(-z)))


def fit_value(
    data: dict[str, Array],
    hidden: tuple[int, ...],
    epochs: int,
    seed: int,
    info: dict[str, Any],
    weight_decay: float = 1e-5,
) -> tuple[ValueNet, dict[str, float]]:
    """A value net fitted to the rows' results (sigmoid, binary cross-entropy; torch, one CPU
    thread) and its held-out numbers.  The held-out rows are the last tenth in stored order: the
    rows are stored game by game, so (but for one game cut in two) no held-out game was trained on."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    scale = torch.tensor(OBSERVATION_HIGH, dtype=torch.float32)
    x = torch.tensor(data["obs"], dtype=torch.float32) / scale
    y = torch.tensor(data["result"], dtype=torch.float32)
    cut = len(x) - len(x) // 10
    train, test = torch.arange(cut), torch.arange(cut, len(x))
    model = _mlp(hidden, outputs=1)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=weight_decay)
    bce = torch.nn.BCEWithLogitsLoss()
    for _ in range(epochs):
        model.train()
        for batch in train[torch.randperm(len(train))].split(256):
            optimizer.zero_grad()
            bce(model(x[batch]).squeeze(1), y[batch]).backward()
            optimizer.step()
    model.eval()
    with torch.no_grad():
        chance = torch.sigmoid(model(x[test]).squeeze(1)).double().numpy()
    scores = value_scores(chance, data["result"][cut:], data["players"][cut:])
    net = ValueNet((OBSERVATION_SIZE, *hidden, 1), _layers(model), {**info, **scores})
    return net, scores


def value_scores(chance: Array, result: Array, players: Array) -> dict[str, float]:
    """Held-out log-loss and calibration error (ten equal-width bins) of ``chance``, and of the
    baseline that knows only the player count (1/N)."""
    base = 1.0 / np.asarray(players, dtype=np.float64)
    y = np.asarray(result, dtype=np.float64)
    return {
        "held_out_rows": float(len(y)),
        "held_out_log_loss": round(log_loss(chance, y), 4),
        "baseline_log_loss": round(log_loss(base, y), 4),
        "held_out_calibration": round(calibration_error(chance, y), 4),
        "baseline_calibration": round(calibration_error(base, y), 4),
    }


def log_loss(p: Array, y: Array) -> float:
    """Mean binary cross-entropy of chances ``p`` against results ``y`` (clipped off 0 and 1)."""
    q = np.clip(np.asarray(p, dtype=np.float64), 1e-12, 1.0 - 1e-12)
    return float(-(y * np.log(q) + (1.0 - y) * np.log(1.0 - q)).mean())


def calibration_error(p: Array, y: Array, bins: int = 10) -> float:
    """Expected calibration error: over ten equal-width bins of the chance, the rows' share of
    each bin times the gap between its mean chance and its share of wins."""
    p = np.asarray(p, dtype=np.float64)
    which = np.minimum((p * bins).astype(int), bins - 1)
    total = 0.0
    for b in range(bins):
        mask = which == b
        if mask.any():
            total += mask.mean() * abs(p[mask].mean() - y[mask].mean())
    return float(total)
