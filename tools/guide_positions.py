"""Regenerate ``src/ra/data/guide_positions.json``: one position per section of the strategy guide.

Each position is a setup (players, seed) and the actions reaching it: random legal moves (mostly draws) from
a generator seeded like the game, stopped at the first real choice that shows the section's point
(a Disaster in the row, a Ra track one short of full …); the first seed that gets there wins. With
it, the advisor's numbers for the player to move: each legal action's win chance and the best.

    PYTHONPATH=src python -m tools.guide_positions
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import ra
from ra.bots.advisor import Advisor

OUT = Path(__file__).resolve().parent.parent / "src" / "ra" / "data" / "guide_positions.json"
BUDGET = 10000
"""The advisor's search iterations: small, so that the test can recompute the best action."""

DISASTERS = frozenset({"funeral", "drought", "unrest", "earthquake"})
MONUMENTS = frozenset(
    {"fortress", "obelisk", "palace", "pyramid", "sphinx", "statue", "step_pyramid", "temple"}
)
DRAWS = 0.7
"""How often the random player draws when it may: enough for the rows and the Ra track to fill."""
Test = Callable[[ra.Game], bool]


def _bidding(game: ra.Game, tiles: int = 2) -> bool:
    """An auction under way, its row holding at least ``tiles`` tiles."""
    return game.phase == "bid" and len(game.auction_track) >= tiles


def _acting(game: ra.Game) -> bool:
    """A player's turn with a row worth weighing: draw or invoke Ra (R3.2)."""
    legal = {str(a) for a in game.legal_actions()}
    return {"draw", "ra"} <= legal and len(game.auction_track) >= 3


def _mover_suns(game: ra.Game) -> tuple[int, ...]:
    """The face-up suns of the player to move (none when nobody is to move)."""
    seat = game.to_move
    return () if seat is None else tuple(game.players[seat].suns)


def _outbid(game: ra.Game) -> bool:
    """An early bidder facing a higher sun held by a player still to bid (R4.1)."""
    auction, seat = game.auction, game.to_move
    if not _bidding(game, 3) or auction is None or seat is None or auction.ra_player == seat:
        return False
    n = game.num_players
    later = [(seat + k) % n for k in range(1, n)]
    later = later[: later.index(auction.ra_player) + 1]
    top = max(_mover_suns(game), default=0)
    return any(s > top for rival in later for s in game.players[rival].suns)


SPECS: tuple[tuple[str, int, Test], ...] = (
    # name, players, what the position shows (checked at a decision of two or more actions)
    ("lot_value", 3, lambda g: _bidding(g, 4) and g.epoch == 1),
    ("invoke", 3, _acting),
    ("ra_track", 4, lambda g: g.ra_count + 2 >= g.ra_track_length and len(_mover_suns(g)) > 1 and _acting(g)),
    ("suns", 3, lambda g: _bidding(g, 2) and len(_mover_suns(g)) >= 3 and 2 <= g.ra_count <= 5),
    ("centre_sun", 3, lambda g: _bidding(g, 1) and g.center_sun >= 11),
    ("gods", 4, lambda g: any(a.kind == "god" for a in g.legal_actions()) and len(g.auction_track) >= 3),
    ("disasters", 3, lambda g: _bidding(g, 3) and bool(DISASTERS & set(g.auction_track))),
    ("races", 4, lambda g: _bidding(g, 2) and g.epoch >= 2 and "pharaoh" in g.auction_track),
    ("monuments", 3, lambda g: _bidding(g) and g.epoch == 3 and len(MONUMENTS & set(g.auction_track)) > 1),
    ("outbid", 5, _outbid),
    ("two_players", 2, lambda g: _bidding(g, 3)),
)


def reach(players: int, seed: int, shows: Test) -> tuple[ra.Game, list[str]] | None:
    """The game after random legal moves from ``seed``, stopped at the first choice of two or
    more actions where ``shows`` holds (None if the game ends first)."""
    game = ra.Game(players=players, seed=seed)
    rng = random.Random(seed)
    moves: list[str] = []
    while not game.is_over():
        legal = game.legal_actions()
        if len(legal) >= 2 and shows(game):
            return game, moves
        draw = ra.Action.parse("draw")
        action = draw if draw in legal and rng.random() < DRAWS else rng.choice(legal)
        moves.append(str(action))
        game.apply(action)
    return None


def open_question(wins: list[float]) -> bool:
    """A position worth showing: the game still open for the mover (the best action's chance
    between 15% and 85%), the choice mattering (the best and the worst at least 3 points apart) and
    the search's choice (listed first) also its highest chance, give or take a point."""
    return 0.15 <= wins[0] <= 0.85 and max(wins) - min(wins) >= 0.03 and wins[0] >= max(wins) - 0.01


def position(number: int, name: str, players: int, shows: Test) -> dict[str, object]:
    """The first seed's position that shows the section's point and is an open question (section
    ``number`` looks from seed ``100 * number + 1``, so that no two sections share a game), and
    the advisor's numbers for it."""
    for seed in range(100 * number + 1, 100 * number + 100):
        found = reach(players, seed, shows)
        if found is None:
            continue
        game, moves = found
        evaluation = Advisor(budget=BUDGET, seed=0).evaluate(game.view(game.to_move))
        mover = evaluation.mover
        wins = [round(v.chances[mover], 3) for v in evaluation.actions]
        if open_question(wins):
            return {
                "name": name,
                "players": players,
                "seed": seed,
                "moves": moves,
                "mover": mover,
                "budget": BUDGET,
                "best": str(evaluation.actions[0].action),
                "actions": [
                    {"action": str(v.action), "win": win}
                    for v, win in zip(evaluation.actions, wins, strict=True)
                ],
            }
    raise SystemExit(f"no position found for {name!r}")


def main() -> None:
    """Write the positions file."""
    data = [position(number, *spec) for number, spec in enumerate(SPECS)]
    OUT.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(data)} positions)")


if __name__ == "__main__":
    main()
