"""The guided game's server API (issue 24): the server plays the chapter, the page only asks."""

from __future__ import annotations

import httpx


def test_chapters_steps_in_two_languages_and_bad_requests(live_server: str) -> None:
    chapters = httpx.get(f"{live_server}/api/learn/chapters", timeout=10).json()["chapters"]
    assert chapters[0] == {"id": "drawing", "steps": 2}
    url = f"{live_server}/api/learn/chapters/drawing"
    first = httpx.post(url, json={}, timeout=10).json()
    assert first["done"] == 0 and first["ok"] is None
    assert [m["action"] for m in first["moves"]] == ["draw", "ra"]
    wrong = httpx.post(url, json={"action": "ra", "lang": "ru"}, timeout=10).json()
    assert wrong["ok"] is False and wrong["done"] == 0 and "Тяните" in wrong["message"]
    illegal = httpx.post(url, json={"action": "bid 9"}, timeout=10).json()
    assert illegal["ok"] is False and "(R3.2)" in illegal["message"]  # the engine's own reason
    right = httpx.post(url, json={"action": "draw"}, timeout=10).json()
    assert (
        right["ok"] is True
        and right["made"] == ["draw"]
        and right["view"]["auction_track"]
        == [
            "pharaoh",
            "nile",
        ]
    )
    bad_requests_name_what_is_wrong(live_server)


def bad_requests_name_what_is_wrong(live_server: str) -> None:
    """An unknown chapter, moves the chapter does not accept, a try that is not a move."""
    r = httpx.post(f"{live_server}/api/learn/chapters/nosuch", json={}, timeout=10)
    assert r.status_code == 404 and "nosuch" in r.json()["message"]
    r = httpx.post(f"{live_server}/api/learn/chapters/drawing", json={"made": ["ra"]}, timeout=10)
    assert r.status_code == 422 and "move 1" in r.json()["message"]
    r = httpx.post(f"{live_server}/api/learn/chapters/drawing", json={"action": "fly"}, timeout=10)
    assert r.status_code == 200 and r.json()["ok"] is False and '"fly" is not a move' in r.json()["message"]
