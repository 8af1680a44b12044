"""The game-record format (R9.2), without the engine: build a record, parse and check one.

:mod:`ra.engine` uses this module for ``Game.to_record`` / ``Game.from_record``;
:mod:`ra.records` adds files (``save``, ``load``).  A record looks like::

    {
      "format": "ra-game", "version": 2,
      "players": ["Ann", "Bob", "Cy"], "variant": "standard", "suns_per_player": null,
      "hidden_scores": false, "disaster_timing": "immediate", "seed": 7,
      "suns": [[13, 8, 5, 2], [12, 9, 6, 3], [11, 10, 7, 4]],
      "bag": [], "bag_counts": null,
      "decisions": ["draw", "draw", "ra", "bid 9", "pass", ...],
      "result": {"over": false, "scores": [10, 10, 10], "winner": null, "ranks": null}
    }

``result`` is informative; when present, loading checks that the replay agrees.  Since
version 2 it is the *table's* result: a seat listed in ``forfeited`` ranks last whatever its
score (:func:`standings`); a version 1 record stated the engine's winner, and still loads.
``disaster_timing`` (R3.5: ``"immediate"`` or ``"2008"``) was added later: a record without
it is a game with the default timing, ``"immediate"``.
Whatever a record holds, reading it raises only :class:`ra.RecordError`.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from typing import Any, Final, NamedTuple

from ra.errors import RecordError
from ra.setup import Setup, make_setup
from ra.tiles import TILE_IDS
from ra.words import Msg, Param, msg, words

FORMAT: Final = "ra-game"
VERSION: Final = 2
READS: Final = (1, 2)
"""The versions this library reads: 1 (``result.winner`` ignored forfeits) and 2."""
MAX_DECISIONS: Final = 10_000
"""More decisions than any game of Ra can take (a record with more is rejected up front)."""


class ParsedRecord(NamedTuple):
    """A record's checked content: the setup, the decisions' notation, the stated result, the
    format's version and the seats that forfeited."""

    setup: Setup
    decisions: list[str]
    result: Mapping[str, Any] | None
    version: int = VERSION
    forfeited: frozenset[int] = frozenset()


def standings(
    scores: Sequence[int], highest_suns: Sequence[int], forfeited: Collection[int] = ()
) -> tuple[int, ...]:
    """The seats from first place to last: the one rule of a game's result.  Highest score,
    then highest sun (R8.1: no two seats hold the same sun, so the order is total); a seat
    that forfeited ranks after every other, whatever its score."""

    def key(seat: int) -> tuple[bool, int, int]:
        return (seat in forfeited, -scores[seat], -highest_suns[seat])

    return tuple(sorted(range(len(scores)), key=key))


def ranks(scores: Sequence[int], winner: int, forfeited: Collection[int] = ()) -> list[int]:
    """Each seat's rank (1 for the winner, then by score, higher first, equal scores sharing a
    rank; a seat that forfeited after every other, whatever its score): what ratings count."""

    def key(seat: int) -> tuple[bool, bool, int]:
        return (seat in forfeited, seat != winner, -scores[seat])

    n = len(scores)
    return [1 + sum(1 for other in range(n) if key(other) < key(seat)) for seat in range(n)]


def result_fields(
    over: bool, scores: Sequence[int], highest_suns: Sequence[int], forfeited: Collection[int] = ()
) -> dict[str, Any]:
    """A record's ``result``: whether the game is over, the scores, and once it is over the
    winner and each seat's rank by :func:`standings` (forfeits last)."""
    if not over:
        return {"over": False, "scores": list(scores), "winner": None, "ranks": None}
    winner = standings(scores, highest_suns, forfeited)[0]
    return {"over": True, "scores": list(scores), "winner": winner, "ranks": ranks(scores, winner, forfeited)}


def seat_numbers(record: Mapping[str, Any], key: str, bound: int) -> frozenset[int]:
    """An optional list of numbers from 0 to ``bound - 1`` (``forfeited``: seats; ``stand_ins``:
    decisions); :class:`RecordError` names a bad one."""
    value = record.get(key, [])
    ok = isinstance(value, list) and len(value) <= bound
    if not ok or not all(type(v) is int and 0 <= v < bound for v in value):
        raise RecordError(f"{key!r} must be a list of numbers from 0 to {bound - 1}")
    return frozenset(value)


