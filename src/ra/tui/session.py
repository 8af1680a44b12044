"""The terminal game's table and its files: save, resume, the list of saved games.

Who sits where, undo, hand-over and the bots' seeds are :mod:`ra.table`'s, shared with
the web server; this module adds only persistence.
"""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import ra
from ra import bots
from ra.bots.evaluate import Evaluation
from ra.events import is_you
from ra.record_format import parse_json
from ra.records import MAX_RECORD_BYTES, atomic_write
from ra.table import (
    CancellableView,
    SearchCancelledError,
    Seat,
    Table,
    TableOptions,
    check_players,
    default_hints,
    plan_seats,
    record_facts,
    record_stand_in,
    seat_labels,
)
from ra.words import Msg, Param, languages, msg, words

__all__ = [
    "CancellableView",
    "SearchCancelledError",
    "Seat",
    "Session",
    "check_players",
    "default_hints",
    "plan_seats",
]

SAVE_FORMAT = "ra-session"


def data_dir() -> Path:
    """``$XDG_DATA_HOME/ra`` (by default ``~/.local/share/ra``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "ra"


def games_dir() -> Path:
    """Where each game keeps its own save (one file per game)."""
    return data_dir() / "games"


def default_save_path(names: Sequence[str] = (), when: datetime | None = None) -> Path:
    """A new save slot for a game: ``games/<start time>-<players>.json`` (never an existing file)."""
    stamp = (when or datetime.now()).strftime("%Y%m%d-%H%M%S")
    # Letters and digits of any script (a Russian name stays readable), nothing else.
    slug = "-".join("".join(c for c in n if c.isalnum()).lower() or "p" for n in names)[:60]
    stem = f"{stamp}-{slug}" if slug else stamp
    folder = games_dir()
    path = folder / f"{stem}.json"
    k = 1
    while path.exists():
        k += 1
        path = folder / f"{stem}-{k}.json"
    return path


def read_document(path: Path) -> dict[str, Any]:
    """The JSON object in ``path``; any fault (unreadable, too large, not UTF-8, not JSON,
    absurd nesting or numbers: :func:`ra.record_format.parse_json`) becomes a one-line
    :class:`ra.RecordError` naming the file."""
    where = os.fspath(path)
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_RECORD_BYTES + 1)
    except OSError as err:
        raise _refused("record.unreadable", file=where, detail=system_reason(err)) from None
    if len(raw) > MAX_RECORD_BYTES:
        raise _refused("record.too_large", file=where)
    try:
        data = parse_json(raw)
    except ra.RecordError as err:
        raise _refused("record.not_a_record", file=where, detail=_reason(err)) from None
    if not isinstance(data, dict):
        raise _refused("record.not_an_object", file=where)
    return data


OS_REASONS = {
    errno.ENOENT: "os.enoent",
    errno.EISDIR: "os.eisdir",
    errno.EACCES: "os.eacces",
    errno.EPERM: "os.eacces",
    errno.ENOTDIR: "os.enotdir",
    errno.ENAMETOOLONG: "os.enametoolong",
    errno.ELOOP: "os.eloop",
    errno.EROFS: "os.erofs",
    errno.ENOSPC: "os.enospc",
}
"""The system's refusals a person meets with a file, by ``errno``: our words, not its English."""


def system_reason(err: OSError) -> Msg:
    """Why the system refused a file, in words any language renders (``os.other`` names the
    code of a rarer refusal: ``EIO``)."""
    key = OS_REASONS.get(err.errno or 0)
    if key is not None:
        return msg(key)
    return msg("os.other", code=errno.errorcode.get(err.errno or 0, type(err).__name__))


def _reason(err: Exception) -> Msg | str:
    """An engine error's words (its ``why``) where it has them, else its text."""
    why = getattr(err, "why", None)
    return why if isinstance(why, Msg) else str(err)


def _refused(key: str, **params: Param) -> ra.RecordError:
    """A file that is not a game we can load, in words any language renders: the file named,
    the technical detail (the engine's or the system's words) kept as it came."""
    why = msg(key, **params)
    return ra.RecordError(words("en").render(why), why=why)


def game_from_document(data: dict[str, Any], where: str) -> ra.Game:
    """Replay a record; whatever is wrong with it becomes a one-line :class:`ra.RecordError`."""
    try:
        return ra.Game.from_record(data)
    except ra.RecordError as err:
        raise _refused("record.detail", file=where, detail=_reason(err)) from None
    except (
        ValueError,
        TypeError,
        KeyError,
        IndexError,
        AttributeError,
        OverflowError,
        RecursionError,
    ) as err:
        raise _refused("record.invalid", file=where, detail=f"{type(err).__name__}: {err}") from None


