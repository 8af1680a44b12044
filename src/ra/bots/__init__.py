"""Computer players, from random to search-based (they see only a player's view, R9.3).

>>> from ra import bots
>>> bot = bots.make("greedy", seed=1)
>>> bot = bots.make("mcts", seed=1, level="hard")
>>> action = bot.choose(game.view(game.to_move))  # doctest: +SKIP

``make`` also takes the difficulty levels of the user interfaces directly:
``bots.make("easy")``, ``"medium"``, ``"hard"``.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from ra.bots.base import Bot, RandomBot, SeededBot
from ra.bots.greedy import GreedyBot, greedy_action
from ra.bots.mcts import MCTSBot, MCTSConfig
from ra.bots.valuation import Valuation, Weights

BOTS = ("random", "greedy", "mcts")
LEVELS = ("easy", "medium", "hard")

# Search budgets of the MCTS bot by level (measured on a 2-core machine with
# CPython 3.11: "hard" answers in about a second per decision).
MCTS_ITERATIONS: dict[str, int] = {"easy": 40, "medium": 150, "hard": 1200}
# The difficulty levels of the user interfaces, as bots.
LEVEL_BOTS: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("greedy", {"epsilon": 0.25}),
    "medium": ("mcts", {"iterations": MCTS_ITERATIONS["medium"]}),
    "hard": ("mcts", {"iterations": MCTS_ITERATIONS["hard"]}),
}


# The options each bot takes (anything else is an error at once, not later in choose()).
BOT_OPTIONS: dict[str, tuple[str, ...]] = {
    "random": (),
    "greedy": ("epsilon", "weights"),
    "mcts": (*(f.name for f in fields(MCTSConfig)), "config", "weights"),
    # OpenSpiel's own MCTS (ra.envs.openspiel): needs the rl extra, imported only when asked for.
    "openspiel-mcts": ("simulations", "rollouts", "uct_c"),
}


def make(name: str, seed: int | None = None, level: str | None = None, **options: Any) -> Bot:
    """A bot by name (``random``, ``greedy``, ``mcts``) or by level (``easy``, ``medium``, ``hard``).

    ``level`` sets the search budget of ``mcts`` (other bots have no levels).
    Extra keyword options go to the bot (e.g. ``iterations=300`` for ``mcts``).
    Every bad name, level or option raises ``ValueError`` at once, saying which.

    >>> make("greedy", seed=1, epsilon=0.1)
    GreedyBot(seed=1, epsilon=0.1)
    >>> make("greedy", level="hard")
    Traceback (most recent call last):
    ...
    ValueError: the greedy bot has no levels (only mcts has: easy, medium, hard)
    """
    if not isinstance(name, str):
        raise ValueError(f"a bot name is text, got {type(name).__name__}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ValueError(f"a bot's seed is an integer, got {seed!r}")
    key = name.strip().lower()
    if level is not None and level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; levels are: {', '.join(LEVELS)}")
    if key in LEVEL_BOTS:
        if level is not None:
            raise ValueError(f"{name!r} is already a level; give a bot name with level={level!r}")
        key, preset = LEVEL_BOTS[key]
        options = {**preset, **options}
    if key not in BOT_OPTIONS:
        raise ValueError(f"unknown bot {name!r}; bots are: {', '.join((*BOTS, *LEVELS, 'openspiel-mcts'))}")
    if level is not None and key != "mcts":
        raise ValueError(f"the {key} bot has no levels (only mcts has: {', '.join(LEVELS)})")
    unknown = sorted(set(options) - set(BOT_OPTIONS[key]))
    if unknown and key != "mcts":  # MCTSBot names its unknown settings itself
        takes = ", ".join(BOT_OPTIONS[key]) or "none"
        raise ValueError(f"unknown option(s) {', '.join(unknown)} for the {key} bot; its options: {takes}")
    if key == "random":
        return RandomBot(seed=seed)
    if key == "greedy":
        return GreedyBot(seed=seed, **options)
    if key == "openspiel-mcts":
        return _openspiel_mcts(seed, options)
    if level is not None:
        options = {"iterations": MCTS_ITERATIONS[level], **options}
    return MCTSBot(seed=seed, **options)


def _openspiel_mcts(seed: int | None, options: dict[str, Any]) -> Bot:
    try:
        from ra.envs.openspiel import OpenSpielMCTSBot
    except ImportError as err:
        raise ValueError(
            f"the openspiel-mcts bot needs the rl extra (pip install 'ra-boardgame[rl]'): {err}"
        ) from None
    return OpenSpielMCTSBot(seed=seed, **options)


def parse_spec(spec: str) -> tuple[str, str | None, dict[str, Any]]:
    """Split a bot spec ``name[:level][:key=value...]`` (e.g. ``mcts:hard``,
    ``mcts:iterations=300``) into name, level and options."""
    if not isinstance(spec, str):
        raise ValueError(f"a bot spec is text, got {type(spec).__name__}")
    parts = [p.strip() for p in spec.split(":")]
    if not parts[0]:
        raise ValueError(f"empty bot name in {spec!r}")
    name, level, options = parts[0].lower(), None, {}
    for part in parts[1:]:
        if "=" in part:
            key, _, text = part.partition("=")
            if not key.strip():
                raise ValueError(
                    f"bad part {part!r} in bot spec {spec!r}: an option needs a name (key=value)"
                )
            if key.strip() == "level":
                level = text.strip().lower()
                continue
            options[key.strip()] = _value(text.strip())
        elif part.lower() in LEVELS:
            level = part.lower()
        else:
            raise ValueError(
                f"bad part {part!r} in bot spec {spec!r}: a level ({', '.join(LEVELS)}) or key=value"
            )
    return name, level, options


def from_spec(spec: str, seed: int | None = None) -> Bot:
    """The bot a spec names (see :func:`parse_spec`); raises ``ValueError`` with the reason."""
    name, level, options = parse_spec(spec)
    try:
        return make(name, seed=seed, level=level, **options)
    except (TypeError, ValueError) as err:
        raise ValueError(f"bad bot spec {spec!r}: {err}") from None


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


__all__ = [
    "BOTS",
    "BOT_OPTIONS",
    "LEVELS",
    "LEVEL_BOTS",
    "MCTS_ITERATIONS",
    "Bot",
    "GreedyBot",
    "MCTSBot",
    "MCTSConfig",
    "RandomBot",
    "SeededBot",
    "Valuation",
    "Weights",
    "from_spec",
    "greedy_action",
    "make",
    "parse_spec",
]
