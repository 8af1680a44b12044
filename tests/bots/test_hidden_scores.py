"""Issue 38: every search sees what a player sees, in the game people play (hidden scores, R9.1).

Under hidden scores the other players' tablets are face down, but every score follows from
public tiles (R7), so a player who kept count knows them: a search from a player's view must
give the same action and the same numbers whether the table plays with hidden or open scores.
These tests play the same games twice (the same seed, so the same bag and suns, R9.2; the same
decisions), once with each rule, and compare every search at hundreds of positions.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

import ra
from ra import bots
from ra.analysis.game import analyse_decision
from ra.bots.advisor import Advisor
from ra.native import native_available
from ra.position import LAYOUT

GAMES = {2: (1, 2, 3, 4), 3: (5, 6, 7), 4: (8, 9, 10), 5: (11, 12, 13)}
"""Seeds of the games played twice, by player count."""


def twin_positions(players: int, seed: int, every: int = 1) -> Iterator[tuple[ra.Game, ra.Game]]:
    """The same random game with open and with hidden scores, at every ``every``-th decision
    that has a choice (both games at the same position)."""
    moves = random.Random(seed)
    open_game = ra.Game(players=players, seed=seed)
    hidden = ra.Game(players=players, seed=seed, hidden_scores=True)
    k = 0
    while not open_game.is_over():
        legal = open_game.legal_actions()
        if len(legal) > 1:
            if k % every == 0:
                yield open_game, hidden
            k += 1
        action = moves.choice(legal)
        open_game.apply(action)
        hidden.apply(action)
    assert hidden.is_over() and hidden.scores == open_game.scores


def all_twins(every: int) -> Iterator[tuple[ra.Game, ra.Game]]:
    for players, seeds in GAMES.items():
        for seed in seeds:
            yield from twin_positions(players, seed, every)


def test_a_view_packs_what_its_player_knows_at_hundreds_of_positions() -> None:
    """R9.1: a hidden-score view packs the real scores and epoch breakdowns (the public history
    fixes them), never the placeholders it shows; a view never packs the bag's order (R9.3)."""
    checked = 0
    hid_something = 0
    for open_game, hidden in all_twins(every=2):
        for seat in range(open_game.num_players):
            view = hidden.view(seat)
            assert view.pack() == open_game.view(seat).pack()
            assert view.position() == open_game.view(seat).position()
            assert view.known_scores() == tuple(open_game.scores)
            hid_something += view.scores != open_game.scores  # what the view shows stays hidden
        checked += 1
    assert checked >= 800
    assert hid_something > 0


def test_a_view_packs_no_bag_order() -> None:
    """R9.3: the view's packed bag is the drawn tiles, then the unseen ones by kind."""
    game = ra.Game(players=3, seed=21, hidden_scores=True)
    moves = random.Random(1)
    for _ in range(40):
        game.apply(moves.choice(game.legal_actions()))
    view = game.view(0)
    bag = LAYOUT.unpack(view.pack())[-1]
    tail = bag[view.position().drawn : view.position().bag_size]
    assert list(tail) == sorted(tail), "the unseen tiles are packed by kind, not in the bag's order"
    assert sorted(tail) == sorted(t for t, c in enumerate(view.unseen_counts()) for _ in range(c))


SEARCHES: dict[str, Callable[[int], bots.Bot]] = {
    "hard": lambda seed: bots.make("hard", seed=seed, iterations=200),
    "expert": lambda seed: bots.make("expert", seed=seed, iterations=200),
    "medium (a stand-in's level)": lambda seed: bots.make("medium", seed=seed),
    "python mcts": lambda seed: bots.make("mcts", seed=seed, native=False, iterations=30),
    "hint follower": lambda seed: bots.make("advisor", seed=seed, budget=200),
}


@pytest.mark.parametrize("name", list(SEARCHES))
def test_every_search_from_a_view_decides_alike_with_hidden_or_open_scores(name: str) -> None:
    if "python" not in name and not native_available():
        pytest.skip("the native core is not built (the levels then run the Python search, tested above)")
    make = SEARCHES[name]
    checked = 0
    every = 30 if "python" in name else 15
    for open_game, hidden in all_twins(every=every):
        seat = open_game.to_move
        assert seat is not None
        seed = open_game.num_decisions
        assert make(seed).choose(hidden.view(seat)) == make(seed).choose(open_game.view(seat))
        checked += 1
    assert checked >= 50


NATIVE = native_available()
"""The pure-Python searches (``RA_NATIVE=0``) are checked on fewer positions with smaller budgets:
the property is the same, the searches some hundred times slower."""


def test_the_advisor_and_the_analysis_give_the_same_numbers_with_hidden_or_open_scores() -> None:
    """The hints, the puzzles' verifier (the advisor, tools/puzzles.py) and ``ra analyze``."""
    checked = 0
    for open_game, hidden in all_twins(every=25 if NATIVE else 200):
        seat = open_game.to_move
        assert seat is not None
        advisor = Advisor(budget=200 if NATIVE else 40, seed=0)
        a, b = advisor.evaluate(hidden.view(seat)), advisor.evaluate(open_game.view(seat))
        assert a == b
        chosen = open_game.legal_actions()[0]
        assert analyse_decision(hidden.clone(), chosen, advisor, 0) == analyse_decision(
            open_game.clone(), chosen, advisor, 0
        )
        checked += 1
    assert checked >= (60 if NATIVE else 6)


def test_an_analysis_reads_the_same_with_hidden_or_open_scores() -> None:
    """The chart of ``ra analyze`` and the browser's Analyse: every decision judged from its
    mover's view, so a hidden-score game's curve is the open-score game's, point for point (it
    zig-zagged with the player count when each mover thought the others had -1 points)."""
    from ra.analysis.analyse import analyse_game

    analyses = []
    for hidden in (False, True):
        game = ra.Game(players=3, seed=77, hidden_scores=hidden)
        players = [bots.make("greedy", seed=s) for s in range(3)]
        while not game.is_over():
            seat = game.to_move
            assert seat is not None
            game.apply(players[seat].choose(game.view(seat)))
        analyses.append(analyse_game(game, seats=[0], budget=60 if NATIVE else 12, seed=0, searches=None))
    open_scores, hidden_scores = analyses
    assert hidden_scores.curve == open_scores.curve and len(hidden_scores.curve) > 100
    assert hidden_scores.decisions == open_scores.decisions
