"""Game records (R9.2): JSON round trips, replays, clear errors."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import ra
from ra import records


def random_game(players: int, seed: int, steps: int | None = None, **kwargs: object) -> ra.Game:
    game = ra.Game(players=players, seed=seed, **kwargs)  # type: ignore[arg-type]
    rng = random.Random(seed)
    while not game.is_over() and (steps is None or game.num_decisions < steps):
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_record_replays_to_the_same_state_and_scores(players: int) -> None:
    game = random_game(players, seed=players * 13)
    record = game.to_record()
    text = json.dumps(record)
    again = ra.Game.from_record(json.loads(text))
    assert again == game
    assert again.scores == game.scores and again.winner == game.winner
    assert ra.Game.from_record(text) == game  # the JSON text works too
    assert [e.text(game.names) for e in again.events] == [e.text(game.names) for e in game.events]


def test_unfinished_games_and_variants_round_trip() -> None:
    game = random_game(2, seed=4, steps=30, variant="long-2p", suns_per_player=7, hidden_scores=True)
    again = ra.Game.from_record(game.to_record())
    assert again == game
    assert again.setup.variant == "long-2p" and again.setup.hidden_scores
    stacked = ra.Game(players=3, seed=2, bag=["gold", "ra"], suns=[[13], [12], [11]])
    stacked.apply("draw")
    assert ra.Game.from_record(stacked.to_record()) == stacked
    exact = ra.Game(players=2, seed=2, bag=["gold"], exact_bag=True)
    assert ra.Game.from_record(exact.to_record()) == exact


def test_the_2008_disaster_timing_saves_and_replays(tmp_path: Path) -> None:
    # R3.5 "2008 disaster timing": the setup field travels with the record, files included.
    top = ["god", "god", "god", "funeral", "pharaoh", "unrest", "astronomy", "writing"] * 2
    for seed in range(10):
        game = random_game(3, seed=seed, disaster_timing="2008", bag=top)
        record = game.to_record()
        assert record["disaster_timing"] == "2008"
        again = ra.Game.from_record(json.dumps(record))
        assert again == game and again.disaster_timing == "2008"
        path = tmp_path / f"g{seed}.json"
        records.save(game, path)
        assert records.load(path) == game
    half = random_game(3, seed=3, steps=40, disaster_timing="2008", bag=top)
    assert ra.Game.from_record(half.to_record(public=True)).disaster_timing == "2008"


def test_a_record_without_disaster_timing_loads_as_immediate() -> None:
    # Records made before the variant existed (R3.5): the default timing.
    game = random_game(3, seed=8)
    record = game.to_record()
    assert record["disaster_timing"] == "immediate"
    del record["disaster_timing"]
    again = ra.Game.from_record(record)
    assert again == game and again.setup.disaster_timing == "immediate"
    record["disaster_timing"] = "2009"
    with pytest.raises(ra.RecordError, match=r"record setup: unknown disaster_timing '2009'"):
        ra.Game.from_record(record)
    record["disaster_timing"] = 2008
    with pytest.raises(ra.RecordError, match=r"'disaster_timing' has the wrong type"):
        ra.Game.from_record(record)


def test_the_same_seed_and_decisions_give_the_same_game() -> None:
    a = random_game(4, seed=99)
    b = ra.Game(players=4, seed=99)
    for d in a.decisions:
        b.apply(d)
    assert a == b
    assert a.events == b.events


def test_an_illegal_decision_is_reported_with_its_number() -> None:
    game = random_game(3, seed=5, steps=20)
    record = game.to_record()
    record["result"] = None
    record["decisions"][11] = "bid 16"
    with pytest.raises(ra.RecordError, match=r"^decision 12 \('bid 16'\): ") as info:
        ra.Game.from_record(record)
    assert info.value.index == 12
    record["decisions"][11] = "hop"
    with pytest.raises(ra.RecordError, match=r"decision 12 \('hop'\): unknown action"):
        ra.Game.from_record(record)


def test_decisions_after_the_end_are_rejected() -> None:
    game = random_game(2, seed=3)
    record = game.to_record()
    record["decisions"].append("draw")
    record["result"] = None
    with pytest.raises(ra.RecordError, match="already over") as info:
        ra.Game.from_record(record)
    assert info.value.index == len(record["decisions"])


def test_a_record_whose_result_does_not_match_is_rejected() -> None:
    game = random_game(2, seed=8)
    record = game.to_record()
    record["result"]["scores"][0] += 1
    with pytest.raises(ra.RecordError, match="does not reach the recorded result"):
        ra.Game.from_record(record)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "chess"}, "not a Ra game record"),
        ({"version": 9}, "unsupported record version 9"),
        ({"players": 7}, "'players' has the wrong type"),
        ({"players": list("abcdef")}, r"record setup: .*2 to 5 players"),
        ({"seed": "x"}, "'seed' has the wrong type"),
        ({"seed": True}, "'seed' has the wrong type"),
        ({"bag": ["unicorn"]}, r"record setup: bag\[0\]: unknown tile"),
        ({"suns": [[13], [13], [4]]}, "record setup: sun 13 is dealt twice"),
    ],
)
def test_bad_records_are_rejected_clearly(change: dict[str, object], message: str) -> None:
    record = ra.Game(players=3, seed=1).to_record()
    record.update(change)
    with pytest.raises(ra.RecordError, match=message):
        ra.Game.from_record(record)


def test_missing_fields_and_bad_json() -> None:
    record = ra.Game(players=3, seed=1).to_record()
    del record["decisions"]
    with pytest.raises(ra.RecordError, match="no 'decisions' field"):
        ra.Game.from_record(record)
    with pytest.raises(ra.RecordError, match="not valid JSON"):
        ra.Game.from_record("{oops")
    with pytest.raises(ra.RecordError, match="JSON object"):
        ra.Game.from_record("[1, 2]")


def test_save_and_load(tmp_path: Path) -> None:
    game = random_game(5, seed=21, steps=60)
    path = tmp_path / "game.json"
    records.save(game, path)
    assert records.load(path) == game
    assert not list(tmp_path.glob("*.tmp"))
    with pytest.raises(ra.RecordError, match="cannot read"):
        records.load(tmp_path / "missing.json")
