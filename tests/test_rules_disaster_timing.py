"""R3.5 "2008 disaster timing": Disasters taken with God tiles, resolved at once (the default,
the 2016 and 2023 rulebooks) or after every tile of the turn is taken (the 2008 rulebook).

Every scenario runs on the Python engine and, when it is built, on the native core (the core
mirrors the game from its start and must agree after every decision; the checks read the
core's own state).
"""

from __future__ import annotations

from typing import Any

import pytest

import ra
from ra.native import core, snapshot
from tests.conftest import make_game, play

STANDARD_2P = [[9, 6, 5, 2], [8, 7, 4, 3]]
ENGINES = ["python", pytest.param("native", marks=pytest.mark.skipif(core is None, reason="no native core"))]
# Indices into ra.native.snapshot / ra._core.State.snapshot().
_PHASE, _TO_MOVE, _DISPLAYS, _PENDING = 3, 4, 22, 27


class Table:
    """A scenario's game on one engine: the Python game, mirrored by the native core."""

    def __init__(self, engine: str, bag: list[str], timing: str) -> None:
        self.game = make_game(2, bag=bag, suns=STANDARD_2P, disaster_timing=timing)
        self.native: Any = core.State.from_game(self.game) if engine == "native" and core else None

    def play(self, *moves: str) -> Table:
        for m in moves:
            play(self.game, m)
            if self.native is not None:
                self.native.apply(ra.Action.coerce(m).index)
                assert self.native.snapshot() == snapshot(self.game), f"engines differ after {m!r}"
        return self

    def tiles(self, seat: int) -> dict[str, int]:
        if self.native is None:
            return dict(self.game.players[seat].tiles)
        row = self.native.snapshot()[_DISPLAYS][seat]
        return {ra.TILE_IDS[t]: c for t, c in enumerate(row) if c}

    def pending(self) -> tuple[str, ...]:
        if self.native is None:
            return self.game.pending_disasters
        return tuple(ra.TILE_IDS[t] for t in self.native.snapshot()[_PENDING])

    def legal(self) -> list[str]:
        if self.native is None:
            return [str(a) for a in self.game.legal_actions()]
        return [str(ra.ALL_ACTIONS[i]) for i in self.native.legal_actions()]

    def state(self) -> tuple[str, int | None]:
        if self.native is None:
            return self.game.phase, self.game.to_move
        snap = self.native.snapshot()
        return ra.state.PHASE_NAMES[snap[_PHASE]], snap[_TO_MOVE] if snap[_PHASE] != 4 else None


def gods_then(engine: str, timing: str, held: list[str], track: list[str]) -> Table:
    """Seat 0 wins a lot of two God tiles and ``held`` (drawn alternately, seat 0 invokes Ra and
    wins with sun 2, or the forced auction of a full track); then ``track`` is drawn (seat 1
    first) and one more Gold, so that seat 0 is to move with ``track`` on the auction track."""
    lot = ["god", "god", *held]
    extra = [] if len(track) % 2 else ["gold"]
    t = Table(engine, [*lot, *track, *extra], timing)
    t.play(*["draw"] * len(lot))
    if len(lot) == 8:
        t.play("pass", "bid 2")  # a full track: the engine invoked Ra for seat 0 (forced, R3.4)
    else:
        t.play(*(["ra", "pass", "bid 2"] if len(lot) % 2 == 0 else ["ra", "bid 2", "pass"]))
    if t.state() == ("action", 0):
        t.play("ra", "pass", "bid 5")  # hand the turn to seat 1 (seat 0 must win its own Ra, R4.3)
    assert t.state() == ("action", 1)
    t.play(*["draw"] * (len(track) + len(extra)))
    assert t.state() == ("action", 0)
    assert t.tiles(0).get("god") == 2
    return t


def test_r3_5_the_default_is_the_immediate_timing() -> None:
    game = ra.Game(3, seed=1)
    assert game.setup.disaster_timing == "immediate" == game.disaster_timing
    assert ra.DISASTER_TIMINGS == ("immediate", "2008")
    assert game.pending_disasters == ()


