"""Self-play rows: every decision of games between copies of one search, hidden scores (R9.1).

A row is what the mover saw (:func:`ra.encode.observation`, 370 numbers), its legal actions,
the root's visit share of each action (the search's own choice, the policy's target) and
whether the mover won the game (R8.1).  Decisions with one legal action give no row.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeAlias

import ra
from ra.actions import ALL_ACTIONS
from ra.bots.policy import Policy
from ra.encode import OBSERVATION_SIZE, observation
from ra.views import PlayerView

NUM_ACTIONS = len(ALL_ACTIONS)

SearchOptions: TypeAlias = Callable[[PlayerView], dict[str, Any]]
"""The native search's keyword arguments for a view (``State.mcts_stats``), but its seed."""


@dataclass
class Rows:
    """Rows of self-play, as plain lists (:func:`ra.train.net.save_rows` stores them)."""

    obs: list[list[float]]
    legal: list[list[bool]]
    target: list[list[float]]
    mover: list[int]
    result: list[float]
    players: list[int]

    @classmethod
    def empty(cls) -> Rows:
        return cls([], [], [], [], [], [])

    def __len__(self) -> int:
        return len(self.obs)


@dataclass(frozen=True)
class Searcher:
    """A generation's self-play search as any worker rebuilds it, on any machine: the expert's
    settings at the run's budget, and the generation's policy as the PUCT prior (None: the plain
    search)."""

    settings: dict[str, Any]
    policy: Policy | None = None
    c_puct: float = 1.0

    def options(self) -> SearchOptions:
        """The native search's arguments for a view, but its seed."""
        if self.policy is None:
            from ra.bots.native_mcts import NativeMCTSBot, native_weights, search_settings

            bot = NativeMCTSBot(seed=0, **self.settings)
            fixed = {"weights": native_weights(bot.weights), **search_settings(bot.config)}
            return lambda view: {"iterations": bot.config.budget(len(view.players)), **fixed}
        from ra.bots.policy import PolicySearchBot

        puct = PolicySearchBot(seed=0, policy=self.policy, c_puct=self.c_puct, **self.settings)
        return lambda view: _without_seed(puct.search_options(view))


@dataclass(frozen=True)
class Chunk:
    """A chunk of self-play: the search, and each game's player count and seed, in order."""

    searcher: Searcher
    games: tuple[tuple[int, int], ...]


def play_chunk(chunk: Chunk) -> Rows:
    """The rows of a chunk's games, in the games' order (a task for :mod:`ra.train.workers`)."""
    options = chunk.searcher.options()
    rows = Rows.empty()
    for players, seed in chunk.games:
        extend(rows, play_game(players, seed, options))
    return rows


def _without_seed(options: dict[str, Any]) -> dict[str, Any]:
    options.pop("seed", None)
    return options


def decide(view: PlayerView, options: dict[str, Any], seed: int) -> tuple[int, list[float]]:
    """The search's action for ``view`` and its root's visit share per action index."""
    from ra import _core

    action, _, stats = _core.State.from_game(view).mcts_stats(seed=seed, **options)
    visits = [0.0] * NUM_ACTIONS
    for index, count, *_ in stats:
        visits[index] = float(count)
    total = sum(visits)
    return action, [v / total for v in visits]


def play_game(players: int, seed: int, options: SearchOptions) -> Rows:
    """One hidden-scores game of ``players`` copies of the search; its rows."""
    game = ra.Game(players=players, seed=seed, hidden_scores=True)
    rows = Rows.empty()
    step = 0
    while not game.is_over():
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        legal = view.legal_actions()
        if len(legal) == 1:
            game.apply(legal[0])
            continue
        step += 1
        action, share = decide(view, options(view), seed * 7919 + step)
        mask = [False] * NUM_ACTIONS
        for a in legal:
            mask[a.index] = True
        rows.obs.append(observation(view))
        rows.legal.append(mask)
        rows.target.append(share)
        rows.mover.append(seat)
        rows.players.append(players)
        game.apply(ALL_ACTIONS[action])
    rows.result = [1.0 if m == game.winner else 0.0 for m in rows.mover]
    assert all(len(o) == OBSERVATION_SIZE for o in rows.obs)
    return rows


def extend(rows: Rows, more: Rows) -> None:
    """Append ``more``'s rows to ``rows``."""
    rows.obs += more.obs
    rows.legal += more.legal
    rows.target += more.target
    rows.mover += more.mover
    rows.result += more.result
    rows.players += more.players
