"""Issue 41's browser items, each checked in Chromium in English, Russian and German: the table's
"offline" label is legible (contrast at least 4.5:1), the guide's positions have names of their
own, the lobby's selects show their whole options, a failed sign-in leaves no old sign-up error,
a spectator's name box fits its placeholder, "type your name first" goes once a name is typed,
your games come first on a phone with their "your turn" on one line, the guided game's chapters
are big enough to tap, the puzzle page says how its rating settles, a costly decision's link lands
on that decision, and no emoji is left for a machine without an emoji font to draw as a box."""

from __future__ import annotations

import itertools
import json
import re
import unicodedata
from pathlib import Path
from typing import Any

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe

from ra.words import words
from tests.web.test_browser import (
    ACTIONS,
    BROWSER_TESTS,
    PHONE,
    SHOTS,
    Browser,
    Page,
    create_game,
    new_page,
    no_js_errors,
    wait_js,
)


@pytest.fixture(scope="module")
def live_server(module_server: str) -> str:
    """One server for this module's tests: they read pages or make tables of their own."""
    return module_server


STATIC = Path(__file__).parents[2] / "src" / "ra" / "web" / "static"
GOLDEN = Path(__file__).parents[1] / "golden"
LAPTOP = {"width": 1280, "height": 800}
LANGS = [("en", "en-US"), ("ru", "ru-RU"), ("de", "de-DE")]
EVERY = [(lang, locale, size) for lang, locale in LANGS for size in ("laptop", "phone")]
SIZES = {"laptop": LAPTOP, "phone": PHONE}


def browser_test(f: Any) -> Any:
    """The marks of a browser test (slow, and skipped without Chromium); the emoji scan has none."""
    for mark in reversed(BROWSER_TESTS):
        f = mark(f)
    return f


def first_number(text: str) -> int:
    found = re.search(r"\d+", text)
    assert found, text
    return int(found.group())