@pytest.mark.parametrize("engine", ENGINES)
def test_r3_5_a_disaster_hits_a_tile_taken_after_it_only_with_the_2008_timing(engine: str) -> None:
    # Seat 0 takes a Funeral with its first God, then a Pharaoh with its second.
    immediate = gods_then(engine, "immediate", [], ["funeral", "pharaoh", "gold"])
    immediate.play("god funeral")
    assert immediate.state() == ("god", 0)  # resolved at once: no Pharaoh to lose yet
    immediate.play("god pharaoh")
    assert immediate.tiles(0) == {"pharaoh": 1}

    late = gods_then(engine, "2008", [], ["funeral", "pharaoh", "gold"])
    late.play("god funeral")
    assert late.state() == ("god", 0)
    assert late.pending() == ("funeral",)
    assert late.tiles(0) == {"god": 1}  # the Funeral waits; it is not part of the display
    late.play("god pharaoh")  # the last God: the takes end by themselves, then the Funeral
    assert late.pending() == ()
    assert late.tiles(0) == {}
    assert late.state() == ("action", 1)
    g = late.game
    tail = [(e.kind, e.tile) for e in g.events[-5:]]
    assert tail == [
        ("god", ra.Tile.FUNERAL),
        ("god", ra.Tile.PHARAOH),
        ("done", None),  # the takes end by themselves (no God left) ...
        ("disaster", ra.Tile.FUNERAL),  # ... then the Funeral is resolved (R3.5, 2008)
        ("discard", ra.Tile.PHARAOH),
    ]
    assert g.events[-3].auto and g.events[-1].auto
    assert g.removed_counts()[ra.Tile.FUNERAL] == 1 and g.removed_counts()[ra.Tile.PHARAOH] == 1
    assert g.tile_census() == list(ra.TILE_COUNTS)


@pytest.mark.parametrize("engine", ENGINES)
def test_r3_5_an_earthquake_hits_the_monument_taken_after_it_only_with_the_2008_timing(engine: str) -> None:
    # Seat 0 holds a Pyramid, takes an Earthquake, then a Temple.
    immediate = gods_then(engine, "immediate", ["pyramid"], ["earthquake", "temple", "gold"])
    immediate.play("god earthquake", "god temple")
    assert immediate.tiles(0) == {"temple": 1}
    late = gods_then(engine, "2008", ["pyramid"], ["earthquake", "temple", "gold"])
    late.play("god earthquake", "god temple")
    assert late.tiles(0) == {}  # two Monuments, two to lose: no choice (R5.4)


@pytest.mark.parametrize("engine", ENGINES)
def test_r3_5_a_disaster_still_hits_a_tile_taken_before_it(engine: str) -> None:
    for timing in ra.DISASTER_TIMINGS:
        t = gods_then(engine, timing, [], ["drought", "flood", "gold"])
        t.play("god flood", "god drought")
        assert t.tiles(0) == {}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("order", "first_asked"), [(("earthquake", "unrest"), "monument"), (("unrest", "earthquake"), "civ")]
)
def test_r3_5_two_disasters_are_resolved_in_the_order_taken(
    engine: str, order: tuple[str, str], first_asked: str
) -> None:
    civs = ["astronomy", "writing", "art"]
    monuments = ["pyramid", "sphinx", "temple"]
    t = gods_then(engine, "2008", [*civs, *monuments], ["earthquake", "unrest", "gold"])
    t.play(f"god {order[0]}", f"god {order[1]}")
    # Both were taken; the first taken is resolved first, and asks (3 tiles of 3 kinds, 2 to go).
    assert t.state() == ("discard", 0)
    first, second = (monuments, civs) if first_asked == "monument" else (civs, monuments)
    assert t.legal() == [f"discard {k}" for k in first]
    assert t.pending() == (order[1],)  # the second still waits
    t.play(f"discard {first[0]}", f"discard {first[1]}")
    assert t.state() == ("discard", 0)
    assert t.legal() == [f"discard {k}" for k in second]
    assert t.pending() == ()
    t.play(f"discard {second[2]}", f"discard {second[1]}")
    assert t.tiles(0) == {first[2]: 1, second[0]: 1}
    assert t.state() == ("action", 1)  # the turn passes once every disaster is resolved
    disasters = [str(e.tile) for e in t.game.events if e.kind == "disaster"]
    assert disasters == list(order)


@pytest.mark.parametrize("engine", ENGINES)
def test_r3_5_the_immediate_timing_asks_at_each_take(engine: str) -> None:
    civs = ["astronomy", "writing", "art"]
    monuments = ["pyramid", "sphinx", "temple"]
    t = gods_then(engine, "immediate", [*civs, *monuments], ["earthquake", "unrest", "gold"])
    t.play("god unrest")
    assert t.state() == ("discard", 0) and t.legal() == [f"discard {k}" for k in civs]
    t.play("discard art", "discard writing")
    assert t.state() == ("god", 0)  # back to the God tiles (R3.5)
    t.play("god earthquake", "discard sphinx", "discard temple")
    assert t.state() == ("action", 1)
    assert t.tiles(0) == {"astronomy": 1, "pyramid": 1}


