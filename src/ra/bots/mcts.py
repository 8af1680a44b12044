"""The MCTS bot: information-set Monte-Carlo tree search over the engine.

Each iteration samples the unseen bag from the tiles not yet seen
(:meth:`ra.PlayerView.determinize`, R9.3: never the real order), walks the tree
with UCT, expands one node, plays on with a rollout policy and backs up one
reward per player.  Every node maximizes the result of the player who moves
there (max^n), so the search handles 2-5 players.

What makes it strong at a small budget (measured with the arena against the
greedy bot; see the README for the numbers):

* **Greedy rollouts, cut at the epoch's end.** Play continues with the greedy
  bot's policy (a realistic opponent model) until the current epoch is scored
  (or the game ends), then :func:`projected_scores` judges the position:
  scores so far plus the valuation of what each player keeps.  Uniformly
  random rollouts made the search much weaker (it won 5% of 2-player games
  against greedy at 200 iterations, against 65% with greedy rollouts at 100).
* **Reward = score margin.** Each player's reward is its projected score minus
  the best rival's, squashed to 0..1 (``margin_scale`` points is a clear lead).
  Winning is what counts, but at a cut-off a win/loss signal does not exist and
  at the end of the game it is far noisier; ``win_weight`` adds the win itself
  when a rollout reaches the end.

``paired_root=True`` plays each sampled bag through every root action (common
random numbers at the root).  It measured the same as plain sampling (65% vs
67% in 2-player games at 100 iterations, 82% vs 83% in 3-player games at 300),
so plain ISMCTS is the default.

Draws are chance events: the tree keys a ``draw`` edge's children by the tile
that came out, so the decisions below a draw are made knowing the tile (public
once drawn) while the draw's own statistics average over the bag.

Deterministic for a given seed and iteration budget; a time budget
(``seconds``) makes it depend on the machine's speed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from functools import partial

from ra.actions import ALL_ACTIONS, DRAW, Action
from ra.bots.base import SeededBot, refuse
from ra.bots.greedy import greedy_action
from ra.bots.valuation import DEFAULT_WEIGHTS, RolloutValuations, Valuation, Weights
from ra.bots.value_model import ValueModel, default_model
from ra.engine import Game
from ra.scoring import majority_points
from ra.state import sun_total
from ra.views import PlayerView


@dataclass(frozen=True)
class MCTSConfig:
    """Settings of the search."""

    iterations: int = 600
    """Rollouts per decision (the budget when ``seconds`` is None)."""
    seconds: float | None = None
    """Time budget per decision instead of an iteration count."""
    exploration: float = 0.5
    """UCT exploration constant (rewards are in 0..1)."""
    rollout: str = "greedy"
    """Rollout policy: "greedy" (the greedy bot) or "random"."""
    epsilon: float = 0.0
    """Greedy rollouts: the chance of a random legal action instead of the greedy one."""
    horizon: int = 1
    """Epochs to play out before judging the position (1: to the end of this epoch)."""
    margin_scale: float = 20.0
    """Projected score margin that counts as a clear lead (points)."""
    win_weight: float = 0.25
    """Share of the win itself in the reward of rollouts that reach the end of the game."""
    paired_root: bool = False
    """Play each sampled bag through every root action (common random numbers)."""
    value: str = "heuristic"
    """How the position at the cut is judged: "heuristic" (:func:`projected_scores`) or
    "learned" (:mod:`ra.bots.value_model`, the heuristic where its file cannot be read)."""
    iterations_by_players: tuple[int, int, int, int] | None = None
    """Rollouts per decision at 2, 3, 4 and 5 players, instead of ``iterations`` (the levels'
    budgets: a search costs more per iteration with more players)."""

    def budget(self, players: int) -> int:
        """Rollouts per decision in a game of ``players`` (when ``seconds`` is None)."""
        by = self.iterations_by_players
        return self.iterations if by is None else by[players - 2]

    def check(self) -> None:
        """Raise ``ValueError`` naming the first bad setting (type or range)."""

        def number(name: str, low: float, high: float = math.inf, integer: bool = False) -> None:
            value: float = getattr(self, name)
            kinds: tuple[type, ...] = (int,) if integer else (int, float)
            if isinstance(value, bool) or not isinstance(value, kinds):
                key = "bots.err.mcts_integer" if integer else "bots.err.mcts_number"
                raise refuse(key, name=name, value=repr(value))
            if math.isnan(value) or not low <= value <= high:
                raise refuse(
                    "bots.err.mcts_range", name=name, low=str(low), high=str(high), value=repr(value)
                )

        number("iterations", 1, 10**9, integer=True)
        if self.seconds is not None:
            number("seconds", 0.001, 3600.0)
        number("exploration", 0.0, 100.0)
        number("horizon", 1, 3, integer=True)
        number("margin_scale", 0.001)
        number("win_weight", 0.0, 1.0)
        number("epsilon", 0.0, 1.0)
        if self.rollout not in ("greedy", "random"):
            raise refuse("bots.err.mcts_rollout", value=repr(self.rollout))
        by = self.iterations_by_players
        if by is not None and not (
            isinstance(by, tuple)
            and len(by) == 4
            and all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 10**9 for n in by)
        ):
            raise refuse("bots.err.mcts_by_players", value=repr(by))
        if self.value not in ("heuristic", "learned"):
            raise refuse("bots.err.mcts_value", value=repr(self.value))
        if not isinstance(self.paired_root, bool):
            raise refuse("bots.err.mcts_paired", value=repr(self.paired_root))


class MCTSBot(SeededBot):
    """Information-set MCTS (see the module doc)."""

    name = "mcts"

    def __init__(
        self,
        seed: int | None = None,
        config: MCTSConfig | None = None,
        weights: Weights = DEFAULT_WEIGHTS,
        **settings: object,
    ) -> None:
        super().__init__(seed)
        known = {f.name for f in fields(MCTSConfig)}
        unknown = set(settings) - known
        if unknown:
            raise refuse("bots.err.mcts_unknown", settings=str(sorted(unknown)), known=str(sorted(known)))
        if config is not None and not isinstance(config, MCTSConfig):
            raise ValueError(f"config must be an MCTSConfig, got {type(config).__name__}")
        if not isinstance(weights, Weights):
            raise ValueError(f"weights must be a Weights, got {type(weights).__name__}")
        by = settings.get("iterations_by_players")
        if isinstance(by, (str, list)):  # "60000/50000/40000/25000" from a bot spec
            settings["iterations_by_players"] = _budgets(by)
        self.config = replace(config or MCTSConfig(), **settings)  # type: ignore[arg-type]
        self.config.check()
        self.weights = weights
        self._policy = _policy(self.config.rollout, self.rng, weights, self.config.epsilon)
        self._model = value_model(self.config)
        self.last_iterations = 0
        """Rollouts made for the last decision."""

    def settings(self) -> dict[str, object]:
        default = MCTSConfig()
        out: dict[str, object] = {
            f.name: getattr(self.config, f.name)
            for f in fields(MCTSConfig)
            if (f.name == "iterations" and self.config.iterations_by_players is None)
            or getattr(self.config, f.name) != getattr(default, f.name)
        }
        if self.weights != DEFAULT_WEIGHTS:
            out["weights"] = self.weights
        return out

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        cfg = self.config
        rng = self.rng
        root = _Node()
        deadline = time.perf_counter() + cfg.seconds if cfg.seconds is not None else None
        budget = cfg.budget(len(view.players)) if deadline is None else 1 << 60
        stop_epoch = view.epoch + cfg.horizon - 1
        done = 0
        while done < budget:
            if cfg.paired_root:
                base = view.determinize(rng=rng)
                base.stop_events()  # a search game: nobody reads its log
                for action in legal:
                    game = base.clone()
                    game.apply(action)
                    self._descend(root, action.index, game, stop_epoch, view.seat)
                    done += 1
            else:
                game = view.determinize(rng=rng)
                game.stop_events()
                self._iterate(root, game, stop_epoch)
                done += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_iterations = done
        best = max(root.stats.items(), key=lambda kv: kv[1][1] / kv[1][0])
        return ALL_ACTIONS[best[0]]

    # --- tree walks ------------------------------------------------------------

    def _descend(self, root: _Node, index: int, game: Game, stop_epoch: int, mover: int) -> None:
        """One iteration below a root action already applied to ``game``."""
        key = _edge_key(ALL_ACTIONS[index], game)
        child = root.children.get(key)
        path = [(root, index, mover)]
        if child is None:
            root.children[key] = _Node()
        else:
            path += self._walk(child, game, stop_epoch)
        self._backup(path, self._rollout(game, stop_epoch))

    def _iterate(self, root: _Node, game: Game, stop_epoch: int) -> None:
        self._backup(self._walk(root, game, stop_epoch), self._rollout(game, stop_epoch))

    def _walk(self, node: _Node, game: Game, stop_epoch: int) -> list[tuple[_Node, int, int]]:
        """Select and expand from ``node``; returns the path of (node, action, mover)."""
        path: list[tuple[_Node, int, int]] = []
        while not game.is_over() and game.epoch <= stop_epoch:
            mover = game.to_move
            assert mover is not None
            if node.untried is None:
                node.untried = [a.index for a in game.legal_actions()]
                self.rng.shuffle(node.untried)
            if node.untried:
                index = node.untried.pop()
            else:
                index = self._select(node)
            action = ALL_ACTIONS[index]
            game.apply(action)
            path.append((node, index, mover))
            key = _edge_key(action, game)
            child = node.children.get(key)
            if child is None:
                node.children[key] = _Node()
                break
            node = child
        return path

    def _select(self, node: _Node) -> int:
        c = self.config.exploration
        log_n = math.log(node.visits)
        best = -1
        best_score = -1e9
        for index, (n, total) in node.stats.items():
            score = total / n + c * math.sqrt(log_n / n)
            if score > best_score:
                best, best_score = index, score
        return best

    @staticmethod
    def _backup(path: list[tuple[_Node, int, int]], rewards: list[float]) -> None:
        for node, index, mover in path:
            s = node.stats.get(index)
            if s is None:
                node.stats[index] = [1, rewards[mover]]
            else:
                s[0] += 1
                s[1] += rewards[mover]
            node.visits += 1

    # --- playouts --------------------------------------------------------------

    def _rollout(self, game: Game, stop_epoch: int) -> list[float]:
        policy = self._policy()
        apply = game.apply
        while not game.is_over() and game.epoch <= stop_epoch:
            apply(policy(game))
        return self._rewards(game)

    def _rewards(self, game: Game) -> list[float]:
        cfg = self.config
        final = game.is_over()
        scores = (
            [float(s or 0) for s in game.scores]
            if final
            else projected_scores(game, self.weights, self._model)
        )
        n = len(scores)
        winner = game.winner
        out = []
        for i in range(n):
            best_other = max(scores[j] for j in range(n) if j != i)
            margin = (scores[i] - best_other) / cfg.margin_scale
            r = 0.5 + 0.5 * max(-1.0, min(1.0, margin))
            if final:
                r = (1.0 - cfg.win_weight) * r + cfg.win_weight * (i == winner)
            out.append(r)
        return out


def _edge_key(action: Action, game: Game) -> object:
    """A child's key: the action, plus the tile that came out for a draw (a chance event)."""
    return (action.index, game.last_draw) if action.code == DRAW else action.index


