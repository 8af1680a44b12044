"""Puzzles in the browser (issue 24): the API against a real server (a guest's rating sent and
returned, an account's kept on the server and moved only by a first answer, CSRF, bad requests),
two workers sharing PostgreSQL agreeing on what is rated, and the page in Chromium answered right
and wrong, in English and Russian, laptop and phone."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import httpx

from ra.puzzles import load_puzzles
from ra.web.testing import Server
from tests.web.test_accounts import PASSWORD, sign_up
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

PUZZLES = load_puzzles()
PUZZLE = "document.querySelector('main').dataset.puzzle"
SHOWN = f"!!{PUZZLE}"
BID = next(p for p in PUZZLES if p.answer.startswith("bid"))
WRONG = next(str(a.action) for a in BID.actions[1:])


def test_a_guest_gets_a_puzzle_without_its_answer_and_the_rating_moves(live_server: str) -> None:
    themes = httpx.get(f"{live_server}/api/puzzles/themes", timeout=10).json()["themes"]
    assert {t["id"] for t in themes} == {"bidding", "invoking", "gods", "disasters", "end_of_epoch"}
    got = httpx.post(f"{live_server}/api/puzzles/next", json={"theme": "gods"}, timeout=10).json()
    assert "gods" in got["themes"] and got["solver"]["rating"] == 1500 and got["account"] is None
    assert "answer" not in got and all("win" not in m for m in got["moves"])  # nothing given away
    assert got["view"]["seat"] == got["mover"] and got["view"]["players"][got["mover"]]["name"] == "You"
    url = f"{live_server}/api/puzzles/{BID.id}/answer"
    right = httpx.post(url, json={"action": BID.answer}, timeout=10).json()
    assert right["correct"] and right["rated"] and right["solver"]["rating"] > 1500
    assert right["solver"]["streak"] == 1 and right["chances"][0]["action"] == BID.answer
    wrong = httpx.post(
        url, json={"action": WRONG, "solver": right["solver"], "lang": "ru"}, timeout=10
    ).json()
    assert not wrong["correct"] and wrong["solver"]["rating"] < right["solver"]["rating"]
    assert wrong["solver"]["streak"] == 0 and wrong["solver"]["best_streak"] == 1
    assert wrong["why"].startswith("Потеряно") and wrong["answer"] == BID.answer  # a sentence
    again = httpx.post(
        url, json={"action": BID.answer, "solver": wrong["solver"], "repeat": True}, timeout=10
    )
    assert again.json()["rated"] is False and again.json()["solver"] == wrong["solver"]


def test_bad_requests_name_what_is_wrong(live_server: str) -> None:
    url = f"{live_server}/api/puzzles/{BID.id}/answer"
    r = httpx.post(url, json={"action": "draw"}, timeout=10)
    assert r.status_code == 422 and r.json()["error"] == "illegal" and "(R" in r.json()["message"]
    r = httpx.post(url, json={"action": "x" * 41}, timeout=10)
    assert r.status_code == 422
    r = httpx.post(url, json={"action": BID.answer, "solver": {"mu": 1e9}}, timeout=10)
    assert r.status_code == 422  # a forged rating is refused, not stored
    r = httpx.post(f"{live_server}/api/puzzles/nosuch/answer", json={"action": "pass"}, timeout=10)
    assert r.status_code == 404 and "nosuch" in r.json()["message"]
    r = httpx.post(f"{live_server}/api/puzzles/next", json={"theme": "cooking"}, timeout=10)
    assert r.status_code == 422 and "gods" in r.json()["message"]
    r = httpx.post(f"{live_server}/api/puzzles/next", json={"seen": ["1-1"] * 1001}, timeout=10)
    assert r.status_code == 422


def test_an_account_keeps_its_rating_and_only_a_first_answer_counts(server: Server) -> None:
    ann = sign_up(server.url, "Ann")
    got = ann.post("/api/puzzles/next", json={"solver": {"mu": 90, "sigma": 1}}).json()
    assert got["account"] == "Ann" and got["solver"]["rating"] == 1500  # the account's, not the sent one
    url = f"/api/puzzles/{BID.id}/answer"
    csrf = ann.headers.pop("X-CSRF-Token")
    assert ann.post(url, json={"action": BID.answer}).json()["error"] == "csrf"  # another site's form
    ann.headers["X-CSRF-Token"] = csrf
    first = ann.post(url, json={"action": BID.answer, "solver": {"mu": 90, "sigma": 1}}).json()
    assert first["rated"] and first["before"]["rating"] == 1500 and first["solver"]["rating"] > 1500
    again = ann.post(url, json={"action": WRONG}).json()
    assert not again["correct"] and again["rated"] is False and again["solver"] == first["solver"]
    assert ann.post("/api/puzzles/next", json={}).json()["solver"] == first["solver"]
    # Deleting the account deletes its puzzle rating with it.
    assert ann.post("/api/account/delete", json={"password": "sun-and-nile-8"}).status_code == 200
    with contextlib.closing(sqlite3.connect(server.db_url.removeprefix("sqlite:///"))) as db:
        assert db.execute("SELECT count(*) FROM puzzle_solvers").fetchone() == (0,)
        assert db.execute("SELECT count(*) FROM puzzle_attempts").fetchone() == (0,)


def test_an_answer_seen_as_a_guest_is_not_rated_for_an_account_from_there(server: Server) -> None:
    """Issue 40, finding 9: asking for a puzzle's answer as a guest, then signing in from the same
    address to answer it right, farmed the account's rating; now that answer is judged, not rated."""
    home = httpx.Client(base_url=server.url, transport=httpx.HTTPTransport(local_address="127.0.3.3"))
    peek = home.post(f"/api/puzzles/{BID.id}/answer", json={"action": WRONG}).json()  # as a guest
    assert peek["answer"] == BID.answer  # the answer went to whoever asked, and only in the reply
    r = home.post("/api/account/signup", json={"name": "Peeker", "password": "sun-and-nile-8"})
    home.headers["X-CSRF-Token"] = r.json()["csrf"]
    farmed = home.post(f"/api/puzzles/{BID.id}/answer", json={"action": BID.answer}).json()
    assert farmed["correct"] and farmed["rated"] is False and farmed["solver"] == farmed["before"]
    other = next(p for p in PUZZLES if p.id != BID.id)
    fresh = home.post(f"/api/puzzles/{other.id}/answer", json={"action": other.answer}).json()
    assert fresh["rated"] is True  # a puzzle not seen from there counts as ever
    elsewhere = sign_up(server.url, "Honest")  # another address answering the same puzzle first
    assert elsewhere.post(f"/api/puzzles/{BID.id}/answer", json={"action": BID.answer}).json()["rated"]


