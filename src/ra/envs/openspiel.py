"""Ra as an OpenSpiel game with explicit chance: ``import ra.envs.openspiel`` registers ``python_ra``.

>>> import pyspiel
>>> import ra.envs.openspiel
>>> game = pyspiel.load_game("python_ra", {"players": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node()          # the sun deal (R2.2)
True

Parameters: ``players`` (2-5, default 3), ``variant`` (``"standard"`` or
``"long-2p"``), ``suns`` (suns per player in the long two-player game, 4-7;
0 for the default) and ``hidden_scores`` (R9.1).

Chance nodes own all the randomness (R9.2): first the sun deal (outcome ``i`` is
the ``i``-th permutation of the groups of R2.2, in :func:`itertools.permutations`
order), then every draw: the player's action ``draw`` (index 0) is followed by a
chance node whose outcomes are the tile kinds still in the bag (outcome = the
:class:`ra.Tile` value, probability = unseen count / tiles left, see
:meth:`ra.Game.chance_outcomes`).  Player actions are :attr:`ra.Action.index`.
Returns are :meth:`ra.Game.returns` (+1 winner, ``-1/(n-1)`` others: zero-sum).

Observation tensor: :func:`ra.encode.observation` of the player's view (370
floats, layout in :mod:`ra.encode`); the information-state tensor is the same
vector (the view is Markov: nothing else in the history matters), the
information-state string is the public history (every action and chance outcome).

The :class:`ra.Game` inside a state (:attr:`RaState.ra_game`) keeps no event log
(``Game(events=False)``: its ``events`` raise :class:`ra.EventLogOffError`); the
OpenSpiel history is the record of the game.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel
from open_spiel.python.algorithms import mcts

import ra
from ra.actions import ALL_ACTIONS
from ra.bots.base import SeededBot
from ra.encode import FIELDS, OBSERVATION_SIZE, observation_bytes
from ra.envs import game_text
from ra.setup import LONG_2P_GROUPS, MAX_PLAYERS, MIN_PLAYERS, SUN_GROUPS
from ra.state import PHASE_OVER
from ra.tiles import NUM_KINDS, TILES

SHORT_NAME = "python_ra"
DEFAULTS: dict[str, Any] = {"players": 3, "variant": "standard", "suns": 0, "hidden_scores": False}
MAX_GAME_LENGTH = 1200
"""An upper bound on actions, chance outcomes included: at most 180 draws and 181 chance
outcomes, at most 97 auctions of at most 6 decisions (30 drawn by Ra tiles, 45 won with
suns over three epochs, 22 forced ones with no bid), 65 discards and 16 God-tile decisions."""
_DRAW = ra.Action.parse("draw").index
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_LE_FLOAT32 = np.dtype("<f4")

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Ra (Reiner Knizia)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    # Perfect information but for hidden scores (R9.1): declared imperfect so both fit.
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


class RaGame(pyspiel.Game):  # type: ignore[misc]  # untyped base
    """The game: parameters checked at once (``ValueError`` naming a bad one)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**DEFAULTS, **(params or {})}
        unknown = sorted(set(p) - set(DEFAULTS))
        if unknown:
            raise ValueError(f"unknown parameter(s) {', '.join(unknown)}; parameters: {', '.join(DEFAULTS)}")
        self.options: dict[str, Any] = {
            "players": int(p["players"]),
            "variant": str(p["variant"]),
            "suns_per_player": int(p["suns"]) or None,
            "hidden_scores": bool(p["hidden_scores"]),
        }
        probe = ra.Game(seed=0, **self.options)  # ValueError for bad parameters
        n = probe.num_players
        if self.options["variant"] == "long-2p":
            groups = LONG_2P_GROUPS[probe.setup.suns_per_player or 6]
        else:
            groups = SUN_GROUPS[n]
        self.deals: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(groups[i] for i in perm) for perm in itertools.permutations(range(n))
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=ra.NUM_ACTIONS,
            max_chance_outcomes=max(NUM_KINDS, math.factorial(n)),
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(GAME_TYPE, info, p)

    def new_initial_state(self) -> RaState:
        return RaState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> RaObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        return RaObserver(bool(iig_obs_type is not None and iig_obs_type.perfect_recall))


class _Core:
    """The mutable part of a state; OpenSpiel clones states by deep-copying their attributes,
    and this makes that a cheap :meth:`ra.Game.clone`."""

    __slots__ = ("game", "drawing", "player")

    def __init__(self, game: ra.Game | None = None, drawing: bool = False) -> None:
        self.game = game
        self.drawing = drawing
        self.player = _CHANCE
        self.update()

    def update(self) -> None:
        """Work out the player to move once per action: OpenSpiel asks for it several times."""
        game = self.game
        if game is None or self.drawing:
            self.player = _CHANCE
        elif game.phase_code == PHASE_OVER:
            self.player = _TERMINAL
        else:
            self.player = game.to_move  # type: ignore[assignment]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        return _Core(self.game.clone() if self.game is not None else None, self.drawing)


