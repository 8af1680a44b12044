"""The value net (issue 53): its forward pass natively, in numpy and in pure Python agree; its
file is checked; the search judges leaves by it only when asked, natively and in Python alike."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

import ra
from ra.bots import value_net as value_module
from ra.bots.policy import PolicySearchBot, PuctSearch
from ra.bots.value_net import ValueNet, leaf_chances, sigmoid
from ra.encode import observation_of
from tests.train.helpers import constant_value_net, positions, random_policy, random_value_net

np = pytest.importorskip("numpy", reason="the numpy reference pass needs numpy (the test extra)")
core = pytest.importorskip("ra._core", reason="the native core is not built")
if not ra.native_available():
    pytest.skip("the native core is switched off (RA_NATIVE=0)", allow_module_level=True)

from ra.train.net import calibration_error, log_loss, numpy_chance, numpy_logits  # noqa: E402


@pytest.mark.parametrize("hidden", [(24, 12), (40,)])
def test_native_numpy_and_python_chances_agree(hidden: tuple[int, ...]) -> None:
    """Every seat's chance, over random positions of 2-5 players (hidden scores, R9.1): the
    logits equal to the bit, the chances within 1e-9 (the same expression everywhere)."""
    net = random_value_net(len(hidden), hidden)
    checked = 0
    for game in positions(120, 20 + len(hidden)):
        state = core.State.from_game(game)
        for seat in range(game.num_players):
            obs = observation_of(game, seat)
            python = net.chance(obs)
            assert numpy_logits(net, np.asarray(obs)).tolist() == [net.logit(obs)]
            assert abs(numpy_chance(net, np.asarray(obs)) - python) <= 1e-9
            assert abs(state.value_chance(net.flat, seat, hidden=True) - python) <= 1e-9
            checked += 1
    assert checked > 300


def test_leaf_chances_sum_to_one_and_follow_the_net() -> None:
    net = random_value_net(3)
    for game in positions(20, 7):
        chances = leaf_chances(net, game)
        assert abs(sum(chances) - 1.0) < 1e-12
        raw = [net.chance(observation_of(game, s)) for s in range(game.num_players)]
        assert chances == [c / sum(raw) for c in raw]
    assert leaf_chances(constant_value_net(2.0), ra.Game(4, seed=1)) == [0.25] * 4
    assert sigmoid(0.0) == 0.5


def test_the_json_form_round_trips_and_bad_files_are_refused(tmp_path: Path) -> None:
    net = random_value_net(4)
    path = tmp_path / "value_net.json"
    path.write_text(json.dumps(net.to_dict()), encoding="utf-8")
    again = value_module.load(path)
    assert again == net and again.flat == net.flat
    policy = random_policy(4).to_dict()
    with pytest.raises(ValueError, match="ra-value"):
        ValueNet.from_dict(policy)
    with pytest.raises(ValueError, match="1 outputs"):
        ValueNet.from_dict({**policy, "format": "ra-value"})
    path.write_text("{", encoding="utf-8")
    with pytest.raises(ValueError, match="not JSON"):
        value_module.load(path)
    with pytest.raises(ValueError, match="cannot read"):
        value_module.load(tmp_path / "missing.json")


def test_a_missing_or_damaged_shipped_net_falls_back_to_rollouts_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    damaged = tmp_path / "value_net.json"
    damaged.write_text('{"format": "ra-value", "version": 7}', encoding="utf-8")
    for shipped, why in ((tmp_path / "none.json", "no value net is shipped"), (damaged, "damaged")):
        monkeypatch.setattr(value_module, "SHIPPED_VALUE_NET", shipped)
        value_module.default_value_net.cache_clear()
        with pytest.warns(UserWarning, match=why):
            bot = PolicySearchBot(policy=random_policy(1), value_weight=1.0)
        assert bot.value_net is None and "value_weight" not in bot.leaf_options()
    value_module.default_value_net.cache_clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert PolicySearchBot(policy=random_policy(1)).value_net is None  # off: nothing read


def test_the_weight_is_checked_natively_and_in_python() -> None:
    state = core.State.from_game(ra.Game(2, seed=1))
    net = random_value_net(1, (8,))
    with pytest.raises(ValueError, match="value_weight must be a number from 0 to 1"):
        PolicySearchBot(policy=random_policy(1), value_weight=1.5, value_net=net)
    with pytest.raises(ValueError, match="value_weight"):
        state.mcts(iterations=5, value_net=net.flat, value_weight=-0.1)
    with pytest.raises(ValueError, match="one output"):
        state.mcts(iterations=5, value_net=random_policy(1, (8,)).flat, value_weight=1.0)
    with pytest.raises(ValueError, match="seat"):
        state.value_chance(net.flat, 2)


def test_the_native_search_judges_leaves_by_the_net_at_weight_one() -> None:
    """A net giving every seat 1/2: at weight 1 every iteration's reward is exactly 1/2 (no
    rollout); at weight 0 the same net changes nothing; in between, the mix."""
    flat = constant_value_net().flat
    checked = 0
    for game in positions(6, 8, hidden_scores=True):
        if game.num_players != 2 or game.epoch == 3:  # no game ends within the search
            continue
        state = core.State.from_game(game.view(game.to_move or 0))
        options = {"iterations": 200, "seed": 5, "prior": random_policy(2).flat, "hidden": True}
        judged = state.mcts_stats(**options, value_net=flat, value_weight=1.0)
        assert all(reward == 0.5 * visits for _, visits, reward, *_ in judged[2])
        assert state.mcts_stats(**options, value_net=flat, value_weight=0.0) == state.mcts_stats(**options)
        rolled = state.mcts_stats(**options)
        mixed = state.mcts_stats(**options, value_net=flat, value_weight=0.5)
        assert [r for _, _, r, *_ in mixed[2]] != [r for _, _, r, *_ in rolled[2]]
        checked += 1
    assert checked >= 1


def test_python_search_judges_leaves_by_the_net_and_chooses_as_the_native_one() -> None:
    """With leaves worth 1/N whatever the redeal (no game ends within the search), the root's
    visits follow the prior alone: the Python and native searches choose the same action and
    every root edge's mean is 1/2."""
    policy, net = random_policy(9, scale=0.03), constant_value_net()
    checked = 0
    for game in positions(12, 9, hidden_scores=True):
        if game.num_players != 2 or game.epoch == 3:  # no game ends within the search
            continue
        view = game.view(game.to_move or 0)
        bots = [
            PolicySearchBot(seed=1, policy=policy, iterations=60, value_weight=1.0, value_net=net, native=n)
            for n in (True, False)
        ]
        search = PuctSearch(bots[1])
        chosen = search.run(view)
        assert search.root.edges is not None
        assert all(reward == 0.5 * n for n, reward, _ in search.root.edges.values())
        assert bots[0].choose(view).index == chosen
        checked += 1
    assert checked >= 2


