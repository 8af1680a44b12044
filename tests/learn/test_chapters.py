"""The guided first game's chapters, checked against the engine (issue 24)."""

from __future__ import annotations

import json
import re

import pytest

import ra
from ra.learn import ANY, ChapterError, Lesson, chapter_dir, load_chapters, parse_chapter
from ra.words import words

CHAPTERS = load_chapters()


def test_there_are_enough_chapters_in_order() -> None:
    ids = [c.id for c in CHAPTERS]
    assert 6 <= len(ids) <= 10
    assert ids[0] == "drawing" and ids[-1] == "last_epoch"
    assert len(set(ids)) == len(ids)


def _wrong_legal(lesson: Lesson) -> str | None:
    """A legal action the current step does not teach (None when it accepts any)."""
    step = lesson.chapter.steps[lesson.done]
    return next((str(a) for a in lesson.game.legal_actions() if not step.accepts(str(a))), None)


@pytest.mark.parametrize("chapter", CHAPTERS, ids=[c.id for c in CHAPTERS])
def test_each_chapter_plays_through_refusing_wrong_moves(chapter: ra.learn.Chapter) -> None:
    lesson = Lesson(chapter)
    wrong_tried = False
    while not lesson.finished:
        before = lesson.game.to_record()
        wrong = _wrong_legal(lesson)
        if wrong is not None:
            reply = lesson.attempt(wrong)
            assert not reply.ok
            assert lesson.say(reply.message, "en") == words("en")(chapter.key(f"{lesson.done}.hint"))
            wrong_tried = True
        illegal = "bid 1"  # the centre sun is never bid (R4.1)
        reply = lesson.attempt(illegal)
        assert not reply.ok and re.search(r"\(R\d", lesson.say(reply.message, "en"))  # the engine's why
        assert lesson.game.to_record() == before  # a refused try changes nothing
        legal = [str(a) for a in lesson.game.legal_actions()]
        right = next(a for a in legal if chapter.steps[lesson.done].accepts(a))
        step = lesson.done
        reply = lesson.attempt(right)
        assert reply.ok and lesson.done == step + 1
        assert lesson.say(reply.message, "ru")  # Russian exists for every step
    assert wrong_tried
    assert not lesson.attempt("draw").ok


def test_the_last_chapter_ends_the_game_and_the_epoch_chapter_ends_an_epoch() -> None:
    by_id = {c.id: c for c in CHAPTERS}
    epoch = Lesson(by_id["epoch"], ["draw"])
    assert epoch.game.epoch == 2  # R6.1: the last Ra space filled ends the epoch
    assert dict(epoch.game.players[0].tiles) == {"pharaoh": 1, "nile": 1}  # R6.4: kept
    last = Lesson(by_id["last_epoch"], ["ra", "bid 2", "draw"])
    assert last.game.phase == "over"
    you, bast = last.game.players
    assert sum(you.suns) > sum(bast.suns)
    assert (you.score or 0) > (bast.score or 0)  # R6.5: the lesson pays


def test_resume_replays_the_moves_made() -> None:
    chapter = next(c for c in CHAPTERS if c.id == "unrest")
    lesson = Lesson(chapter, ["ra", "bid 2", "discard art"])
    assert lesson.done == 3
    assert lesson.game.phase == "discard"
    with pytest.raises(ValueError, match="move 2"):
        Lesson(chapter, ["ra", "draw"])


def test_any_step_accepts_every_legal_action() -> None:
    chapter = next(c for c in CHAPTERS if c.id == "earthquake")
    assert chapter.steps[2].expect == (ANY,)


def _raw(name: str = "01-drawing.json") -> dict[str, object]:
    data: dict[str, object] = json.loads((chapter_dir() / name).read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize(
    ("change", "words_"),
    [
        ({"steps": []}, "steps must be a non-empty list"),
        ({"suns": "x"}, "suns must be"),
        ({"id": "no spaces"}, "id must be"),
        ({"bag": ["dragon"]}, "bad position"),
        ({"prelude": ["bid 9"]}, "prelude: 'bid 9' failed"),
        ({"steps": [{"expect": ["bid 9"]}]}, "steps[0]: 'bid 9' is illegal"),
        ({"steps": [{"expect": ["draw"], "bots": ["pass"]}]}, "steps[0]: 'pass' failed"),
        ({"id": "nosuch"}, "no catalogue message 'learn.nosuch.title'"),
    ],
)
def test_a_bad_chapter_file_is_refused_naming_what_is_wrong(change: dict[str, object], words_: str) -> None:
    raw = {**_raw(), **change}
    with pytest.raises(ChapterError) as err:
        parse_chapter(json.dumps(raw), "bad.json")
    assert words_ in str(err.value) and "bad.json" in str(err.value)


def test_not_json_is_refused() -> None:
    with pytest.raises(ChapterError, match="not valid JSON"):
        parse_chapter("{", "x.json")


def test_the_players_are_named_in_the_learners_language() -> None:
    """Issue 41: a Russian lesson said "You" in the player row and "Затем Bast тянет жетон"."""
    first = load_chapters()[0]
    assert Lesson(first).game.names == ("You", "Bast")
    russian = Lesson(first, lang="ru")
    assert russian.game.names == ("Вы", "Баст")
    from ra.words import catalogue, source

    left = [k for k in source() if k.startswith("learn.") and "Bast" in catalogue("ru").text(k)]
    assert not left, f"English names left in Russian texts: {left}"


@pytest.mark.parametrize(
    ("lang", "whatever", "weaker"),
    [
        ("en", "whatever you bid", "weaker"),
        ("ru", "какой бы ни была ставка", "слабее"),
        ("de", "ganz gleich, was du geboten hast", "schwächer"),
    ],
)
def test_chapter_2_says_the_centre_sun_is_yours_whatever_you_bid(
    lang: str, whatever: str, weaker: str
) -> None:
    """Issue 41: chapter 2 said a low bid gets "a weaker sun back"; you get the centre sun
    whatever you bid (R4.4)."""
    text = " ".join(words(lang)("learn.bidding.1.after").split())
    assert whatever in text and weaker not in text.lower(), text
