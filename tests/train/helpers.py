"""Small random policies and positions for the policy tests."""

from __future__ import annotations

import random

import ra
from ra.bots.policy import Policy
from ra.bots.value_net import ValueNet


def random_policy(seed: int, hidden: tuple[int, ...] = (24, 12), scale: float = 0.3) -> Policy:
    """A policy with random weights (what the forward passes compute does not depend on training)."""
    rng = random.Random(seed)
    sizes = (370, *hidden, 54)
    layers = tuple(
        (
            tuple(tuple(rng.gauss(0.0, scale) for _ in range(sizes[k + 1])) for _ in range(sizes[k])),
            tuple(rng.gauss(0.0, 0.1) for _ in range(sizes[k + 1])),
        )
        for k in range(len(sizes) - 1)
    )
    return Policy(sizes, layers, {"made": "random, for tests"})


def positions(count: int, seed: int, hidden_scores: bool = True) -> list[ra.Game]:
    """Positions with a choice from random games of 2-5 players (hidden scores: R9.1)."""
    rng = random.Random(seed)
    out: list[ra.Game] = []
    i = 0
    while len(out) < count:
        game = ra.Game(2 + i % 4, seed=seed * 100 + i, hidden_scores=hidden_scores)
        i += 1
        while not game.is_over() and len(out) < count:
            if len(game.legal_actions()) > 1 and rng.random() < 0.15:
                out.append(game.clone())
            game.apply(rng.choice(game.legal_actions()))
    return out


def random_value_net(seed: int, hidden: tuple[int, ...] = (24, 12), scale: float = 0.3) -> ValueNet:
    """A value net with random weights (one output: the logit of the viewer's chance)."""
    net = random_policy(seed, hidden, scale)
    last_rows, last_bias = net.layers[-1]
    layers = (*net.layers[:-1], (tuple(row[:1] for row in last_rows), last_bias[:1]))
    return ValueNet((*net.sizes[:-1], 1), layers, {"made": "random, for tests"})


def constant_value_net(logit: float = 0.0) -> ValueNet:
    """A value net giving every seat the same chance (all weights 0): a leaf it judges is worth
    1/N to every seat, whatever the redeal."""
    layer = (tuple((0.0,) for _ in range(370)), (logit,))
    return ValueNet((370, 1), (layer,), {"made": "constant, for tests"})
