"""Every word of the browser from the one catalogue (ra.words), issue 19: a whole 3-player game in
Russian leaves no Latin-script word outside player names and rule numbers, and in the pseudo-locale
``en-XA`` (every letter accented) no plain English word at all — one would be a string that
bypassed the catalogue.  The lobby, the table through to the final scores, the replay, the rules,
the strategy guide, a puzzle answered, the leaderboard, the profile of the player who signed up
after the game and the 404 page, with their tooltips and labels."""

from __future__ import annotations

import random
import re

import pytest

from ra.words import words
from tests.web.test_accounts import sign_up
from tests.web.test_browser import (
    BROWSER_TESTS,
    LAPTOP,
    PHONE,
    Browser,
    Page,
    create_game,
    new_page,
    no_js_errors,
    play,
    shot,
    wait_js,
)

pytestmark = BROWSER_TESTS

NAME = "Ann"
NOTATION = re.compile(r"\bR\d+(?:\.\d+)?\b|\b(?:Home|End)\b|\bra rules\b|[\w-]{16,}")
"""The same in every language: rule numbers (R4.2), key caps, the ``ra rules`` command, ids and
tokens (in links to a game or a seat)."""

INTL_ENGLISH = frozenset(
    {
        *("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
        *("day", "days", "hour", "hours", "minute", "minutes", "second", "seconds"),
    }
)
"""What the browser's own ``Intl`` writes in English for a language it does not know (the
pseudo-locale): a date's month, a length of time's unit. In a real language it writes that
language's words (Russian is checked with none of these left out)."""

WORDS_JS = """() => {
  // Notation is the same in every language: keys (<kbd>), commands (<code>), the language
  // switch (each language in its own name) and links' addresses.
  const body = document.body.cloneNode(true);
  body.querySelectorAll('kbd, code, script, style, .lang-switch').forEach((e) => e.remove());
  const attrs = [...body.querySelectorAll('[title],[aria-label],[placeholder],[alt]')]
    .flatMap((e) => ['title', 'aria-label', 'placeholder', 'alt'].map((a) => e.getAttribute(a)))
    .filter(Boolean);
  return [body.textContent, ...attrs, document.title].join('\\n');
}"""


def words_on(page: Page, game_id: str = "") -> str:
    """Everything a reader or a screen reader gets: the text (shown or not yet), the tooltips
    and the labels, without player names and notation (the game's id)."""
    text = str(page.evaluate(WORDS_JS))
    if game_id:
        text = text.replace(game_id, " ")
    text = re.sub(r"https?://\S+|/(?:g|replay)/\w+", " ", text)
    return NOTATION.sub(" ", text.replace(NAME, " "))


def context(text: str, word: str) -> str:
    i = text.find(word)
    return " ".join(text[max(0, i - 40) : i + 40].split())


def latin_words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z]{3,}", text))


def visit_everything(page: Page, base: str, lang: str) -> list[str]:
    """The pages a player sees, in ``lang``: what each one says."""
    seen: list[str] = []
    page.goto(f"{base}/?lang={lang}")
    page.wait_for_selector(".seat-row")
    seen.append(words_on(page))
    easy = {"kind": "bot", "level": "easy"}
    made = create_game(base, [{"kind": "human"}, easy, easy])
    gid = made["game"]["id"]
    page.goto(base + made["link"])
    page.wait_for_selector("main [data-act]")
    seen.append(words_on(page, gid))
    rng = random.Random(19)
    for _ in range(12):  # snapshots along the way: auctions, God tiles, disasters, scoring
        play(page, rng, clicks=15, timeout=120)
        seen.append(words_on(page, gid))
        if page.locator("#final-area:not([hidden]) .final-headline").count():
            break
    play(page, rng, timeout=240)
    wait_js(page, "document.querySelector('#final-area .final-headline') !== null")
    seen.append(words_on(page, gid))
    page.goto(f"{base}/replay/{gid}")
    page.wait_for_selector("#log li")
    seen.append(words_on(page, gid))
    page.goto(f"{base}/rules")
    page.wait_for_selector("section#R9")
    seen.append(words_on(page))
    page.goto(f"{base}/guide")
    wait_js(page, "document.querySelectorAll('figure.guide-position svg').length >= 11")
    seen.append(words_on(page))
    seen += the_players_pages(page, base, gid, made["token"])
    page.goto(f"{base}/puzzles")
    page.wait_for_selector("#puzzle-moves [data-act]")
    seen.append(words_on(page))
    page.locator("#puzzle-moves [data-act]").first.click()
    page.wait_for_selector("#puzzle-verdict")
    seen.append(words_on(page))
    page.goto(f"{base}/no-such-page")
    page.wait_for_selector("h1")
    seen.append(words_on(page))
    no_js_errors(page)
    return seen


def the_players_pages(page: Page, base: str, gid: str, token: str) -> list[str]:
    """The leaderboard and the public profile of the game's person, who signs up after it (her
    finished game against two bots is on both): what each says."""
    sign_up(base, NAME, [{"game": gid, "token": token}]).close()
    page.goto(f"{base}/players")
    page.wait_for_selector("#rated-rules li")
    board = words_on(page)
    page.goto(f"{base}/u/{NAME}")
    page.wait_for_selector(f"#profile .game-item a[href='/replay/{gid}']")
    return [board, words_on(page, gid)]


@pytest.mark.parametrize("lang", ["ru", "en-XA"])
def test_every_word_of_a_whole_game_comes_from_the_catalogue(
    browser: Browser, live_server: str, lang: str
) -> None:
    page = new_page(browser)
    seen = visit_everything(page, live_server, lang)
    assert page.evaluate("document.documentElement.lang") == lang
    intl = INTL_ENGLISH if lang == "en-XA" else frozenset()
    left = {i: {w: context(text, w) for w in latin_words(text) - intl} for i, text in enumerate(seen)}
    left = {i: found for i, found in left.items() if found}
    assert not left, f"words outside the catalogue ({lang}), by page visited: {left}"
    if lang == "ru":
        assert all(re.search(r"[а-яё]{4,}", text) for text in seen)
    page.context.close()


def test_the_check_finds_a_hard_coded_word(browser: Browser, live_server: str) -> None:
    """The test above can fail: an English word written into the page is found."""
    page = new_page(browser)
    page.goto(f"{live_server}/?lang=en-XA")
    page.wait_for_selector(".seat-row")
    assert not latin_words(words_on(page))
    page.evaluate("document.querySelector('main').insertAdjacentHTML('beforeend', '<p>Bid here</p>')")
    assert latin_words(words_on(page)) == {"Bid", "here"}
    page.context.close()


@pytest.mark.parametrize(("lang", "locale"), [("de", "de-DE"), ("ru", "ru-RU")])
def test_a_tables_random_and_greedy_bots_are_named_in_the_pages_language(
    browser: Browser, live_server: str, lang: str, locale: str
) -> None:
    """The table's bots that are not levels (``random``, ``greedy``: stored as "Random bot",
    "Greedy bot") are named from the catalogue too, on a laptop and on a phone."""
    w = words(lang)
    made = create_game(
        live_server,
        [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "greedy"}],
    )
    for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        page = new_page(browser, viewport, locale)
        page.goto(live_server + made["link"])
        page.wait_for_selector("#players .player")
        players = page.inner_text("#players")
        assert w("bot.random") in players and w("bot.greedy") in players, players
        assert "Random" not in players and "Greedy" not in players
        shot(page, f"i41-table-bots-{lang}-{size}")
        no_js_errors(page)
        page.context.close()
