"""Game records as files: save and load a game, atomically (the format: :mod:`ra.record_format`).

>>> import ra
>>> game = ra.Game(players=2, seed=1)
>>> ra.Game.from_record(game.to_record()) == game
True

Everything a file can contain that is not a valid record raises :class:`ra.RecordError`.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Mapping
from typing import Any

from ra.engine import Game
from ra.errors import RecordError
from ra.record_format import FORMAT, VERSION, build_record, parse_json, parse_record

__all__ = [
    "FORMAT",
    "VERSION",
    "atomic_write",
    "build_record",
    "game_from_record",
    "game_to_record",
    "load",
    "parse_record",
    "save",
]

MAX_RECORD_BYTES = 4 << 20
"""Records are a few kilobytes; a file beyond this size is not read."""


def game_to_record(game: Game) -> dict[str, Any]:
    """The record of ``game`` (same as ``game.to_record()``)."""
    return game.to_record()


def game_from_record(record: Mapping[str, Any] | str) -> Game:
    """Replay a record (same as ``Game.from_record(record)``)."""
    return Game.from_record(record)


def atomic_write(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` so that a crash never leaves half a file: write a
    temporary file in the same directory, flush it to disk, then rename it over ``path``."""
    target = os.fspath(path)
    directory = os.path.dirname(target) or "."
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(target) + ".", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def save(game: Game, path: str | os.PathLike[str]) -> None:
    """Write the game's record as JSON, atomically (see :func:`atomic_write`)."""
    atomic_write(path, json.dumps(game.to_record(), indent=1) + "\n")


def load(path: str | os.PathLike[str]) -> Game:
    """Read a record written by :func:`save` and replay it (:class:`ra.RecordError` on any failure)."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as f:
            data = f.read(MAX_RECORD_BYTES + 1)
    except OSError as err:
        raise RecordError(f"cannot read {name!r}: {err.strerror}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"{name!r} is larger than {MAX_RECORD_BYTES >> 20} MB: not a game record")
    return Game.from_record(parse_json(data))
