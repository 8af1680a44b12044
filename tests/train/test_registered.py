"""The learned policy's bots are registered by name (pyproject's ``ra.bots`` entry points), so
``ra arena -b puct,expert`` plays them; neither is a level by its own name (the level ``master`` is
the search with ``expert``'s settings: tests/bots/test_master.py)."""

from __future__ import annotations

import ra
from ra import bots
from ra.bots.policy import PolicyBot, PolicySearchBot


def test_the_policy_bots_are_registered_by_name_and_play() -> None:
    search, alone = bots.from_spec("puct:iterations=20", seed=1), bots.from_spec("policy", seed=1)
    assert isinstance(search, PolicySearchBot) and isinstance(alone, PolicyBot)
    game = ra.Game(players=2, seed=3, hidden_scores=True)
    for bot in (search, alone):
        view = game.view(game.to_move or 0)
        assert bot.choose(view) in game.legal_actions()
    assert "puct" not in bots.LEVELS and "policy" not in bots.LEVELS
