"""Computer players, from random to search-based (they see only a player's view, R9.3).

>>> from ra import bots
>>> bot = bots.make("greedy", seed=1)
>>> bot = bots.make("mcts", seed=1, level="hard")
>>> action = bot.choose(game.view(game.to_move))  # doctest: +SKIP

``make`` also takes the difficulty levels of the user interfaces directly:
``bots.make("easy")``, ``"medium"``, ``"hard"``, ``"expert"``, ``"master"`` (the ``expert``
search guided by the policy shipped with the package, :mod:`ra.bots.policy`).

With the native core (``ra.native_available()``) the ``mcts`` bot searches in C++
(:class:`NativeMCTSBot`, option ``native``, on by default) and the levels ``hard``, ``expert``
and ``master`` get budgets that only the native search affords; ``mcts:native=false`` is the
Python search.
"""

from __future__ import annotations

from dataclasses import fields
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from babel.numbers import format_decimal

from ra.bots.base import Bot, BotSpecError, RandomBot, SeededBot, refuse
from ra.bots.greedy import GreedyBot, greedy_action
from ra.bots.mcts import MCTSBot, MCTSConfig
from ra.bots.native_mcts import NativeMCTSBot
from ra.bots.valuation import SEARCH_WEIGHTS, WEIGHT_SETS, Valuation, Weights
from ra.native import native_available
from ra.words import msg, words

BOTS = ("random", "greedy", "mcts")
LEVELS = ("easy", "medium", "hard", "expert", "master")

Budgets = tuple[int, int, int, int]
"""Rollouts per decision at 2, 3, 4 and 5 players."""


def _same(iterations: int) -> Budgets:
    return (iterations, iterations, iterations, iterations)


# Search budgets of the MCTS bot by level.  The Python search (measured on a 2-core machine
# with CPython 3.11): "hard" answers in about a second per decision; "expert" is the same
# search with a larger budget (a few seconds a decision).
PYTHON_MCTS_ITERATIONS: dict[str, Budgets] = {
    "easy": _same(40), "medium": _same(150), "hard": _same(1200), "expert": _same(3000),
    "master": _same(3000),
}  # fmt: skip
# The native search (benchmarks/strength.py --calibrate): "hard" answers within 1 s and "expert"
# within about 2 s per decision on that machine, at every player count; an iteration costs more
# with more players, so the budgets fall with the player count.
NATIVE_MCTS_ITERATIONS: dict[str, Budgets] = {
    "easy": _same(40),
    "medium": _same(150),
    "hard": (60_000, 45_000, 35_000, 20_000),
    "expert": (150_000, 90_000, 80_000, 45_000),
    "master": (150_000, 90_000, 72_000, 45_000),  # 4 players: the prior's cost kept it within 2 s
}
MCTS_ITERATIONS: dict[str, Budgets] = NATIVE_MCTS_ITERATIONS if native_available() else PYTHON_MCTS_ITERATIONS
"""The budgets in use: native ones when the core is available."""


TUNED_LEVELS = ("hard", "expert", "master")
"""The levels whose search uses :data:`~ra.bots.valuation.SEARCH_WEIGHTS` (the others keep the
hand-set weights, so that the ladder below them stays as measured)."""


_EXPERT_REWARD = {"win_weight": 0.75}
LEVEL_REWARDS: dict[str, dict[str, float]] = {"expert": _EXPERT_REWARD, "master": _EXPERT_REWARD}
"""A level's search reward where it differs from :class:`~ra.bots.mcts.MCTSConfig`'s: ``expert``
counts the win itself for three quarters of a rollout that reaches the end of the game (the
default a quarter, the rest the margin), which made it finish ahead of the hand-set ``hard``
more often at 3 players (docs/bots.md, Tuned weights; ``expert:win_weight=0.25`` is the old one)."""


LEVEL_PRIORS: dict[str, tuple[float, float, float, float]] = {"master": (0.5, 1.0, 1.0, 1.0)}
"""The levels whose search is guided by the shipped policy (PUCT, :mod:`ra.bots.policy`), with the
prior's weight ``c_puct`` at 2, 3, 4 and 5 players: ``master`` is ``expert``'s search, budgets (a
tenth less at 4 players, to answer within 2 s) and reward with the policy as its prior, at the
weight that beat ``expert`` at ``expert``'s own budget at each player count measured
(docs/training.md, What it reached): half its training run's at 2 players (39 of 60 games, where
the run's weight won 32; 37 of 60 on new deals), the run's at 3 (ahead of 42 of 60 expert seats,
where half of it was ahead of 35); the run's weight where not measured."""


