"""Issue 52, "Names", on a real server: a name with an invisible variation selector, or a
multi-letter look-alike ("rn" for "m", "VV" for "W", "cl" for "d"), is the name it looks like
for accounts, guests, seats and chat; a guest's seat an account claims later still shows as a
guest's; a deleted account's name stays reserved for guests too; a chat line cannot stack
hundreds of combining marks on one letter.  The name rules themselves are tested in-process."""

from __future__ import annotations

import asyncio
import itertools

import httpx
import pytest

from ra.web.names import MAX_MARKS, clean_name, name_key
from ra.web.testing import Server
from tests.web.client import Player, create
from tests.web.test_attacks_wave3 import watch

PASSWORD = "sun-and-nile-8"
SELECTORS = ["\ufe0f", "\ufe00", "\U000e0100", "\u180b", "\U00016fe4"]
"""Variation selectors (and the Khitan filler): default-ignorable, they show as nothing."""
LOOK_ALIKES = [("Amy", "Arny"), ("Wes", "VVes"), ("Dora", "Clora"), ("Admin", "Aclrnin")]
_SOURCES = itertools.count(1)


def elsewhere(base: str) -> httpx.Client:
    """A client from an address of its own (sign-ups are limited per address)."""
    return httpx.Client(
        base_url=base, transport=httpx.HTTPTransport(local_address=f"127.0.9.{next(_SOURCES)}")
    )


def sign_up(base: str, name: str, seats: list[dict[str, str]] | None = None) -> httpx.Response:
    body = {"name": name, "password": PASSWORD, "seats": seats or []}
    return elsewhere(base).post("/api/account/signup", json=body)


def lobby_line(base: str, name: str, text: str = "hi") -> httpx.Response:
    return httpx.post(f"{base}/api/lobby/chat", json={"name": name, "text": text}, headers={"Origin": base})


@pytest.mark.parametrize("mark", SELECTORS)
def test_an_invisible_selector_makes_no_new_name(mark: str) -> None:
    assert name_key("Ann" + mark) == name_key("Ann")
    with pytest.raises(ValueError, match="invisible"):
        clean_name("Ann" + mark)


@pytest.mark.parametrize(("name", "alike"), LOOK_ALIKES)
def test_multi_letter_look_alikes_are_one_name(name: str, alike: str) -> None:
    assert name_key(alike) == name_key(name)


def test_different_names_stay_different_and_long_keys_do_not_merge() -> None:
    assert len({name_key(n) for n in ("Ann", "Anne", "Bob", "Olé", "Ole", "Ёжик", "Nguyễn")}) == 7
    a, b = "m" * 19 + "a", "m" * 19 + "b"  # skeletons of 39 characters, past a key's 20
    assert name_key(a) != name_key(b) and len(name_key(a)) == 20


def test_marks_are_bounded_per_character_but_accents_pass() -> None:
    assert clean_name("Nguyễn") == "Nguyễn"  # e with two marks
    assert clean_name("q" + "\u0301" * MAX_MARKS) is not None  # no composed q with an acute
    with pytest.raises(ValueError, match="combining marks"):
        clean_name("q" + "\u0301" * (MAX_MARKS + 1))


def test_invisible_selectors_and_look_alikes_are_an_accounts_name_everywhere(server: Server) -> None:
    """A variation selector after "Ann" passed for a second account, a guest's seat and chat;
    "Arny" was not "Amy" (the multi-letter look-alikes were not folded)."""
    base = server.url
    for name, _ in [*LOOK_ALIKES, ("Ann", "")]:
        assert sign_up(base, name).status_code == 200
    wearers = ["Ann" + mark for mark in SELECTORS] + [alike for _, alike in LOOK_ALIKES]
    seats = [{"kind": "human"}, {"kind": "bot", "level": "easy"}]
    gid = create(base, [{"kind": "human"}, {"kind": "human"}], name="Bo")["game"]["id"]
    for name in wearers:
        r = sign_up(base, name)
        assert r.status_code in (409, 422), (name, r.text)  # taken, or not a name at all
        r = httpx.post(f"{base}/api/games", json={"seats": seats, "name": name, "bot_delay": 0})
        assert r.status_code in (409, 422), (name, r.text)
        r = httpx.post(f"{base}/api/games/{gid}/join", json={"name": name}, timeout=10)
        assert r.status_code in (409, 422), (name, r.text)
        assert lobby_line(base, name).status_code in (409, 422), name
    assert asyncio.run(spectator_answers(server, gid, wearers)) == ["error"] * len(wearers)


async def spectator_answers(server: Server, gid: str, names: list[str]) -> list[str]:
    """What a spectator is answered saying a line under each of ``names``: "chat" or "error"."""
    (zed,) = await watch(server, gid, 1)
    out = []
    for name in names:
        await zed.send({"type": "chat", "text": "hi", "name": name})
        out.append((await zed.until(lambda m: m["type"] in ("chat", "error")))["type"])
    await zed.close()
    return out


