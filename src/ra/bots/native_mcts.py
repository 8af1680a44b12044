"""The MCTS bot's search run by the native core (``ra._core``, see ``native/README.md``).

The same information-set MCTS as :mod:`ra.bots.mcts` (max^n, draws as chance nodes, greedy
rollouts cut at the end of the epoch, the same reward), with the same settings, at machine
speed: each iteration redeals the unseen tiles from the view's public counts (R9.1, R9.3),
never the real bag.  Deterministic for a seed and an iteration budget.  Its random numbers
are its own, so it does not choose move for move what the Python search would.
"""

from __future__ import annotations

import dataclasses
from typing import TypedDict

from ra.actions import ALL_ACTIONS, Action
from ra.bots.base import refuse
from ra.bots.mcts import MCTSBot, MCTSConfig, value_model
from ra.bots.valuation import DEFAULT_WEIGHTS, Weights
from ra.bots.value_model import ValueModel
from ra.native import core
from ra.views import PlayerView


def native_weights(weights: Weights) -> tuple[float, ...] | None:
    """The valuation weights as the native core takes them (None: its built-in defaults)."""
    return None if weights == DEFAULT_WEIGHTS else dataclasses.astuple(weights)


class SearchSettings(TypedDict):
    """The settings of :class:`MCTSConfig` that shape the native search (``State.mcts``)."""

    exploration: float
    horizon: int
    margin_scale: float
    win_weight: float
    rollout: str
    epsilon: float
    value_model: tuple[float, ...] | None


def search_settings(cfg: MCTSConfig) -> SearchSettings:
    """``cfg`` as the native core's search takes it (the bot and the advisor alike)."""
    return SearchSettings(
        exploration=cfg.exploration,
        horizon=cfg.horizon,
        margin_scale=cfg.margin_scale,
        win_weight=cfg.win_weight,
        rollout=cfg.rollout,
        epsilon=cfg.epsilon,
        value_model=_flat(value_model(cfg)),
    )


def _flat(model: ValueModel | None) -> tuple[float, ...] | None:
    return None if model is None else model.flat()


class NativeMCTSBot(MCTSBot):
    """:class:`ra.bots.mcts.MCTSBot` with the search in C++ (needs the native core)."""

    name = "mcts"

    def __init__(
        self,
        seed: int | None = None,
        config: MCTSConfig | None = None,
        weights: Weights = DEFAULT_WEIGHTS,
        **settings: object,
    ) -> None:
        super().__init__(seed, config, weights, **settings)
        if core is None:
            raise refuse("bots.err.native_missing")
        if self.config.paired_root:
            raise refuse("bots.err.native_paired")
        self._weights = native_weights(weights)

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        from ra import _core  # present: checked when the bot was made

        cfg = self.config
        # A view whose determinize() is its own (the terminal game's, which stops a search on
        # undo or quit by raising there) is asked every 256 iterations, as a Python search would.
        check = view.determinize if type(view).determinize is not PlayerView.determinize else None
        index, done = _core.State.from_game(view).mcts(
            iterations=cfg.budget(len(view.players)),
            seed=self.rng.getrandbits(63),
            seconds=cfg.seconds or 0.0,
            weights=self._weights,
            check=check,
            **search_settings(cfg),
        )
        self.last_iterations = done
        return ALL_ACTIONS[index]
