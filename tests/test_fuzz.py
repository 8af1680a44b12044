"""Fuzzing the boundary: whatever a caller or a file gives, only documented errors escape.

``Game(...)`` raises ``ValueError``; ``Game.from_record`` raises ``RecordError``;
``apply`` raises ``IllegalActionError`` / ``NotationError``; and what is accepted
round-trips through its JSON record.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ra

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
ANY = JSON | st.integers(min_value=-(10**30), max_value=10**30) | st.binary(max_size=4)
FIELDS = [
    "players",
    "seed",
    "variant",
    "suns_per_player",
    "hidden_scores",
    "suns",
    "bag",
    "bag_counts",
    "decisions",
    "result",
    "format",
    "version",
]
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def valid_record() -> dict[str, Any]:
    game = ra.Game(players=3, seed=5)
    for _ in range(12):
        game.apply(game.legal_actions()[0])
    return game.to_record()


@FUZZ
@given(changes=st.dictionaries(st.sampled_from(FIELDS), ANY, min_size=1, max_size=3))
def test_mutated_records_load_or_raise_record_error(changes: dict[str, Any]) -> None:
    record = valid_record()
    record.update(changes)
    try:
        game = ra.Game.from_record(record)
    except ra.RecordError:
        return
    assert ra.Game.from_record(json.loads(json.dumps(game.to_record()))) == game


@FUZZ
@given(text=st.text(max_size=60) | st.binary(max_size=60).map(lambda b: b.decode("latin-1")))
def test_any_text_loads_or_raises_record_error(text: str) -> None:
    with contextlib.suppress(ra.RecordError):
        ra.Game.from_record(text)


@FUZZ
@given(
    decisions=st.lists(st.sampled_from([str(a) for a in ra.ALL_ACTIONS]) | st.text(max_size=10), max_size=30)
)
def test_records_with_any_decisions_load_or_raise_record_error(decisions: list[str]) -> None:
    record = valid_record()
    record["decisions"] = decisions
    record.pop("result")
    try:
        game = ra.Game.from_record(record)
    except ra.RecordError as err:
        assert err.index is None or 1 <= err.index <= len(decisions)
        return
    assert [str(a) for a in game.decisions] == [str(ra.Action.parse(d)) for d in decisions]


@FUZZ
@given(
    players=ANY | st.lists(st.text(max_size=5), max_size=6) | st.integers(min_value=-3, max_value=8),
    seed=st.none() | ANY,
    variant=st.sampled_from(["standard", "long-2p"]) | ANY,
    suns_per_player=st.none() | ANY | st.integers(min_value=2, max_value=8),
    hidden_scores=st.booleans() | ANY,
    bag=st.none() | st.lists(st.sampled_from(ra.TILE_IDS) | st.text(max_size=4), max_size=5) | ANY,
    suns=st.none() | ANY,
    disaster_timing=st.sampled_from(ra.DISASTER_TIMINGS) | ANY,
)
def test_setups_build_a_game_that_round_trips_or_raise_value_error(**kwargs: Any) -> None:
    try:
        game = ra.Game(**kwargs)
    except ValueError:
        return
    text = json.dumps(game.to_record())
    again = ra.Game.from_record(text)
    assert again == game


@FUZZ
@given(seat=ANY, action=ANY)
def test_views_and_actions_raise_documented_errors(seat: Any, action: Any) -> None:
    game = ra.Game(players=3, seed=1)
    with contextlib.suppress(ValueError):
        game.view(seat)
    try:
        game.apply(action)
    except (ra.IllegalActionError, ra.NotationError):
        assert game.num_decisions == 0
