"""``ra learn``: the guided first game in the terminal, a thin front end over :mod:`ra.learn`.

The board is drawn by :mod:`ra.tui.render` (as in ``ra play``); the learner moves with the
keys of the real game (:mod:`ra.tui.keys`: ``d`` draws, ``r`` invokes Ra, a sun's number bids
it).  Progress (the chapter and the moves accepted) is saved after every
move in ``learn.json`` under the data directory, and resumed at the next start.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.events import Key
from textual.widgets import Static

from ra.labels import action_label
from ra.learn import LEARNER, Chapter, Lesson, load_chapters
from ra.tui import render
from ra.tui.keys import MoveKeys
from ra.tui.session import data_dir, system_reason
from ra.words import DEFAULT_LANG, Msg, worded, words

PROGRESS_FORMAT = "ra-learn"


def progress_path() -> Path:
    """Where the guided game keeps its progress."""
    return data_dir() / "learn.json"


def load_progress(path: Path, chapters: tuple[Chapter, ...]) -> Lesson:
    """The saved lesson; raises ``ValueError`` naming what is wrong with the file (its ``why``
    in any language)."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise worded(ValueError, "learn.progress.unreadable", why=system_reason(err)) from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise worded(ValueError, "learn.progress.not_json") from None
    if not isinstance(raw, dict) or raw.get("format") != PROGRESS_FORMAT:
        raise worded(ValueError, "learn.progress.format", format=PROGRESS_FORMAT)
    chapter = next((c for c in chapters if c.id == raw.get("chapter")), None)
    made = raw.get("made")
    if chapter is None or not isinstance(made, list):
        raise worded(ValueError, "learn.progress.content")
    return Lesson(chapter, made)


