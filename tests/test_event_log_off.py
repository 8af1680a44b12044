"""Games without an event log (``Game(events=False)``, ``stop_events()``): the faster path of
search and training games plays exactly like a logging game, and says clearly it has no log."""

from __future__ import annotations

import pickle
import random

import pytest

import ra


def random_pair(players: int, seed: int, **options: object) -> tuple[ra.Game, ra.Game]:
    """The same random game played twice, with and without the event log."""
    logged = ra.Game(players=players, seed=seed, **options)  # type: ignore[arg-type]
    quiet = ra.Game(players=players, seed=seed, events=False, **options)  # type: ignore[arg-type]
    rng = random.Random(seed)
    while not logged.is_over():
        legal = logged.legal_actions()
        assert quiet.legal_actions() == legal
        action = rng.choice(legal)
        logged.apply(action)
        quiet.apply(action)
        assert quiet.position_key() == logged.position_key()
    return logged, quiet


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {}),
        (3, {}),
        (4, {"hidden_scores": True}),
        (5, {}),
        (2, {"variant": "long-2p", "suns_per_player": 7}),
    ],
)
def test_a_game_without_a_log_plays_exactly_like_one_with_it(
    players: int, options: dict[str, object]
) -> None:
    for seed in range(30):
        logged, quiet = random_pair(players, seed, **options)
        assert quiet.is_over()
        assert quiet.scores == logged.scores
        assert quiet.winner == logged.winner
        assert quiet.epoch_scores == logged.epoch_scores
        assert quiet.decisions == logged.decisions
        assert quiet.to_record() == logged.to_record()
        assert logged.keeps_events and not quiet.keeps_events
        assert quiet._log is None  # nothing was built


def test_events_of_a_game_without_a_log_raise_a_clear_error() -> None:
    game = ra.Game(players=3, seed=1, events=False)
    game.apply("draw")
    with pytest.raises(ra.EventLogOffError, match="keeps no event log"):
        _ = game.events
    assert isinstance(ra.EventLogOffError("x"), ra.RaError)
    with pytest.raises(ValueError, match="events must be True or False"):
        ra.Game(players=3, events="no")  # type: ignore[arg-type]


def test_stop_events_forgets_the_log_and_keeps_everything_else() -> None:
    game = ra.Game(players=4, seed=3)
    rng = random.Random(3)
    for _ in range(60):
        game.apply(rng.choice(game.legal_actions()))
    before = (game.position_key(), game.decisions, game.to_record())
    reference = game.clone()
    game.stop_events()
    assert (game.position_key(), game.decisions, game.to_record()) == before
    with pytest.raises(ra.EventLogOffError):
        _ = game.events
    while not game.is_over():  # and it goes on exactly like the logging game
        action = rng.choice(game.legal_actions())
        game.apply(action)
        reference.apply(action)
        assert game.position_key() == reference.position_key()
    assert len(reference.events) > 0


def test_clones_views_and_determinized_games_keep_no_log_either() -> None:
    for hidden in (False, True):
        game = ra.Game(players=3, seed=5, hidden_scores=hidden, events=False)
        rng = random.Random(5)
        for _ in range(80):
            game.apply(rng.choice(game.legal_actions()))
        view = game.view(game.to_move or 0)
        sample = view.determinize(seed=9)
        for other in (game.clone(), view, sample):
            assert not other.keeps_events
            with pytest.raises(ra.EventLogOffError):
                _ = other.events
        assert sample.legal_actions() == game.legal_actions()


def test_undo_on_a_game_without_a_log() -> None:
    """Undo rebuilds from checkpoints and replays: the game stays log-free and correct."""
    logged, quiet = random_pair(5, 11)
    assert quiet.num_decisions > 70  # past two undo checkpoints
    for _ in range(70):
        assert quiet.undo() == logged.undo()
        assert quiet.position_key() == logged.position_key()
        assert not quiet.keeps_events and quiet._log is None
    # A log stopped after checkpoints were taken: those checkpoints logged.
    game = ra.Game(players=5, seed=11)
    game.replay(logged.decisions[:80])
    game.stop_events()
    for _ in range(60):
        game.undo()
        assert game._log is None and not game.keeps_events


def test_a_game_without_a_log_pickles_and_compares() -> None:
    logged, quiet = random_pair(3, 2)
    copy = pickle.loads(pickle.dumps(quiet))
    assert copy == quiet and not copy.keeps_events
    assert quiet != logged  # the histories differ: one has no events
    assert pickle.loads(pickle.dumps(logged)).keeps_events
