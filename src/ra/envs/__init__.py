"""Ra in the standard research environments (the ``rl`` extra: ``pip install 'ra-boardgame[rl]'``).

- :mod:`ra.envs.pettingzoo`: ``env(players=3)``, a PettingZoo AEC environment;
- :mod:`ra.envs.gymnasium`: registers ``ra/Ra-v0``, one learning seat against bots;
- :mod:`ra.envs.openspiel`: registers ``python_ra`` with explicit chance nodes.

The core ``ra`` package never imports these modules nor their dependencies.
The observation is :func:`ra.encode.observation` as float32 and the action space
is the dense :attr:`ra.Action.index` (``ra.NUM_ACTIONS`` = 54 actions).
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

import ra
from ra.encode import OBSERVATION_HIGH, OBSERVATION_SIZE, observation_bytes
from ra.state import State

OBSERVATION_HIGH_ARRAY: npt.NDArray[np.float32] = np.array(OBSERVATION_HIGH, dtype=np.float32)
_LE_FLOAT32: Final = np.dtype("<f4")
_NATIVE: Final = np.dtype(np.float32) == _LE_FLOAT32


def observation_array(view: ra.PlayerView) -> npt.NDArray[np.float32]:
    """:func:`ra.encode.observation` as a float32 numpy array of shape ``(OBSERVATION_SIZE,)``
    (a new, writable array each call)."""
    if not isinstance(view, ra.PlayerView):
        raise TypeError(
            f"observation_array() takes a PlayerView (game.view(seat)), got {type(view).__name__}"
        )
    return observation_array_of(view, view.seat)


def observation_array_of(game: State, seat: int) -> npt.NDArray[np.float32]:
    """``observation_array(game.view(seat))`` without building the view: read straight from the
    float32 bytes of :func:`ra.encode.observation_bytes` (no per-number conversion)."""
    array = np.frombuffer(bytearray(observation_bytes(game, seat)), _LE_FLOAT32)
    return array if _NATIVE else array.astype(np.float32)


def action_mask_array(state: ra.Game | ra.PlayerView, seat: int | None = None) -> npt.NDArray[np.int8]:
    """:meth:`ra.Game.legal_action_mask` as an int8 numpy array of shape ``(NUM_ACTIONS,)``;
    all 0 when ``seat`` is given and is not the seat to move."""
    if seat is not None and state.to_move != seat:
        return np.zeros(ra.NUM_ACTIONS, dtype=np.int8)
    key = tuple(state.legal_actions())  # actions are shared objects (ra.actions): cheap to hash
    mask = _MASKS.get(key)
    if mask is None:
        mask = np.zeros(ra.NUM_ACTIONS, dtype=np.int8)
        mask[[a.index for a in key]] = 1
        if len(_MASKS) < 100_000:
            _MASKS[key] = mask
    return mask.copy()


_MASKS: dict[tuple[ra.Action, ...], npt.NDArray[np.int8]] = {}
"""Masks by legal actions (few distinct sets occur): a copy is cheaper than building one."""


def game_text(game: ra.Game | ra.PlayerView) -> str:
    """A few lines of plain text showing the position (for ``render``); players are named as
    people see them (``Player 1`` …, never a 0-based seat number)."""
    ra_track = f"Ra track {game.ra_count}/{game.ra_track_length}"
    lines = [f"Epoch {game.epoch}/{ra.EPOCHS}, {ra_track}, {game.num_decisions} decisions"]
    for p in game.players:
        up = " ".join(map(str, p.suns)) or "-"
        down = " ".join(map(str, p.used_suns)) or "-"
        tiles = ", ".join(f"{t} {c}" if c > 1 else t for t, c in sorted(p.tiles.items())) or "no tiles"
        score = "?" if p.score is None else p.score
        lines.append(f"  {p.name}: score {score}; suns {up} (face down {down}); {tiles}")
    track = ", ".join(game.auction_track) or "empty"
    lines.append(
        f"  centre sun {game.center_sun}; auction track: {track}; {game.tiles_in_bag} tiles in the bag"
    )
    if not game.is_over():
        legal = " | ".join(str(a) for a in game.legal_actions())
        lines.append(f"  {game.names[game.to_move or 0]} to move: {legal}")
    return "\n".join(lines)


__all__ = [
    "OBSERVATION_HIGH_ARRAY",
    "OBSERVATION_SIZE",
    "action_mask_array",
    "game_text",
    "observation_array",
    "observation_array_of",
]


RENDER_MODES = ("human", "ansi")
"""The text renderings both adapters offer."""


def new_game(
    players: int, variant: str, suns_per_player: int | None, hidden_scores: bool, render_mode: str | None
) -> tuple[ra.Game, dict[str, Any]]:
    """The adapters' common checks: a game built from the options at once (``ValueError`` naming
    a bad one), and the options to start every later episode with."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"unknown render_mode {render_mode!r}; modes are: {', '.join(RENDER_MODES)}")
    options: dict[str, Any] = {
        "players": players,
        "variant": variant,
        "suns_per_player": suns_per_player,
        "hidden_scores": hidden_scores,
    }
    return ra.Game(seed=0, events=False, **options), options