@pytest.mark.parametrize("engine", ENGINES)
def test_r3_5_two_earthquakes_taken_this_turn_stack(engine: str) -> None:
    # R5.3: two Earthquakes destroy up to four Monuments, as one resolution: with four
    # Monuments held there is no choice left (R5.4).  At once, the first one asks.
    held = ["pyramid", "pyramid", "pyramid", "temple"]
    late = gods_then(engine, "2008", held, ["earthquake", "earthquake", "gold"])
    late.play("god earthquake", "god earthquake")
    assert late.tiles(0) == {}
    assert late.state() == ("action", 1)
    immediate = gods_then(engine, "immediate", held, ["earthquake", "earthquake", "gold"])
    immediate.play("god earthquake")
    assert immediate.state() == ("discard", 0)
    immediate.play("discard pyramid", "discard pyramid", "god earthquake")
    assert immediate.tiles(0) == {}


@pytest.mark.parametrize("engine", ENGINES)
def test_r3_5_done_resolves_the_disasters_taken(engine: str) -> None:
    # Stopping by choice (done) with a God tile left: the Funeral is resolved then.
    t = gods_then(engine, "2008", ["pharaoh"], ["funeral", "gold", "nile"])
    t.play("god funeral")
    assert t.pending() == ("funeral",) and t.tiles(0) == {"god": 1, "pharaoh": 1}
    assert "done" in t.legal()
    t.play("done")
    assert t.tiles(0) == {"god": 1}
    assert t.pending() == () and t.state() == ("action", 1)
    tail = [(e.kind, e.tile) for e in t.game.events[-3:]]
    assert tail == [("done", None), ("disaster", ra.Tile.FUNERAL), ("discard", ra.Tile.PHARAOH)]
    assert not t.game.events[-3].auto  # the player's own choice


@pytest.mark.parametrize("engine", ENGINES)
def test_r3_5_no_tile_left_to_take_ends_the_takes_and_resolves(engine: str) -> None:
    # The only non-God tile is the Unrest: taking it leaves nothing to take (R3.2), the takes
    # end by themselves and the Unrest asks for its discards.
    t = gods_then(engine, "2008", ["astronomy", "writing", "art"], ["unrest"])
    assert t.game.auction_track == ["unrest"]
    t.play("god unrest")
    assert t.state() == ("discard", 0)
    assert t.tiles(0)["god"] == 1  # one God left, unused
    t.play("discard art", "discard astronomy")
    assert t.tiles(0) == {"god": 1, "writing": 1}
    assert t.state() == ("action", 1)


def test_r3_5_the_variant_survives_undo_views_and_records() -> None:
    t = gods_then("python", "2008", ["pharaoh"], ["funeral", "gold", "nile"])
    g = t.game
    play(g, "god funeral")
    view = g.view(1)
    assert view.pending_disasters == ("funeral",)
    data = view.to_dict()
    assert data["disaster_timing"] == "2008" and data["pending_disasters"] == ["funeral"]
    assert view.determinize(seed=3).pending_disasters == ("funeral",)
    again = ra.Game.from_record(g.to_record())
    assert again == g and again.pending_disasters == ("funeral",)
    assert ra.Game.from_record(g.to_record(public=True)).pending_disasters == ("funeral",)
    play(g, "done")
    seen = [(g.phase, g.pending_disasters)]
    g.undo()
    seen.append((g.phase, g.pending_disasters))
    g.undo()
    seen.append((g.phase, g.pending_disasters))
    assert seen == [("action", ()), ("god", ("funeral",)), ("action", ())]


def test_r3_5_an_unknown_timing_is_a_setup_error() -> None:
    with pytest.raises(
        ra.SetupError, match=r"unknown disaster_timing '2016'.*immediate, 2008 \(R3.5\)"
    ) as err:
        ra.Game(3, disaster_timing="2016")
    assert err.value.option == "disaster_timing"
    with pytest.raises(ra.SetupError, match="disaster_timing"):
        ra.Game(3, disaster_timing=None)  # type: ignore[arg-type]
    # Orthogonal to the variant: the long two-player game takes either timing.
    game = ra.Game(2, variant="long-2p", suns_per_player=5, disaster_timing="2008")
    assert (game.setup.variant, game.disaster_timing) == ("long-2p", "2008")