def level_options(level: str, native: bool | None = None) -> dict[str, Any]:
    """The MCTS settings of a level: its budget, one number or one per player count
    (``native``: for that search; default: the one in use)."""
    if native is None:
        native = native_available()
    budgets = (NATIVE_MCTS_ITERATIONS if native else PYTHON_MCTS_ITERATIONS)[level]
    options: dict[str, Any] = (
        {"iterations": budgets[0]} if len(set(budgets)) == 1 else {"iterations_by_players": budgets}
    )
    if level in TUNED_LEVELS:
        options["weights"] = SEARCH_WEIGHTS
    options.update(LEVEL_REWARDS.get(level, {}))
    if level in LEVEL_PRIORS:
        options["c_puct_by_players"] = LEVEL_PRIORS[level]
    return options


def _budget_text(level: str, lang: str = "en") -> str:
    w = words(lang)
    options = level_options(level)
    if "iterations" in options:
        return w(
            "level.budget_flat",
            n=options["iterations"],
            count=format_decimal(options["iterations"], locale=w.locale),
        )
    budgets = options["iterations_by_players"]
    first, last = (format_decimal(b, locale=w.locale) for b in (budgets[0], budgets[-1]))
    return w("level.budget", first=first, last=last)


LEVEL_RATINGS: dict[str, tuple[float, float]] = {
    "easy": (6.8, 2.6),
    "medium": (28.8, 2.2),
    "hard": (40.5, 2.0),
    "expert": (43.4, 2.3),
    "master": (48.3, 1.9),
}
"""The levels' fixed OpenSkill ratings (Plackett-Luce mu, sigma), on the scale a new account
starts on (mu 25): 458 arena games at 2 and 3 players among random, greedy, the first four
levels (``hard`` and ``expert`` with their tuned weights) and the hint follower, duplicate deals,
rated together by ``benchmarks/ladder.py`` (docs/bots.md, Levels).  ``expert`` rates above
``hard``.  ``master`` came later: rated onto that ladder, the others held fixed (``ladder.py
--rate master``, as the site rates a person), from its 180 games against ``expert`` at 2 and 3
players, on the deals its prior's weights were chosen on and on new ones (docs/training.md)."""


# The difficulty levels of the user interfaces, as bots.
LEVEL_BOTS: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("greedy", {"epsilon": 0.25}),
    "medium": ("mcts", level_options("medium")),
    "hard": ("mcts", level_options("hard")),
    "expert": ("mcts", level_options("expert")),
    "master": ("puct", level_options("master")),
}


LADDER: dict[str, tuple[str, int, int]] = {
    "medium": ("easy", 40, 40),
    "hard": ("medium", 19, 20),
    "expert": ("hard", 38, 60),
    "master": ("expert", 76, 120),
}
"""Each level against the one below it at 2 players, duplicate deals: (the level below, games won,
games played), from the runs behind :data:`LEVEL_RATINGS` (docs/bots.md, Levels); ``master``'s
from all its games against ``expert`` at ``expert``'s budget, on the deals its prior's weight was
chosen on and on new ones (docs/training.md, What it reached)."""


def level_help(level: str, lang: str = "en") -> str:
    """What a level is, in one line of ``lang`` (for help texts), with how it fares against the
    level below it (:data:`LADDER`)."""
    w = words(lang)
    slower = not native_available() and w.has(f"level.help.{level}_python")  # the Python search's words
    key = f"level.help.{level}_python" if slower else f"level.help.{level}"
    text = w(key, budget=_budget_text(level, lang) if level != "easy" else "")
    if level in LADDER:
        below, won, games = LADDER[level]
        text += w("level.beats", below=below, n=won, games=games)
    return text


LEVEL_HELP: dict[str, str] = {level: level_help(level) for level in LEVELS}
"""One line per level, for help texts."""


# The options each bot takes (anything else is an error at once, not later in choose()).
BOT_OPTIONS: dict[str, tuple[str, ...]] = {
    "random": (),
    "greedy": ("epsilon", "weights"),
    "mcts": (*(f.name for f in fields(MCTSConfig)), "config", "weights", "native"),
    # Plays the advisor's best action (ra.bots.advisor): the hint follower.
    "advisor": ("budget", "flat"),
}