def load_game(path: Path) -> ra.Game:
    """The game saved or recorded in ``path`` (for ``ra analyze``)."""
    return game_from_document(read_document(path), os.fspath(path))


@dataclass(frozen=True)
class Replay:
    """A recorded game with the table's facts its record states: the decisions a stand-in bot
    took for an absent person, and that bot's level (for ``ra replay``, which marks them)."""

    game: ra.Game
    stand_ins: frozenset[int]
    stand_in: str
    forfeited: frozenset[int] = frozenset()
    """Seats that forfeited (a site's record): last, whatever their scores (:func:`ra.table.game_result`)."""
    viewer: int | None = None
    """Whose eyes an unfinished game is replayed with (R9.1): the one person at a table of
    bots, else nobody's (a spectator's); a finished game shows everything."""


def say_you_in(data: dict[str, Any], lang: str | None) -> None:
    """Call the person saved as "You" in the language the game began in ("Вы") "You" in
    ``lang`` now, and bots named as ``ra play`` names them ("Сильный бот") by their names in
    ``lang``: in the record's players and the saved seats alike (``None``: as saved)."""
    players = data.get("players")
    if lang is None or not isinstance(players, list):
        return
    you = words(lang)("player.you")
    meta = data.get("session")
    seats = meta.get("seats") if isinstance(meta, dict) else None
    for i, name in enumerate(players):
        seat = seats[i] if isinstance(seats, list) and i < len(seats) and isinstance(seats[i], dict) else {}
        if isinstance(name, str) and is_you(name) and seat.get("bot") is None and you not in players:
            players[i] = you
            if seat:
                seat["name"] = you
    if isinstance(seats, list):
        _bots_named_in(players, seats, lang)


def _bots_named_in(players: list[Any], seats: list[Any], lang: str) -> None:
    """Bots whose saved names are the labels ``ra play`` gave them in some language, renamed
    by their labels in ``lang`` (a person's name is never touched)."""
    if len(seats) != len(players) or not all(isinstance(s, dict) for s in seats):
        return
    bots_ = [s.get("bot") if isinstance(s.get("bot"), str) else None for s in seats]
    table = [Seat(str(name), bot) for name, bot in zip(players, bots_, strict=True)]
    try:
        if not any(seat_labels(table, other) == players for other in languages()):
            return
        named = seat_labels(table, lang)
    except ValueError:  # a bot spec no bot takes: said when the seats are read
        return
    for seat, name in zip(seats, named, strict=True):
        seat["name"] = name
    players[:] = named


def load_replay(path: Path, lang: str | None = None) -> Replay:
    """The game in ``path`` and its table's facts; a bad fact is a one-line :class:`ra.RecordError`.
    ``lang``: the reader's language, in which "You" is called (:func:`say_you_in`)."""
    where = os.fspath(path)
    data = read_document(path)
    say_you_in(data, lang)
    game = game_from_document(data, where)
    try:
        forfeited, stand_ins = record_facts(data, game)
        level = record_stand_in(data)
    except ra.RecordError as err:
        raise _refused("record.detail", file=where, detail=str(err)) from None
    meta = data.get("session")
    seats = [Seat(n) for n in game.names] if meta is None else _saved_seats(meta, where, game.num_players)
    people = [i for i, s in enumerate(seats) if s.human]
    return Replay(game, stand_ins, level, forfeited, people[0] if len(people) == 1 else None)


