"""The event log: its schema, typed accessors, JSON form and plain words (second person for "You")."""

from __future__ import annotations

import json
import random

import pytest

import ra
from ra import events as ev
from ra.events import EVENT_KINDS, Event, describe
from ra.scoring import ScoreBreakdown
from ra.tiles import Tile

BREAKDOWN = ScoreBreakdown(1, 0, 2, 3, 5, 0, -5, 0, 0, before=10, after=15)

# One event of every kind, made by its constructor, with its text for Ann and for "You".
SAMPLES: list[tuple[Event, str, str | None]] = [
    (ev.epoch_started(1, 0), "Epoch 1 begins; Ann plays first.", "Epoch 1 begins; you play first."),
    (ev.draw(0, Tile.FLOOD), "Ann draws Flood.", "You draw Flood."),
    (ev.draw(0, Tile.RA, 3), "Ann draws Ra (3 on the Ra track).", "You draw Ra (3 on the Ra track)."),
    (ev.invoke(0), "Ann invokes Ra.", "You invoke Ra."),
    (
        ev.invoke(0, auto=True),
        "Ann invokes Ra (the only possible action).",
        "You invoke Ra (the only possible action).",
    ),
    (
        ev.auction(0, "forced"),
        "Auction (Ra invoked on a full track); Ann is the Ra player and bids last.",
        "Auction (Ra invoked on a full track); you are the Ra player and bid last.",
    ),
    (ev.bid(0, 9), "Ann bids sun 9.", "You bid sun 9."),
    (
        ev.bid(0, 9, auto=True),
        "Ann bids sun 9 (must bid, the only sun).",
        "You bid sun 9 (must bid, the only sun).",
    ),
    (ev.passed(0), "Ann passes.", "You pass."),
    (ev.auto_pass(0, 9, True), "Ann passes (no sun higher than 9).", "You pass (no sun higher than 9)."),
    (
        ev.won(0, 9, [Tile.FLOOD, Tile.PHARAOH, Tile.FLOOD], 1),
        "Ann wins with sun 9 and takes 1 Pharaoh and 2 Floods with sun 1 (face down).",
        "You win with sun 9 and take 1 Pharaoh and 2 Floods with sun 1 (face down).",
    ),
    (
        ev.won(0, 9, [], 1),
        "Ann wins with sun 9: takes no tiles, only sun 1 (face down).",
        "You win with sun 9: take no tiles, only sun 1 (face down).",
    ),
    (
        ev.no_bid(0, [Tile.GOLD] * 8, removed=True),
        "Nobody bids; the 8 tiles on the full auction track leave the game.",
        "Nobody bids; the 8 tiles on the full auction track leave the game.",
    ),
    (ev.no_bid(0, [], removed=False), "Nobody bids.", "Nobody bids."),
    (ev.no_bid(0, [Tile.GOLD], removed=False), "Nobody bids; the tile stays on the auction track.", None),
    (ev.no_bid(0, [Tile.GOLD] * 2, removed=False), "Nobody bids; the tiles stay on the auction track.", None),
    (ev.god(0, Tile.PHARAOH), "Ann uses a God tile to take Pharaoh.", "You use a God tile to take Pharaoh."),
    (ev.done(0), "Ann stops using God tiles.", "You stop using God tiles."),
    (
        ev.disaster(0, Tile.FUNERAL, 2),
        "Funeral strikes Ann: 2 tiles lost.",
        "Funeral strikes you: 2 tiles lost.",
    ),
    (
        ev.disaster(0, Tile.DROUGHT, 1),
        "Drought strikes Ann: 1 tile lost.",
        "Drought strikes you: 1 tile lost.",
    ),
    (
        ev.disaster(0, Tile.UNREST, 0),
        "Unrest strikes Ann: nothing to lose.",
        "Unrest strikes you: nothing to lose.",
    ),
    (ev.discard(0, Tile.PHARAOH, True), "Ann loses Pharaoh.", "You lose Pharaoh."),
    (ev.discard(0, Tile.TEMPLE, False), "Ann loses Temple (chosen).", "You lose Temple (chosen)."),
    (ev.epoch_ended(2, "no_suns", []), "Epoch 2 ends: no player has a face-up sun.", None),
    (ev.epoch_ended(1, "ra_track", [Tile.GOLD]), "Epoch 1 ends: the Ra track is full.", None),
    (
        ev.scored(BREAKDOWN, 0),
        "Ann scores +5 (Gods +2, Gold +3, Pharaohs +5 and Civilization -5): 10 → 15.",
        "You score +5 (Gods +2, Gold +3, Pharaohs +5 and Civilization -5): 10 → 15.",
    ),
    (ev.scored(None, 0), "Ann scores (hidden).", "You score (hidden)."),
    (ev.game_over(0, False), "Game over: Ann wins.", "Game over: you win."),
    (
        ev.game_over(0, True),
        "Game over: Ann wins on the tie-break (highest sun, R8.1).",
        "Game over: you win on the tie-break (highest sun, R8.1).",
    ),
]


def test_every_kind_has_a_sample() -> None:
    assert {e.kind for e, _, _ in SAMPLES} == set(EVENT_KINDS)


@pytest.mark.parametrize(
    ("event", "ann", "you"), SAMPLES, ids=[f"{i}-{s[0].kind}" for i, s in enumerate(SAMPLES)]
)
def test_every_kind_renders_for_others_and_for_you(event: Event, ann: str, you: str | None) -> None:
    assert event.text(["Ann", "Bob"]) == ann
    assert event.text(["You", "Bob"]) == (you if you is not None else ann)
    assert str(event) == describe(event)  # "Player 1 ..." without names
    data = event.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["kind"] == event.kind


