"""The strategy guide in the browser: ``/api/guide`` sends the sections of ``ra.guide`` as HTML."""

from __future__ import annotations

from functools import cache

from fastapi import APIRouter
from markdown_it import MarkdownIt
from typing_extensions import TypedDict

from ra.guide import guide_text, sections
from ra.words import DEFAULT_LANG, normalize

router = APIRouter()


class SectionData(TypedDict):
    anchor: str
    heading: str
    html: str
    positions: list[str]


class GuideData(TypedDict):
    lang: str
    title: str
    intro: str
    sections: list[SectionData]


@cache
def _guide(language: str) -> GuideData:
    """The guide in a language, rendered once (raw HTML in the markdown is escaped)."""
    md = MarkdownIt("commonmark", {"html": False})
    title, intro, found = sections(guide_text(language))
    return GuideData(
        lang=language,
        title=title,
        intro=md.render(intro),
        sections=[
            SectionData(
                anchor=s.anchor, heading=s.heading, html=md.render(s.body), positions=list(s.positions)
            )
            for s in found
        ],
    )


@router.get("/api/guide")
async def guide_api(lang: str = DEFAULT_LANG) -> GuideData:
    """The guide's sections in ``lang`` (English for a language without a translation)."""
    return _guide(normalize(lang) or DEFAULT_LANG)