class RaState(pyspiel.State):  # type: ignore[misc]  # untyped base
    """A position: before the deal, at a draw's chance node, at a decision, or over."""

    def __init__(self, game: RaGame) -> None:
        super().__init__(game)
        self._ra = game
        self._core = _Core()

    @property
    def ra_game(self) -> ra.Game | None:
        """The :class:`ra.Game` inside (``None`` before the deal); read it, do not change it."""
        return self._core.game

    def current_player(self) -> int:
        return self._core.player

    def _legal_actions(self, player: int) -> list[int]:
        game = self._core.game
        assert game is not None
        out = [a.index for a in game.legal_actions()]
        out.sort()
        return out

    def chance_outcomes(self) -> list[tuple[int, float]]:
        core = self._core
        if core.game is None:
            k = len(self._ra.deals)
            return [(i, 1.0 / k) for i in range(k)]
        if not core.drawing:
            return []
        return [(int(t), p) for t, p in core.game.chance_outcomes()]

    def _apply_action(self, action: int) -> None:
        core = self._core
        if core.game is None:
            core.game = ra.Game(seed=0, suns=self._ra.deals[action], events=False, **self._ra.options)
        elif core.drawing:
            core.game.apply_draw(TILES[action])
            core.drawing = False
        elif action == _DRAW:
            core.drawing = True
        else:
            core.game.apply(ALL_ACTIONS[action])  # OpenSpiel passes only legal indices
        core.update()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._core.game is None:
                return "deal " + " / ".join("-".join(map(str, g)) for g in self._ra.deals[action])
            return f"tile {TILES[action].id}"
        return str(ra.Action.from_index(action))

    def is_terminal(self) -> bool:
        return self._core.player == _TERMINAL

    def returns(self) -> list[float]:
        game = self._core.game
        return game.returns() if game is not None else [0.0] * self._ra.num_players()

    def __str__(self) -> str:
        core = self._core
        if core.game is None:
            return "(the suns are not dealt yet)"
        text = game_text(core.game)
        return text + "\n  (drawing: the tile is the next chance outcome)" if core.drawing else text


class RaObserver:
    """The observer protocol of OpenSpiel: ``tensor`` (parts by name in ``dict``), ``set_from``."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor: npt.NDArray[np.float32] = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict = {name: self.tensor[off : off + size] for name, (off, size) in FIELDS.items()}

    def set_from(self, state: RaState, player: int) -> None:
        game = state.ra_game
        if game is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = np.frombuffer(observation_bytes(game, player), _LE_FLOAT32)

    def string_from(self, state: RaState, player: int) -> str:
        if self.perfect_recall:
            return f"seat {player}: " + " ".join(map(str, state.history()))
        game = state.ra_game
        if game is None:
            return f"seat {player}: (the suns are not dealt yet)"
        return f"seat {player}: " + game_text(game.view(player))


pyspiel.register_game(GAME_TYPE, RaGame)


def state_from_game(game: ra.Game) -> RaState:
    """An OpenSpiel state at the position of ``game`` (a copy; its OpenSpiel history is empty).

    Every later draw is a chance node, so the state never reads ``game``'s bag: a
    determinized view (:meth:`ra.PlayerView.determinize`) is as good as the real game.
    """
    setup = game.setup
    params = {
        "players": game.num_players,
        "variant": setup.variant,
        "suns": setup.suns_per_player or 0,
        "hidden_scores": setup.hidden_scores,
    }
    state = RaState(pyspiel.load_game(SHORT_NAME, params))
    copy = game.clone()
    copy.stop_events()  # a search copy: nobody reads its log
    state._core = _Core(copy)
    return state


class OpenSpielMCTSBot(SeededBot):
    """OpenSpiel's own MCTS (``open_spiel.python.algorithms.mcts.MCTSBot``) as a bot of ours.

    Spec ``openspiel-mcts[:simulations=50][:rollouts=1][:uct_c=2]``.  It sees only the
    view (R9.3): the search starts from the view's position and treats every draw as a
    chance node, so the bag's order is never needed.  Random rollouts, UCT.
    """

    name = "openspiel-mcts"

    def __init__(
        self, seed: int | None = None, simulations: int = 50, rollouts: int = 1, uct_c: float = 2.0
    ) -> None:
        super().__init__(seed)
        for label, value in (("simulations", simulations), ("rollouts", rollouts)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{label} must be a positive integer, got {value!r}")
        if isinstance(uct_c, bool) or not isinstance(uct_c, int | float) or uct_c <= 0:
            raise ValueError(f"uct_c must be a positive number, got {uct_c!r}")
        self.simulations = simulations
        self.rollouts = rollouts
        self.uct_c = float(uct_c)
        self._np = np.random.RandomState(self.rng.getrandbits(32))

    def settings(self) -> dict[str, object]:
        return {"simulations": self.simulations, "rollouts": self.rollouts, "uct_c": self.uct_c}

    def choose(self, view: ra.PlayerView) -> ra.Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        state = state_from_game(view.determinize(seed=self.rng.getrandbits(63)))
        bot = mcts.MCTSBot(
            state.get_game(),
            uct_c=self.uct_c,
            max_simulations=self.simulations,
            evaluator=mcts.RandomRolloutEvaluator(self.rollouts, self._np),
            random_state=self._np,
        )
        return ra.Action.from_index(int(bot.step(state)))


__all__ = [
    "DEFAULTS",
    "GAME_TYPE",
    "MAX_GAME_LENGTH",
    "SHORT_NAME",
    "OpenSpielMCTSBot",
    "RaGame",
    "RaObserver",
    "RaState",
    "state_from_game",
]
