"""The policy's forward pass: the native core, numpy and pure Python agree to the bit; the
search it guides is deterministic, blind to the real bag (R9.3), and equal in Python where no
random redeal can decide (the prior alone)."""

from __future__ import annotations

import json

import pytest

import ra
from ra import bots
from ra.bots import policy as policy_module
from ra.bots.policy import Policy, PolicyBot, PolicySearchBot, most_visited, select
from ra.encode import observation
from tests.train.helpers import positions, random_policy

np = pytest.importorskip("numpy", reason="the numpy reference pass needs numpy (the test extra)")
core = pytest.importorskip("ra._core", reason="the native core is not built")
if not ra.native_available():
    pytest.skip("the native core is switched off (RA_NATIVE=0)", allow_module_level=True)

from ra.train.net import numpy_logits  # noqa: E402  (needs numpy: after the skip)


@pytest.mark.parametrize("hidden", [(24, 12), (40,), (16, 16, 16)])
def test_native_numpy_and_python_logits_are_equal_to_the_bit(hidden: tuple[int, ...]) -> None:
    net = random_policy(len(hidden), hidden)
    checked = 0
    for game in positions(150, len(hidden)):
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        obs = observation(view)
        native = core.State.from_game(view).policy_logits(net.flat, hidden=True)
        python = net.logits(obs)
        reference = numpy_logits(net, np.asarray(obs)).tolist()
        assert native == python == reference  # exact: the same float64 operations in the same order
        checked += 1
    assert checked == 150


def test_hidden_scores_reach_the_net() -> None:
    """Under hidden scores (R9.1) the net sees no other player's score: the flag matters."""
    net = random_policy(7)
    differs = 0
    for game in positions(40, 9):
        view = game.view(game.to_move or 0)
        state = core.State.from_game(view)
        assert state.policy_logits(net.flat, hidden=True) == net.logits(observation(view))
        differs += state.policy_logits(net.flat, hidden=True) != state.policy_logits(net.flat, hidden=False)
    assert differs > 0


def test_the_json_form_round_trips_exactly(tmp_path: pytest.TempPathFactory) -> None:
    net = random_policy(3)
    path = tmp_path / "policy.json"  # type: ignore[operator]
    path.write_text(json.dumps(net.to_dict()), encoding="utf-8")
    again = policy_module.load(path)
    assert again == net and again.flat == net.flat and again.info == net.info


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d.update(version=99), "version"),
        (lambda d: d.update(sizes=[370, 8, 53]), "54"),
        (lambda d: d["layers"].pop(), "layers"),
        (lambda d: d["layers"][0]["b"].pop(), "biases"),
        (lambda d: d["layers"][1]["w"][0].__setitem__(0, "x"), "numbers"),
    ],
)
def test_a_bad_policy_file_is_refused(change: object, reason: str) -> None:
    data = random_policy(1, (8,)).to_dict()
    change(data)  # type: ignore[operator]
    with pytest.raises(ValueError, match=reason):
        Policy.from_dict(data)


def test_the_core_refuses_a_bad_net() -> None:
    state = core.State.from_game(ra.Game(3, seed=1))
    good = random_policy(1, (8,)).flat
    with pytest.raises(ValueError, match="parameters"):
        state.policy_logits(good[:-1])
    bad = good[:]
    bad[1] = 369.0
    with pytest.raises(ValueError, match="370"):
        state.policy_logits(bad)
    with pytest.raises(ValueError, match="float64"):
        state.policy_logits(b"\x00" * 16)
    with pytest.raises(ValueError, match="c_puct"):
        state.mcts(iterations=5, prior=good, c_puct=-1.0)


def test_the_native_search_with_a_prior_is_deterministic_and_never_reads_the_bag() -> None:
    net = random_policy(5)
    for game in positions(8, 4):
        seat = game.to_move
        assert seat is not None
        options = {"iterations": 300, "seed": 11, "prior": net.flat, "hidden": True}
        first = core.State.from_game(game.view(seat)).mcts(**options)
        assert core.State.from_game(game.view(seat)).mcts(**options) == first
        assert core.State.from_game(game).mcts(**options) == first  # the real bag changes nothing
        assert first[1] == 300 and ra.Action.from_index(first[0]) in game.legal_actions()


