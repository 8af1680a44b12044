"""The engine as a library: one definition of legality, cheap undo, safe boundaries.

Scenario tests cite RULES.md; the rest pin the public API's promises (documented
errors only, state unchanged after a rejected action, records that round-trip).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
import random
import time
from pathlib import Path
from typing import Any

import pytest

import ra
from ra import records
from ra.actions import ALL_ACTIONS, NUM_ACTIONS

# --- helpers --------------------------------------------------------------------------


def random_game(players: int, seed: int, stop: int | None = None, **kwargs: Any) -> ra.Game:
    """A game played at random (to the end, or ``stop`` decisions)."""
    game = ra.Game(players=players, seed=seed, **kwargs)
    rng = random.Random(seed)
    while not game.is_over() and (stop is None or game.num_decisions < stop):
        game.apply(rng.choice(game.legal_actions()))
    return game


def snapshot(game: ra.Game) -> tuple[Any, ...]:
    """Everything observable about a game, to check that nothing changed."""
    return (game.position_key(), game.events, game.decisions, game.epoch_scores, game.to_record())


# --- one definition of legality -------------------------------------------------------


@pytest.mark.slow
def test_legal_actions_is_legal_and_apply_agree_on_all_54_actions() -> None:
    # R3.2, R3.5, R4.2, R4.3, R5.2: over many random positions, every action is in
    # legal_actions() exactly when is_legal() says so and apply() succeeds.
    assert NUM_ACTIONS == 54
    rng = random.Random(2024)
    positions = 0
    for i in range(12):
        game = ra.Game(players=2 + i % 4, seed=500 + i, hidden_scores=i % 3 == 0)
        while not game.is_over():
            legal = set(game.legal_actions())
            assert len(legal) >= 2, "a single option is taken by the engine itself"
            before = snapshot(game)
            refused = game.clone()  # every illegal action is tried on one copy: none may change it
            for action in ALL_ACTIONS:
                allowed = game.is_legal(action)
                assert allowed == (action in legal), (action, game)
                assert (game.why_illegal(action) is None) == allowed
                trial = game.clone() if allowed else refused
                try:
                    trial.apply(action)
                    applied = True
                except ra.IllegalActionError as err:
                    applied = False
                    assert str(err) == game.why_illegal(action)
                assert applied == allowed, (action, game)
            assert snapshot(refused) == before, "a rejected action changed the game"
            assert snapshot(game) == before
            positions += 1
            game.apply(rng.choice(sorted(legal, key=lambda a: a.index)))
    assert positions > 1000


def test_views_answer_legality_like_the_game() -> None:
    game = random_game(3, 7, stop=40)
    seat = game.to_move
    assert seat is not None
    view = game.view(seat)
    assert view.legal_actions() == game.legal_actions()
    for action in ALL_ACTIONS:
        assert view.why_illegal(action) == game.why_illegal(action)


def test_why_illegal_cites_the_rule_and_rejects_bad_notation() -> None:
    game = ra.Game(players=3, seed=1)
    assert game.why_illegal("draw") is None
    who = game.names[game.to_move or 0]
    assert game.why_illegal("bid 5") == (
        f"bid 5 is not possible now: {who} must take a turn action (draw, ra or god <tile>) (R3.2)"
    )
    assert game.why_illegal("god pharaoh") == f"{who} holds no God tile (R3.2)"
    with pytest.raises(ra.NotationError):
        game.why_illegal("fly")
    assert not game.is_legal("fly")


# --- actions ------------------------------------------------------------------------


def test_all_actions_is_an_immutable_tuple_in_a_pinned_order() -> None:
    assert isinstance(ALL_ACTIONS, tuple)
    texts = [str(a) for a in ALL_ACTIONS]
    gods = [f"god {t.id}" for t in ra.Tile if t not in (ra.Tile.RA, ra.Tile.GOD)]
    bids = [f"bid {s}" for s in range(1, 17)]
    discards = [f"discard {t}" for t in ra.TILE_IDS[6:19]]
    assert texts == ["draw", "ra", "done", "pass", *gods, *bids, *discards]
    assert texts[4] == "god gold" and texts[25] == "bid 1" and texts[-1] == "discard temple"
    assert all(a.index == i for i, a in enumerate(ALL_ACTIONS))


@pytest.mark.parametrize("text", ["bid ९", "bid 1_0", "bid +9", "bid 9.0", "bid 1 0", "bid -1", "bid 0x9"])
def test_action_notation_takes_plain_digits_only(text: str) -> None:
    with pytest.raises(ra.NotationError):
        ra.Action.parse(text)


def test_action_from_index_rejects_non_indices() -> None:
    assert ra.Action.from_index(0) is ra.Action.parse("draw")
    for bad in (-1, NUM_ACTIONS, True, "3", 2.0):
        with pytest.raises(ValueError, match="no action has index"):
            ra.Action.from_index(bad)  # type: ignore[arg-type]


# --- undo ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 5])
def test_undo_restores_every_earlier_position(players: int) -> None:
    game = random_game(players, 31 + players)
    n = game.num_decisions
    start = ra.Game(players=players, seed=31 + players)
    replayed = [start.clone()]
    for action in game.decisions:
        start.apply(action)
        replayed.append(start.clone())
    for k in range(n, 0, -1):
        assert game == replayed[k]
        assert game.undo() is replayed[k].decisions[-1]
    assert game == replayed[0]
    with pytest.raises(ra.NothingToUndoError, match="no decision to undo"):
        game.undo()
    with pytest.raises(IndexError):  # as python-chess's pop, and earlier versions
        game.undo()


def test_undo_then_a_different_decision_then_undo() -> None:
    game = random_game(3, 12, stop=100)
    before = game.clone()
    game.undo()
    other = next(a for a in game.legal_actions() if a is not before.decisions[-1])
    game.apply(other)
    game.undo()
    game.apply(before.decisions[-1])
    assert game == before


def test_undo_replays_at_most_one_checkpoint_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    game = random_game(5, 3)
    assert game.num_decisions > 180
    replayed = 0
    apply = ra.Game.apply

    def counting(self: ra.Game, action: ra.Action | str) -> None:
        nonlocal replayed
        replayed += 1
        apply(self, action)

    monkeypatch.setattr(ra.Game, "apply", counting)
    for _ in range(game.num_decisions):
        replayed = 0
        game.undo()
        assert replayed < ra.engine.MARK_EVERY


def test_push_and_pop_are_apply_and_undo() -> None:
    game = ra.Game(players=2, seed=3)
    game.push("draw")
    assert str(game.pop()) == "draw"
    assert game == ra.Game(players=2, seed=3)


# --- all-or-nothing apply -------------------------------------------------------------------


def test_apply_is_all_or_nothing_when_something_fails_half_way(monkeypatch: pytest.MonkeyPatch) -> None:
    # An epoch's end is the longest automatic sequence: fail in its scoring (R7).
    game = random_game(3, 5)
    game.undo()
    while True:
        probe = game.clone()
        probe.apply(probe.legal_actions()[0])
        if probe.epoch_scores != game.epoch_scores:
            break
        game.apply(game.legal_actions()[0])
    before = snapshot(game)
    action = game.legal_actions()[0]

    def broken(*args: object) -> object:
        raise RuntimeError("scoring failed")

    monkeypatch.setattr("ra.engine.epoch_points", broken)
    with pytest.raises(RuntimeError, match="scoring failed"):
        game.apply(action)
    assert snapshot(game) == before
    monkeypatch.undo()
    game.apply(action)  # and the game goes on
    assert len(game.epoch_scores) == len(before[3]) + 1


# --- history, equality, copies ---------------------------------------------------------------


def test_events_decisions_and_epoch_scores_are_cached() -> None:
    game = random_game(3, 8, stop=60)
    assert game.events is game.events
    assert game.decisions is game.decisions
    events = game.events
    game.apply(game.legal_actions()[0])
    assert game.events[: len(events)] == events


def test_position_key_is_hashable_and_ignores_history() -> None:
    game = random_game(2, 4, stop=30)
    table = {game.position_key(): 1}
    assert table[game.clone().position_key()] == 1
    other = ra.Game(players=2, seed=4)
    assert other.position_key() != game.position_key()


@pytest.mark.parametrize("seed", [77, 78])
def test_deepcopy_and_pickle_work_for_whole_games(seed: int) -> None:
    # R9.2: long histories once made deepcopy recurse past Python's limit.
    game = random_game(5, seed)
    assert len(game.events) > 330
    for copied in (copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert copied == game
        assert copied.events == game.events
        copied.undo()
        assert copied.num_decisions == game.num_decisions - 1
    view = game.view(0)
    assert pickle.loads(pickle.dumps(view)) == view


# --- determinize (R9.3) ---------------------------------------------------------------------


@pytest.mark.parametrize("hidden", [False, True])
@pytest.mark.parametrize("how", ["seed", "rng"])
def test_determinized_games_replay_from_their_record(hidden: bool, how: str) -> None:
    game = random_game(3, 21, stop=120, hidden_scores=hidden)
    seat = game.to_move
    assert seat is not None
    view = game.view(seat)
    if how == "seed":
        det = view.determinize(seed=5)
    else:
        det = view.determinize(rng=random.Random(5))
    rng = random.Random(3)
    for _ in range(40):
        if det.is_over():
            break
        det.apply(rng.choice(det.legal_actions()))
    again = ra.Game.from_record(json.loads(json.dumps(det.to_record())))
    assert again == det
    assert again.scores == det.scores


def test_hidden_scores_determinize_is_consistent() -> None:
    # R9.1: scores follow from public history, so a determinized game knows them all,
    # in its scores, its events and its epoch scores alike; apply + undo restores it.
    game = ra.Game(players=4, seed=9, hidden_scores=True)
    rng = random.Random(9)
    while not game.epoch_scores or game.num_decisions % 7:
        game.apply(rng.choice(game.legal_actions()))
    seat = game.to_move
    assert seat is not None
    view = game.view(seat)
    assert any(b is None for b in view.epoch_scores[0])
    det = view.determinize(seed=1)
    assert det.scores == game.scores
    assert det.epoch_scores == game.epoch_scores
    assert [e.detail for e in det.events if e.kind == "score"] == [
        e.detail for e in game.events if e.kind == "score"
    ]
    before = det.clone()
    det.apply(det.legal_actions()[0])
    det.undo()
    assert det == before


def test_determinize_never_reads_the_real_bag() -> None:
    game = random_game(3, 2, stop=20)
    seat = game.to_move
    assert seat is not None
    view = game.view(seat)
    assert view.setup.seed == -1 and not view.setup.bag
    det = view.determinize(seed=game.setup.seed + 1)
    assert det.setup.bag == tuple(ra.Tile.parse(t) for t in view.drawn_tiles)


# --- reliability: setups ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": None}, "players must be a count or a list of names"),
        ({"players": 10**100}, "Ra is for 2 to 5 players"),
        ({"players": ["Ann", "Ann "]}, "player names must differ"),
        ({"players": ["Ann", "Bob\n"]}, None),
        ({"players": ["Ann", "B\x00b"]}, "printable"),
        ({"players": ["Ann", "x" * 201]}, "at most 200"),
        ({"players": 2, "bag": 5}, "bag must be a list of tile names"),
        ({"players": 2, "bag": [1]}, r"bag\[0\] must be a tile name"),
        ({"players": 2, "suns": [None, None]}, "must be a list of sun numbers"),
        ({"players": 2, "suns": 7}, "one sun group per player"),
        ({"players": 2, "variant": "long-2p", "suns_per_player": 5.0}, "4, 5, 6 or 7 suns"),
        ({"players": 3, "suns_per_player": 4.0}, "each player has 4 suns"),
        ({"players": 2, "seed": 10**5000}, "seed must be an integer from 0 to 2\\*\\*64 - 1"),
        ({"players": 2, "seed": True}, "seed must be an integer, got True"),
        ({"players": 2, "seed": 1.5}, "seed must be an integer"),
        ({"players": 2, "hidden_scores": "no"}, "hidden_scores must be True or False"),
        ({"players": 2, "variant": None}, "unknown variant"),
    ],
)
def test_bad_setups_raise_value_error_naming_the_problem(kwargs: dict[str, Any], message: str | None) -> None:
    if message is None:  # accepted: must round-trip
        game = ra.Game(**kwargs)
        assert ra.Game.from_record(json.dumps(game.to_record())) == game
        return
    with pytest.raises(ValueError, match=message):
        ra.Game(**kwargs)


def test_accepted_setups_round_trip_through_json() -> None:
    for kwargs in (
        {"players": [" Ann", "Bob"], "seed": 2**64 - 1},
        {"players": 2, "variant": "long-2p", "suns_per_player": 5, "seed": 0},
        {"players": 4, "hidden_scores": True, "seed": 3, "bag": ["god", "gold"]},
    ):
        game = ra.Game(**kwargs)  # type: ignore[arg-type]
        record = json.loads(json.dumps(game.to_record()))
        assert ra.Game.from_record(record) == game


def test_huge_player_counts_fail_fast() -> None:
    start = time.perf_counter()
    with pytest.raises(ValueError):
        ra.Game(players=10**100)
    assert time.perf_counter() - start < 0.1


# --- reliability: records ----------------------------------------------------------------------


def base_record() -> dict[str, Any]:
    return random_game(3, 1, stop=50).to_record()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        # R1.1: no kind above its real count (6 Temples would crash final scoring).
        (
            {"bag_counts": [0] * 18 + [6, 0, 0, 0, 0]},
            r"bag_counts\[18\] \(temple\) must be a count from 0 to 5",
        ),
        ({"bag_counts": [10**12] * 23}, r"bag_counts\[0\] \(ra\) must be a count from 0 to 30"),
        ({"bag_counts": [1] * 22}, "must be 23 counts"),
        ({"suns": [7, [12, 9, 6, 3], [11, 10, 7, 4]]}, "must be a list of sun numbers"),
        ({"result": [1, 2]}, "record field 'result' has the wrong type"),
        ({"result": {"scores": "abc"}}, "does not reach the recorded result"),
        ({"decisions": ["draw", 5]}, "decision 2 is not notation text"),
        ({"players": ["Ann", "Ann "]}, "player names must differ"),
        ({"suns_per_player": 5.0}, "wrong type"),
        ({"seed": 10**30}, "seed must be an integer from 0"),
        ({"version": True}, "unsupported record version"),
    ],
)
def test_bad_records_raise_record_error(change: dict[str, Any], message: str) -> None:
    record = base_record()
    record.update(change)
    with pytest.raises(ra.RecordError, match=message):
        ra.Game.from_record(record)
    with pytest.raises(ra.RecordError, match=message):
        ra.Game.from_record(json.dumps(record))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply|not valid JSON"),
        ('{"seed": ' + "9" * 5000 + "}", "not valid JSON"),
        ("[1, 2]", "a record is a JSON object"),
        ("", "not valid JSON"),
    ],
)
def test_any_text_is_a_record_or_a_record_error(text: str, message: str) -> None:
    with pytest.raises(ra.RecordError, match=message):
        ra.Game.from_record(text)


def test_load_reports_files_that_are_not_records(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.json"
    bad.write_bytes(b'{"players": ["Ren\xe9e", "Bob"]}')
    with pytest.raises(ra.RecordError, match="not UTF-8"):
        records.load(bad)
    huge = tmp_path / "huge.json"
    huge.write_bytes(b" " * (records.MAX_RECORD_BYTES + 10))
    with pytest.raises(ra.RecordError, match="larger than"):
        records.load(huge)
    good = tmp_path / "game.json"
    game = random_game(2, 3)
    records.save(game, good)
    assert records.load(good) == game
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_atomic_write_replaces_the_whole_file(tmp_path: Path) -> None:
    path = tmp_path / "out.txt"
    records.atomic_write(path, "first\n")
    records.atomic_write(path, "second\n")
    assert path.read_text(encoding="utf-8") == "second\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


# --- reliability: the boundary ------------------------------------------------------------------


def test_view_of_none_is_a_spectators_view_r9() -> None:
    game = ra.Game(players=3, seed=1, hidden_scores=True)
    view = game.view(None)  # issue 18: the one R9 gate for spectators
    assert view.spectator and all(p.score is None for p in view.players)
    with pytest.raises(ValueError, match="seat"):
        game.player(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("seat", [-1, 3, True, "0", 1.0])
def test_views_of_seats_that_do_not_exist_raise_value_error(seat: object) -> None:
    game = ra.Game(players=3, seed=1)
    with pytest.raises(ra.SeatError, match="seat"):
        game.view(seat)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seat"):
        game.player(seat)  # type: ignore[arg-type]
    with pytest.raises(IndexError, match="seat"):  # compatible with earlier versions
        game.view(seat)  # type: ignore[arg-type]


def test_apply_rejects_non_actions_with_notation_error() -> None:
    game = ra.Game(players=2, seed=1)
    for bad in (None, 5, ["draw"], b"draw"):
        with pytest.raises(ra.NotationError, match="expected an Action or its notation"):
            game.apply(bad)  # type: ignore[arg-type]
    assert game.num_decisions == 0


def test_from_setup_rejects_non_setups_and_bad_setups() -> None:
    with pytest.raises(ValueError, match="expected a Setup"):
        ra.Game.from_setup({"players": 2})  # type: ignore[arg-type]
    good = ra.Game(players=2, seed=1).setup
    assert ra.Game.from_setup(good) == ra.Game(players=2, seed=1)
    temples = tuple(6 if t is ra.Tile.TEMPLE else 0 for t in ra.Tile)  # R1.1: only 5 Temples
    with pytest.raises(ValueError, match=r"bag_counts\[18\] \(temple\) must be a count from 0 to 5"):
        ra.Game.from_setup(dataclasses.replace(good, bag_counts=temples))
    with pytest.raises(ValueError, match="sun 1 starts in the centre"):
        ra.Game.from_setup(dataclasses.replace(good, suns=((9, 6, 5, 1), (8, 7, 4, 3))))


# --- layering ---------------------------------------------------------------------------------

LAYERS = [
    "words",  # the message catalogue: every layer may speak, and it knows nothing of the game
    "errors",
    "tiles",
    "actions",
    "scoring",
    "setup",
    "position",
    "events",
    "state",
    "views",
    "record_format",
    "engine",
    "records",
]


def test_engine_modules_import_only_the_layers_below_them() -> None:
    import ast

    src = Path(ra.__file__).parent
    for i, name in enumerate(LAYERS):
        tree = ast.parse((src / f"{name}.py").read_text(encoding="utf-8"))
        imported = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("ra."):
                if not any(  # imports for type checking only are not dependencies
                    isinstance(parent, ast.If) and "TYPE_CHECKING" in ast.unparse(parent.test)
                    for parent in ast.walk(tree)
                    if node in ast.walk(parent) and parent is not node
                ):
                    imported.add(node.module.split(".")[1])
        allowed = set(LAYERS[:i])
        assert imported <= allowed, f"ra.{name} imports {sorted(imported - allowed)} (a layer above it)"


FORBIDDEN = {
    # a package (or module) of src/ra: the packages above it, which it may not import
    "table": {"tui", "web", "cli", "arena", "envs"},
    "clock": {"tui", "web", "cli", "arena", "envs", "bots", "table", "master"},
    "master": {"tui", "web", "cli", "arena", "envs", "bots", "table"},
    "steps": {"tui", "web", "cli", "arena", "envs", "bots"},
    "labels": {"tui", "web", "cli", "arena", "envs", "bots", "table"},
    "bots": {"tui", "web", "cli", "arena", "table", "envs"},
    "analysis": {"tui", "web", "cli", "arena"},
    "tui": {"web", "cli"},
    "web": {"tui", "cli"},
}
"""The front ends depend downwards: none imports another's presentation (issue 39)."""


