"""The arena: schedules, statistics on a small fixed run, files, the CLI's error paths."""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

import ra
from ra import arena
from ra.cli import app


def test_seats_rotate_so_each_bot_plays_each_seat_equally() -> None:
    specs = arena.schedule(["mcts", "greedy", "random"], players=3, games=6, seed=1)
    for bot in ("mcts", "greedy", "random"):
        assert Counter(s.seats.index(bot) for s in specs) == {0: 2, 1: 2, 2: 2}
    assert len({s.seed for s in specs}) == 6


def test_fewer_bots_than_seats_repeat_and_more_are_refused() -> None:
    specs = arena.schedule(["greedy", "random"], players=3, games=3, seed=1)
    assert specs[0].seats == ("greedy", "random", "greedy")
    assert arena.seat_names(specs[0].seats) == ["greedy #1", "random", "greedy #2"]
    with pytest.raises(ValueError, match="3 bots for 2 seats"):
        arena.schedule(["a", "b", "c"], players=2, games=1, seed=1)


def test_duplicate_plays_each_deal_in_every_rotation() -> None:
    specs = arena.schedule(["greedy", "random"], players=2, games=5, seed=3, duplicate=True)
    assert len(specs) == 6  # rounded up to whole deals
    by_seed: dict[int, list[tuple[str, ...]]] = {}
    for s in specs:
        by_seed.setdefault(s.seed, []).append(s.seats)
    assert len(by_seed) == 3
    for seats in by_seed.values():
        assert sorted(seats) == [("greedy", "random"), ("random", "greedy")]


def test_wilson_interval_known_values() -> None:
    low, high = arena.wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert arena.wilson_interval(0, 0) == (0.0, 1.0)
    low, high = arena.wilson_interval(20, 20)
    assert high == 1.0 and low == pytest.approx(0.8389, abs=1e-4)


def test_statistics_of_a_small_fixed_run() -> None:
    specs = arena.schedule(["greedy", "random", "random"], players=3, games=9, seed=2)
    results, interrupted = arena.run_games(specs, jobs=1)
    assert not interrupted and len(results) == 9
    summary = {b.bot: b for b in arena.summarize(results)}
    assert summary["greedy"].games == 9 and summary["random"].games == 18
    assert summary["greedy"].wins + summary["random"].wins == 9
    # Recompute the table by hand from the per-game results.
    greedy_scores = [r.scores[r.seats.index("greedy")] for r in results]
    greedy_wins = sum(r.seats[r.winner] == "greedy" for r in results)
    assert summary["greedy"].wins == greedy_wins
    assert summary["greedy"].win_rate == pytest.approx(greedy_wins / 9)
    assert summary["greedy"].mean_score == pytest.approx(sum(greedy_scores) / 9)
    margins = [r.margins[r.seats.index("greedy")] for r in results]
    assert summary["greedy"].mean_margin == pytest.approx(sum(margins) / 9)
    low, high = arena.wilson_interval(greedy_wins, 9)
    assert (summary["greedy"].ci_low, summary["greedy"].ci_high) == (low, high)
    # The greedy bot crushes random ones, and the rating says so.
    assert greedy_wins >= 8
    assert summary["greedy"].rating > summary["random"].rating
    for r in results:
        assert max(r.scores) == r.scores[r.winner]
        assert sum(r.decisions) > 0 and all(t >= 0 for t in r.seconds)


def result(index: int, seats: list[str], scores: list[int], winner: int) -> arena.GameResult:
    """A finished game as the arena reports it (only what the statistics read)."""
    n = len(seats)
    return arena.GameResult(index, 0, 0, seats, seats, scores, winner, [1] * n, [0.1] * n)


def test_standing_puts_the_winner_first_then_the_others_by_score() -> None:
    # A tie on score is broken by the sun (R8.1): the arena reports that winner, seat 2 here.
    r = result(0, ["a", "b", "c"], [30, 41, 41], winner=2)
    assert arena.standing(r) == [2, 1, 0]


def test_head_to_head_counts_every_pair_of_seats() -> None:
    games = [
        result(0, ["a", "b", "b"], [50, 40, 45], winner=0),  # a ahead of both b seats
        result(1, ["b", "a", "b"], [50, 40, 45], winner=0),  # a behind both
        result(2, ["b", "b", "a"], [50, 40, 45], winner=0),  # a ahead of one, behind one
        result(3, ["a", "b", "b"], [1, 2, 3], winner=2),
    ]
    games[3].error = "crashed"  # a failed game counts for nobody
    pairs = {(h.bot, h.other): h for h in arena.head_to_head(games)}
    assert set(pairs) == {("a", "b"), ("b", "a")}
    a, b = pairs["a", "b"], pairs["b", "a"]
    assert (a.ahead, a.pairs) == (3, 6) and (b.ahead, b.pairs) == (3, 6)
    assert a.share == 0.5 and (a.ci_low, a.ci_high) == arena.wilson_interval(3, 6)


