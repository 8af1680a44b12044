"""Names people type are shown as text, never run as markup (lobby, table, log, replay)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.web.test_browser import BROWSER_TESTS, new_page

pytestmark = BROWSER_TESTS

HOSTILE = ["<b>Bold</b>", "<svg onload=x()>", '"><i>x</i>', "&amp; Co"]


@pytest.fixture(scope="module")
def page(browser: Any) -> Iterator[Any]:
    page = new_page(browser)
    yield page
    page.context.close()


def test_hostile_names_stay_text(live_server: str, page: Any) -> None:
    made = httpx.post(
        live_server + "/api/games",
        json={"seats": [{"kind": "human"}] * 4, "name": HOSTILE[0], "bot_delay": 0},
    ).json()
    gid = made["game"]["id"]
    for name in HOSTILE[1:]:
        r = httpx.post(f"{live_server}/api/games/{gid}/join", json={"name": name})
        assert r.status_code == 200, r.text
    dialogs: list[str] = []

    def on_dialog(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    for path in ("/", made["link"]):
        page.goto(live_server + path)
        page.wait_for_timeout(1500)
        text = page.inner_text("body")
        for name in HOSTILE:
            assert name in text, (path, name)  # shown literally
        # No element came from a name: no <b>, <i> or stray <svg onload> in the page.
        assert (
            page.eval_on_selector_all("b, i", "els => els.filter(e => /Bold|^x$/.test(e.textContent)).length")
            == 0
        )
        assert page.eval_on_selector_all("svg[onload]", "els => els.length") == 0
    assert dialogs == []
