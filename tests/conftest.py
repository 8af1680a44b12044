"""Shared helpers for scenario tests: stacked bags, chosen suns, scripted decisions."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

import pytest

import ra
from ra.cli import language

BROWSER_FIXTURES = ("browser",)
"""Tests in a real browser: under the README's ``pytest -n 4 --dist loadgroup`` those that play in
time (a game by clicks, offline and back, clocks) run one after another within their group — two
groups of games (:data:`SECOND_GAMES_FILES` the second) — and the pages' layout checks
(:data:`PAGE_FILES`) in a group of their own, so the groups run side by side."""
PAGE_FILES = (
    "test_browser_issue41.py",
    "test_learn_browser.py",
    "test_browser_phone.py",
    "test_guide_browser.py",
    "test_accessibility.py",
    "test_browser_sun_boat.py",
    "test_account_pages.py",
)
"""Browser tests that measure pages (sizes, contrast, axe, words) rather than time."""
SECOND_GAMES_FILES = (
    "test_browser_issue40.py",
    "test_lobby_live.py",
    "test_browser_words.py",
    "test_browser_table.py",
    "test_chat.py",
    "test_browser_issue54.py",
    "test_browser_webfix.py",
)
"""The second group of the browser's games: about half of their time (``--durations``; 2026-12-02,
the full suite under ``-n 4``: 680 s in the first group, 620 s in this one, where it was 930 and
370 before these two files moved here)."""
CLOCK_FIXTURES = ("cluster",)
CLOCK_FILES = (
    "test_clock.py",
    "test_game_clock.py",
    "test_ray_bots.py",
    "test_fairness.py",
    "test_defences.py",
    "test_forfeits.py",
    "test_soak.py",
)
"""Tests that wait on real clocks or a cluster's workers: one after another too, in a group of
their own, so that the groups run side by side (the README's test command) and no worker
carries all the long tests."""


REAL_SERVER_FIXTURES = (
    "server",
    "server_factory",
    "live_server",
    "module_server",
    "pg_url",
    "browser",
    "cluster",
    "local_ray",
)
"""Tests on a real ``ra serve`` (or PostgreSQL, a browser, a cluster, a local Ray) are slow by
nature: the fast subset (``pytest -m "not slow"``) is the engine, the bots and the in-process
tests (the Ray backends' rules on a fake Ray: ``tests/train/test_workers.py``)."""


@pytest.fixture(autouse=True)
def _restore_the_language() -> Iterator[None]:
    """The command line's language is one per process (``ra.cli.language``): a test that runs a
    command with ``--lang ru`` in this process (the CLI's, the guide's, the terminal's) must not
    leave the next test on the same worker in Russian."""
    chosen = language.lang()
    yield
    language.choose(chosen)


SLOW_IN_PROCESS = (
    # The terminal's screens driven through a game or its help (Textual's pilot).
    "tests/tui/test_app.py::test_help_screen_opens_and_closes",
    "tests/tui/test_app.py::test_wrong_input_gets_a_message_never_a_crash",
    "tests/tui/test_hints.py::test_keys_work_while_the_hints_are_being_worked_out",
    "tests/tui/test_keys.py::test_a_digit_that_is_no_sun_says_so",
    "tests/tui/test_keys.py::test_a_typed_action_that_is_not_possible_gets_the_engines_whole_reason",
    "tests/tui/test_keys.py::test_bid_keys_are_the_suns_own_numbers",
    "tests/tui/test_keys.py::test_fast_forward_and_pace_keys",
    "tests/tui/test_keys.py::test_help_scrolls_with_the_keyboard_and_closes_only_on_its_keys",
    "tests/tui/test_keys.py::test_hot_seat_names_the_bidder_and_undo_is_only_your_own",
    "tests/tui/test_keys.py::test_quitting_while_a_bot_thinks_is_prompt_and_saves",
    "tests/tui/test_keys.py::test_sigterm_and_sighup_save_the_game",
    "tests/tui/test_keys.py::test_undo_stops_the_bots_search_and_the_bot_answers_the_same_again",
    "tests/tui/test_learn.py::test_the_guided_game_by_keys_to_the_offer_of_a_real_game",
    "tests/tui/test_newcomer.py::test_the_2008_disaster_timing_is_shown_all_game_and_in_the_help",
    "tests/tui/test_newcomer.py::test_the_help_key_table_does_not_wrap_at_80_columns",
    "tests/tui/test_newcomer.py::test_typed_errors_have_one_style",
    "tests/tui/test_newcomer.py::test_wide_and_small_windows_use_their_width",
    "tests/tui/test_newcomer.py::test_with_hints_open_the_log_stays_at_the_newest_event",
    "tests/tui/test_newcomer41.py::test_a_resumed_game_shows_its_rules_in_the_header_and_the_help",
    "tests/tui/test_newcomer41.py::test_the_help_page_fits_with_its_keys_whole",
    "tests/test_pseudo_locale.py::test_every_commands_help_passes_through_the_catalogue",
    "tests/test_pseudo_locale.py::test_every_error_of_the_command_line_passes_through_the_catalogue",
    "tests/test_pseudo_locale.py::test_the_guided_game_passes_through_the_catalogue",
    # Command lines run as processes or whole: their every language.
    "tests/cli/test_languages.py::test_a_file_that_is_no_game_is_named_in_the_chosen_language",
    "tests/cli/test_languages.py::test_lang_after_the_command_and_errors_in_russian",
    "tests/cli/test_languages.py::test_setup_errors_name_the_option_in_the_chosen_language",
    # Searches at a real budget, and pipelines end to end.
    "tests/analysis/test_analyze.py::test_without_the_native_core_the_analysis_says_it_is_weaker",
    "tests/arena/test_ladder.py::test_two_runs_make_one_ladder_and_the_stronger_bot_leads",
    "tests/bots/test_hidden_scores.py::"
    "test_every_search_from_a_view_decides_alike_with_hidden_or_open_scores[python mcts]",
    "tests/guide/test_guide_positions.py::test_stored_best_is_the_advisors_choice",
    "tests/native/test_value_model.py::test_features_and_predictions_equal_in_cpp_and_python",
    "tests/puzzles/test_puzzles.py::test_a_sample_of_answers_is_re_verified_by_the_advisor_at_a_small_budget",
    "tests/train/test_pipeline.py::test_a_tiny_run_end_to_end",
    # The largest shares of the fast subset (``--durations``, 2026-12-02, under load: each 1 % or
    # more of its time): whole arena games, searches, trainings, processes.
    "tests/analysis/test_accuracy.py::test_on_arena_games_the_stronger_player_is_the_more_accurate",
    "tests/analysis/test_chances.py::test_the_chart_jumps_only_where_a_tile_a_bid_or_the_scoring_moved_it",
    "tests/tournament/test_pairing.py::test_over_an_event_no_one_sits_first_much_more_than_their_share",
    "tests/native/test_value_model_training.py::test_generate_then_fit_gives_a_model_the_search_uses",
    "tests/arena/test_ladder.py::test_a_new_bot_is_rated_against_the_levels_which_keep_their_ratings",
    "tests/train/test_pipeline.py::test_self_play_in_worker_processes_stores_the_same_rows",
    "tests/test_docs.py::test_shell_block_parses[docs/benchmarks.md:26]",
    "tests/native/test_engine.py::test_random_games_match[5]",
    "tests/train/test_policy_inference.py::test_the_search_plays_whole_games[False]",
    "tests/tui/test_app.py::test_hot_seat_hands_the_screen_over_and_shows_each_persons_view",
    "tests/cli/test_cli.py::test_help_texts_fit_80_columns",
    "tests/tui/test_app.py::test_save_and_resume",
)
"""In-process tests of a second and a half or more each (``--durations`` of the fast subset on a
quiet 2-core machine, 2026-11-28): slow too, so the fast subset stays under a minute and a half.
A name without ``[…]`` covers every parametrization."""

SLOW_BEYOND_THE_FIRST = (
    "tests/cli/test_languages.py::test_help_in_the_pseudo_locale_has_no_plain_english",
    "tests/cli/test_languages.py::test_help_in_russian_from_the_environment",
)
"""Tests run once per command, each a process (together a twelfth of the fast subset): the fast
subset keeps the first command of each, the others are slow (CI runs them all)."""


def is_slow_in_process(item: pytest.Item) -> bool:
    """Whether ``item`` is one of :data:`SLOW_IN_PROCESS` (by its node id, parameters or not)."""
    node = item.nodeid
    return node in SLOW_IN_PROCESS or node.split("[", 1)[0] in SLOW_IN_PROCESS


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    firsts: set[str] = set()
    for item in items:
        names = getattr(item, "fixturenames", ())
        name = item.nodeid.split("[", 1)[0]
        beyond_the_first = name in SLOW_BEYOND_THE_FIRST and name in firsts
        firsts.add(name)
        if any(f in names for f in REAL_SERVER_FIXTURES) or is_slow_in_process(item) or beyond_the_first:
            item.add_marker(pytest.mark.slow)
        if any(f in names for f in BROWSER_FIXTURES):
            name = item.path.name
            group = "pages" if name in PAGE_FILES else "games2" if name in SECOND_GAMES_FILES else "games"
            item.add_marker(pytest.mark.xdist_group(group))
        elif any(f in names for f in CLOCK_FIXTURES) or item.path.name in CLOCK_FILES:
            item.add_marker(pytest.mark.xdist_group("clock"))


def make_game(
    players: int | Sequence[str] = 3,
    bag: Iterable[str] = (),
    suns: Sequence[Sequence[int]] | None = None,
    seed: int = 0,
    **kwargs: object,
) -> ra.Game:
    """A game with the given top of the bag and sun groups (seat order)."""
    return ra.Game(players=players, seed=seed, bag=list(bag), suns=suns, **kwargs)  # type: ignore[arg-type]


def play(game: ra.Game, *moves: str) -> ra.Game:
    """Apply decisions in notation; on failure say which one and where the game stood."""
    for i, m in enumerate(moves):
        try:
            game.apply(m)
        except ra.RaError as err:
            raise AssertionError(f"move {i} {m!r} failed: {err}; game: {game!r}") from err
    return game


def kinds(game: ra.Game) -> list[str]:
    return [e.kind for e in game.events]


def last(game: ra.Game, kind: str) -> ra.Event:
    for e in game.events[::-1]:
        if e.kind == kind:
            return e
    raise AssertionError(f"no {kind!r} event in {kinds(game)}")


def tiles(game: ra.Game, seat: int) -> dict[str, int]:
    return dict(game.players[seat].tiles)