def test_an_answer_this_device_saw_is_not_rated_for_an_account(server: Server) -> None:
    """Issue 52: a puzzle is rated for an account only on its first attempt from that account and
    device — the page says when its browser answered the puzzle before (``repeat``: the list of
    puzzles it answered, kept as a guest too), and that answer is judged, not rated."""
    ann = sign_up(server.url, "Ann")
    seen = ann.post(f"/api/puzzles/{BID.id}/answer", json={"action": BID.answer, "repeat": True}).json()
    assert seen["correct"] and seen["rated"] is False and seen["solver"] == seen["before"]
    other = next(p for p in PUZZLES if p.id != BID.id)
    fresh = ann.post(f"/api/puzzles/{other.id}/answer", json={"action": other.answer, "repeat": False}).json()
    assert fresh["rated"] is True


def test_an_answer_shown_by_one_worker_leaves_an_answer_through_another_unrated(
    server_factory: type[Server], pg_url: str, tmp_path: Path
) -> None:
    """Issue 52 with two servers sharing PostgreSQL (two workers, or two hosts): a puzzle's answer
    shown through worker A — to a guest at the address, or after an account's attempt — makes an
    account's answer to it from there through worker B unrated; a puzzle not shown there counts."""
    a = server_factory(pg_url, tmp_path / "a.log").start()
    b = server_factory(pg_url, tmp_path / "b.log").start()
    home = httpx.Client(timeout=10, transport=httpx.HTTPTransport(local_address="127.0.3.5"))
    peek = home.post(f"{a.url}/api/puzzles/{BID.id}/answer", json={"action": WRONG}).json()  # a guest
    assert peek["answer"] == BID.answer and not peek["correct"]
    r = home.post(f"{b.url}/api/account/signup", json={"name": "Peeker", "password": PASSWORD})
    home.headers["X-CSRF-Token"] = r.json()["csrf"]  # the session cookie serves both workers
    farmed = home.post(f"{b.url}/api/puzzles/{BID.id}/answer", json={"action": BID.answer}).json()
    assert farmed["correct"] and farmed["rated"] is False and farmed["solver"] == farmed["before"]
    other, fresh = [p for p in PUZZLES if p.id != BID.id][:2]
    wrong = next(str(v.action) for v in other.actions[1:])
    tried = home.post(f"{a.url}/api/puzzles/{other.id}/answer", json={"action": wrong}).json()
    assert tried["rated"] and tried["solver"]["rating"] < tried["before"]["rating"]  # the first attempt
    again = home.post(f"{b.url}/api/puzzles/{other.id}/answer", json={"action": other.answer}).json()
    assert again["correct"] and again["rated"] is False and again["solver"] == tried["solver"]
    counts = home.post(f"{b.url}/api/puzzles/{fresh.id}/answer", json={"action": fresh.answer}).json()
    assert counts["rated"] and counts["solver"]["rating"] > tried["solver"]["rating"]
    sibling = httpx.Client(timeout=10, transport=httpx.HTTPTransport(local_address="127.0.3.5"))
    r = sibling.post(f"{b.url}/api/account/signup", json={"name": "Sibling", "password": PASSWORD})
    sibling.headers["X-CSRF-Token"] = r.json()["csrf"]  # another account at the address
    shown = sibling.post(f"{b.url}/api/puzzles/{other.id}/answer", json={"action": other.answer}).json()
    assert shown["correct"] and shown["rated"] is False  # the answer Peeker saw through A
    elsewhere = sign_up(a.url, "Honest")  # another address: its first answer through A counts
    assert elsewhere.post(f"/api/puzzles/{BID.id}/answer", json={"action": BID.answer}).json()["rated"]