def test_a_guest_seat_an_account_claims_never_shows_as_the_accounts(server: Server) -> None:
    """Bob claimed the guest seat "Admin": its chat lines and its seat showed as an account's,
    linked to the profile of whoever signs up as "Admin" later."""
    made = create(server.url, [{"kind": "human"}, {"kind": "human"}], name="Admin")
    gid, token = made["game"]["id"], made["token"]
    assert sign_up(server.url, "Bob", [{"game": gid, "token": token}]).json()["claimed"] == 1
    seat = httpx.get(f"{server.url}/api/games/{gid}").json()["seats"][0]
    assert seat["name"] == "Admin" and seat["account"] is False

    async def say() -> dict[str, object]:
        admin = Player(server.ws, gid, token)
        await admin.connect()
        await admin.send({"type": "chat", "text": "I am the admin"})
        said = await admin.until(lambda m: m["type"] == "chat" and not m["history"])
        await admin.close()
        return dict(said["lines"][0])

    line = asyncio.run(say())
    assert line["name"] == "Admin" and line["account"] is False


def test_a_deleted_accounts_name_is_reserved_for_guests_too(server: Server) -> None:
    """Sign-ups were refused the name of an account deleted lately, guests were not."""
    carl = elsewhere(server.url)
    r = carl.post("/api/account/signup", json={"name": "Carl", "password": PASSWORD})
    carl.headers["X-CSRF-Token"] = r.json()["csrf"]
    assert carl.post("/api/account/delete", json={"password": PASSWORD}).status_code == 200
    for name in ("Carl", "CarI"):  # and its look-alike (a capital I for the l)
        r = lobby_line(server.url, name)
        assert r.status_code == 409 and r.json()["error"] == "name_reserved", r.text
        r = httpx.post(f"{server.url}/api/games", json={"seats": [{"kind": "human"}] * 2, "name": name})
        assert r.status_code == 409 and r.json()["error"] == "name_reserved", r.text


def test_a_chat_line_cannot_stack_marks_over_the_lines_above(server: Server) -> None:
    """One letter and 299 combining marks was said, and drew over the lines above it."""
    zalgo = "a" + "\u0301" * 299
    r = lobby_line(server.url, "Zed", zalgo)
    assert r.status_code == 422 and r.json()["error"] == "stacked_marks", r.text
    assert lobby_line(server.url, "Zed", "Tiếng Việt, ཀྲྀ").status_code == 200
    gid = create(server.url, [{"kind": "human"}, {"kind": "human"}])["game"]["id"]

    async def say() -> dict[str, object]:
        (zed,) = await watch(server, gid, 1)
        await zed.send({"type": "chat", "text": zalgo, "name": "Zed"})
        answer = await zed.until(lambda m: m["type"] in ("chat", "error"))
        await zed.close()
        return answer

    assert asyncio.run(say())["code"] == "stacked_marks"


def test_migration_0020_rekeys_accounts_and_unmarks_guest_seats_lines(empty_sqlite_url: str) -> None:
    """Keys made before the full skeleton: "Amy"'s becomes "arny", "Ann" and a variation
    selector's "ann"; "Wes" keeps its old key as "VVes" holds "vves" (both stay usable); a line
    said by a guest seat "Admin" that Bob claimed is a guest's."""
    import datetime

    import sqlalchemy as sa

    from ra.web import db

    db.upgrade(empty_sqlite_url, "0018")
    engine = sa.create_engine(empty_sqlite_url)
    t = datetime.datetime.now(datetime.UTC)
    accounts = [("a1", "Amy", "amy"), ("a2", "Bob", "bob"), ("a3", "Wes", "wes"), ("a4", "VVes", "vves")]
    accounts.append(("a5", "Ann\ufe0f", "ann\ufe0f"))  # a name the old rules let through
    game = {"created_at": t, "updated_at": t, "status": "running", "players": 2, "variant": "standard"}
    game |= {"hidden_scores": True, "edition": "original", "bot_delay": 0.0, "seed": 1}
    with engine.begin() as conn:
        for i, name, key in accounts:
            conn.execute(
                sa.insert(db.accounts).values(id=i, name=name, name_key=key, password_hash="x", created_at=t)
            )
        conn.execute(sa.insert(db.games).values(id="g1", **game))
        conn.execute(sa.insert(db.seats), [
            {"game_id": "g1", "seat": 0, "kind": "human", "name": "Admin", "account_id": "a2"},
            {"game_id": "g1", "seat": 1, "kind": "human", "name": "Bob", "account_id": "a2"},
        ])  # fmt: skip
        for seat, name in ((0, "Admin"), (1, "Bob")):
            line = {"game_id": "g1", "channel": "players", "seat": seat, "name": name, "text": "hi"}
            conn.execute(sa.insert(db.chat).values(created_at=t, account=True, **line))
    db.upgrade(empty_sqlite_url)
    with engine.connect() as conn:
        keys = dict(conn.execute(sa.select(db.accounts.c.id, db.accounts.c.name_key)).all())
        marks = dict(conn.execute(sa.select(db.chat.c.name, db.chat.c.account)).all())
    assert keys == {"a1": "arny", "a2": "bob", "a3": "wes", "a4": "vves", "a5": "ann"}  # Wes's is taken
    assert marks == {"Admin": False, "Bob": True}
    engine.dispose()
