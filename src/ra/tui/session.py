"""A play session: the game, who sits where (people or bots), undo, save and resume.

Kept apart from the Textual app so it can be tested and reused by other front
ends (the web app will need the same).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ra
from ra import bots
from ra.bots.base import Bot

SAVE_FORMAT = "ra-session"


def default_save_path() -> Path:
    """Where games are saved unless told otherwise: ``$XDG_DATA_HOME/ra/autosave.json``."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "ra" / "autosave.json"


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
    if not 2 <= total <= 5:
        raise ValueError(f"Ra is for 2 to 5 players, not {total}")
    if len(people) > total:
        raise ValueError(f"{len(people)} people for {total} seats")
    n_bots = total - len(people)
    if len(specs) > n_bots:
        raise ValueError(f"{len(specs)} bots but only {n_bots} seat(s) left after {len(people)} people")
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


class Session:
    """A game in progress with its seats; knows who made each decision."""

    def __init__(self, game: ra.Game, seats: Sequence[Seat], save_path: Path | None = None) -> None:
        if len(seats) != game.num_players:
            raise ValueError(f"{len(seats)} seats for a {game.num_players}-player game")
        self.game = game
        self.seats = list(seats)
        self.save_path = save_path or default_save_path()
        self.movers: list[int] = []
        """The seat that took each decision, in order."""
        self._bots: dict[int, Bot] = {}

    @classmethod
    def new(
        cls,
        seats: Sequence[Seat],
        seed: int | None = None,
        variant: str = "standard",
        suns_per_player: int | None = None,
        hidden_scores: bool = False,
        save_path: Path | None = None,
    ) -> Session:
        game = ra.Game(
            players=[s.name for s in seats],
            seed=seed,
            variant=variant,
            suns_per_player=suns_per_player,
            hidden_scores=hidden_scores,
        )
        return cls(game, seats, save_path)

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
        """The bot in ``seat`` (made on first use, seeded from the game's seed)."""
        spec = self.seats[seat].bot
        if spec is None:
            raise ValueError(f"seat {seat} is a person, not a bot")
        if seat not in self._bots:
            self._bots[seat] = bots.from_spec(spec, seed=self.game.setup.seed * 10 + seat)
        return self._bots[seat]

    def apply(self, action: ra.Action | str) -> None:
        """Apply the decision of the player to move (raises the engine's errors unchanged)."""
        seat = self.game.to_move
        self.game.apply(action)
        assert seat is not None
        self.movers.append(seat)

    def can_undo(self) -> bool:
        return any(self.seats[s].human for s in self.movers)

    def undo(self) -> int:
        """Take back the last decision made by a person, and the bots' decisions after it.

        Returns how many decisions were taken back (0 if there is none to undo).
        """
        if not self.can_undo():
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
        }
        return record

    def save(self, path: Path | None = None) -> Path:
        """Write the session atomically; returns where."""
        target = Path(path or self.save_path)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(json.dumps(self.to_document(), indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, target)
        return target

    @classmethod
    def load(cls, path: Path, save_path: Path | None = None) -> Session:
        """Resume a saved session (or any game record: its seats become people)."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as err:
            raise ra.RecordError(f"cannot read {os.fspath(path)!r}: {err.strerror}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise ra.RecordError(f"{os.fspath(path)!r} is not valid JSON: {err}") from None
        if not isinstance(data, dict):
            raise ra.RecordError(f"{os.fspath(path)!r} does not hold a game record")
        full = ra.Game.from_record(data)  # checks every decision, with its number
        meta = data.get("session")
        if isinstance(meta, dict) and isinstance(meta.get("seats"), list):
            seats = [Seat(str(s.get("name")), s.get("bot")) for s in meta["seats"] if isinstance(s, dict)]
            for seat in seats:
                if seat.bot is not None:
                    try:
                        bots.from_spec(seat.bot, seed=0)
                    except ValueError as err:
                        raise ra.RecordError(f"saved seat {seat.name!r}: {err}") from None
        else:
            seats = [Seat(name) for name in full.names]
        session = cls(ra.Game.from_setup(full.setup), seats, save_path or Path(path))
        for action in full.decisions:
            session.apply(action)
        return session