def test_editions_rename_tiles_in_the_log() -> None:
    # R1.2: Unrest is "War" in the 2016 and 2023 editions.
    assert ev.disaster(1, Tile.UNREST, 2).text(["Ann", "Bob"], "2016") == "War strikes Bob: 2 tiles lost."
    assert ev.won(0, 5, [Tile.UNREST, Tile.UNREST], 1).text(["Ann", "Bob"], "2023") == (
        "Ann wins with sun 5 and takes 2 War tiles with sun 1 (face down)."
    )
    with pytest.raises(ValueError, match="unknown edition"):
        ev.draw(0, Tile.GOLD).text(["Ann", "Bob"], "1066")


def test_an_unknown_kind_renders_without_recursion() -> None:
    event = Event("mystery", 0)  # type: ignore[arg-type]
    assert str(event).startswith("mystery: ('mystery', 0")
    assert event.text(["Ann"]).startswith("mystery:")


def test_typed_accessors() -> None:
    assert ev.epoch_started(2, 1).epoch_number == 2
    assert ev.epoch_ended(3, "no_suns", []).epoch_number == 3
    assert ev.epoch_ended(3, "no_suns", []).reason == "no_suns"
    assert ev.draw(0, Tile.RA, 4).ra_count == 4
    assert ev.auction(0, 1).auction_kind == "voluntary"
    assert ev.won(0, 9, [], 1).face_down_sun == 1
    assert ev.no_bid(0, [], removed=True).removed is True
    assert ev.disaster(0, Tile.FUNERAL, 2).lost == 2
    assert ev.scored(BREAKDOWN, 0).breakdown == BREAKDOWN
    assert ev.game_over(1, True).tie_break is True
    assert ev.bid(0, 3).breakdown is None and ev.bid(0, 3).epoch_number is None


def test_every_auction_kind_has_words() -> None:
    # R3.3/R3.4: why an auction takes place, as the log says it.
    for kind in ev.AUCTION_KINDS:
        text = ev.auction(0, kind).text(["Ann", "Bob"])
        assert text.startswith("Auction (") and "Ann is the Ra player" in text
    assert "full track" in ev.auction(1, "forced").text(["Ann", "Bob"])


def test_the_log_in_russian() -> None:
    names = ["Аня", "Боря"]
    assert ev.bid(0, 9).text(names, lang="ru") == "Аня ставит диск 9."
    assert ev.auto_pass(1, 12, True).text(names, lang="ru") == "Боря пасует (нет диска выше 12)."
    assert ev.disaster(1, Tile.UNREST, 2).text(names, "2016", "ru") == "Война: Боря теряет 2 жетона."
    lot = [Tile.FLOOD, Tile.PHARAOH, Tile.FLOOD, Tile.GOLD]
    assert ev.won(0, 9, lot, 1).text(["Вы", "Боря"], lang="ru") == (
        "Вы выигрываете аукцион с диском 9. Выигрыш: 1 жетон золота, 1 фараон и 2 жетона паводка, "
        "а также диск 1 (лицевой стороной вниз)."  # the lot in the nominative, after a colon
    )
    assert ev.no_bid(0, [Tile.GOLD] * 5, removed=True).text(names, lang="ru") == (
        "Ставок нет; 5 жетонов с заполненного аукционного ряда уходят из игры."
    )


def test_a_whole_game_log_reads_in_the_second_person_for_you() -> None:
    game = ra.Game(players=["You", "Ann", "Bob"], seed=4)
    rng = random.Random(4)
    while not game.is_over():
        game.apply(rng.choice(game.legal_actions()))
    text = "\n".join(e.text(game.names) for e in game.events)
    for wrong in ("You plays", "You draws", "You is", "strikes You", "You bids", "You passes", "(s)"):
        assert wrong not in text
    assert "You draw" in text and "Ann draws" in text
    for e in game.events:
        assert json.loads(json.dumps(e.to_dict())) == e.to_dict()


@pytest.mark.parametrize(
    ("first", "has", "turn"),
    [("You", "You have", "your turn"), ("Ann", "Ann has", "Ann's turn")],
)
def test_why_illegal_speaks_to_you_in_the_second_person(first: str, has: str, turn: str) -> None:
    """The reasons for a refused action read right for "You" as for a name (R4.1, R4.2)."""
    game = ra.Game(players=[first, "Bob"], seed=0, bag=["pharaoh"], suns=[[9, 6, 5, 2], [8, 7, 4, 3]])
    game.apply("draw")
    game.apply("ra")  # Bob invokes Ra; the first seat bids first
    assert game.why_illegal("bid 13") == f"{has} no face-up sun 13 (R4.2)"
    assert game.why_illegal("draw") == f"draw is not possible now: it is {turn} to bid or pass (R4.1)"


def test_the_2023_sun_boat_sails_in_the_log() -> None:
    # R1.2: in the 2023 edition a drawn Ra tile moves the sun boat; the log says so.
    draw = ev.draw(0, Tile.RA, 3)
    assert draw.text(["Ann", "Bob"], "2023") == "Ann draws Ra: the sun boat sails to space 3."
    assert draw.text(["You", "Bob"], "2023") == "You draw Ra: the sun boat sails to space 3."
    assert draw.text(["Ann", "Bob"], "2016") == "Ann draws Ra (3 on the Ra track)."
    assert "солнечная ладья" in draw.text(["Аня", "Боря"], "2023", "ru")