def _policy(
    name: str, rng: random.Random, weights: Weights, epsilon: float = 0.0
) -> Callable[[], Callable[[Game], Action]]:
    """A maker of the rollout policy: called once per rollout (the greedy one reuses its
    valuation along that rollout, :class:`RolloutValuations`; with ``epsilon`` it plays a
    random legal action with that chance)."""

    def choose(game: Game) -> Action:
        return rng.choice(game.legal_actions())

    if name == "random":
        return lambda: choose

    def greedy() -> Callable[[Game], Action]:
        best = partial(greedy_action, weights=weights, valuations=RolloutValuations(weights))
        if epsilon <= 0.0:
            return best
        return lambda game: choose(game) if rng.random() < epsilon else best(game)

    return greedy


def value_model(cfg: MCTSConfig) -> ValueModel | None:
    """The learned evaluation when ``cfg`` asks for it and its file can be read."""
    return default_model() if cfg.value == "learned" else None


def projected_scores(
    game: Game, weights: Weights = DEFAULT_WEIGHTS, model: ValueModel | None = None
) -> list[float]:
    """Scores so far plus what each player's tiles and suns should still bring.

    Used at the start of an epoch (after scoring), where displays hold only the
    tiles that stay (R6.3): Pharaohs, Niles, Monuments.  ``model``: the learned
    evaluation judges it instead (at the start of epoch 2 or 3).
    """
    val = Valuation(game, weights)
    n = game.num_players
    out = [float(game.scores[i] or 0) + val.base(i) for i in range(n)]
    totals = [sun_total(game.sun_mask(i) | game.used_sun_mask(i)) for i in range(n)]
    if game.epoch == 3:
        # The final sun scoring (R7.3) is still to come: half of it is likely to hold.
        for i, p in enumerate(majority_points(totals, 5, -5)):
            out[i] += 0.5 * p
    else:
        mean = sum(totals) / n
        for i in range(n):
            out[i] += weights.sun_step * (totals[i] - mean)
    if model is not None:
        return model.predict(game, out) or out
    return out


class _Node:
    __slots__ = ("children", "stats", "untried", "visits")

    def __init__(self) -> None:
        self.children: dict[object, _Node] = {}
        self.stats: dict[int, list[float]] = {}  # action index -> [visits, total reward]
        self.untried: list[int] | None = None
        self.visits = 0


def _budgets(value: str | list[object]) -> object:
    """Four budgets from ``"a/b/c/d"`` or a list; anything else is left for check() to name."""
    parts = value.split("/") if isinstance(value, str) else value
    try:
        return tuple(int(p) if isinstance(p, (str, int)) else p for p in parts)
    except ValueError:
        return value