def build_record(setup: Setup, decisions: Sequence[object], result: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON-able record of a game (``result``: :func:`result_fields`)."""
    s = setup
    return {
        "format": FORMAT,
        "version": VERSION,
        "players": list(s.names),
        "variant": s.variant,
        "suns_per_player": s.suns_per_player,
        "hidden_scores": s.hidden_scores,
        "disaster_timing": s.disaster_timing,
        "seed": s.seed,
        "suns": [list(g) for g in s.suns],
        "bag": [TILE_IDS[t] for t in s.bag],
        "bag_counts": list(s.bag_counts) if s.bag_counts is not None else None,
        "decisions": [str(a) for a in decisions],
        "result": dict(result),
    }


def parse_json(text: str | bytes) -> Any:
    """JSON text (or UTF-8 bytes) as data; every failure is a :class:`RecordError`."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as err:
            raise _refuse("record.utf8", byte=err.start) from None
    try:
        return json.loads(text)
    except RecursionError:
        raise _refuse("record.nested") from None
    except json.JSONDecodeError as err:
        raise _refuse("record.json", line=err.lineno, column=err.colno) from None
    except ValueError:  # an integer beyond Python's digit limit
        raise _refuse("record.json_number") from None


def _refuse(key: str, index: int | None = None, **params: Param) -> RecordError:
    """A record error from the catalogue: English in the message, ``why`` for any language
    (a front end never shows the system's English inside its own words)."""
    why = msg(key, **params)
    return RecordError(words("en").render(why), index=index, why=why)


def _field(record: Mapping[str, Any], name: str, types: tuple[type, ...], default: Any = ...) -> Any:
    if name not in record:
        if default is ...:
            raise _refuse("record.no_field", field=repr(name))
        return default
    value = record[name]
    # bool is an int in Python, but never a valid count or seed here.
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
        shown = repr(value)
        if len(shown) > 80:
            shown = shown[:77] + "..."
        raise _refuse("record.field_type", field=repr(name), value=shown)
    return value


def parse_record(record: Mapping[str, Any] | str | bytes) -> ParsedRecord:
    """Check a record (a mapping, or its JSON text) and return its setup and decisions."""
    if isinstance(record, str | bytes):
        record = parse_json(record)
    if not isinstance(record, Mapping):
        raise _refuse("record.object", kind=type(record).__name__)
    fmt = record.get("format", FORMAT)
    if fmt != FORMAT:
        raise _refuse("record.format", format=repr(str(fmt)[:40]), expected=repr(FORMAT))
    version = record.get("version", 1)
    if type(version) is not int or version not in READS:
        raise _refuse("record.version", version=str(version)[:40], reads=" and ".join(map(str, READS)))
    players = _field(record, "players", (list,))
    # A public record (Game.to_record(public=True), R9) has no seed and no bag: the tiles
    # drawn so far are enough to replay it; the rest of the bag is shuffled anew.
    public = record.get("public") is True
    seed = _field(record, "seed", (int, type(None)) if public else (int,), None if public else ...)
    decisions = _field(record, "decisions", (list,))
    if len(decisions) > MAX_DECISIONS:
        raise _refuse("record.too_many", count=len(decisions), most=MAX_DECISIONS)
    for i, text in enumerate(decisions, 1):
        if not isinstance(text, str):
            raise _refuse("record.decision_text", index=i, number=i, value=repr(str(text)[:40]))
    try:
        setup = make_setup(
            players,
            seed=seed,
            variant=_field(record, "variant", (str,), "standard"),
            suns_per_player=_field(record, "suns_per_player", (int, type(None)), None),
            bag=_field(record, "drawn" if public else "bag", (list,), []),
            suns=_field(record, "suns", (list, type(None)), None),
            hidden_scores=_field(record, "hidden_scores", (bool,), False),
            bag_counts=_field(record, "bag_counts", (list, type(None)), None),
            # R3.5: records made before the "2008 disaster timing" variant have the default.
            disaster_timing=_field(record, "disaster_timing", (str,), "immediate"),
        )
    except ValueError as err:
        why: Msg | str = getattr(err, "why", None) or str(err)  # a SetupError's own words
        raise _refuse("record.setup", detail=why) from None
    result = _field(record, "result", (dict, type(None)), None)
    forfeited = seat_numbers(record, "forfeited", len(setup.names))
    return ParsedRecord(setup, decisions, result, version, forfeited)


def check_result(
    parsed: ParsedRecord, over: bool, scores: Sequence[int], highest_suns: Sequence[int]
) -> None:
    """Raise :class:`RecordError` if a record's stated result disagrees with the replay's.

    A version 1 record stated the engine's winner, which ignored forfeits: it is checked
    against that and still loads (written again, it is a version 2 record)."""
    result = parsed.result
    if result is None or "scores" not in result:
        return
    forfeited = parsed.forfeited if parsed.version >= 2 else frozenset()
    replayed = result_fields(over, scores, highest_suns, forfeited)
    stated, winner = result["scores"], replayed["winner"]
    ranked = "ranks" not in result or result["ranks"] == replayed["ranks"]
    if stated != replayed["scores"] or result.get("winner") != winner or not ranked:
        shown = str(stated)[:80]
        raise RecordError(
            f"the replay does not reach the recorded result: scores {list(scores)}, "
            f"winner {winner}; the record says {shown}, winner {str(result.get('winner'))[:20]}"
        )
