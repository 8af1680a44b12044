"""The strategy guide in the browser: ``/api/guide`` sends the sections of ``ra.guide`` as HTML."""

from __future__ import annotations

from functools import cache

from fastapi import APIRouter
from markdown_it import MarkdownIt
from typing_extensions import TypedDict

import ra
from ra.guide import Position, guide_text, positions, sections
from ra.labels import action_label
from ra.web.protocol import ViewData, seat_payload
from ra.words import DEFAULT_LANG, normalize, words

router = APIRouter()


class ChanceData(TypedDict):
    label: str
    win: float
    best: bool


class PositionData(TypedDict):
    name: str
    players: int
    seed: int
    mover: int
    view: ViewData
    actions: list[ChanceData]


class SectionData(TypedDict):
    anchor: str
    heading: str
    html: str
    positions: list[PositionData]


def _position(position: Position, language: str) -> PositionData:
    """A position as the table draws it (the mover's view) and the advisor's numbers, labelled."""
    game = position.game(language)
    return PositionData(
        name=position.name,
        players=position.players,
        seed=position.seed,
        mover=position.mover,
        view=seat_payload(game, position.mover, "original")["view"],
        actions=[
            ChanceData(
                label=action_label(ra.Action.parse(a.action), lang=language),
                win=a.win,
                best=a.action == position.best,
            )
            for a in position.actions
        ],
    )


class GuideData(TypedDict):
    lang: str
    title: str
    intro: str
    sections: list[SectionData]


TERMINAL_RULES = "`ra rules`"
"""How the guide names the rules for the terminal; on the site, a link to its rules page."""


def site_text(text: str, language: str) -> str:
    """The guide's markdown as the site shows it: the rules are the site's rules page, not a
    command to run in a terminal (issue 54)."""
    return text.replace(TERMINAL_RULES, f"[{words(language)('nav.rules')}](/rules)")


@cache
def _guide(language: str) -> GuideData:
    """The guide in a language, rendered once (raw HTML in the markdown is escaped)."""
    md = MarkdownIt("commonmark", {"html": False})
    title, intro, found = sections(site_text(guide_text(language), language))
    stored = positions()
    return GuideData(
        lang=language,
        title=title,
        intro=md.render(intro),
        sections=[
            SectionData(
                anchor=s.anchor,
                heading=s.heading,
                html=md.render(s.body),
                positions=[_position(stored[n], language) for n in s.positions],
            )
            for s in found
        ],
    )


@router.get("/api/guide")
async def guide_api(lang: str = DEFAULT_LANG) -> GuideData:
    """The guide's sections in ``lang`` (English for a language without a translation)."""
    return _guide(normalize(lang) or DEFAULT_LANG)