def snap(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


# --- 1. the offline label's contrast; the guide's names ---------------------------------------

CONTRAST = """(sel) => {
  const rgba = (c) => c.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const el = document.querySelector(sel);
  let bg = el;
  while (bg && rgba(getComputedStyle(bg).backgroundColor).concat([1])[3] === 0) bg = bg.parentElement;
  const [a, b] = [lum(rgba(getComputedStyle(el).color)), lum(rgba(getComputedStyle(bg).backgroundColor))];
  return [el.textContent.trim(), (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)];
}"""
"""The text of the first element matching ``sel`` and its contrast ratio (WCAG 2) against the
first background behind it that is not transparent."""


@browser_test
@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_the_offline_label_has_the_contrast_of_text(
    browser: Browser, live_server: str, lang: str, locale: str
) -> None:
    made = create_game(live_server, [{"kind": "human"}, {"kind": "human"}])
    httpx.post(f"{live_server}/api/games/{made['game']['id']}/join", json={"name": "Bob"}, timeout=10)
    page = new_page(browser, LAPTOP, locale)
    page.goto(live_server + made["link"])
    page.wait_for_selector(".player[data-seat='1'] .conn.off")
    page.wait_for_timeout(2000)  # the card's flash (a yellow background) is over
    text, ratio = page.evaluate(CONTRAST, ".player[data-seat='1'] .conn.off")
    assert text == f"○ {words(lang)('table.offline')}"
    assert ratio >= 4.5, f"{text!r} has a contrast of {ratio:.2f}:1"
    no_js_errors(page)
    page.context.close()


@browser_test
@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_every_position_of_the_guide_has_a_name_of_its_own(
    browser: Browser, live_server: str, lang: str, locale: str
) -> None:
    page = new_page(browser, LAPTOP, locale)
    page.goto(live_server + "/guide")
    page.wait_for_selector("figure.guide-position")
    names = page.evaluate(
        """() => [...document.querySelectorAll('figure.guide-position')].map((f) =>
          document.getElementById(f.getAttribute('aria-labelledby')).textContent.trim())"""
    )
    assert len(names) > 5 and all(names) and len(set(names)) == len(names), names
    # No landmark is repeated (the players of every position were regions named "Player 1" …).
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    no_js_errors(page)
    page.context.close()


# --- 2. the lobby's selects, the sign-in error, the chat's name box, "type your name first" ---

CUT_OPTIONS = """() => {
  // Every option of every select shown, held alone by a copy of its select that may be as wide
  // as its text: a wider copy than the select is an option cut off.
  const cut = [];
  for (const s of document.querySelectorAll("select")) {
    if (!s.offsetParent) continue;
    const have = s.getBoundingClientRect().width;
    for (const o of s.options) {
      const probe = s.cloneNode(false);
      probe.removeAttribute("id");
      probe.style.cssText =
        "position:absolute;visibility:hidden;width:auto;max-width:none;min-width:0;flex:none";
      probe.appendChild(o.cloneNode(true));
      s.parentNode.appendChild(probe);
      const need = probe.getBoundingClientRect().width;
      probe.remove();
      const name = s.id || s.className;
      if (need > have + 0.5) cut.push(`${name}: "${o.text}" needs ${need.toFixed(1)} of ${have.toFixed(1)}`);
    }
  }
  return cut;
}"""


@browser_test
@pytest.mark.parametrize(("lang", "locale", "size"), EVERY)
def test_the_lobby_selects_show_their_whole_options(
    browser: Browser, live_server: str, lang: str, locale: str, size: str
) -> None:
    page = new_page(browser, SIZES[size], locale)
    page.goto(live_server + "/")
    page.wait_for_selector(".seat-row select.level")
    assert page.locator("#disaster-timing option").first.inner_text() == words(lang)(
        "lobby.disasters.immediate"
    )
    cut = page.evaluate(CUT_OPTIONS)
    assert cut == [], "\n".join(cut)
    page.locator(".new-card").screenshot(path=str(SHOTS / f"lobby-options-{size}-{lang}.png"))
    no_js_errors(page)
    page.context.close()


@browser_test
@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_a_failed_sign_in_leaves_no_sign_up_error(
    browser: Browser, live_server: str, lang: str, locale: str
) -> None:
    w = words(lang)
    page = new_page(browser, LAPTOP, locale)
    page.goto(live_server + "/account")
    page.fill("#signup input[name=name]", "Zed")
    page.fill("#signup input[name=password]", "short")
    page.click("#signup button[type=submit]")
    page.wait_for_selector(f"#signup .form-error:has-text('{w('account.err.short')}')")
    page.fill("#login input[name=name]", "Nobody")
    page.fill("#login input[name=password]", "not-the-password")
    page.click("#login button[type=submit]")
    wait_js(page, "document.querySelector('#login .form-error').textContent !== ''")
    assert page.inner_text("#signup .form-error") == ""
    no_js_errors(page)
    page.context.close()


PLACEHOLDER_FITS = """(sel) => {
  const el = document.querySelector(sel);
  const cs = getComputedStyle(el);
  const pen = document.createElement("canvas").getContext("2d");
  pen.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  return [el.placeholder, pen.measureText(el.placeholder).width, room];
}"""


@browser_test
@pytest.mark.parametrize(("lang", "locale", "size"), EVERY)
def test_a_spectators_name_box_fits_its_placeholder(
    browser: Browser, live_server: str, lang: str, locale: str, size: str
) -> None:
    made = create_game(live_server, [{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    page = new_page(browser, SIZES[size], locale)
    page.goto(f"{live_server}/g/{made['game']['id']}")  # no seat, no name given yet: a spectator
    page.wait_for_selector("#chat-name:not([hidden])")
    for where in ("table", "lobby"):
        text, width, room = page.evaluate(PLACEHOLDER_FITS, "#chat-name")
        assert text == words(lang)("lobby.name")
        assert width <= room, f"{where}: {text!r} needs {width:.0f} px, the box has {room:.0f}"
        page.locator("#chat-card").screenshot(path=str(SHOTS / f"chat-name-{where}-{size}-{lang}.png"))
        page.goto(live_server + "/")
        page.wait_for_selector("#chat-name:not([hidden])")
    no_js_errors(page)
    page.context.close()


@browser_test
@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_type_your_name_first_goes_once_a_name_is_typed(
    browser: Browser, live_server: str, lang: str, locale: str
) -> None:
    ask = words(lang)("lobby.needName")
    create_game(live_server, [{"kind": "human"}, {"kind": "human"}])  # a table with a free seat
    page = new_page(browser, LAPTOP, locale)
    page.goto(live_server + "/")
    assert page.input_value("#name") == ""
    # Joining a table: the toast.
    page.locator("#list-open .join-btn").first.click()
    page.wait_for_selector(f".toast:has-text('{ask}')")
    page.locator("#name").press_sequentially("Zed")
    wait_js(page, "document.querySelectorAll('.toast').length === 0")
    # (Quick play asks no name: it plays at once as a guest, tests/web/test_browser_issue54.py.)
    # The lobby chat, under a name not given yet.
    page.fill("#chat-input", "hello")
    page.click("#chat-send")
    page.wait_for_selector(f".toast:has-text('{ask}')")
    page.locator("#chat-name").press_sequentially("Zed")
    wait_js(page, "document.querySelectorAll('.toast').length === 0")
    no_js_errors(page)
    page.context.close()


# --- 3. your games first on a phone, "your turn" on one line, the chapters' targets -------------


@browser_test
@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_your_games_come_first_on_a_phone_and_your_turn_stays_on_one_line(
    browser: Browser, live_server: str, lang: str, locale: str
) -> None:
    made = create_game(live_server, [{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    page = new_page(browser, PHONE, locale)
    # A person's browser has not been asked about notifications yet ("default": the page offers
    # the bell); the headless shell the tests drive has no prompt to ask with and says "denied".
    page.add_init_script("Object.defineProperty(Notification, 'permission', { get: () => 'default' })")
    page.goto(live_server + made["link"])  # the seat is kept in this browser
    page.wait_for_selector(ACTIONS)  # the bot has moved if it was first: Ann's turn
    page.goto(live_server + "/")
    page.wait_for_selector("#list-yours .status-pill.turn")
    tops = page.evaluate(
        """() => Object.fromEntries(['#yours-card', '#quick-card', '.new-card'].map((s) =>
          [s, document.querySelector(s).getBoundingClientRect().top]))"""
    )
    assert tops["#yours-card"] < tops["#quick-card"] < tops[".new-card"], tops
    assert tops["#yours-card"] < PHONE["height"] / 2, tops  # on the first screen
    pill = page.locator("#list-yours .status-pill.turn")
    assert pill.inner_text() == words(lang)("lobby.yourTurn")
    boxes = pill.evaluate("(el) => el.getClientRects().length")
    assert boxes == 1  # one box: not broken across lines
    assert pill.evaluate("(el) => getComputedStyle(el).whiteSpace") == "nowrap"
    # The bell beside the list is the page's own icon, not an emoji.
    assert page.locator("#notify-box svg.icon-bell").count() == 1
    snap(page, f"lobby-yours-first-phone-{lang}")
    no_js_errors(page)
    page.context.close()


TARGETS = """() => [...document.querySelectorAll('#learn-chapters a')]
  .map((a) => a.getBoundingClientRect().height)"""


@browser_test
@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_the_chapters_of_the_guided_game_are_big_enough_to_tap(
    browser: Browser, live_server: str, lang: str, locale: str
) -> None:
    page = new_page(browser, LAPTOP, locale)
    page.goto(live_server + "/learn")
    page.wait_for_selector("#learn-chapters a")
    heights = page.evaluate(TARGETS)
    assert len(heights) > 3 and min(heights) >= 24, heights  # WCAG 2.2 (AA): 24 px
    page.context.close()
    phone = new_page(browser, PHONE, locale, touch=True)
    phone.goto(live_server + "/learn")
    phone.wait_for_selector("#learn-chapters a")
    heights = phone.evaluate(TARGETS)
    assert min(heights) >= 43.99, heights  # a finger: 44 px
    phone.locator(".learn-chapters").screenshot(path=str(SHOTS / f"learn-chapters-touch-{lang}.png"))
    no_js_errors(phone)
    phone.context.close()


# --- 4. how the puzzle rating settles --------------------------------------------------------


@browser_test
@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_the_puzzle_page_says_how_its_rating_settles(
    browser: Browser, live_server: str, lang: str, locale: str
) -> None:
    w = words(lang)
    page = new_page(browser, LAPTOP, locale)
    page.goto(live_server + "/puzzles")
    page.wait_for_selector("#puzzle-moves [data-act]")
    steps = [first_number(page.inner_text("#puzzle-settling"))]
    assert steps[0] == 200  # a newcomer's rating takes big steps …
    assert page.inner_text("#puzzle-settling") == w("puzzle.web.settling", step=200)
    ratings = [int(page.inner_text("#puzzle-rating"))]
    for _ in range(4):
        page.locator("#puzzle-moves [data-act]").first.click()
        page.wait_for_selector("#puzzle-verdict")
        steps.append(first_number(page.inner_text("#puzzle-settling")))
        ratings.append(int(page.inner_text("#puzzle-rating")))
        page.click("#puzzle-next")
        page.wait_for_selector("#puzzle-moves [data-act]")
    # … each smaller than the one before, and the rating moved by about what the page said.
    assert steps == sorted(steps, reverse=True) and len(set(steps)) == len(steps), steps
    moves = [abs(b - a) for a, b in itertools.pairwise(ratings)]
    assert all(m <= 2 * s for m, s in zip(moves, steps, strict=False)), (moves, steps)
    snap(page, f"puzzle-settling-{lang}")
    no_js_errors(page)
    page.context.close()


def test_a_newcomers_step_shrinks_as_docs_learning_md_says() -> None:
    """The steps the page shows, in the numbers docs/learning.md gives: 200 for a first answer,
    about 100 by the tenth, 60 by the twentieth and 30 by the fiftieth (at the solver's rating)."""
    from dataclasses import replace

    from ra.puzzles import Solver, load_puzzles
    from ra.web.puzzles import solver_reply

    solver = Solver()
    steps = [solver_reply(solver)["step"]]
    for i in range(50):
        solver = solver.after(replace(load_puzzles()[0], rating=solver.mu), correct=i % 2 == 0)
        steps.append(solver_reply(solver)["step"])
    assert steps[0] == 200 and steps == sorted(steps, reverse=True)
    assert [round(steps[n], -1) for n in (10, 20, 50)] == [100, 60, 30], steps


# --- 5. a costly decision's link lands on that decision -------------------------------------


@browser_test
@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_a_costly_decisions_link_and_circle_land_on_its_number(
    browser: Browser, live_server: str, lang: str, locale: str
) -> None:
    record = json.loads((GOLDEN / "3p-greedy.json").read_text())["record"]
    r = httpx.post(live_server + "/api/records", json=record, timeout=10)
    gid = r.json()["game"]["id"]
    page = new_page(browser, LAPTOP, locale)
    page.goto(f"{live_server}/replay/{gid}?analyse=1")
    page.wait_for_selector("#analysis-card svg.win-chart", timeout=90_000)
    links = page.locator(".mistake-jump")
    for i in range(min(3, links.count())):
        number = first_number(links.nth(i).inner_text())  # "Decision 160, epoch 2: …"
        links.nth(i).click()
        wait_js(page, f"window.__replay.n === {number} && !window.__replay.busy")
        assert first_number(page.inner_text("#rp-pos")) == number  # "Decision 160 of 216"
        assert links.nth(i).evaluate("(b) => b.classList.contains('current')")
    # A circle of the chart (one no other covers) goes to the decision its tooltip names.
    alone = page.evaluate(
        """() => { const cs = [...document.querySelectorAll('#analysis-card circle.costly')];
          const at = (c) => [c.cx.baseVal.value, c.cy.baseVal.value];
          return cs.findIndex((c) => cs.every((d) => d === c
            || Math.hypot(at(d)[0] - at(c)[0], at(d)[1] - at(c)[1]) > 16)); }"""
    )
    assert alone >= 0
    circle = page.locator("#analysis-card circle.costly").nth(alone)
    number = first_number(circle.locator("title").text_content() or "")  # "decision 160, Ann: …"
    circle.click()
    wait_js(page, f"window.__replay.n === {number} && !window.__replay.busy")
    assert first_number(page.inner_text("#rp-pos")) == number
    no_js_errors(page)
    page.context.close()


# --- 6. no emoji -----------------------------------------------------------------------------

EMOJI = re.compile(
    "[\u231a\u231b\u23e9-\u23ec\u23f0\u23f3\u25fd\u25fe\u2614\u2615\u2648-\u2653\u267f\u2693"
    "\u26a1\u26aa\u26ab\u26bd\u26be\u26c4\u26c5\u26ce\u26d4\u26ea\u26f2\u26f3\u26f5\u26fa\u26fd"
    "\u2705\u270a\u270b\u2728\u274c\u274e\u2753-\u2755\u2757\u2795-\u2797\u27b0\u27bf"
    "\u2b1b\u2b1c\u2b50\u2b55"
    "\ufe0f"  # "draw the character before as an emoji"
    "\U0001f000-\U0001faff]"  # the emoji planes: a bell, a chart, a thumb up ...
)
"""Characters drawn from an emoji font (Unicode's Emoji_Presentation, and the emoji blocks): where
none is installed they are an empty box. Symbols such as ☀ ★ ⚙ ✓ are text and stay."""


def test_no_emoji_in_the_pages_files() -> None:
    found = []
    for path in sorted(STATIC.rglob("*")):
        if path.suffix not in (".html", ".js", ".css", ".svg"):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for ch in EMOJI.findall(line):
                found.append(f"{path.name}:{n}: {ch} {unicodedata.name(ch, hex(ord(ch)))}")
    assert found == [], "\n".join(found)


@browser_test
def test_the_finished_tables_analyse_button_has_an_icon_not_an_emoji(
    browser: Browser, live_server: str
) -> None:
    record = json.loads((GOLDEN / "3p-greedy.json").read_text())["record"]
    gid = httpx.post(live_server + "/api/records", json=record, timeout=10).json()["game"]["id"]
    page = new_page(browser, LAPTOP)
    page.goto(f"{live_server}/g/{gid}")
    page.wait_for_selector("#analyse-link svg.icon-chart")
    assert page.inner_text("#analyse-link") == words("en")("analysis.web.start")
    no_js_errors(page)
    page.context.close()