def save_progress(path: Path, lesson: Lesson) -> None:
    """Keep the chapter and the moves accepted (written whole, then renamed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    data = {"format": PROGRESS_FORMAT, "chapter": lesson.chapter.id, "made": lesson.made}
    tmp.write_text(json.dumps(data) + "\n", encoding="utf-8")
    tmp.replace(path)


AGAIN = "x"
"""The key that starts the chapter again (``r`` invokes Ra, as in the game)."""


class LearnApp(App[None]):
    """The chapters one after another: the texts, the board, the moves by their keys."""

    CSS = """
    #heading { text-style: bold; }
    #message { margin: 1 0 0 0; }
    #board { margin: 1 0 0 0; }
    #moves { height: auto; border-top: solid $primary-darken-2; }
    #keys { color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q,Q", "quit", show=False),
        # Ctrl-C quits (the progress is saved after every move), never Textual's English notice.
        Binding("ctrl+c,ctrl+q", "quit", show=False, priority=True),
    ]

    def __init__(self, lesson: Lesson, save_to: Path, lang: str = DEFAULT_LANG, note: str = "") -> None:
        super().__init__()
        self.chapters = load_chapters()
        self.lesson = Lesson(lesson.chapter, lesson.made, lang)  # its players named in ``lang``
        self.save_to = save_to
        self.lang = lang
        self.w = words(lang)
        self.message: Text = Text(note)
        self.choosing = False
        self.typed = ""
        """The digits of a bid typed so far (``1`` of 13)."""
        self.play_next = False
        """Set when the learner asked for a real game against easy bots at the end."""

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(id="heading")
            yield Static(id="text")
            yield Static(id="message")
            yield Static(id="board")
        yield Static(id="moves")  # below the texts, never scrolled away (60×20)
        yield Static(id="keys")

    def on_mount(self) -> None:
        self.refresh_all()

    @property
    def number(self) -> int:
        """The current chapter's number (1-based)."""
        return self.chapters.index(self.lesson.chapter) + 1

    def say(self, message: Msg | str) -> str:
        return self.lesson.say(message, self.lang)

    def refresh_all(self) -> None:
        """Draw everything from the lesson (nothing else holds state)."""
        lesson, w = self.lesson, self.w
        chapter = lesson.chapter
        title = w(chapter.key("title"))
        heading = w("learn.chapter_heading", number=self.number, total=len(self.chapters), title=title)
        steps = len(chapter.steps)
        step = w("learn.step", step=min(lesson.done + 1, steps), steps=steps)
        self.query_one("#heading", Static).update(f"{heading}  ({step})")
        if self.choosing:
            self.query_one("#text", Static).update(self._chapter_list())
        else:
            # The intro describes the chapter's starting position: after the first move the
            # track no longer holds the tiles it names.
            text = Text(w(chapter.key("intro")) + "\n\n" if lesson.done == 0 else "", style="dim")
            if not (lesson.finished and self.number == len(self.chapters)):
                text.append(self.say(lesson.text()), style="bold")
            self.query_one("#text", Static).update(text)
        self.query_one("#message", Static).update(self.message)
        self.query_one("#board", Static).update(self._board())
        if lesson.game.is_over():  # the result and its breakdown in sight, under the last words
            scroll = self.query_one(VerticalScroll)
            self.call_after_refresh(scroll.scroll_end, animate=False)
        self.query_one("#moves", Static).update(self._moves_text())
        self.query_one("#keys", Static).update(self._keys())

    def _board(self) -> Group:
        """The board; at the game's end the score of every epoch by category (R7), and the result."""
        game, width = self.lesson.game, self.size.width - 2 or 78
        parts: list[RenderableType] = [
            render.board_line(game, lang=self.lang),
            render.auction_line(game, width=width, lang=self.lang),
            render.players_table(game, LEARNER, width=width, lang=self.lang),
        ]
        if game.is_over():
            parts.append(render.epoch_summary(game, len(game.epoch_scores), self.lang, width))
        return Group(*parts)

    def _chapter_list(self) -> Text:
        text = Text(self.w("learn.chapters") + "\n", style="bold")
        for i, c in enumerate(self.chapters, 1):
            mark = "▶ " if c is self.lesson.chapter else "  "
            text.append(f"{mark}{i}. {self.w(c.key('title'))}\n")
        return text

    def moves(self) -> MoveKeys:
        """The learner's moves now with their keys, as in ``ra play`` (none when it is not
        the learner's turn)."""
        lesson = self.lesson
        if lesson.finished or lesson.game.to_move != LEARNER:
            return MoveKeys()
        return MoveKeys.of(lesson.game)

    def _moves_text(self) -> Text:
        text = Text()
        moves = self.moves()
        keyed = [(moves.bid_keys(sun), a) for sun, a in moves.bids.items()] + moves.named
        for key, action in keyed:
            text.append(f" {key} ", style="bold reverse")
            text.append(f" {action_label(action, lang=self.lang)}  ")
        if self.lesson.finished and self.number == len(self.chapters):
            text.append(self.w("learn.all_done"), style="bold green")
        return text

    def _keys(self) -> str:
        if self.choosing:
            return self.w("learn.tui.choose_chapter")
        if self.lesson.finished:
            last = self.number == len(self.chapters)
            return self.w("learn.tui.keys_finished" if last else "learn.tui.keys_continue")
        return self.w("learn.tui.keys", again=AGAIN)

    def on_key(self, event: Key) -> None:
        key = event.key.lower() if len(event.key) == 1 else event.key  # Shift does not matter
        pressed = None if self.choosing else self.moves().press(key, self.typed)
        if self.choosing:
            self._choose_chapter(key)
        elif pressed is not None:
            self.typed = pressed.typed
            if pressed.action is not None:
                self.try_move(str(pressed.action))
            elif pressed.refusal is not None:
                self.message = Text(self.w.render(pressed.refusal), style="bold red")
        elif key == "c":
            self.choosing = True
        elif key == AGAIN:
            self._open(self.lesson.chapter)
        elif key == "enter" and self.lesson.finished:
            self._after_chapter()
        else:
            return
        event.stop()
        self.refresh_all()

    def _choose_chapter(self, key: str) -> None:
        self.choosing = False
        if key.isdigit() and 1 <= int(key) <= len(self.chapters):
            self._open(self.chapters[int(key) - 1])

    def _after_chapter(self) -> None:
        if self.number < len(self.chapters):
            self._open(self.chapters[self.number])
        else:
            self.play_next = True
            self.exit()

    def _open(self, chapter: Chapter) -> None:
        self.lesson = Lesson(chapter, lang=self.lang)
        self.typed = ""
        self.message = Text()
        self._save()

    def try_move(self, action: str) -> None:
        """Try one of the learner's moves: the engine's reason, the step's hint, or what happened."""
        reply = self.lesson.attempt(action)
        words_ = self.say(reply.message)
        if reply.ok:
            self.message = Text(f"{self.w('learn.right')} {words_}", style="green")
            self._save()
        else:
            self.message = Text(words_, style="bold red")

    def _save(self) -> None:
        try:
            save_progress(self.save_to, self.lesson)
        except OSError as err:
            self.message.append(f"\n{err}", style="red")