def test_front_ends_and_the_table_import_only_downwards() -> None:
    import ast

    src = Path(ra.__file__).parent
    wrong = []
    for unit, above in FORBIDDEN.items():
        path = src / unit
        files = sorted(path.rglob("*.py")) if path.is_dir() else [src / f"{unit}.py"]
        for file in files:
            for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
                modules: list[str] = []
                if isinstance(node, ast.ImportFrom) and node.module:
                    modules = [node.module]
                elif isinstance(node, ast.Import):
                    modules = [a.name for a in node.names]
                if not isinstance(node, ast.Import | ast.ImportFrom):
                    continue
                for module in modules:
                    parts = module.split(".")
                    if parts[0] == "ra" and len(parts) > 1 and parts[1] in above:
                        wrong.append(f"{file.relative_to(src)}:{node.lineno} imports {module}")
    assert not wrong, "\n".join(wrong)


ENGINE = {"state", "views", "engine", "records"}
"""The modules that own a position's fields (:class:`ra.state.State` and its subclasses)."""


def test_no_module_outside_the_engine_reads_a_positions_underscore_fields() -> None:
    """Issue 38: the front door only (``position()``, ``pack()`` and the read API); a detour
    read the placeholders of a view's hidden scores (R9.1) and fooled every search."""
    import ast

    from ra.state import State
    from ra.views import PlayerView

    private = {s for cls in (State, PlayerView) for s in cls.__slots__} | {"_check_seat", "_copy_to"}
    src = Path(ra.__file__).parent
    found = []
    for path in sorted(src.rglob("*.py")):
        if path.parent == src and path.stem in ENGINE:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in private:
                owner = ast.unparse(node.value)
                if owner not in ("self", "cls"):
                    found.append(f"{path.relative_to(src)}:{node.lineno} {owner}.{node.attr}")
    assert not found, "reads of a position's private fields outside the engine:\n" + "\n".join(found)


def test_deprecated_names_still_answer() -> None:
    game = random_game(3, 6, stop=25)
    assert game.ra_track == game.ra_count
    assert game.view(0).to_dict()["ra_track"] == game.ra_count
    assert game.auction_track == [t.id for t in game.auction_tiles]
    assert isinstance(game.last_draw, ra.Tile)


HEAVY = ("babel", "textual", "typer", "rich", "openskill", "fastapi", "sqlalchemy", "numpy")
"""What a library user does not pay for on ``import ra`` (issue 56: the engine installs and loads
light; the words load Babel when they are first asked for)."""


def test_import_ra_and_a_whole_game_load_no_front_end_stack_nor_babel() -> None:
    import subprocess
    import sys

    script = (
        "import sys, random, ra\n"
        "g = ra.Game(players=3, seed=1)\n"
        "r = random.Random(1)\n"
        "while not g.is_over(): g.apply(r.choice(g.legal_actions()))\n"
        "g.to_record()\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))\n"
        "from ra.words import words\n"
        "print(words('de').number(1234.5, 1), 'babel' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    loaded, rendered = out.splitlines()
    assert loaded == "[]", f"import ra and a game loaded {loaded}"
    assert rendered == "1.234,5 True", "the words load Babel when asked, and format as German does"
