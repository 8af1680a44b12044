"""The guided first game in the browser: the server plays the chapter (``ra.learn``).

The page keeps only the learner's accepted moves (in localStorage) and sends them
with each try; the server replays them and answers with the texts, the board and
the moves allowed now.  So the browser holds no rule of the game.
"""

from __future__ import annotations

from functools import cache

from fastapi import APIRouter
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from ra.labels import action_label
from ra.learn import LEARNER, Chapter, Lesson, load_chapters
from ra.web.lobby import ApiError
from ra.web.protocol import ViewData, seat_payload
from ra.words import DEFAULT_LANG, normalize

router = APIRouter()


@cache
def chapters() -> tuple[Chapter, ...]:
    """The chapters, loaded (and checked) once."""
    return load_chapters()


class ChapterSummary(TypedDict):
    id: str
    steps: int


class MoveChoice(TypedDict):
    action: str
    label: str


class LessonReply(TypedDict):
    chapter: str
    number: int
    total: int
    done: int
    steps: int
    made: list[str]
    finished: bool
    ok: bool | None
    message: str | None
    text: str
    view: ViewData
    moves: list[MoveChoice]


class LessonTry(BaseModel):
    """The moves accepted so far and, maybe, a new try."""

    made: list[str] = Field(default_factory=list, max_length=20)
    action: str | None = Field(default=None, max_length=40)
    lang: str = Field(default=DEFAULT_LANG, max_length=20)


@router.get("/api/learn/chapters")
async def chapter_list() -> dict[str, list[ChapterSummary]]:
    """The chapters in order (their titles are the catalogue's ``learn.<id>.title``)."""
    return {"chapters": [{"id": c.id, "steps": len(c.steps)} for c in chapters()]}


def _find(chapter_id: str) -> tuple[int, Chapter]:
    for i, c in enumerate(chapters()):
        if c.id == chapter_id:
            return i, c
    raise ApiError(404, "not_found", f"no chapter {chapter_id[:40]!r}")


@router.post("/api/learn/chapters/{chapter_id}")
async def lesson_step(chapter_id: str, body: LessonTry) -> LessonReply:
    """Replay ``made``, try ``action`` if given, and describe where the chapter stands."""
    index, chapter = _find(chapter_id)
    lang = normalize(body.lang) or DEFAULT_LANG
    try:
        lesson = Lesson(chapter, body.made, lang)
    except ValueError as err:
        raise ApiError(422, "bad_progress", str(err)) from None
    ok: bool | None = None
    message: str | None = None
    if body.action is not None:
        reply = lesson.attempt(body.action)
        ok, message = reply.ok, lesson.say(reply.message, lang)
    return _describe(lesson, index, lang, ok, message)


def _describe(lesson: Lesson, index: int, lang: str, ok: bool | None, message: str | None) -> LessonReply:
    game = lesson.game
    mine = not lesson.finished and game.to_move == LEARNER
    moves: list[MoveChoice] = (
        [{"action": str(a), "label": action_label(a, lang=lang)} for a in game.legal_actions()]
        if mine
        else []
    )
    return {
        "chapter": lesson.chapter.id,
        "number": index + 1,
        "total": len(chapters()),
        "done": lesson.done,
        "steps": len(lesson.chapter.steps),
        "made": list(lesson.made),
        "finished": lesson.finished,
        "ok": ok,
        "message": message,
        "text": lesson.say(lesson.text(), lang),
        "view": seat_payload(game, LEARNER, "original")["view"],
        "moves": moves,
    }