def test_a_prior_changes_the_search() -> None:
    """With a prior the search is PUCT (most visited), without it plain UCT: not the same numbers."""
    net = random_policy(6)
    game = positions(1, 5)[0]
    state = core.State.from_game(game)
    with_prior = state.mcts_stats(iterations=400, seed=3, prior=net.flat)
    plain = state.mcts_stats(iterations=400, seed=3)
    assert with_prior[2] != plain[2]
    visits = {a: n for a, n, *_ in with_prior[2]}
    assert visits[with_prior[0]] == max(visits.values())


def test_one_iteration_plays_the_prior_natively_and_in_python() -> None:
    """At one iteration PUCT walks the highest prior (no redeal decides): both searches and the
    net alone choose the same action, position after position."""
    net = random_policy(8)
    for game in positions(60, 6):
        view = game.view(game.to_move or 0)
        native = PolicySearchBot(seed=1, policy=net, iterations=1).choose(view)
        python = PolicySearchBot(seed=1, policy=net, iterations=1, native=False).choose(view)
        alone = PolicyBot(policy=net, native=False).choose(view)
        assert native == python == alone == PolicyBot(policy=net).choose(view)


def test_the_net_alone_plays_the_same_whole_games_natively_and_in_python() -> None:
    net = random_policy(9)
    for players in (2, 3, 5):
        logs = []
        for native in (True, False):
            game = ra.Game(players, seed=players, hidden_scores=True)
            seats = [PolicyBot(policy=net, native=native) for _ in range(players)]
            chosen = []
            while not game.is_over():
                seat = game.to_move
                assert seat is not None
                chosen.append(seats[seat].choose(game.view(seat)))
                game.apply(chosen[-1])
            logs.append((game.scores, chosen))
        assert logs[0] == logs[1]


@pytest.mark.parametrize("native", [True, False])
def test_the_search_plays_whole_games(native: bool) -> None:
    net = random_policy(10)
    game = ra.Game(3, seed=4, hidden_scores=True)
    players = [PolicySearchBot(seed=s, policy=net, iterations=12, native=native) for s in range(2)]
    players.append(bots.make("greedy"))  # type: ignore[arg-type]
    while not game.is_over():
        seat = game.to_move
        assert seat is not None
        action = players[seat].choose(game.view(seat))
        assert action in game.legal_actions()
        game.apply(action)


def test_puct_selection_and_the_final_choice() -> None:
    # [visits, reward sum, prior]: untried actions count the node's mean (3.0 / 4 = 0.75).
    edges = {3: [4.0, 3.0, 0.1], 7: [0.0, 0.0, 0.6], 9: [0.0, 0.0, 0.3]}
    assert select(edges, 4, 1.0) == 7
    assert select(edges, 4, 0.0) == 3  # no exploration: the first of the equal means
    assert most_visited({3: [5.0, 1.0, 0.1], 7: [5.0, 4.0, 0.6], 9: [2.0, 2.0, 0.3]}) == 7


def test_settings_are_checked() -> None:
    net = random_policy(1, (8,))
    with pytest.raises(ValueError, match="c_puct"):
        PolicySearchBot(policy=net, c_puct=-1)
    with pytest.raises(ValueError, match="paired_root"):
        PolicySearchBot(policy=net, paired_root=True)
    with pytest.raises(ValueError, match="native"):
        PolicyBot(policy=net, native="yes")  # type: ignore[arg-type]


def test_the_shipped_policy_is_read_and_runs_alike_everywhere() -> None:
    """ra/data/policy.json (the baseline's generation, docs/training.md) loads without numpy's
    help, is a few MB at most, and its three passes agree."""
    shipped = policy_module.default_policy()
    assert shipped is not None and shipped.sizes[0] == 370 and shipped.sizes[-1] == 54
    assert {"generation", "rows", "seed"} <= set(shipped.info)
    for game in positions(30, 12):
        view = game.view(game.to_move or 0)
        obs = observation(view)
        logits = shipped.logits(obs)
        assert core.State.from_game(view).policy_logits(shipped.flat, hidden=True) == logits
        assert numpy_logits(shipped, np.asarray(obs)).tolist() == logits
