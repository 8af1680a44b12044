"""The small MLPs the bots learn (the policy, :mod:`ra.bots.policy`; the value net,
:mod:`ra.bots.value_net`): their pure-Python forward pass, flat form and JSON form, and
:class:`Net`, what the two have in common (each names its file's format and its outputs).

An MLP takes :mod:`ra.encode`'s 370 numbers, has ReLU between layers and plain linear outputs.
Its forward pass here is the native core's (``native/policy.cpp``) operation for operation, so
the two are equal to the bit.
"""

from __future__ import annotations

import json
import math
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar, Final, Self

from ra.encode import OBSERVATION_SIZE

MAX_LAYERS: Final = 8
MAX_WIDTH: Final = 1024

Layer = tuple[tuple[tuple[float, ...], ...], tuple[float, ...]]
"""One layer: its weights by input (row ``i``: what input ``i`` adds to every output), its biases."""


@dataclass(frozen=True)
class Net:
    """An MLP over the observation, and how it was made. A kind of net (a subclass) names its
    file's ``FORMAT`` and ``VERSION`` (a file of another is refused), its ``OUTPUTS`` and what it
    is called in errors (``KIND``)."""

    FORMAT: ClassVar[str]
    VERSION: ClassVar[int]
    OUTPUTS: ClassVar[int]
    KIND: ClassVar[str]

    sizes: tuple[int, ...]
    layers: tuple[Layer, ...]
    info: dict[str, Any] = field(default_factory=dict, compare=False)
    """How it was made (generation, rows, held-out figures): shown, never used to play."""

    @cached_property
    def flat(self) -> array[float]:
        """The net as the native core takes it (:func:`flat_form`)."""
        return flat_form(self.sizes, self.layers)

    def outputs(self, obs: Sequence[float]) -> list[float]:
        """The net's outputs for an observation, in pure Python (:func:`forward`)."""
        return forward(self.layers, obs)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (:meth:`from_dict` reads it back exactly: Python's float repr round-trips)."""
        return {
            "format": self.FORMAT,
            "version": self.VERSION,
            **layers_dict(self.sizes, self.layers),
            "info": self.info,
        }

    @classmethod
    def from_dict(cls, data: object) -> Self:
        """A net from its JSON form; ``ValueError`` naming what is wrong."""
        if (
            not isinstance(data, dict)
            or data.get("format") != cls.FORMAT
            or data.get("version") != cls.VERSION
        ):
            raise ValueError(f"not a version-{cls.VERSION} {cls.FORMAT} file")
        sizes, layers = parse_layers(data, cls.OUTPUTS)
        info = data.get("info")
        return cls(sizes, layers, dict(info) if isinstance(info, dict) else {})

    @classmethod
    def load(cls, path: str | Path) -> Self:
        """A net's file; ``ValueError`` naming what is wrong (a file it cannot read, too)."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as e:
            raise ValueError(f"cannot read the {cls.KIND} {path}: {e.strerror or e}") from None
        try:
            return cls.from_dict(json.loads(text))
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}: not JSON ({e})") from None


def forward(layers: Sequence[Layer], obs: Sequence[float]) -> list[float]:
    """An MLP's outputs for an observation, in pure Python (the policy's and the value net's).

    Every output starts at its bias and adds ``row[i] * x[i]`` input by input (inputs equal
    to 0 skipped), ReLU between layers: the native pass's operations in its order, so the
    results are equal to the bit (IEEE doubles, no fused multiply-add).
    """
    x = [float(v) for v in obs]
    last = len(layers) - 1
    for k, (rows, bias) in enumerate(layers):
        y = list(bias)
        for xi, row in zip(x, rows, strict=True):
            if xi != 0.0:
                y = [yj + wj * xi for yj, wj in zip(y, row, strict=True)]
        x = y if k == last else [v if v > 0.0 else 0.0 for v in y]
    return x


def flat_form(sizes: Sequence[int], layers: Sequence[Layer]) -> array[float]:
    """An MLP as the native core takes it: layers, sizes, then each layer's W and biases."""
    out = array("d", [float(len(layers)), *map(float, sizes)])
    for rows, bias in layers:
        for row in rows:
            out.extend(row)
        out.extend(bias)
    return out


def parse_layers(data: dict[str, Any], outputs: int) -> tuple[tuple[int, ...], tuple[Layer, ...]]:
    """An MLP's sizes and layers from its JSON form (``outputs`` wide at the end); ``ValueError``."""
    sizes = _sizes(data.get("sizes"), outputs)
    raw = data.get("layers")
    if not isinstance(raw, list) or len(raw) != len(sizes) - 1:
        raise ValueError("the layers do not match the sizes")
    return sizes, tuple(_layer(raw[k], sizes[k], sizes[k + 1], k) for k in range(len(raw)))


def layers_dict(sizes: Sequence[int], layers: Sequence[Layer]) -> dict[str, Any]:
    """An MLP's sizes and layers in their JSON form (:func:`parse_layers` reads it back exactly)."""
    return {
        "sizes": list(sizes),
        "layers": [{"w": [list(r) for r in rows], "b": list(bias)} for rows, bias in layers],
    }


def _sizes(raw: object, outputs: int) -> tuple[int, ...]:
    if not (isinstance(raw, list) and 2 <= len(raw) <= MAX_LAYERS + 1):
        raise ValueError(f"sizes must list 2 to {MAX_LAYERS + 1} widths")
    if not all(isinstance(s, int) and not isinstance(s, bool) and 1 <= s <= MAX_WIDTH for s in raw):
        raise ValueError(f"every width must be 1 to {MAX_WIDTH}")
    if raw[0] != OBSERVATION_SIZE or raw[-1] != outputs:
        raise ValueError(f"the net must take {OBSERVATION_SIZE} numbers and give {outputs} outputs")
    return tuple(raw)


def _numbers(raw: object, size: int, what: str) -> tuple[float, ...]:
    if not (isinstance(raw, list) and len(raw) == size):
        raise ValueError(f"{what} must be {size} numbers")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in raw):
        raise ValueError(f"{what} must be finite numbers")
    return tuple(float(v) for v in raw)


def _layer(raw: object, width_in: int, width_out: int, k: int) -> Layer:
    if not isinstance(raw, dict) or not isinstance(raw.get("w"), list) or len(raw["w"]) != width_in:
        raise ValueError(f"layer {k} must have {width_in} rows of weights")
    rows = tuple(_numbers(r, width_out, f"layer {k}'s rows") for r in raw["w"])
    return rows, _numbers(raw.get("b"), width_out, f"layer {k}'s biases")
