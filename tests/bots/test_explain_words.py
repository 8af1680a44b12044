"""The hints' reasons in every language (ra.bots.explain over the catalogue, ra/locale/hints.pot):
tiles counted through the plural forms, players by name, the mover addressed as "you"."""

from __future__ import annotations

import re

import pytest

import ra
from ra.bots.advisor import Advisor
from ra.bots.explain import action_words, explain, msg_from_json, reason, reason_msg
from ra.table import HintJob
from ra.tui.hints import hints_text
from ra.web.bot_work import hint_for
from ra.words import words
from tests.conftest import make_game

native = pytest.mark.skipif(not ra.native_available(), reason="the advisor's search needs the native core")
NAMES = ["Аня", "Борис", "Cleo"]


def stacked() -> ra.Game:
    """Аня to bid after Cleo passed on a full auction track: 5 Pharaohs, 2 Floods and 1 Gold."""
    game = make_game(NAMES, bag=["pharaoh"] * 5 + ["flood", "flood", "gold", "ra"], seed=1)
    for _ in range(8):
        game.apply("draw")
    game.apply("pass")  # Cleo
    assert game.phase == "bid" and game.to_move == 0
    return game


def latin(text: str, names: list[str]) -> set[str]:
    """Words of three or more Latin letters that are not (in) a player's name."""
    allowed = {part for name in names for part in name.split()}
    return set(re.findall(r"[A-Za-z]{3,}", text)) - allowed


def test_a_russian_reason_counts_the_tiles_names_the_players_and_says_you_to_the_mover() -> None:
    view = stacked().view(0)
    ru = words("ru")
    forms = {ru("tiles.pharaoh", n=n).split(" ", 1)[1] for n in (1, 2, 5)}
    assert len(forms) == 3  # the catalogue's three Russian forms
    text = reason(view, ra.Action.parse("bid 10"), lang="ru")
    lot = ru.join([ru("tiles.pharaoh", n=5), ru("tiles.flood", n=2), ru("tiles.gold", n=1)])
    assert f"({lot})" in text
    assert re.search(r"стоят \d+ очк\w* для вас, \d+ очк\w* для игрока (Борис|Cleo)", text)  # «вы»
    assert "Аня" not in text and not latin(text, NAMES)
    # In an analysis every player is named, the mover too.
    named = reason(view, ra.Action.parse("bid 10"), lang="ru", you=False)
    assert "для игрока Аня" in named and not re.search(r"\bвас\b", named)
    # English: the same data, the same words as ever.
    english = reason(view, ra.Action.parse("bid 10"))
    lot = r"the lot \(5 Pharaohs, 2 Floods and 1 Gold\)"
    assert re.search(lot + r" is worth \d+ points to you, \d+ points to ", english)
    cost = (
        r"диск 10 уходит в центр, а центральный диск 1 приходит взамен: "
        r"на \d+ очк\w* хуже, но жетоны приносят больше"
    )
    assert re.search(cost, text)
    # The Ra track, with the forms of the count.
    start = make_game(NAMES[:2], seed=2)
    text = reason(start, ra.Action.parse("draw"), lang="ru")
    assert text == "аукционный ряд пуст; до конца эпохи: " + ru("tiles.ra", n=6)


def test_actions_in_words_in_russian() -> None:
    assert action_words(ra.Action.parse("ra"), lang="ru") == "воззвать к Ра"
    assert action_words(ra.Action.parse("bid 9"), lang="ru") == "поставить диск 9"
    assert action_words(ra.Action.parse("god pharaoh"), lang="ru") == "взять фараона за жетон богов"
    assert action_words(ra.Action.parse("discard astronomy"), lang="ru") == "сбросить астрономию"
    assert action_words(ra.Action.parse("pass"), gerund=True) == "passing"


def test_the_pseudo_locale_leaves_no_plain_english_in_a_reason() -> None:
    view = stacked().view(0)
    for action in view.legal_actions():
        text = reason(view, action, lang="en_XA")
        assert text and not latin(text, NAMES), text
    text = reason(make_game(NAMES, seed=2), ra.Action.parse("draw"), lang="en_XA")
    assert not latin(text, NAMES), text


@native
def test_hints_in_russian_at_the_table_and_in_the_terminal() -> None:
    game = stacked()
    evaluation = Advisor(300, seed=0).evaluate(game.view(0))
    best = evaluation.best.action
    # The browser's hint: the reason as a message, rendered in the page's language.
    reply = hint_for(HintJob(game.view(0), "300", 0), "original")
    assert reply["reason"] is not None and reply["best"] == str(best)
    m = msg_from_json(reply["reason"])
    assert m == reason_msg(explain(game.view(0), best, evaluation))
    text = words("ru").render(m, NAMES, 0)
    assert "для вас" in text and ("шанс на победу" in text or "расчёт" in text) and not latin(text, NAMES)
    # The terminal's panel, every word in the command line's language.
    keys = {v.action: str(i + 1) for i, v in enumerate(evaluation.actions)}
    panel = hints_text(evaluation, game.view(0), keys, lang="ru").plain
    lines = panel.splitlines()
    # ± is said once, in the title (issue 54), and each row holds a chance and a lead
    assert lines[0].startswith("Подсказки для игрока Аня (± ожидаемый отрыв к концу;")
    assert lines[-1].startswith("Почему " + action_words(best, lang="ru") + ": ")
    assert all("±" in line or "%" in line for line in lines[1:-1])
    assert not latin(panel, NAMES)
    pseudo = hints_text(evaluation, game.view(0), keys, lang="en_XA").plain
    assert not latin(pseudo, NAMES), pseudo
