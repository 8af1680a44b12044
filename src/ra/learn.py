"""The guided first game: chapters that teach one idea at a time (issue 24).

Each chapter is a data file in ``ra/data/learn/`` naming a position (players, a
stacked bag, chosen suns), scripted opening moves and a list of steps.  A step
is an explanation, the action the learner (seat 0) must make (one of a set),
and the scripted moves of the bots that follow.  The texts are catalogue keys
derived from the chapter's id (``learn.<id>.<step>.text`` / ``.hint`` /
``.after``), so every language translates them.  The terminal (``ra learn``)
and the browser (``/learn``) are thin front ends over :class:`Lesson`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import cast

from ra.actions import Action
from ra.engine import Game
from ra.errors import NotationError, RaError
from ra.words import DEFAULT_LANG, Msg, msg, worded, words

LEARNER = 0  # the learner plays seat 0, named "You"
ANY = "*"  # a step's expect that accepts any legal action


class ChapterError(ValueError):
    """A chapter file that is not valid (the message names what is wrong)."""


@dataclass(frozen=True)
class Step:
    """An explanation, the learner's expected action(s) and the bots' reply."""

    expect: tuple[str, ...]  # ("*",) accepts any legal action
    bots: tuple[str, ...]

    def accepts(self, action: str) -> bool:
        """Whether ``action`` (legal, in notation) is what this step teaches."""
        return self.expect == (ANY,) or action in self.expect


@dataclass(frozen=True)
class Chapter:
    """One lesson: a position and the steps played from it."""

    id: str
    names: tuple[str, ...]
    bag: tuple[str, ...]
    suns: tuple[tuple[int, ...], ...]
    prelude: tuple[str, ...]
    steps: tuple[Step, ...]

    def key(self, part: str) -> str:
        """The catalogue key of one of this chapter's texts (``title``, ``0.text`` ...)."""
        return f"learn.{self.id}.{part}"

    def new_game(self, lang: str = DEFAULT_LANG) -> Game:
        """The chapter's position before its prelude, its players named in ``lang``."""
        names = [player_name(n, lang) for n in self.names]
        return Game(players=names, seed=1, bag=list(self.bag), suns=[list(s) for s in self.suns])


def player_name(name: str, lang: str = DEFAULT_LANG) -> str:
    """A chapter's player in ``lang``: "You" as the catalogue says it (the log then speaks to
    the learner), an opponent by ``learn.name.<name>`` ("Bast" is «Баст» in Russian)."""
    w = words(lang)
    if name == "You":
        return w("player.you")
    key = f"learn.name.{name.lower()}"
    return w(key) if w.has(key) else name


