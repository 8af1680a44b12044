"""The strategy guide shipped with the library (``ra/data/guide.md``, ``guide.ru.md``).

One place reads it for every front end: ``ra guide`` in the terminal and ``/guide`` in the browser.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources

import ra
from ra import words as _words

POSITION_MARK = re.compile(r"^<!-- position: (\w+) -->$", re.MULTILINE)
"""Where a section's illustrating position is placed."""


@dataclass(frozen=True)
class Section:
    """One section of the guide: its anchor, heading, markdown body and position names."""

    anchor: str
    heading: str
    body: str
    positions: tuple[str, ...]


def guide_text(language: str) -> str:
    """The strategy guide in a language (English where there is no translation)."""
    if language in _words.PSEUDO_LANGS:  # the English guide, accented like the catalogue
        return "\n".join(
            _words.pseudo_text(line, wrap=False, keep_code=True) for line in guide_text("en").splitlines()
        )
    data = resources.files("ra").joinpath("data")
    name = "guide.md" if language == _words.DEFAULT_LANG else f"guide.{language}.md"
    path = data.joinpath(name)
    return (path if path.is_file() else data.joinpath("guide.md")).read_text(encoding="utf-8")


def reader_text(text: str) -> str:
    """The guide for reading as text: position markers removed."""
    return POSITION_MARK.sub("", text).replace("\n\n\n", "\n\n")


def sections(text: str) -> tuple[str, str, tuple[Section, ...]]:
    """The title, the introduction and the sections (split at ``## ``; anchors by position so
    that both languages share them: ``s1`` … ``s11``)."""
    head, *parts = re.split(r"^## ", text, flags=re.MULTILINE)
    title, _, intro = head.partition("\n")
    found = []
    for number, part in enumerate(parts, 1):
        heading, _, body = part.partition("\n")
        found.append(
            Section(
                f"s{number}",
                heading.strip(),
                POSITION_MARK.sub("", body).strip(),
                tuple(POSITION_MARK.findall(body)),
            )
        )
    return title.lstrip("# ").strip(), intro.strip(), tuple(found)


@dataclass(frozen=True)
class ActionChance:
    """One legal action of a guide position and the mover's win chance after it (0-1)."""

    action: str
    win: float


@dataclass(frozen=True)
class Position:
    """A guide position: a setup, the actions reaching it and the advisor's numbers for it."""

    name: str
    players: int
    seed: int
    moves: tuple[str, ...]
    mover: int
    budget: int
    best: str
    actions: tuple[ActionChance, ...]

    def game(self, language: str = _words.DEFAULT_LANG) -> ra.Game:
        """The game at this position, replayed from its setup (each move checked legal); the
        players are named "Player 1"… in ``language``."""
        names = [_words.words(language)("player.numbered", n=i + 1) for i in range(self.players)]
        game = ra.Game(players=names, seed=self.seed)
        for number, text in enumerate(self.moves, 1):
            action = ra.Action.parse(text)
            if action not in game.legal_actions():
                raise GuideDataError(f"position {self.name!r}: move {number} ({text!r}) is not legal there")
            game.apply(action)
        return game


class GuideDataError(ValueError):
    """The guide's positions file is malformed: the message names the position and the field."""


def _position(raw: object) -> Position:
    """One position from its JSON form, checked."""
    if not isinstance(raw, dict):
        raise GuideDataError(f"a position must be an object, got {raw!r}")
    name = raw.get("name")
    try:
        actions = tuple(ActionChance(str(a["action"]), float(a["win"])) for a in raw["actions"])
        return Position(
            name=str(name),
            players=int(raw["players"]),
            seed=int(raw["seed"]),
            moves=tuple(str(m) for m in raw["moves"]),
            mover=int(raw["mover"]),
            budget=int(raw["budget"]),
            best=str(raw["best"]),
            actions=actions,
        )
    except (KeyError, TypeError, ValueError) as err:
        raise GuideDataError(f"position {name!r}: missing or malformed field {err}") from None


def positions() -> dict[str, Position]:
    """The guide's positions by name (``ra/data/guide_positions.json``, made by
    ``python -m tools.guide_positions``)."""
    path = resources.files("ra").joinpath("data").joinpath("guide_positions.json")
    raw = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(raw, list):
        raise GuideDataError("guide_positions.json must hold a list of positions")
    found = [_position(p) for p in raw]
    return {p.name: p for p in found}
