"""Ra as a single-agent Gymnasium environment: one learning seat, our bots in the others.

``import ra.envs.gymnasium`` registers ``ra/Ra-v0``:

>>> import gymnasium
>>> import ra.envs.gymnasium
>>> env = gymnasium.make("ra/Ra-v0", players=3, opponents="greedy")
>>> obs, info = env.reset(seed=1)
>>> obs["observation"].shape, obs["action_mask"].shape
((370,), (54,))

Observations are ``{"observation": float32[370], "action_mask": int8[54]}``
(:mod:`ra.encode`, :attr:`ra.Action.index`), the mask also in ``info["action_mask"]``.
``opponents`` is a bot spec (``"greedy"``, ``"mcts:easy"``, see
:func:`ra.bots.from_spec`) or one spec per other seat.  ``seat`` is the learner's
seat (``None``: a random seat each episode).  The reward comes at the end:
:meth:`ra.Game.returns` for the learner (+1 win, ``-1/(n-1)`` loss).  An illegal
action ends the episode with reward -1 and ``info["illegal_action"]`` (or raises
``ValueError`` with ``illegal_action="raise"``).  ``reset(seed=...)`` fixes the
deal, the bag and the bots' choices.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

import ra
from ra.bots import Bot, from_spec
from ra.envs import (
    OBSERVATION_HIGH_ARRAY,
    RENDER_MODES,
    action_mask_array,
    game_text,
    new_game,
    observation_array_of,
)

ObsType = dict[str, npt.NDArray[Any]]
ENV_ID = "ra/Ra-v0"
ILLEGAL = ("lose", "raise")


class RaEnv(gymnasium.Env[ObsType, np.int64]):
    """One seat of Ra against bots (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        players: int = 3,
        opponents: str | Sequence[str] = "greedy",
        *,
        seat: int | None = 0,
        render_mode: str | None = None,
        illegal_action: str = "lose",
        variant: str = "standard",
        suns_per_player: int | None = None,
        hidden_scores: bool = False,
    ) -> None:
        if illegal_action not in ILLEGAL:
            raise ValueError(f"illegal_action is 'lose' or 'raise', got {illegal_action!r}")
        self.game, self._options = new_game(players, variant, suns_per_player, hidden_scores, render_mode)
        n = self.game.num_players
        specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != n - 1:
            raise ValueError(f"{n} players need {n - 1} opponent specs, got {len(specs)}: {specs}")
        for spec in specs:
            from_spec(spec)  # a bad spec fails here, not at reset
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise ValueError(f"seat is a seat number 0-{n - 1} or None (random each episode), got {seat!r}")
        self.opponents = specs
        self.fixed_seat = seat
        self.seat = seat or 0
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.bots: dict[int, Bot] = {}
        self.observation_space: spaces.Space[Any] = spaces.Dict(
            {
                "observation": spaces.Box(0.0, OBSERVATION_HIGH_ARRAY, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (ra.NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(ra.NUM_ACTIONS)

    def _obs(self) -> tuple[ObsType, dict[str, Any]]:
        mask = action_mask_array(self.game, self.seat)
        obs = observation_array_of(self.game, self.seat)
        return {"observation": obs, "action_mask": mask}, {"action_mask": mask.copy()}

    def _play_bots(self) -> None:
        game = self.game
        while not game.is_over() and game.to_move != self.seat:
            seat = game.to_move or 0
            game.apply(self.bots[seat].choose(game.view(seat)))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """A new game; ``seed`` fixes the deal, the bag, the learner's seat and the bots."""
        super().reset(seed=seed)
        rng = random.Random(int(self.np_random.integers(0, 2**63)))
        n = self.game.num_players
        self.seat = self.fixed_seat if self.fixed_seat is not None else rng.randrange(n)
        self.game = ra.Game(seed=rng.getrandbits(63), events=False, **self._options)
        others = [s for s in range(n) if s != self.seat]
        self.bots = {
            s: from_spec(spec, seed=rng.getrandbits(63))
            for s, spec in zip(others, self.opponents, strict=True)
        }
        self._play_bots()
        return self._obs()

    def step(self, action: Any) -> tuple[ObsType, float, bool, bool, dict[str, Any]]:
        """Apply the learner's ``action`` (an :attr:`ra.Action.index`), then the bots' turns."""
        if self.game.is_over():
            raise ValueError("the episode is over: call reset()")
        move = ra.Action.from_index(int(action))
        if not self.game.is_legal(move):
            if self.illegal_action == "raise":
                legal = ", ".join(f"{a.index} ({a})" for a in self.game.legal_actions())
                raise ValueError(f"illegal action {int(action)} ({move}): legal are {legal}")
            obs, info = self._obs()
            info["illegal_action"] = str(move)
            return obs, -1.0, True, False, info
        self.game.apply(move)
        self._play_bots()
        obs, info = self._obs()
        over = self.game.is_over()
        reward = self.game.returns()[self.seat] if over else 0.0
        if self.render_mode == "human":
            self.render()
        return obs, reward, over, False, info

    def render(self) -> str | None:
        """The position as text: returned (``"ansi"``) or printed (``"human"``)."""
        if self.render_mode is None:
            return None
        text = game_text(self.game.view(self.seat))
        if self.render_mode == "ansi":
            return text
        print(text)
        return None


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="ra.envs.gymnasium:RaEnv")

__all__ = ["ENV_ID", "RaEnv"]
