"""The learned policy and the search it guides (PUCT): expert iteration's bot.

A :class:`Policy` is a small MLP over :mod:`ra.encode`'s observation of the player to move; its
54 outputs are logits over the fixed action space (``ra.Action.index``), turned into a prior
over the legal actions by a softmax.  ``python -m ra.train`` fits it on the native search's own
choices (docs/training.md) and writes it as JSON: plain numbers, so playing needs neither numpy
nor torch.

:class:`PolicySearchBot` is the MCTS bot (:mod:`ra.bots.mcts`: information sets redealt from the
public unseen counts, R9.1/R9.3; greedy rollouts cut at the epoch's end; the same reward) with
the net as every node's prior: a node's actions are all made edges at once, in ascending
order, and the search walks the one with the highest ``mean + c_puct * prior * sqrt(N) / (1 +
n)`` (an untried action counts its node's mean); it plays the most visited.  With
``value_weight`` above 0 a new leaf's reward mixes in the value net's chances
(:mod:`ra.bots.value_net`; off by default).  The native core
runs it (``native/policy.cpp``, ``native/mcts.cpp``) with a forward pass equal to the bit to
:meth:`Policy.logits`; ``native=False`` runs the same search in Python, slower, with Python's
own random redeals (so, like ``mcts``, not move for move the native one's).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from ra.actions import ALL_ACTIONS, Action
from ra.bots.base import SeededBot
from ra.bots.mcts import MCTSBot, MCTSConfig
from ra.bots.mlp import Net
from ra.bots.native_mcts import native_weights, search_settings
from ra.bots.valuation import DEFAULT_WEIGHTS, Weights
from ra.bots.value_net import ValueNet, leaf_chances, value_net_for
from ra.encode import observation_of
from ra.engine import Game
from ra.native import core
from ra.views import PlayerView

if TYPE_CHECKING:
    from ra import _core

FORMAT: Final = "ra-policy"
VERSION: Final = 1
"""The policy file's format version: a file of another version is refused."""
NUM_ACTIONS: Final = len(ALL_ACTIONS)
POLICY_FILE: Final = "policy.json"
"""The shipped policy, in ``ra/data`` (absent until a training run has been shipped)."""
C_PUCT: Final = 1.0
"""The prior's weight in PUCT by default: the one the shipped policy's run searched with."""
SHIPPED_POLICY: Final = resources.files("ra").joinpath("data").joinpath(POLICY_FILE)
"""Where the shipped policy is (read by :func:`default_policy`; copied by the benchmarks)."""


class Policy(Net):
    """An MLP: ``sizes[0]`` inputs (370), ReLU between layers, ``sizes[-1]`` logits (54)."""

    FORMAT = FORMAT
    VERSION = VERSION
    OUTPUTS = NUM_ACTIONS
    KIND = "policy"

    def logits(self, obs: Sequence[float]) -> list[float]:
        """The 54 logits of an observation, in pure Python (:func:`ra.bots.mlp.forward`)."""
        return self.outputs(obs)

    def prior(self, obs: Sequence[float], legal: Sequence[int]) -> dict[int, float]:
        """The softmax of the logits over the ``legal`` action indices (ascending, as natively)."""
        logits = self.logits(obs)
        top = max(logits[a] for a in legal)
        weights = {a: math.exp(logits[a] - top) for a in sorted(legal)}
        total = 0.0
        for value in weights.values():
            total += value
        return {a: value / total for a, value in weights.items()}


def load(path: str | Path) -> Policy:
    """A policy file; ``ValueError`` naming what is wrong (a file it cannot read, too)."""
    return Policy.load(path)


@cache
def default_policy() -> Policy | None:
    """The shipped policy (``ra/data/policy.json``), read once; ``None`` when none is shipped."""
    try:
        text = SHIPPED_POLICY.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    return Policy.from_dict(json.loads(text))


class PolicyBot(SeededBot):
    """Plays the policy's most likely legal action, no search (the net alone; the lowest index
    among equals)."""

    name = "policy"

    def __init__(
        self, seed: int | None = None, policy: Policy | str | None = None, native: bool | None = None
    ):
        super().__init__(seed)
        self.policy = _policy(policy)
        self.native = _native(native)

    def choose(self, view: PlayerView) -> Action:
        legal = [a.index for a in view.legal_actions()]
        logits: list[float]
        if self.native:
            logits = _core_state(view).policy_logits(self.policy.flat, hidden=view.hidden_scores)
        else:
            logits = self.policy.logits(observation_of(view, view.seat))
        return ALL_ACTIONS[max(legal, key=lambda a: (logits[a], -a))]