def test_the_held_out_scores() -> None:
    y = np.array([1.0, 0.0, 0.0, 1.0])
    assert log_loss(np.array([0.5] * 4), y) == pytest.approx(np.log(2))
    assert calibration_error(np.array([0.5] * 4), y) == pytest.approx(0.0)
    assert calibration_error(np.array([0.95, 0.95, 0.05, 0.05]), y) == pytest.approx(0.45)


def test_the_shipped_value_net_is_read_and_runs_alike_everywhere() -> None:
    """ra/data/value_net.json (tools/value_net.py, docs/training.md) loads without numpy, beat
    the 1/N baseline on its held-out games, and its passes agree."""
    value_module.default_value_net.cache_clear()
    shipped = value_module.default_value_net()
    assert shipped is not None and shipped.sizes[0] == 370 and shipped.sizes[-1] == 1
    assert shipped.info["held_out_log_loss"] < shipped.info["baseline_log_loss"]
    for game in positions(30, 13):
        seat = game.to_move or 0
        obs = observation_of(game, seat)
        chance = shipped.chance(obs)
        assert 0.0 < chance < 1.0
        assert abs(core.State.from_game(game).value_chance(shipped.flat, seat, hidden=True) - chance) <= 1e-9
        assert abs(numpy_chance(shipped, np.asarray(obs)) - chance) <= 1e-9
    assert PolicySearchBot(policy=random_policy(1), value_weight=0.5).value_net == shipped