def make(name: str, seed: int | None = None, level: str | None = None, **options: Any) -> Bot:
    """A bot by name (``random``, ``greedy``, ``mcts``) or by level (``easy``, ``medium``, ``hard``,
    ``expert``, ``master``).

    ``level`` sets the search budget of ``mcts`` (other bots have no levels).  ``native``
    (``mcts`` only) chooses the native search (default: when the core is available).
    Extra keyword options go to the bot (e.g. ``iterations=300`` for ``mcts``).
    Every bad name, level or option raises ``ValueError`` at once, saying which.

    >>> make("greedy", seed=1, epsilon=0.1)
    GreedyBot(seed=1, epsilon=0.1)
    >>> make("greedy", level="hard")
    Traceback (most recent call last):
    ...
    ra.bots.base.BotSpecError: the greedy bot has no levels (only mcts has: easy, medium, ..., master)
    """
    if not isinstance(name, str):
        raise ValueError(f"a bot name is text, got {type(name).__name__}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ValueError(f"a bot's seed is an integer, got {seed!r}")
    key = name.strip().lower()
    if level is not None and level not in LEVELS:
        raise refuse("bots.err.level", level=repr(level), levels=", ".join(LEVELS))
    if key in LEVEL_BOTS:
        if level is not None:
            raise refuse("bots.err.already_level", name=repr(name), level=repr(level))
        key, preset = LEVEL_BOTS[key]
        if key in SEARCHES:
            level = name.strip().lower()  # its budget is set below, for the search chosen
        else:
            options = {**preset, **options}
    elif key == "mcts" and level is not None:
        key = LEVEL_BOTS[level][0] if LEVEL_BOTS[level][0] in SEARCHES else key  # mcts:master
    if key not in BOT_OPTIONS and (key, level) not in LEVEL_SEARCHES:
        plugin = _plugins().get(key)
        if plugin is None:
            bots = ", ".join((*BOTS, *LEVELS, "advisor", *_plugins()))
            raise refuse("bots.err.unknown", name=repr(name), bots=bots)
        if level is not None:
            raise _no_levels(key)
        return _plugin_bot(plugin, seed, options)
    if level is not None and key not in SEARCHES:
        raise _no_levels(key)
    unknown = ", ".join(sorted(set(options) - set(BOT_OPTIONS.get(key, ()))))
    if unknown and key not in SEARCHES:  # MCTSBot names its unknown settings itself
        if not BOT_OPTIONS[key]:
            raise refuse("bots.err.no_options", options=unknown, bot=key)
        raise refuse("bots.err.options", options=unknown, bot=key, takes=", ".join(BOT_OPTIONS[key]))
    if isinstance(options.get("weights"), str):
        options = {**options, "weights": _weight_set(options["weights"])}
    if key == "random":
        return RandomBot(seed=seed)
    if key == "greedy":
        return GreedyBot(seed=seed, **options)
    if key == "advisor":
        from ra.bots.advisor import FollowerBot  # imports the evaluators: only when asked for

        return FollowerBot(seed=seed, **options)
    native = _native_search(options)
    if level is not None:  # the level's budget for the search chosen (the Python one is slower)
        options = {**_unless_given(level_options(level, native), options), **options}
    if key == "puct":
        from ra.bots.policy import PolicySearchBot  # reads the shipped policy: only when asked for

        return PolicySearchBot(seed=seed, native=native, **options)
    if native:
        return NativeMCTSBot(seed=seed, **options)
    return MCTSBot(seed=seed, **options)


SEARCHES = ("mcts", "puct")
"""The bots a level's budget applies to: the MCTS bot, and the search the policy guides."""
LEVEL_SEARCHES = frozenset((bot, level) for level, (bot, _) in LEVEL_BOTS.items() if bot == "puct")
"""The levels played by the policy search (which, by name alone, is a registered bot, ``puct``)."""


def _native_search(options: dict[str, Any]) -> bool:
    """Whether a search runs natively: ``options``' ``native`` (taken out of them), else whenever
    the core is there (and ``paired_root``, which only the Python search has, is not asked for)."""
    native = options.pop("native", None)
    if native is None:
        config = options.get("config")
        paired = options.get("paired_root") or (isinstance(config, MCTSConfig) and config.paired_root)
        return native_available() and not paired
    if not isinstance(native, bool):
        raise refuse("bots.err.native", value=repr(native))
    if native and not native_available():
        raise refuse("bots.err.no_native")
    return bool(native)


def _no_levels(bot: str) -> BotSpecError:
    return refuse("bots.err.no_levels", bot=bot, levels=", ".join(LEVELS))


def _weight_set(name: str) -> Weights:
    """A named weight set (``weights=default`` in a spec); ``ValueError`` names the choices."""
    found = WEIGHT_SETS.get(name.strip().lower())
    if found is None:
        raise refuse("bots.err.weights", name=repr(name), sets=", ".join(WEIGHT_SETS))
    return found


def _unless_given(preset: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """A level's preset without its budget when the options give one (``hard:iterations=300``),
    and without its prior's weights by player count when they give one (``master:c_puct=2``)."""
    budget = {"iterations", "iterations_by_players", "seconds", "config"}
    if budget & set(options):
        preset = {k: v for k, v in preset.items() if k not in budget}
    if "c_puct" in options:
        preset = {k: v for k, v in preset.items() if k != "c_puct_by_players"}
    return preset


PLUGINS = "ra.bots"
"""The entry-point group where a package registers bots by name (``name = "module:Class"``): the
research adapters register theirs (``openspiel-mcts``, ``ra.envs.openspiel``) without this
package importing them; the class is loaded only when asked for."""


def _plugins() -> dict[str, EntryPoint]:
    """The bots other packages (or this one's adapters) register, by name."""
    return {ep.name: ep for ep in entry_points(group=PLUGINS)}


def _plugin_bot(plugin: EntryPoint, seed: int | None, options: dict[str, Any]) -> Bot:
    """A registered bot: loaded now (its extra may be missing), its options checked by itself."""
    try:
        factory = plugin.load()
    except ImportError as err:
        raise refuse("bots.err.plugin_load", bot=plugin.name, where=plugin.value, why=str(err)) from None
    try:
        bot = factory(seed=seed, **options)
    except TypeError as err:
        raise refuse("bots.err.plugin_options", bot=plugin.name, why=str(err)) from None
    if not isinstance(bot, Bot):
        raise refuse("bots.err.plugin_type", bot=plugin.name, where=plugin.value)
    return bot


def parse_spec(spec: str) -> tuple[str, str | None, dict[str, Any]]:
    """Split a bot spec ``name[:level][:key=value...]`` (e.g. ``mcts:hard``,
    ``mcts:iterations=300``) into name, level and options."""
    if not isinstance(spec, str):
        raise ValueError(f"a bot spec is text, got {type(spec).__name__}")
    parts = [p.strip() for p in spec.split(":")]
    if not parts[0]:
        raise refuse("bots.err.empty_name", spec=repr(spec))
    name, level, options = parts[0].lower(), None, {}
    for part in parts[1:]:
        if "=" in part:
            key, _, text = part.partition("=")
            if not key.strip():
                raise refuse("bots.err.option_name", part=repr(part), spec=repr(spec))
            if key.strip() == "level":
                level = text.strip().lower()
                continue
            options[key.strip()] = _value(text.strip())
        elif part.lower() in LEVELS:
            level = part.lower()
        else:
            raise refuse("bots.err.part", part=repr(part), spec=repr(spec), levels=", ".join(LEVELS))
    return name, level, options


def from_spec(spec: str, seed: int | None = None) -> Bot:
    """The bot a spec names (see :func:`parse_spec`); raises :class:`BotSpecError` (a
    ``ValueError``) with the reason."""
    name, level, options = parse_spec(spec)
    try:
        return make(name, seed=seed, level=level, **options)
    except (TypeError, ValueError) as err:
        reason = err.why if isinstance(err, BotSpecError) else str(err)
        raise BotSpecError(msg("bots.err.spec", spec=repr(spec), why=reason), reason) from None


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
    "LEVEL_HELP",
    "LEVEL_REWARDS",
    "MCTS_ITERATIONS",
    "NATIVE_MCTS_ITERATIONS",
    "PYTHON_MCTS_ITERATIONS",
    "Bot",
    "BotSpecError",
    "Budgets",
    "GreedyBot",
    "MCTSBot",
    "MCTSConfig",
    "NativeMCTSBot",
    "RandomBot",
    "SeededBot",
    "Valuation",
    "Weights",
    "from_spec",
    "greedy_action",
    "level_help",
    "level_options",
    "make",
    "parse_spec",
]