class Session(Table[Evaluation]):
    """A terminal table: a :class:`ra.table.Table` that saves itself to a file."""

    def __init__(
        self,
        game: ra.Game,
        seats: Sequence[Seat],
        save_path: Path | None = None,
        hints: bool | None = None,
        edition: str = "original",
    ) -> None:
        options = TableOptions(hints=default_hints(seats) if hints is None else hints)
        super().__init__(game, seats, options)
        self.save_path = save_path or default_save_path([s.name for s in seats])
        self.edition = edition
        """The edition whose names the table shows (``ra.EDITIONS``), saved with the game so that
        ``--resume`` shows the same board."""

    @property
    def hints(self) -> bool:
        """A table option agreed at the start: the people may ask for win-chance hints."""
        return self.options.hints

    @classmethod
    def new(
        cls,
        seats: Sequence[Seat],
        seed: int | None = None,
        variant: str = "standard",
        suns_per_player: int | None = None,
        hidden_scores: bool = True,
        save_path: Path | None = None,
        hints: bool | None = None,
        disaster_timing: str = "immediate",
        edition: str = "original",
    ) -> Session:
        game = ra.Game(
            players=[s.name for s in seats],
            seed=seed,
            variant=variant,
            suns_per_player=suns_per_player,
            hidden_scores=hidden_scores,
            disaster_timing=disaster_timing,
        )
        return cls(game, seats, save_path, hints, edition)

    # --- saving --------------------------------------------------------------------

    def to_document(self) -> dict[str, Any]:
        """The game record plus the seats, as JSON-able data."""
        record = self.game.to_record()
        record["session"] = {
            "format": SAVE_FORMAT,
            "seats": [{"name": s.name, "bot": s.bot} for s in self.seats],
            "hints": self.hints,
            "edition": self.edition,
        }
        return record

    def save(self, path: Path | None = None) -> Path:
        """Write the session atomically; returns where."""
        target = Path(path or self.save_path)
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, json.dumps(self.to_document(), indent=1) + "\n")
        return target

    @classmethod
    def load(cls, path: Path, save_path: Path | None = None, lang: str | None = None) -> Session:
        """Resume a saved session (or any game record: its seats become people).

        Saves go to ``save_path``, by default a new slot: the loaded file is never
        overwritten unless asked.  Every fault in the file is a :class:`ra.RecordError`.
        ``lang``: the language the game goes on in, in which "You" is called (:func:`say_you_in`).
        """
        where = os.fspath(path)
        data = read_document(path)
        say_you_in(data, lang)
        full = game_from_document(data, where)  # checks every decision, with its number
        meta = data.get("session")
        hints = None
        edition = "original"  # saves made before the edition was saved
        if meta is not None:
            seats = _saved_seats(meta, where, full.num_players)
            saved = meta.get("hints") if isinstance(meta, dict) else None
            if saved is not None and not isinstance(saved, bool):
                raise _refused("record.hints", file=where, value=repr(saved))
            hints = saved
            edition = meta.get("edition", edition) if isinstance(meta, dict) else edition
            if edition not in ra.EDITIONS:
                names = ", ".join(ra.EDITIONS)
                raise _refused("record.edition", file=where, value=repr(edition)[:40], editions=names)
        else:
            seats = [Seat(name) for name in full.names]
        return cls(full, seats, save_path, hints, edition)


def _saved_seats(meta: object, where: str, players: int) -> list[Seat]:
    """The seats of a saved session, checked: one per player, names as text, bot specs valid."""
    seats_data = meta.get("seats") if isinstance(meta, dict) else None
    if not isinstance(seats_data, list):
        raise _refused("record.seats", file=where)
    if len(seats_data) != players:
        raise _refused("record.seat_count", file=where, seats=len(seats_data), players=players)
    seats = []
    for i, s in enumerate(seats_data, 1):
        if not isinstance(s, dict) or not isinstance(s.get("name"), str):
            raise _refused("record.seat_name", file=where, seat=i)
        bot = s.get("bot")
        if bot is not None:
            if not isinstance(bot, str):
                raise _refused("record.seat_bot", file=where, seat=i, value=repr(bot))
            try:
                bots.from_spec(bot, seed=0)
            except ValueError as err:
                raise _refused("record.seat_detail", file=where, name=s["name"], detail=str(err)) from None
        seats.append(Seat(s["name"], bot))
    return seats


@dataclass(frozen=True)
class SavedGame:
    """One save slot, as ``ra games`` lists it."""

    path: Path
    names: tuple[str, ...]
    over: bool
    epoch: int
    modified: float
    problem: ra.RecordError | OSError | None = None
    """Why the file cannot be played (then ``names`` is empty): a damaged save is listed, not
    skipped without a word."""


def list_saves(folder: Path | None = None) -> list[SavedGame]:
    """The saved games in ``folder`` (default: :func:`games_dir`), newest first; a file that
    cannot be loaded is listed with its :attr:`SavedGame.problem`."""
    folder = folder or games_dir()
    found = []
    for path in folder.glob("*.json") if folder.is_dir() else ():
        try:
            modified = path.stat().st_mtime
        except OSError:
            continue  # gone between the listing and the look
        try:
            session = Session.load(path)
        except (ra.RecordError, OSError) as err:
            found.append(SavedGame(path, (), False, 0, modified, err))
            continue
        game = session.game
        found.append(SavedGame(path, game.names, game.is_over(), game.epoch, modified))
    return sorted(found, key=lambda g: g.modified, reverse=True)
