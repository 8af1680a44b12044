"""The learned value net: each seat's chance to win, judged at the search's leaves.

A :class:`ValueNet` is a small MLP over :mod:`ra.encode`'s observation of one seat (370 numbers,
ReLU between layers, one output): the logit of that seat's chance to win the game (R8.1), fitted
by ``ra.train`` on self-play rows' results (docs/training.md).  It is a second net beside the
policy, not a second head on it: the shipped policy stays as it was measured, the two are trained,
versioned and shipped apart, and both run through the same forward pass (:func:`ra.bots.mlp.forward`,
natively ``policy_logits``), so the value net is equal to the bit to the native one too.

The search (:class:`ra.bots.policy.PolicySearchBot`, option ``value_weight``) judges a new leaf by
:func:`leaf_chances`: every seat's chance from its own observation, scaled to sum to 1 (one seat
wins), mixed with the rollout's reward by the option's weight.  JSON, plain numbers: playing
needs neither numpy nor torch.
"""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Final

from ra.bots.mlp import Net
from ra.encode import observation_of
from ra.state import State

FORMAT: Final = "ra-value"
VERSION: Final = 1
"""The value net file's format version: a file of another version is refused."""
VALUE_FILE: Final = "value_net.json"
"""The shipped value net, in ``ra/data`` (absent until one is trained on self-play and shipped)."""
SHIPPED_VALUE_NET: Final = resources.files("ra").joinpath("data").joinpath(VALUE_FILE)


class ValueNet(Net):
    """An MLP: 370 inputs, ReLU between layers, one output (the logit of the seat's chance)."""

    FORMAT = FORMAT
    VERSION = VERSION
    OUTPUTS = 1
    KIND = "value net"

    def logit(self, obs: Sequence[float]) -> float:
        """The logit of the viewer's chance to win, in pure Python."""
        return self.outputs(obs)[0]

    def chance(self, obs: Sequence[float]) -> float:
        """The viewer's chance to win: the logit's sigmoid (natively the same expression)."""
        return sigmoid(self.logit(obs))


def sigmoid(z: float) -> float:
    """``1 / (1 + exp(-z))``, the native core's expression, operation for operation."""
    return 1.0 / (1.0 + math.exp(-z))


def leaf_chances(net: ValueNet, game: State) -> list[float]:
    """Each seat's chance to win ``game`` by the net, from its own observation (scores hidden
    as the game hides them, R9.1), scaled to sum to 1: the leaf's value for every seat."""
    chances = [net.chance(observation_of(game, seat)) for seat in range(game.num_players)]
    total = 0.0
    for c in chances:
        total += c
    return [c / total for c in chances]


def load(path: str | Path) -> ValueNet:
    """A value net file; ``ValueError`` naming what is wrong (a file it cannot read, too)."""
    return ValueNet.load(path)


@cache
def default_value_net() -> ValueNet | None:
    """The shipped value net (``ra/data/value_net.json``), read once; ``None`` when none is
    shipped or it is damaged (with a warning saying why: the search then keeps its rollouts)."""
    try:
        text = SHIPPED_VALUE_NET.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    try:
        return ValueNet.from_dict(json.loads(text))
    except ValueError as e:  # JSONDecodeError is a ValueError
        warnings.warn(f"the shipped value net is damaged ({e}): the search keeps its rollouts", stacklevel=2)
        return None


def value_net_for(weight: float, net: ValueNet | str | None) -> ValueNet | None:
    """The value net a search with leaf weight ``weight`` uses: ``None`` at weight 0; ``net``
    (a path is read, ``ValueError`` naming what is wrong), else the shipped one; with none
    shipped, ``None`` and a warning (the search keeps its rollouts)."""
    if weight == 0.0:
        return None
    if isinstance(net, ValueNet):
        return net
    if isinstance(net, str):
        return load(net)
    found = default_value_net()
    if found is None and not SHIPPED_VALUE_NET.is_file():  # a damaged one has said why
        warnings.warn(
            f"no value net is shipped (ra/data/{VALUE_FILE}): the search keeps its rollouts", stacklevel=2
        )
    return found