class PolicySearchBot(MCTSBot):
    """The MCTS bot with the policy as its PUCT prior (see the module doc)."""

    name = "puct"

    def __init__(
        self,
        seed: int | None = None,
        config: MCTSConfig | None = None,
        weights: Weights = DEFAULT_WEIGHTS,
        policy: Policy | str | None = None,
        c_puct: float = C_PUCT,
        c_puct_by_players: Sequence[float] | str | None = None,
        native: bool | None = None,
        value_weight: float = 0.0,
        value_net: ValueNet | str | None = None,
        **settings: object,
    ) -> None:
        super().__init__(seed, config, weights, **settings)
        if self.config.paired_root:
            raise ValueError("the policy search has no paired_root")
        if c_puct_by_players is not None and c_puct != C_PUCT:
            raise ValueError("give c_puct (every player count) or c_puct_by_players, not both")
        self.policy = _policy(policy)
        self.c_puct = _weight("c_puct", c_puct)
        self.c_puct_by_players = None if c_puct_by_players is None else _weights_by_players(c_puct_by_players)
        """The prior's weight at 2, 3, 4 and 5 players where it differs by player count (a level's)."""
        self.native = _native(native)
        self.value_weight = _weight("value_weight", value_weight, 1.0)
        """The value net's share of a leaf's reward (0: rollouts alone; 1: the net alone)."""
        self.value_net = value_net_for(self.value_weight, value_net)
        """The net judging leaves; None (rollouts alone) at weight 0 or when none is found."""

    def c_puct_for(self, players: int) -> float:
        """The prior's weight in a game of ``players``."""
        by = self.c_puct_by_players
        return self.c_puct if by is None else by[players - 2]

    def settings(self) -> dict[str, object]:
        weight: dict[str, object] = (
            {"c_puct": self.c_puct}
            if self.c_puct_by_players is None
            else {"c_puct_by_players": self.c_puct_by_players}
        )
        leaf = {"value_weight": self.value_weight} if self.value_net is not None else {}
        return {**super().settings(), **weight, **leaf, "native": self.native}

    def search_options(self, view: PlayerView) -> dict[str, Any]:
        """The native search's keyword arguments for ``view`` (the bot's and self-play's)."""
        cfg = self.config
        return {
            "iterations": cfg.budget(len(view.players)),
            "seconds": cfg.seconds or 0.0,
            "weights": native_weights(self.weights),
            "prior": self.policy.flat,
            "c_puct": self.c_puct_for(len(view.players)),
            "hidden": view.hidden_scores,
            **search_settings(cfg),
            **self.leaf_options(),
        }

    def leaf_options(self) -> dict[str, Any]:
        """The native search's value net arguments (none without a net)."""
        if self.value_net is None:
            return {}
        return {"value_net": self.value_net.flat, "value_weight": self.value_weight}

    def judge_leaf(self, game: Game, stop_epoch: int) -> list[float]:
        """Each seat's reward for a new leaf: the rollout's, mixed with the value net's chances
        (:func:`~ra.bots.value_net.leaf_chances`) by ``value_weight`` unless the game is over there;
        no rollout at weight 1 (native ``judge_leaf``)."""
        net = self.value_net
        if net is None or game.is_over():
            return self.rollout_rewards(game, stop_epoch)
        chances = leaf_chances(net, game)
        if self.value_weight >= 1.0:
            return chances
        rollout = self.rollout_rewards(game, stop_epoch)
        w = self.value_weight
        return [(1.0 - w) * r + w * c for r, c in zip(rollout, chances, strict=True)]

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if self.native:
            index, self.last_iterations = _core_state(view).mcts(
                seed=self.rng.getrandbits(63), **self.search_options(view)
            )
            return ALL_ACTIONS[index]
        return ALL_ACTIONS[PuctSearch(self).run(view)]

    def rollout_rewards(self, game: Game, stop_epoch: int) -> list[float]:
        """Play ``game`` on with the rollout policy to the cut; each seat's reward (as ``mcts``)."""
        return self._rollout(game, stop_epoch)


class _Node:
    """A PUCT node: per legal action [visits, reward sum, prior], made all at once."""

    __slots__ = ("children", "edges", "visits")

    def __init__(self) -> None:
        self.children: dict[object, _Node] = {}
        self.edges: dict[int, list[float]] | None = None
        self.visits = 0