def _strings(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ChapterError(f"{where} must be a list of strings")
    return tuple(cast(list[str], value))


def _step(raw: object, where: str) -> Step:
    if not isinstance(raw, dict):
        raise ChapterError(f"{where} must be an object")
    expect = _strings(raw.get("expect"), f"{where}.expect")
    if not expect:
        raise ChapterError(f"{where}.expect must name at least one action")
    return Step(expect=expect, bots=_strings(raw.get("bots", []), f"{where}.bots"))


def parse_chapter(text: str, name: str) -> Chapter:
    """A chapter from its JSON text; raises :class:`ChapterError` naming what is wrong."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as err:
        raise ChapterError(f"{name}: not valid JSON ({err})") from None
    if not isinstance(raw, dict):
        raise ChapterError(f"{name}: must be a JSON object")
    ident = raw.get("id")
    if not isinstance(ident, str) or not ident.isidentifier():
        raise ChapterError(f"{name}: id must be a short name (letters, digits, _)")
    suns = raw.get("suns")
    if not isinstance(suns, list) or not all(
        isinstance(g, list) and all(isinstance(s, int) for s in g) for g in suns
    ):
        raise ChapterError(f"{name}: suns must be a list of lists of numbers")
    steps = raw.get("steps")
    if not isinstance(steps, list) or not steps:
        raise ChapterError(f"{name}: steps must be a non-empty list")
    chapter = Chapter(
        id=ident,
        names=_strings(raw.get("names"), f"{name}: names"),
        bag=_strings(raw.get("bag"), f"{name}: bag"),
        suns=tuple(tuple(g) for g in suns),
        prelude=_strings(raw.get("prelude", []), f"{name}: prelude"),
        steps=tuple(_step(s, f"{name}: steps[{i}]") for i, s in enumerate(steps)),
    )
    check_chapter(chapter, name)
    return chapter


def check_chapter(chapter: Chapter, name: str) -> None:
    """Play the chapter through with the engine: every scripted and expected move legal, texts present."""
    try:
        game = chapter.new_game()
    except ValueError as err:
        raise ChapterError(f"{name}: bad position: {err}") from None
    _play(game, chapter.prelude, f"{name}: prelude")
    w = words("en")
    for part in ("title", "intro"):
        if not w.has(chapter.key(part)):
            raise ChapterError(f"{name}: no catalogue message {chapter.key(part)!r}")
    for i, step in enumerate(chapter.steps):
        for part in ("text", "hint", "after"):
            if not w.has(chapter.key(f"{i}.{part}")):
                raise ChapterError(f"{name}: no catalogue message {chapter.key(f'{i}.{part}')!r}")
        if game.to_move != LEARNER:
            raise ChapterError(f"{name}: steps[{i}]: it is not the learner's turn")
        legal = [str(a) for a in game.legal_actions()]
        for action in step.expect:
            if action != ANY and action not in legal:
                raise ChapterError(f"{name}: steps[{i}]: {action!r} is illegal: {game.why_illegal(action)}")
        if not any(step.accepts(a) for a in legal):
            raise ChapterError(f"{name}: steps[{i}]: no legal action is accepted")
        first = next(a for a in legal if step.accepts(a))
        _play(game, (first, *step.bots), f"{name}: steps[{i}]")


def _play(game: Game, moves: tuple[str, ...], where: str) -> None:
    for move in moves:
        try:
            game.apply(move)
        except RaError as err:
            raise ChapterError(f"{where}: {move!r} failed: {err}") from None


def chapter_dir() -> Path:
    """Where the chapter files are packaged."""
    return Path(str(resources.files("ra") / "data" / "learn"))


def load_chapters() -> tuple[Chapter, ...]:
    """Every chapter, in file-name order (``01-…``, ``02-…``)."""
    files = sorted(chapter_dir().glob("*.json"))
    return tuple(parse_chapter(f.read_text(encoding="utf-8"), f.name) for f in files)


@dataclass(frozen=True)
class Reply:
    """What the learner's try led to: accepted or not, and the words to show."""

    ok: bool
    message: Msg | str


class Lesson:
    """A chapter being played: the position, the current step and the learner's tries."""

    def __init__(self, chapter: Chapter, made: Sequence[str] = (), lang: str = DEFAULT_LANG) -> None:
        """The chapter's position after the learner's accepted actions ``made`` (to resume),
        its players named in ``lang``.

        Raises ``ValueError`` naming the first of ``made`` that the chapter does not accept.
        """
        self.chapter = chapter
        self.game = chapter.new_game(lang)
        self.made: list[str] = []
        for move in chapter.prelude:
            self.game.apply(move)
        for i, action in enumerate(made):
            if not isinstance(action, str) or not self.attempt(action).ok:
                move, title = repr(str(action)[:20]), msg(chapter.key("title"))
                raise worded(ValueError, "learn.progress.move", number=i + 1, move=move, chapter=title)

    @property
    def done(self) -> int:
        """How many steps the learner has made."""
        return len(self.made)

    @property
    def finished(self) -> bool:
        """Whether every step has been made."""
        return self.done == len(self.chapter.steps)

    def text(self) -> Msg:
        """The explanation of the current step (or the chapter's last words once finished)."""
        if self.finished:
            return msg("learn.chapter_done")
        return msg(self.chapter.key(f"{self.done}.text"))

    def expected(self) -> tuple[str, ...]:
        """The actions the current step accepts."""
        return () if self.finished else self.chapter.steps[self.done].expect

    def attempt(self, text: str) -> Reply:
        """Try the learner's action: illegal (the engine's reason), not the lesson (the hint), or done."""
        if self.finished:
            return Reply(False, msg("learn.chapter_done"))
        try:
            action = Action.coerce(text.strip())
        except NotationError:
            return Reply(False, msg("learn.not_an_action", action=text.strip()[:40]))
        why = self.game.why_illegal_message(action)
        if why is not None:
            return Reply(False, why)
        if not self.chapter.steps[self.done].accepts(str(action)):
            return Reply(False, msg(self.chapter.key(f"{self.done}.hint")))
        after = msg(self.chapter.key(f"{self.done}.after"))
        self._advance(str(action))
        return Reply(True, after)

    def _advance(self, action: str) -> None:
        step = self.chapter.steps[self.done]
        self.game.apply(action)
        for move in step.bots:
            self.game.apply(move)
        self.made.append(action)

    def say(self, message: Msg | str, lang: str) -> str:
        """A message in words, players by name (the learner as "you")."""
        return message if isinstance(message, str) else self.game.say(message, lang)
