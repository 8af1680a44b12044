"""A play session: the game, who sits where (people or bots), undo, save and resume.

Kept apart from the Textual app so it can be tested and reused by other front
ends (the web app will need the same).
"""

from __future__ import annotations

import json
import os
import random
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import ra
from ra import bots
from ra.bots.base import Bot
from ra.events import plural
from ra.record_format import parse_json
from ra.records import MAX_RECORD_BYTES, atomic_write
from ra.views import PlayerView

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
    slug = "-".join(re.sub(r"[^A-Za-z0-9]+", "", n).lower() or "p" for n in names)[:60]
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
        raise ra.RecordError(f"cannot read {where!r}: {err.strerror or err}") from None
    if len(raw) > MAX_RECORD_BYTES:
        raise ra.RecordError(f"{where!r} is too large to be a saved game")
    try:
        data = parse_json(raw)
    except ra.RecordError as err:
        raise ra.RecordError(f"{where!r} is not a game record: {err}") from None
    if not isinstance(data, dict):
        raise ra.RecordError(f"{where!r} does not hold a game record (a JSON object)")
    return data


def game_from_document(data: dict[str, Any], where: str) -> ra.Game:
    """Replay a record; whatever is wrong with it becomes a one-line :class:`ra.RecordError`."""
    try:
        return ra.Game.from_record(data)
    except ra.RecordError as err:
        raise ra.RecordError(f"{where!r}: {err}") from None
    except (
        ValueError,
        TypeError,
        KeyError,
        IndexError,
        AttributeError,
        OverflowError,
        RecursionError,
    ) as err:
        raise ra.RecordError(f"{where!r} is not a valid game record ({type(err).__name__}: {err})") from None


def load_game(path: Path) -> ra.Game:
    """The game saved or recorded in ``path`` (for ``ra replay``)."""
    return game_from_document(read_document(path), os.fspath(path))


def check_players(n: int) -> None:
    """Raise ``ValueError`` unless Ra can be played by ``n`` players (R2.1)."""
    if not ra.MIN_PLAYERS <= n <= ra.MAX_PLAYERS:
        raise ValueError(f"Ra is for {ra.MIN_PLAYERS} to {ra.MAX_PLAYERS} players, not {n}")


def _people(n: int) -> str:
    """``1 person``, ``3 people`` (:func:`ra.events.plural` knows no irregular nouns)."""
    return plural(n, "person") if n == 1 else f"{n} people"


@dataclass(frozen=True)
class Seat:
    """A seat at the table: a person (``bot is None``) or a bot spec."""

    name: str
    bot: str | None = None

    @property
    def human(self) -> bool:
        return self.bot is None


def plan_seats(
    players: int | None, humans: Sequence[str], bot_specs: Sequence[str], name: str | None = None
) -> list[Seat]:
    """Seats for ``ra play``: the people first, then the bots.

    Without ``humans`` one person plays (called ``name`` or "You").  Bots fill the
    remaining seats; the last bot spec repeats if ``players`` asks for more seats.
    Raises ``ValueError`` with the reason when the numbers do not fit.
    """
    people = [h.strip() for h in humans if h.strip()] or [name or "You"]
    specs = [b.strip() for b in bot_specs if b.strip()]
    for spec in specs:
        bots.from_spec(spec, seed=0)  # a bad spec says why
    total = players if players is not None else len(people) + max(len(specs), 0)
    if players is None and not specs and len(people) == 1:
        total = 3
    check_players(total)
    if len(people) > total:
        raise ValueError(f"{_people(len(people))} for {plural(total, 'seat')}")
    n_bots = total - len(people)
    if len(specs) > n_bots:
        raise ValueError(
            f"{plural(len(specs), 'bot')} but {plural(n_bots, 'seat')} left for bots "
            f"after {_people(len(people))}"
        )
    if n_bots and not specs:
        specs = ["hard"]
    specs = specs + [specs[-1]] * (n_bots - len(specs)) if n_bots else []
    seats = [Seat(p) for p in people]
    taken = set(people)
    for spec in specs:
        label = f"{spec.split(':')[0].capitalize()} bot"
        k = 1
        candidate = label
        while candidate in taken:
            k += 1
            candidate = f"{label} {k}"
        taken.add(candidate)
        seats.append(Seat(candidate, spec))
    if len(set(s.name for s in seats)) != len(seats):
        raise ValueError(f"player names must differ: {[s.name for s in seats]}")
    return seats