class PuctSearch:
    """The Python PUCT search of one decision (the native ``mcts(prior=...)``, step for step)."""

    def __init__(self, bot: PolicySearchBot) -> None:
        self.bot = bot
        self.root = _Node()
        self.c_puct = bot.c_puct

    def run(self, view: PlayerView) -> int:
        """The chosen action index after the bot's budget of iterations."""
        cfg = self.bot.config
        deadline = time.perf_counter() + cfg.seconds if cfg.seconds is not None else None
        budget = cfg.budget(len(view.players)) if deadline is None else 1 << 60  # as MCTSBot's
        self.c_puct = self.bot.c_puct_for(len(view.players))
        stop_epoch = view.epoch + cfg.horizon - 1
        done = 0
        while done < budget and (deadline is None or done == 0 or time.perf_counter() < deadline):
            done += 1
            game = view.determinize(rng=self.bot.rng)
            game.stop_events()
            path = self.walk(game, stop_epoch)
            rewards = self.bot.judge_leaf(game, stop_epoch)
            for node, index, mover in path:
                assert node.edges is not None
                edge = node.edges[index]
                edge[0] += 1
                edge[1] += rewards[mover]
                node.visits += 1
        self.bot.last_iterations = done
        return most_visited(self.root.edges or {})

    def walk(self, game: Game, stop_epoch: int) -> list[tuple[_Node, int, int]]:
        """Select with PUCT from the root, making one new node; the path of (node, action, mover)."""
        node = self.root
        path: list[tuple[_Node, int, int]] = []
        while not game.is_over() and game.epoch <= stop_epoch:
            mover = game.to_move
            assert mover is not None
            if node.edges is None:
                legal = [a.index for a in game.legal_actions()]
                prior = self.bot.policy.prior(observation_of(game, mover), legal)
                node.edges = {a: [0.0, 0.0, prior[a]] for a in sorted(legal)}
            index = select(node.edges, node.visits, self.c_puct)
            action = ALL_ACTIONS[index]
            game.apply(action)
            path.append((node, index, mover))
            key = (index, game.last_draw) if index == 0 else index
            child = node.children.get(key)
            if child is None:
                node.children[key] = _Node()
                break
            node = child
        return path


def select(edges: dict[int, list[float]], visits: int, c_puct: float) -> int:
    """PUCT's choice at a node (native ``select_puct``: the same numbers in the same order)."""
    total = 0.0
    for edge in edges.values():
        total += edge[1]
    first = total / visits if visits > 0 else 0.5
    root_n = math.sqrt(float(max(visits, 1)))
    best, best_score = -1, -1e300
    for index, (n, reward, p) in edges.items():
        q = reward / n if n > 0 else first
        score = q + c_puct * p * root_n / (1 + n)
        if score > best_score:
            best, best_score = index, score
    return best


def most_visited(edges: dict[int, list[float]]) -> int:
    """The most visited action; the better mean among equals, then the lower index."""
    best = -1
    for index, (n, reward, _) in edges.items():
        if best < 0:
            best = index
            continue
        bn, breward, _ = edges[best]
        if n > bn or (n == bn and n > 0 and reward / n > breward / bn):
            best = index
    return best


def _policy(policy: Policy | str | None) -> Policy:
    if isinstance(policy, Policy):
        return policy
    if isinstance(policy, str):
        return load(policy)
    found = default_policy()
    if found is None:
        raise ValueError(f"no policy is shipped (ra/data/{POLICY_FILE}): give one (policy=path)")
    return found


def _weight(name: str, value: object, high: float = 100.0) -> float:
    """A weight: a number from 0 to ``high`` (``ValueError`` naming ``name`` otherwise)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 <= value <= high:
        raise ValueError(f"{name} must be a number from 0 to {high:g}, got {value!r}")
    return float(value)


def _weights_by_players(value: Sequence[float] | str) -> tuple[float, float, float, float]:
    """Four weights, at 2 to 5 players, from ``"0.5/1/1/1"`` (a bot spec) or a sequence."""
    parts: object = value.split("/") if isinstance(value, str) else value
    numbers: list[object] = []
    if isinstance(parts, list | tuple):
        try:
            numbers = [float(p) if isinstance(p, str) else p for p in parts]
        except ValueError:
            numbers = []
    if len(numbers) != 4:
        raise ValueError(f"c_puct_by_players must be four numbers (2 to 5 players), got {value!r}")
    a, b, c, d = (_weight("c_puct_by_players", n) for n in numbers)
    return (a, b, c, d)


def _native(native: bool | None) -> bool:
    if native is None:
        return core is not None
    if not isinstance(native, bool):
        raise ValueError(f"native is true or false, got {native!r}")
    if native and core is None:
        raise ValueError("native=true needs the native core (not built, or disabled by RA_NATIVE=0)")
    return native


def _core_state(view: PlayerView) -> _core.State:
    from ra import _core

    return _core.State.from_game(view)
