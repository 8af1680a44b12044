"""Ra as a PettingZoo AEC environment.

>>> from ra.envs.pettingzoo import env
>>> e = env(players=3)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, obs["action_mask"].shape
((370,), (54,))

Agents are ``player_0`` … ``player_<n-1>`` (the seats).  Observations are
``{"observation": float32[370], "action_mask": int8[54]}`` (:mod:`ra.encode`,
:attr:`ra.Action.index`; the mask is all 0 for an agent not to move).  The agent
to move also finds its mask in ``infos[agent]["action_mask"]``, so an agent that
needs no observation (random, scripted, search) can call ``env.last(observe=False)``
and skip encoding it (the most expensive part of a step).  Rewards
come once, at the end: :meth:`ra.Game.returns` (+1 for the winner, ``-1/(n-1)``
for the others).  The bag is shuffled by the seed given to ``reset`` (a later
``reset()`` without a seed continues that seeded sequence).
``render_mode="ansi"`` returns text, ``"human"`` prints it.

Speed (``benchmarks/envs.py`` measures it): :func:`env` wraps the environment in
PettingZoo's ``OrderEnforcingWrapper`` as PettingZoo recommends, and that wrapper
alone costs about three times the raw engine's whole cost per decision; for fast
self-play or data generation use :func:`raw_env` (the same environment without the
wrapper, which does not check the call order), with ``last(observe=False)`` when
the observation is not needed.  The games keep no event log (``ra.Game(events=False)``).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import ra
from ra.envs import (
    OBSERVATION_HIGH_ARRAY,
    RENDER_MODES,
    action_mask_array,
    game_text,
    new_game,
    observation_array_of,
)

ObsType = dict[str, npt.NDArray[Any]]


class RaAECEnv(AECEnv[str, ObsType, int | None]):  # type: ignore[misc]  # untyped base
    """The raw environment (see :func:`env` for the usual wrapped one)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "ra_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 3,
        *,
        render_mode: str | None = None,
        variant: str = "standard",
        suns_per_player: int | None = None,
        hidden_scores: bool = False,
    ) -> None:
        super().__init__()
        self.game, self._options = new_game(players, variant, suns_per_player, hidden_scores, render_mode)
        n = self.game.num_players
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents = self.possible_agents[:]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._seeds = random.Random()
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, OBSERVATION_HIGH_ARRAY, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (ra.NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(ra.NUM_ACTIONS) for a in self.possible_agents}
        self._reset_state()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _reset_state(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_move or 0]
        self.infos[self.agent_selection] = {"action_mask": action_mask_array(self.game)}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` fixes the sun deal and the bag (R9.2)."""
        if seed is not None:
            self._seeds = random.Random(seed)
        self.game = ra.Game(seed=self._seeds.getrandbits(63), events=False, **self._options)
        self._reset_state()

    def observe(self, agent: str) -> ObsType:
        seat = self._seat[agent]
        return {
            "observation": observation_array_of(self.game, seat),
            "action_mask": action_mask_array(self.game, seat),
        }

    def step(self, action: int | None) -> None:
        """Apply ``action`` (an :attr:`ra.Action.index`) for :attr:`agent_selection`."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is not int:
            if action is None or isinstance(action, bool) or not isinstance(action, int | np.integer):
                raise ValueError(
                    f"an action is an integer 0-{ra.NUM_ACTIONS - 1} (ra.Action.index), got {action!r}"
                )
            action = int(action)
        move = ra.Action.from_index(action)
        game = self.game
        try:
            game.apply(move)  # checks legality itself and changes nothing when illegal
        except ra.IllegalActionError:
            legal = ", ".join(f"{a.index} ({a})" for a in game.legal_actions())
            raise ValueError(
                f"illegal action {int(action)} ({move}) for {agent}: legal are {legal}"
            ) from None
        self._cumulative_rewards[agent] = 0.0
        infos = self.infos
        infos[agent] = {}
        if game.is_over():
            for a, r in zip(self.agents, game.returns(), strict=True):
                self.rewards[a] = r
                self.terminations[a] = True
            self._accumulate_rewards()
        else:
            # Every reward is 0 until the end: accumulating them would add nothing.
            seat = game.to_move
            assert seat is not None  # the game is not over
            nxt = self.agent_selection = self.possible_agents[seat]
            infos[nxt] = {"action_mask": action_mask_array(game)}
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The position as text: returned (``"ansi"``) or printed (``"human"``)."""
        if self.render_mode is None:
            return None
        text = game_text(self.game)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass


def raw_env(players: int = 3, **kwargs: Any) -> RaAECEnv:
    """The environment without PettingZoo's wrappers."""
    return RaAECEnv(players, **kwargs)


def env(players: int = 3, **kwargs: Any) -> AECEnv[str, ObsType, int | None]:
    """The AEC environment, wrapped as PettingZoo recommends (order enforcing).

    Options: ``render_mode`` ("human" or "ansi"), ``variant``, ``suns_per_player``
    (the long two-player game) and ``hidden_scores`` (R9.1), as in :class:`ra.Game`.
    """
    return wrappers.OrderEnforcingWrapper(raw_env(players, **kwargs))


__all__ = ["RaAECEnv", "env", "raw_env"]