def answer_by_click(page: Page, action: str) -> None:
    page.locator(f'#puzzle-moves [data-act="{action}"]').click()
    wait_js(page, "!!document.getElementById('puzzle-verdict')")


def rating(page: Page) -> int:
    return int(page.locator("#puzzle-rating").inner_text())


@BROWSER_TESTS[0]
@BROWSER_TESTS[1]
def test_the_page_answered_right_and_wrong_in_two_languages(browser: Browser, live_server: str) -> None:
    page = new_page(browser)
    page.goto(live_server + "/")
    page.locator("#puzzles-link").click()
    wait_js(page, f"document.documentElement.dataset.ready === 'true' && {SHOWN}")
    page.goto(f"{live_server}/puzzles?id={BID.id}")
    wait_js(page, f"document.querySelector('main').dataset.puzzle === '{BID.id}'")
    assert rating(page) == 1500 and page.locator("#puzzle-task").inner_text() == "Find the best move for you."
    answer_by_click(page, BID.answer)
    assert "Right!" in page.locator("#puzzle-verdict").inner_text() and rating(page) > 1500
    solved = rating(page)
    shot(page, "puzzle-right-laptop-en")
    page.locator("#puzzle-next").click()
    wait_js(page, f"{PUZZLE} !== '{BID.id}' && !document.getElementById('puzzle-verdict')")
    nxt = str(page.evaluate("document.querySelector('main').dataset.puzzle"))
    puzzle = next(p for p in PUZZLES if p.id == nxt)
    answer_by_click(page, str(puzzle.actions[1].action))
    assert "Not the best move" in page.locator("#puzzle-verdict").inner_text()
    assert rating(page) < solved and "lost" in page.locator("#puzzle-why").inner_text().lower()
    # The rating is kept in this browser: a reload shows it.
    page.reload()
    wait_js(page, "!!document.querySelector('main').dataset.puzzle")
    assert rating(page) < solved
    no_js_errors(page)
    ru = new_page(browser, PHONE, "ru-RU")
    ru.goto(f"{live_server}/puzzles?id={BID.id}")
    wait_js(ru, f"document.querySelector('main').dataset.puzzle === '{BID.id}'")
    assert ru.locator("#puzzle-task").inner_text() == "Найдите свой лучший ход."
    answer_by_click(ru, WRONG)
    assert "Не лучший ход" in ru.locator("#puzzle-verdict").inner_text()
    assert ru.locator("#puzzle-why").inner_text().lower().startswith("потеряно")
    no_sideways_scroll(ru)
    shot(ru, "puzzle-wrong-phone-ru")
    no_js_errors(ru)
    laptop_ru = new_page(browser, LAPTOP, "ru-RU")
    laptop_ru.goto(f"{live_server}/puzzles?id={BID.id}")
    wait_js(laptop_ru, "!!document.querySelector('main').dataset.puzzle")
    shot(laptop_ru, "puzzle-laptop-ru")