def test_head_to_head_of_a_real_run_agrees_with_the_places() -> None:
    specs = arena.schedule(["greedy", "random"], players=3, games=6, seed=4)
    results, _ = arena.run_games(specs, jobs=1)
    pairs = {(h.bot, h.other): h for h in arena.head_to_head(results)}
    greedy, rand = pairs["greedy", "random"], pairs["random", "greedy"]
    expected = sum(r.seats.count("greedy") * r.seats.count("random") for r in results)
    assert greedy.pairs == rand.pairs == expected
    assert greedy.ahead + rand.ahead == greedy.pairs  # no two seats share a place
    assert greedy.share > 0.5


def test_parallel_runs_give_the_same_games() -> None:
    specs = arena.schedule(["greedy", "easy"], players=2, games=6, seed=5)
    one, _ = arena.run_games(specs, jobs=1)
    two, _ = arena.run_games(specs, jobs=2)
    key = lambda r: (r.index, r.scores, r.winner)  # noqa: E731
    assert sorted(map(key, one)) == sorted(map(key, two))


def test_interrupting_keeps_finished_games() -> None:
    specs = arena.schedule(["greedy", "random"], players=2, games=10, seed=1)
    seen = []

    def stop_after_three(r: arena.GameResult) -> None:
        seen.append(r)
        if len(seen) == 3:
            raise KeyboardInterrupt

    for jobs in (1, 2):
        seen.clear()
        results, interrupted = arena.run_games(specs, jobs=jobs, on_result=stop_after_three)
        assert interrupted and len(results) == 3


def test_files_json_csv_and_records(tmp_path: Path) -> None:
    runner = CliRunner()
    out, table, folder = tmp_path / "r.json", tmp_path / "r.csv", tmp_path / "games"
    result = runner.invoke(
        app,
        ["arena", "-p", "3", "-b", "greedy,random", "-n", "4", "-j", "1", "--seed", "7",
         "--out", str(out), "--csv", str(table), "--records", str(folder), "-q"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "win%" in result.output and "95% CI" in result.output
    assert "4 games with hidden scores (R9.1) in" in result.output  # the game people play
    doc = json.loads(out.read_text())
    assert doc["config"]["bots"] == ["greedy", "random"] and doc["games_played"] == 4
    assert doc["config"]["hidden_scores"] is True  # the game people play is the default (R9.1)
    assert {s["bot"] for s in doc["summary"]} == {"greedy", "random"}
    assert "Head to head" in result.output and "ahead of" in result.output
    ahead = {(h["bot"], h["other"]): h for h in doc["head_to_head"]}
    assert ahead["greedy", "random"]["ahead"] + ahead["random", "greedy"]["ahead"] == 4 * 2
    game = doc["games"][0]
    assert {"seed", "seats", "scores", "winner", "ms_per_decision", "margins"} <= set(game)
    rows = list(csv.DictReader(table.open()))
    assert len(rows) == 12 and rows[0]["bot"] == "greedy"
    files = sorted(folder.glob("game-*.json"))
    assert len(files) == 4
    replay = ra.Game.from_record(files[0].read_text())
    assert replay.is_over() and replay.scores == doc["games"][0]["scores"]


@pytest.mark.slow
@pytest.mark.skipif(not ra.native_available(), reason="the levels' native search")
def test_the_levels_play_the_same_games_with_hidden_or_open_scores() -> None:
    """Issue 38: every level searches from what its player knows, and under hidden scores (R9.1)
    a player can know every score (they follow from public tiles, R7): so the same deals and
    seeds give the same games, decision for decision, and every figure measured with open scores
    holds for the game people play."""
    lineup = ["hard:iterations=300", "medium", "greedy"]
    played = {}
    for hidden in (False, True):
        specs = arena.schedule(lineup, players=3, games=6, seed=4711, duplicate=True, hidden_scores=hidden)
        results, _ = arena.run_games(specs, jobs=1, keep_records=True)
        played[hidden] = sorted((r.index, r.scores, r.winner, r.record["decisions"]) for r in results)  # type: ignore[index]
    assert played[True] == played[False]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-b", "alphago"], "unknown bot 'alphago'"),
        (["-p", "7"], "2 to 5 players, not 7"),
        (["-p", "2", "-b", "greedy,random,random"], "3 bots for 2 seats"),
        (["-n", "0"], "--games must be at least 1"),
        (["-j", "0"], "--jobs must be at least 1"),
        (["--variant", "long-2p", "-p", "3"], "for 2 players"),
        (["-b", "mcts:zoom=1"], "unknown MCTS setting"),
        (["--out", "/no/such/folder/r.json"], "does not exist"),
    ],
)
def test_cli_errors_are_clear_messages_not_tracebacks(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, ["arena", "-n", "1", "-q", *args])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
