"""The WebSocket protocol: its JSON Schema validates every message of a real game, the
docs describe every message and field, and bad client messages get one clear error."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest

from ra.web.protocol import ActionMessage, BadMessageError, parse_client_message, ws_schema
from ra.web.testing import Server
from tests.web.client import Player, create, join
from tests.web.test_server import play

DOCS = Path(__file__).resolve().parents[2] / "docs" / "web-api.md"


def _types(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each message type's schema, by its ``type`` constant."""
    defs = schema.get("$defs", {})
    out = {}
    for ref in schema["discriminator"]["mapping"].values():
        body = defs[ref.split("/")[-1]]
        out[body["properties"]["type"]["const"]] = body
    return out


def test_the_schema_is_served_and_covers_both_directions(server: Server) -> None:
    served = httpx.get(server.url + "/api/ws-schema").json()
    assert served == json.loads(json.dumps(ws_schema()))
    client = {"hello", "action", "undo", "hint", "ping", "chat", "report", "back"}
    assert set(_types(served["client"])) == client
    assert {
        "state",
        "error",
        "hint",
        "presence",
        "undone",
        "rematch",
        "chat",
        "reported",
        "pong",
        "shutdown",
    } <= set(_types(served["server"]))


def test_every_message_of_a_whole_three_player_game_matches_the_schema(server: Server) -> None:
    schema = ws_schema()["server"]
    validator = jsonschema.Draft202012Validator(schema)
    made = create(
        server.url,
        [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}],
        hints=True,
        hidden_scores=True,
    )
    gid = made["game"]["id"]
    bob = join(server.url, gid, "Bob")

    async def main() -> list[str]:
        ann = Player(server.ws, gid, made["token"], seed=5)
        bo = Player(server.ws, gid, bob["token"], seed=6)
        watcher = Player(server.ws, gid, None)
        for p in (ann, bo, watcher):
            await p.connect()
            await p.until(lambda m: m["type"] == "state")
        await ann.send({"type": "ping"})
        await ann.send({"type": "nonsense"})
        await watcher.send({"type": "action", "action": "draw", "n": 0})
        await play([ann, bo])
        await asyncio.sleep(0.3)
        for p in (ann, bo, watcher):
            await p.state_now()
            await p.close()
        return ann.raw + bo.raw + watcher.raw

    raw = asyncio.run(main())
    kinds = set()
    for text in raw:
        message = json.loads(text)
        kinds.add(message["type"])
        errors = sorted(validator.iter_errors(message), key=str)
        assert not errors, (message["type"], str(errors[0])[:500])
    assert {"state", "pong", "error", "presence"} <= kinds


def test_the_docs_name_every_message_and_field() -> None:
    docs = DOCS.read_text()
    schema = ws_schema()
    for direction in ("client", "server"):
        for kind, body in _types(schema["client" if direction == "client" else "server"]).items():
            assert f'"type": "{kind}"' in docs or f"`{kind}`" in docs, (direction, kind)
            for field in body["properties"]:
                assert re.search(rf'["`]{field}["`]', docs), (direction, kind, field)
    assert "/api/ws-schema" in docs


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("not json", "JSON"),
        ("[1, 2]", "object"),
        ('{"type": "fly"}', "unknown message type"),
        ('{"type": "action", "action": "draw"}', "n"),
        ('{"type": "action", "action": "draw", "n": "3"}', "n"),
        ('{"type": "action", "action": "draw", "n": true}', "n"),
        ('{"type": "undo", "n": 1, "extra": 1}', "extra"),
        ('{"type": "action", "action": "' + "x" * 50 + '", "n": 1}', "action"),
        ('{"type": "hello", "token": 7}', "token"),
    ],
)
def test_bad_client_messages_are_named(text: str, says: str) -> None:
    with pytest.raises(BadMessageError) as err:
        parse_client_message(text)
    assert says.lower() in str(err.value).lower()


def test_good_client_messages_parse() -> None:
    assert parse_client_message('{"type": "hello", "token": null, "since": 3}').type == "hello"
    action = parse_client_message('{"type": "action", "action": "bid 9", "n": 12}')
    assert isinstance(action, ActionMessage) and action.n == 12
