"""Many games stepped at once in the native core, with numpy arrays (like EnvPool or pgx).

:class:`VectorRaEnv` keeps ``num_envs`` games in C++ and writes, at every step, each game's
observation (:mod:`ra.encode`'s 370 numbers, float32) and legal-action mask (54 int8) into
arrays it allocated once: nothing is copied or converted per step.  The opponents are played
in C++ too, uniformly at random or by the greedy bot (``opponents="random"|"greedy"``), and the
learner's seat takes turns from game to game; with ``opponents="none"`` every decision of every
seat comes to the caller (self-play), and ``to_move`` says whose it is.  A finished game is
replaced by a new one in the same step (auto-reset): its observation is the new game's first.
The reward is 1.0 in the step that ends a game the learner (or, without opponents, the player
who just decided) won, else 0.0.  Deterministic for a seed.

    env = VectorRaEnv(1024, players=3, opponents="random", seed=1)
    obs, info = env.reset()                      # obs: (1024, 370) float32; info["action_mask"]
    obs, reward, terminated, truncated, info = env.step(actions)   # actions: (1024,) ints

The arrays returned are the environment's own and are overwritten by the next step: copy what
you keep.  :class:`GymVectorRaEnv` is the same as a ``gymnasium.vector.VectorEnv``.  The native
core is needed (``ra.native_available()``); without it the constructor says so.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ra.actions import NUM_ACTIONS
from ra.encode import OBSERVATION_HIGH, OBSERVATION_SIZE
from ra.native import core

OPPONENTS: Final[dict[str, int]] = {"none": 0, "random": 1, "greedy": 2}
"""Who plays the other seats: nobody (the caller plays every seat), random or greedy (native)."""


class VectorRaEnv:
    """``num_envs`` games of Ra stepped together in the native core (see the module docstring)."""

    def __init__(
        self,
        num_envs: int,
        players: int = 3,
        *,
        opponents: str = "random",
        seed: int = 0,
        hidden_scores: bool = False,
        variant: str = "standard",
        suns_per_player: int | None = None,
    ) -> None:
        if core is None:
            raise RuntimeError(
                "ra.envs.vector needs the native core: reinstall where a C++ compiler exists "
                "(and leave RA_NATIVE unset)"
            )
        if opponents not in OPPONENTS:
            raise ValueError(f"unknown opponents {opponents!r}; choose from: {', '.join(OPPONENTS)}")
        if variant not in ("standard", "long-2p"):
            raise ValueError(f"unknown variant {variant!r}; variants are: standard, long-2p")
        long_suns = (suns_per_player or 6) if variant == "long-2p" else 0
        if variant == "standard" and suns_per_player is not None:
            raise ValueError("suns_per_player is for the long-2p variant (R2.3)")
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        self.num_envs = num_envs
        self.players = players
        self.opponents = opponents
        self.seed = seed
        self._args = (num_envs, players, seed, OPPONENTS[opponents], hidden_scores, long_suns)
        self._env = core.VectorEnv(*self._args)
        self.observations: npt.NDArray[np.float32] = np.zeros((num_envs, OBSERVATION_SIZE), np.float32)
        self.action_mask: npt.NDArray[np.int8] = np.zeros((num_envs, NUM_ACTIONS), np.int8)
        self.rewards: npt.NDArray[np.float32] = np.zeros(num_envs, np.float32)
        self.terminated: npt.NDArray[np.bool_] = np.zeros(num_envs, np.bool_)
        self.truncated: npt.NDArray[np.bool_] = np.zeros(num_envs, np.bool_)
        self.to_move: npt.NDArray[np.int8] = np.zeros(num_envs, np.int8)
        self._actions: npt.NDArray[np.int32] = np.zeros(num_envs, np.int32)

    def reset(self, seed: int | None = None) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """New games everywhere (``seed``: start the sequence of games again from it)."""
        if seed is not None:
            assert core is not None
            self.seed = seed
            num_envs, players, _, opponents, hidden, long_suns = self._args
            self._args = (num_envs, players, seed, opponents, hidden, long_suns)
            self._env = core.VectorEnv(*self._args)
        self._env.reset(self.observations, self.action_mask, self.to_move)
        return self.observations, self._info()

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """One decision in every game: ``actions[i]`` an action index legal in game ``i``.

        ``ValueError`` (naming the game) if any is illegal; then no game moves."""
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,):
            raise ValueError(f"actions: {self.num_envs} action indices expected, got shape {acts.shape}")
        np.copyto(self._actions, acts, casting="same_kind")
        self._env.step(
            self._actions, self.observations, self.action_mask, self.rewards, self.terminated, self.to_move
        )
        return self.observations, self.rewards, self.terminated, self.truncated, self._info()

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_mask, "to_move": self.to_move}

    def agents(self) -> list[int]:
        """The learner's seat in each game (with opponents)."""
        return list(self._env.agents())

    def state(self, i: int) -> Any:
        """A copy of game ``i``'s position (``ra._core.State``)."""
        return self._env.state(i)

    def load(self, positions: list[Any]) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Continue game ``i`` from ``positions[i]`` (a ``ra.Game`` or ``ra._core.State``; None
        keeps it) — to start from chosen positions, or to compare with the Python engine."""
        assert core is not None
        for i, position in enumerate(positions):
            if position is not None:
                state = position if isinstance(position, core.State) else core.State.from_game(position)
                self._env.set_state(i, state)
        self._env.observe(self.observations, self.action_mask, self.to_move)
        return self.observations, self._info()

    def sample_actions(self, rng: np.random.Generator) -> npt.NDArray[np.int32]:
        """A uniformly random legal action in every game (for tests and baselines)."""
        scores = rng.random(self.action_mask.shape) * self.action_mask
        choice: npt.NDArray[np.int32] = np.argmax(scores, axis=1).astype(np.int32)
        return choice


class ParallelVectorRaEnv:
    """A PettingZoo-style parallel API over a batch of games where the caller plays every seat
    (``opponents="none"``): agents ``player_0`` …, each with its own view of every game.

    ``reset()`` and ``step(actions)`` return dicts by agent: observations ``(num_envs, 370)``
    (each agent's view, R9), rewards, terminations, truncations and infos (``action_mask``: the
    agent's legal actions in each game, all 0 where it is not to move).  Ra is turn-based: in
    each game only the agent to move acts, so ``step`` takes from ``actions[agent][i]`` the action
    of the agent to move in game ``i`` and ignores the others'.
    """

    def __init__(self, num_envs: int, players: int = 3, **options: Any) -> None:
        self.env = VectorRaEnv(num_envs, players, opponents="none", **options)
        self.num_envs = num_envs
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = list(self.possible_agents)
        self._views: npt.NDArray[np.float32] = np.zeros((num_envs, players, OBSERVATION_SIZE), np.float32)

    def observation_space(self, agent: str) -> Any:
        import gymnasium

        return gymnasium.spaces.Box(0.0, np.asarray(OBSERVATION_HIGH, np.float32), dtype=np.float32)

    def action_space(self, agent: str) -> Any:
        import gymnasium

        return gymnasium.spaces.Discrete(NUM_ACTIONS)

    def reset(self, seed: int | None = None) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self.env.reset(seed)
        return self._observe(), self._infos()

    def step(
        self, actions: dict[str, npt.ArrayLike]
    ) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any], dict[str, dict[str, Any]]]:
        table = np.stack([np.asarray(actions[a]) for a in self.possible_agents])  # (players, num_envs)
        movers = self.env.to_move.astype(np.int64)
        chosen = table[movers, np.arange(self.num_envs)]
        movers_before = movers.copy()
        _, reward, terminated, truncated, _ = self.env.step(chosen)
        rewards = {
            a: np.where(movers_before == k, reward, 0.0).astype(np.float32)
            for k, a in enumerate(self.possible_agents)
        }
        terms = {a: terminated.copy() for a in self.possible_agents}
        truncs = {a: truncated.copy() for a in self.possible_agents}
        return self._observe(), rewards, terms, truncs, self._infos()

    def _observe(self) -> dict[str, Any]:
        self.env._env.observe_all(self._views)
        return {a: self._views[:, k, :].copy() for k, a in enumerate(self.possible_agents)}

    def _infos(self) -> dict[str, dict[str, Any]]:
        mask = self.env.action_mask
        to_move = self.env.to_move
        return {
            a: {"action_mask": mask * (to_move == k)[:, None]} for k, a in enumerate(self.possible_agents)
        }


def _gym_vector_env() -> type:
    import gymnasium
    from gymnasium.vector.utils import batch_space

    class GymVectorRaEnv(gymnasium.vector.VectorEnv):
        """:class:`VectorRaEnv` as a ``gymnasium.vector.VectorEnv`` (Box observations, Discrete
        actions; the legal actions in ``info["action_mask"]``)."""

        metadata: dict[str, Any] = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}  # noqa: RUF012

        def __init__(self, num_envs: int, players: int = 3, **options: Any) -> None:
            self.env = VectorRaEnv(num_envs, players, **options)
            self.num_envs = num_envs
            high = np.asarray(OBSERVATION_HIGH, np.float32)
            self.single_observation_space = gymnasium.spaces.Box(0.0, high, dtype=np.float32)
            self.single_action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)
            self.observation_space = batch_space(self.single_observation_space, num_envs)
            self.action_space = batch_space(self.single_action_space, num_envs)

        def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
            obs, info = self.env.reset(seed)
            return obs.copy(), {k: v.copy() for k, v in info.items()}

        def step(self, actions: Any) -> Any:
            obs, reward, terminated, truncated, info = self.env.step(actions)
            return (
                obs.copy(),
                reward.copy(),
                terminated.copy(),
                truncated.copy(),
                {k: v.copy() for k, v in info.items()},
            )

    return GymVectorRaEnv


def GymVectorRaEnv(num_envs: int, players: int = 3, **options: Any) -> Any:  # noqa: N802
    """A ``gymnasium.vector.VectorEnv`` over :class:`VectorRaEnv` (gymnasium from the rl extra)."""
    return _gym_vector_env()(num_envs, players, **options)


__all__ = ["OPPONENTS", "GymVectorRaEnv", "ParallelVectorRaEnv", "VectorRaEnv"]
