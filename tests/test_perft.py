"""Perft and playthroughs (tests/perft, tests/playthroughs; `python tools/regen_golden.py`):
the Python engine and the native core must both reproduce every stored count and every step."""

from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from tools.perft import perft, perft_native

import ra
from ra.encode import observation_of
from ra.native import core

ROOT = Path(__file__).resolve().parents[1]
PYTHON_NODES = 20_000
"""Counts the Python engine re-checks here (the native core checks every stored count)."""


@dataclass
class Position:
    name: str
    setup: dict[str, str]
    decisions: list[str]
    counts: dict[int, int] = field(default_factory=dict)

    def game(self) -> ra.Game:
        s = self.setup
        game = ra.Game(int(s["players"]), seed=int(s["seed"]), variant=s["variant"])
        for d in self.decisions:
            game.apply(d)
        return game


def positions() -> list[Position]:
    out: list[Position] = []
    for line in (ROOT / "tests" / "perft" / "ra.perft").read_text(encoding="utf-8").splitlines():
        word, _, rest = line.partition(" ")
        if word == "id":
            out.append(Position(rest, {}, []))
        elif word == "setup":
            out[-1].setup = dict(kv.split("=") for kv in rest.split())
        elif word == "decisions":
            out[-1].decisions = [d.strip() for d in rest.split(";") if d.strip()]
        elif word == "perft":
            depth, count = rest.split()
            out[-1].counts[int(depth)] = int(count)
    return out


POSITIONS = positions()


def test_the_perft_file_covers_every_player_count_and_deep_positions() -> None:
    assert len(POSITIONS) >= 30
    assert {p.setup["players"] for p in POSITIONS} == {"2", "3", "4", "5"}
    assert any(len(p.decisions) >= 100 for p in POSITIONS)
    assert all(max(p.counts) >= 4 or p.game().is_over() for p in POSITIONS)


@pytest.mark.parametrize("position", POSITIONS, ids=[p.name for p in POSITIONS])
def test_perft_python(position: Position) -> None:
    game = position.game()
    for depth, count in position.counts.items():
        if count <= PYTHON_NODES:
            assert perft(game, depth) == count, (position.name, depth)


@pytest.mark.skipif(core is None, reason="the native core is not built or RA_NATIVE=0")
@pytest.mark.parametrize("position", POSITIONS, ids=[p.name for p in POSITIONS])
def test_perft_native(position: Position) -> None:
    assert core is not None
    state = core.State.from_game(position.game())
    for depth, count in position.counts.items():
        assert perft_native(state, depth) == count, (position.name, depth)


PLAYTHROUGHS = sorted((ROOT / "tests" / "playthroughs").glob("*.txt"))


def read_playthrough(path: Path) -> tuple[dict[str, str], list[dict[str, str]], dict[str, str]]:
    setup: dict[str, str] = {}
    steps: list[dict[str, str]] = []
    end: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        word, _, rest = line.partition(" ")
        if word == "setup":
            setup = dict(kv.split("=") for kv in rest.split())
        elif word == "decision":
            steps.append({"head": rest})
        elif word in ("legal", "action"):
            steps[-1][word] = rest
        elif word == "observation":  # "observation player K <entries>": every seat's
            _, seat, entries = rest.split(" ", 2) if rest.count(" ") >= 2 else (*rest.split(" "), "")
            steps[-1][f"observation {seat}"] = entries
        elif word in ("returns", "winner"):
            end[word] = rest
    return setup, steps, end


@pytest.mark.parametrize("path", PLAYTHROUGHS, ids=[p.stem for p in PLAYTHROUGHS])
def test_playthrough(path: Path) -> None:
    setup, steps, end = read_playthrough(path)
    game = ra.Game(
        int(setup["players"]),
        seed=int(setup["seed"]),
        variant=setup["variant"],
        hidden_scores=setup["hidden_scores"] == "True",
    )
    state = core.State.from_game(game) if core is not None else None
    for step in steps:
        seat = game.to_move
        assert seat is not None
        assert step["head"] == f"{game.num_decisions} player {seat + 1} {game.phase}"
        legal = game.legal_actions()
        assert " | ".join(map(str, legal)) == step["legal"], step["head"]
        for p in range(game.num_players):  # every seat's observation: a leak shows as a difference
            entries = step[f"observation {p + 1}"].split()
            observed = {int(i): float(v) for i, v in (kv.split(":") for kv in entries)}
            values = observation_of(game, p)
            assert {i: v for i, v in enumerate(values) if v} == observed, (step["head"], f"player {p + 1}")
        action = ra.Action.parse(step["action"])
        if state is not None:
            assert state.legal_actions() == sorted(a.index for a in legal), step["head"]
            state.apply(action.index)
        game.apply(action)
    assert game.is_over()
    assert " ".join(map(str, game.scores)) == end["returns"]
    assert end["winner"] == f"player {(game.winner or 0) + 1}"
    if state is not None:
        assert state.is_over() and state.scores == list(game.scores)


def test_playthroughs_cover_the_variants() -> None:
    names = {p.stem for p in PLAYTHROUGHS}
    assert len(names) >= 4 and any("long2p" in n for n in names) and any("hidden" in n for n in names)


@pytest.mark.slow
def test_the_stored_files_are_what_the_command_makes() -> None:
    command = [sys.executable, str(ROOT / "tools" / "regen_golden.py"), "--check"]
    run = subprocess.run(command, check=False, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_random_is_not_used_by_the_engine_in_a_replay() -> None:
    # The playthroughs' actions are chosen by their own generator: replaying draws no randomness.
    state = random.getstate()
    setup, steps, _ = read_playthrough(PLAYTHROUGHS[0])
    game = ra.Game(int(setup["players"]), seed=int(setup["seed"]), variant=setup["variant"])
    for step in steps[:20]:
        game.apply(step["action"])
    assert random.getstate() == state
