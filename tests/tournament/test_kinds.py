"""Settings and table layouts (issue 55): sizes 2-5 (R2.1), fewest tables of another size."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ra.tournament import Kind, Settings, TournamentError, layout


@pytest.mark.parametrize(
    ("players", "size", "tables"),
    [
        (12, 3, (3, 3, 3, 3)),
        (7, 3, (4, 3)),
        (8, 3, (3, 3, 2)),
        (5, 4, (5,)),
        (7, 2, (3, 2, 2)),
        (7, 5, (5, 2)),
    ],
)
def test_the_count_that_does_not_divide_gets_the_fewest_tables_of_another_size(
    players: int, size: int, tables: tuple[int, ...]
) -> None:
    assert layout(players, Settings(table_size=size)).tables == tables


@given(st.integers(2, 600), st.integers(2, 5))
def test_every_player_is_seated_at_tables_of_two_to_five(players: int, size: int) -> None:
    plan = layout(players, Settings(table_size=size))
    assert sum(plan.tables) == players and plan.bots == plan.byes == 0
    assert all(2 <= t <= 5 for t in plan.tables)
    others = sum(1 for t in plan.tables if t != size)
    assert others <= 2 and (others == 0) == (players % size == 0)


def test_bots_fill_empty_seats_only_when_allowed_and_one_a_table() -> None:
    assert layout(7, Settings(table_size=3, bots=True)).tables == (3, 3, 3)
    assert layout(7, Settings(table_size=3, bots=True)).bots == 2
    assert layout(7, Settings(table_size=3)).bots == 0


def test_byes_instead_of_another_size_when_the_organiser_says_so() -> None:
    plan = layout(7, Settings(table_size=3, byes=True))
    assert (plan.tables, plan.byes, plan.seats) == ((3, 3), 1, 6)


@pytest.mark.parametrize(
    ("settings", "option"),
    [
        (Settings(table_size=6), "table_size"),
        (Settings(table_size=1), "table_size"),
        (Settings(rounds=0), "rounds"),
        (Settings(kind=Kind.ARENA, minutes=0), "minutes"),
        (Settings(table_size="3"), "table_size"),  # type: ignore[arg-type]
        (Settings(rounds=True), "rounds"),
        (Settings(bots="yes"), "bots"),  # type: ignore[arg-type]
        (Settings(kind="swiss"), "kind"),  # type: ignore[arg-type]
    ],
)
def test_settings_that_make_no_event_name_the_setting(settings: Settings, option: str) -> None:
    with pytest.raises(TournamentError) as caught:
        layout(6, settings)
    assert caught.value.option == option