def default_hints(seats: Sequence[Seat]) -> bool:
    """Hints are on by default for one person against bots, off when several people play
    (then they must agree to them: ``ra play --hints``)."""
    return sum(s.human for s in seats) == 1


class SearchCancelledError(Exception):
    """Raised inside a bot's search when the position it was asked about is gone."""


class CancellableView(PlayerView):
    """A player's view whose :meth:`determinize` stops a searching bot once ``cancel`` is set.

    Searching bots sample a game from the view for every iteration, so setting the
    event ends the search within one iteration (undo, quit).
    """

    __slots__ = ("_cancel",)

    def __init__(self, game: ra.Game, seat: int, cancel: threading.Event) -> None:
        super().__init__(game, seat)
        self._cancel = cancel

    def determinize(self, seed: int | None = None, rng: random.Random | None = None) -> ra.Game:
        if self._cancel.is_set():
            raise SearchCancelledError
        return super().determinize(seed=seed, rng=rng)


class Session:
    """A game in progress with its seats; knows who made each decision."""

    def __init__(
        self, game: ra.Game, seats: Sequence[Seat], save_path: Path | None = None, hints: bool | None = None
    ) -> None:
        if len(seats) != game.num_players:
            raise ValueError(f"{len(seats)} seats for a {game.num_players}-player game")
        self.game = game
        self.seats = list(seats)
        self.hints = default_hints(self.seats) if hints is None else hints
        """A table option agreed at the start: the people may ask for win-chance hints."""
        self.save_path = save_path or default_save_path([s.name for s in seats])
        self.movers: list[int] = []
        """The seat that took each decision, in order."""

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
    ) -> Session:
        game = ra.Game(
            players=[s.name for s in seats],
            seed=seed,
            variant=variant,
            suns_per_player=suns_per_player,
            hidden_scores=hidden_scores,
        )
        return cls(game, seats, save_path, hints)

    # --- turns -------------------------------------------------------------------

    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.human]

    def is_human(self, seat: int | None) -> bool:
        return seat is not None and self.seats[seat].human

    def human_to_move(self) -> bool:
        return self.is_human(self.game.to_move)

    def perspective(self) -> int:
        """The seat whose view the screen shows: the person to move, else the last person who moved."""
        if self.human_to_move():
            assert self.game.to_move is not None
            return self.game.to_move
        for seat in reversed(self.movers):
            if self.seats[seat].human:
                return seat
        return self.humans[0] if self.humans else 0

    def bot(self, seat: int) -> Bot:
        """A fresh bot for ``seat``'s next decision, seeded by the game's seed, the seat and
        the decision's number: the same position always gets the same answer, and a
        search abandoned by undo shares nothing (no generator) with the next one."""
        spec = self.seats[seat].bot
        if spec is None:
            raise ValueError(f"seat {seat} is a person, not a bot")
        seed = (self.game.setup.seed * 10 + seat) * 100_000 + self.game.num_decisions
        return bots.from_spec(spec, seed=seed)

    def bot_view(self, seat: int, cancel: threading.Event) -> CancellableView:
        """What the bot in ``seat`` sees, with a switch that stops its search."""
        return CancellableView(self.game, seat, cancel)

    def apply(self, action: ra.Action | str) -> None:
        """Apply the decision of the player to move (raises the engine's errors unchanged)."""
        seat = self.game.to_move
        self.game.apply(action)
        assert seat is not None
        self.movers.append(seat)

    def undo_owner(self) -> int | None:
        """The person whose decision :meth:`undo` would take back (None: nothing to undo)."""
        if self.game.is_over():
            return None  # a finished game stays finished
        for seat in reversed(self.movers):
            if self.seats[seat].human:
                return seat
        return None

    def can_undo(self, asker: int | None = None) -> bool:
        """Whether ``asker`` (default: the person shown) may take back a decision now."""
        owner = self.undo_owner()
        return owner is not None and owner == (self.perspective() if asker is None else asker)

    def undo(self, asker: int | None = None) -> int:
        """Take back the last decision of the person asking, and the bots' decisions after it.

        Nobody can take back another person's decision (hot seat) or a finished game.
        Returns how many decisions were taken back (0 if there is none to undo).
        """
        if not self.can_undo(asker):
            return 0
        count = 0
        while self.movers:
            seat = self.movers.pop()
            self.game.undo()
            count += 1
            if self.seats[seat].human:
                break
        return count

    # --- saving --------------------------------------------------------------------

    def to_document(self) -> dict[str, Any]:
        """The game record plus the seats, as JSON-able data."""
        record = self.game.to_record()
        record["session"] = {
            "format": SAVE_FORMAT,
            "seats": [{"name": s.name, "bot": s.bot} for s in self.seats],
            "hints": self.hints,
        }
        return record

    def save(self, path: Path | None = None) -> Path:
        """Write the session atomically; returns where."""
        target = Path(path or self.save_path)
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, json.dumps(self.to_document(), indent=1) + "\n")
        return target

    @classmethod
    def load(cls, path: Path, save_path: Path | None = None) -> Session:
        """Resume a saved session (or any game record: its seats become people).

        Saves go to ``save_path``, by default a new slot: the loaded file is never
        overwritten unless asked.  Every fault in the file is a :class:`ra.RecordError`.
        """
        where = os.fspath(path)
        data = read_document(path)
        full = game_from_document(data, where)  # checks every decision, with its number
        meta = data.get("session")
        hints = None
        if meta is not None:
            seats = _saved_seats(meta, where, full.num_players)
            saved = meta.get("hints") if isinstance(meta, dict) else None
            if saved is not None and not isinstance(saved, bool):
                raise ra.RecordError(f"{where!r}: the saved hints option is not true or false: {saved!r}")
            hints = saved
        else:
            seats = [Seat(name) for name in full.names]
        session = cls(ra.Game.from_setup(full.setup), seats, save_path, hints)
        for action in full.decisions:
            session.apply(action)
        return session


