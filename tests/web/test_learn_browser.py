"""The guided first game in the browser (issue 24): played to its end by clicks only, one wrong
move per chapter, resumed after a reload, ending in a real game against easy bots."""

from __future__ import annotations

import re

import httpx
import pytest

from ra.learn import load_chapters
from tests.web.test_browser import (
    BROWSER_TESTS,
    LAPTOP,
    PHONE,
    Browser,
    Page,
    new_page,
    no_js_errors,
    no_sideways_scroll,
    shot,
    wait_js,
)


@pytest.fixture(scope="module")
def live_server(module_server: str) -> str:
    """One server for this module's tests: they read pages or make tables of their own."""
    return module_server


pytestmark = BROWSER_TESTS
CHAPTERS = load_chapters()


def tries(page: Page) -> int:
    return int(page.evaluate("Number(document.querySelector('main').dataset.tries || 0)"))


def click_move(page: Page, action: str) -> None:
    """Click the move button ``action`` and wait for the server's answer to be shown."""
    before = tries(page)
    page.locator(f'#learn-moves [data-act="{action}"]').click()
    wait_js(page, f"Number(document.querySelector('main').dataset.tries) > {before}")


def offered(page: Page) -> list[str]:
    return [
        str(a)
        for a in page.locator("#learn-moves [data-act]").evaluate_all("bs => bs.map(b => b.dataset.act)")
    ]


def test_the_guided_game_to_its_end_by_clicks(browser: Browser, live_server: str) -> None:
    page = new_page(browser)
    page.goto(live_server + "/")
    page.locator("#learn-link").click()
    page.wait_for_url(re.compile(r"/learn$"))
    wait_js(page, "document.documentElement.dataset.ready === 'true'")
    for n, chapter in enumerate(CHAPTERS):
        assert page.locator("#learn-heading").inner_text().startswith(f"Chapter {n + 1} of {len(CHAPTERS)}")
        wrong_tried = False
        for i, step in enumerate(chapter.steps):
            moves = offered(page)
            wrong = next((a for a in moves if not step.accepts(a)), None)
            if wrong is not None and not wrong_tried:
                click_move(page, wrong)
                assert page.locator("#learn-message.wrong").inner_text() != ""
                assert page.locator("#learn-step").inner_text() == f"Step {i + 1} of {len(chapter.steps)}"
                wrong_tried = True
            click_move(page, next(a for a in moves if step.accepts(a)))
            assert page.locator("#learn-message.right").inner_text().startswith("Right!")
            if n == 1 and i == 0:  # leave and come back: the chapter resumes at its step
                page.reload()
                assert page.locator("#learn-step").inner_text() == "Step 2 of 2"
        assert wrong_tried, chapter.id
        if n < len(CHAPTERS) - 1:
            before = tries(page)
            page.locator("#learn-next").click()
            wait_js(page, f"Number(document.querySelector('main').dataset.tries) > {before}")
    shot(page, "learn-end-laptop-en")
    page.locator("#learn-name").fill("Ann")
    page.locator("#learn-play").click()
    page.wait_for_url(re.compile(r"/g/"))
    game_id = page.url.rsplit("/", 1)[-1]
    seats = httpx.get(f"{live_server}/api/games/{game_id}", timeout=10).json()["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot", "bot"]
    no_js_errors(page)


@pytest.mark.parametrize(("viewport", "size"), [(LAPTOP, "laptop"), (PHONE, "phone")])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_screenshots_and_the_chapter_list(
    browser: Browser, live_server: str, viewport: dict[str, int], size: str, lang: str
) -> None:
    page = new_page(browser, viewport, locale="ru-RU" if lang == "ru" else "en-US")
    page.goto(live_server + "/learn")
    before = tries(page)
    page.locator('#learn-chapters [data-chapter="funeral_drought"]').click()
    wait_js(page, f"Number(document.querySelector('main').dataset.tries) > {before}")
    click_move(page, "draw")  # not the lesson: the hint
    heading = page.locator("#learn-heading").inner_text()
    assert ("Глава 5" if lang == "ru" else "Chapter 5") in heading
    shot(page, f"learn-{size}-{lang}")
    no_sideways_scroll(page)
    no_js_errors(page)


@pytest.mark.parametrize(("viewport", "lang"), [(LAPTOP, "en-XA"), (PHONE, "ru")])
def test_every_word_from_the_catalogue_and_axe_passes(
    browser: Browser, live_server: str, viewport: dict[str, int], lang: str
) -> None:
    """In Russian no Latin-script word but the players' names and moves' notation; in the
    pseudo-locale no plain English word at all; and no axe violation."""
    from tests.web.test_accessibility import audit
    from tests.web.test_browser_words import latin_words, words_on

    page = new_page(browser, viewport)
    page.goto(f"{live_server}/learn?lang={lang}")
    before = tries(page)
    page.locator('#learn-chapters [data-chapter="gods"]').click()
    wait_js(page, f"Number(document.querySelector('main').dataset.tries) > {before}")
    click_move(page, "draw")  # a hint from the server, in the page's language
    text = words_on(page).replace("You", " ").replace("Bast", " ")
    assert not latin_words(text), sorted(latin_words(text))
    found: list[str] = []
    audit(page, "the guided game", found)
    assert not found, "\n".join(found)
    no_js_errors(page)
