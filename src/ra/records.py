"""Game records: a JSON-able setup plus the decisions, replayable to the same game (R9.2).

A record looks like::

    {
      "format": "ra-game", "version": 1,
      "players": ["Ann", "Bob", "Cy"], "variant": "standard", "suns_per_player": null,
      "hidden_scores": false, "seed": 7,
      "suns": [[13, 8, 5, 2], [12, 9, 6, 3], [11, 10, 7, 4]],
      "bag": [],
      "decisions": ["draw", "draw", "ra", "bid 9", "pass", ...],
      "result": {"over": false, "scores": [10, 10, 10], "winner": null}
    }

``result`` is informative; when present, loading checks that the replay agrees.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any, Final

from ra.engine import Game
from ra.errors import IllegalActionError, NotationError, RecordError
from ra.setup import make_setup
from ra.tiles import TILE_IDS

FORMAT: Final = "ra-game"
VERSION: Final = 1


def game_to_record(game: Game) -> dict[str, Any]:
    """The record of ``game``: its setup, its decisions and (for checking) its result."""
    s = game.setup
    return {
        "format": FORMAT,
        "version": VERSION,
        "players": list(s.names),
        "variant": s.variant,
        "suns_per_player": s.suns_per_player,
        "hidden_scores": s.hidden_scores,
        "seed": s.seed,
        "suns": [list(g) for g in s.suns],
        "bag": [TILE_IDS[t] for t in s.bag],
        "bag_counts": list(s.bag_counts) if s.bag_counts is not None else None,
        "decisions": [str(a) for a in game.decisions],
        "result": {
            "over": game.is_over(),
            "scores": list(game._scores),
            "winner": game.winner,
        },
    }


def _field(record: Mapping[str, Any], name: str, types: tuple[type, ...], default: Any = ...) -> Any:
    if name not in record:
        if default is ...:
            raise RecordError(f"record has no {name!r} field")
        return default
    value = record[name]
    # bool is an int in Python, but never a valid count or seed here.
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
        raise RecordError(f"record field {name!r} has the wrong type: {value!r}")
    return value


def game_from_record(record: Mapping[str, Any] | str) -> Game:
    """Replay a record (a mapping or its JSON text) into a :class:`Game`."""
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as err:
            raise RecordError(f"record is not valid JSON: {err}") from None
    if not isinstance(record, Mapping):
        raise RecordError(f"a record is a JSON object, got {type(record).__name__}")
    fmt = record.get("format", FORMAT)
    if fmt != FORMAT:
        raise RecordError(f"not a Ra game record (format {fmt!r}, expected {FORMAT!r})")
    version = record.get("version", VERSION)
    if version != VERSION:
        raise RecordError(f"unsupported record version {version!r} (this library reads {VERSION})")
    players = _field(record, "players", (list,))
    seed = _field(record, "seed", (int,))
    decisions = _field(record, "decisions", (list,))
    try:
        setup = make_setup(
            players,
            seed=seed,
            variant=_field(record, "variant", (str,), "standard"),
            suns_per_player=_field(record, "suns_per_player", (int, type(None)), None),
            bag=_field(record, "bag", (list,), []),
            suns=_field(record, "suns", (list, type(None)), None),
            hidden_scores=_field(record, "hidden_scores", (bool,), False),
            bag_counts=_field(record, "bag_counts", (list, type(None)), None),
        )
    except ValueError as err:
        raise RecordError(f"record setup: {err}") from None
    game = Game.from_setup(setup)
    for i, text in enumerate(decisions, 1):
        if game.is_over():
            raise RecordError(f"decision {i} ({text!r}): the game is already over (R8.1)", index=i)
        try:
            game.apply(text)
        except (IllegalActionError, NotationError) as err:
            raise RecordError(f"decision {i} ({text!r}): {err}", index=i) from None
    result = record.get("result")
    if isinstance(result, Mapping) and "scores" in result:
        if list(result["scores"]) != game._scores or result.get("winner") != game.winner:
            raise RecordError(
                f"the replay does not reach the recorded result: scores {game._scores}, "
                f"winner {game.winner}; the record says {result['scores']}, winner {result.get('winner')}"
            )
    return game


def save(game: Game, path: str | os.PathLike[str]) -> None:
    """Write the game's record as JSON, atomically (a crash never leaves half a file)."""
    text = json.dumps(game_to_record(game), indent=1)
    tmp = f"{os.fspath(path)}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.write("\n")
    os.replace(tmp, path)


def load(path: str | os.PathLike[str]) -> Game:
    """Read a record written by :func:`save` and replay it."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as err:
        raise RecordError(f"cannot read {os.fspath(path)!r}: {err.strerror}") from None
    return game_from_record(text)