def _saved_seats(meta: object, where: str, players: int) -> list[Seat]:
    """The seats of a saved session, checked: one per player, names as text, bot specs valid."""
    seats_data = meta.get("seats") if isinstance(meta, dict) else None
    if not isinstance(seats_data, list):
        raise ra.RecordError(f"{where!r}: the saved seats are not a list")
    if len(seats_data) != players:
        raise ra.RecordError(f"{where!r}: {len(seats_data)} saved seats for a {players}-player game")
    seats = []
    for i, s in enumerate(seats_data, 1):
        if not isinstance(s, dict) or not isinstance(s.get("name"), str):
            raise ra.RecordError(f"{where!r}: saved seat {i} has no name")
        bot = s.get("bot")
        if bot is not None:
            if not isinstance(bot, str):
                raise ra.RecordError(f"{where!r}: saved seat {i} has a bot that is not a bot spec: {bot!r}")
            try:
                bots.from_spec(bot, seed=0)
            except ValueError as err:
                raise ra.RecordError(f"{where!r}: saved seat {s['name']!r}: {err}") from None
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


def list_saves(folder: Path | None = None) -> list[SavedGame]:
    """The saved games in ``folder`` (default: :func:`games_dir`), newest first; bad files are skipped."""
    folder = folder or games_dir()
    found = []
    for path in folder.glob("*.json") if folder.is_dir() else ():
        try:
            session = Session.load(path)
            modified = path.stat().st_mtime
        except (ra.RecordError, OSError):
            continue
        game = session.game
        found.append(SavedGame(path, game.names, game.is_over(), game.epoch, modified))
    return sorted(found, key=lambda g: g.modified, reverse=True)
