"""A fixed-size numeric observation of a player's view, for learning agents.

``observation(view)`` is a list of :data:`OBSERVATION_SIZE` floats (370), the same
length for every player count and variant; ``ra.envs.observation_array(view)`` is
the same as a numpy array (numpy comes with the ``rl`` extra).  Every entry is a
small whole number (a count, a flag or a sun number) between 0 and its bound in
:data:`OBSERVATION_HIGH`, so the encoding is exact and :func:`describe` reads it
back.  Seats are *relative to the viewer*: slot 0 is the viewer, slot ``i`` is
the seat ``i`` places to the viewer's left ((seat + i) % players); slots beyond
the player count are all 0.

Only what the viewer may see is encoded (R9): no bag order; under hidden scores
another player's score is 0 with its ``score_known`` flag 0.  The position is
Markov given this vector (everything that decides what may happen next is in it),
so agents need no history.

The layout is :data:`GLOBAL_FIELDS`, then five player slots of :data:`PLAYER_FIELDS` (name,
size, largest value); :data:`FIELDS` maps ``name`` and ``slot<i>.<name>`` to (offset, size).
What each field means, and the layout's version history (``Ra-v0``: what bumps it), are in
the documentation, docs/research.md, one copy kept in step with these fields by a test.

>>> import ra
>>> from ra.encode import observation, describe
>>> game = ra.Game(players=3, seed=1)
>>> obs = observation(game.view(0))
>>> len(obs), describe(obs)["players"], describe(obs)["epoch"]
(370, 3, 1)
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any, Final, cast

from ra.setup import AUCTION_TRACK_SIZE, EPOCHS, MAX_PLAYERS, RA_TRACK_LENGTH
from ra.state import PHASE_BID as _PHASE_BID
from ra.state import PHASE_DISCARD as _PHASE_DISCARD
from ra.state import PHASE_NAMES, PHASES, State
from ra.state import PHASE_OVER as _PHASE_OVER
from ra.tiles import MAX_SUN, NUM_KINDS, TILE_COUNTS, TILE_IDS
from ra.views import PlayerView

_MAX_SCORE: Final = 500
"""Above any reachable score (three epochs of every bonus stay far below it)."""
_AUCTION_KINDS: Final = ("drawn", "voluntary", "forced")
_DISASTERS: Final = ("unrest", "earthquake")

GLOBAL_FIELDS: Final[tuple[tuple[str, int, int], ...]] = (
    ("players", 1, MAX_PLAYERS),
    ("epoch", 1, EPOCHS),
    ("phase", len(PHASES), 1),
    ("to_move", MAX_PLAYERS, 1),
    ("ra_count", 1, max(RA_TRACK_LENGTH.values())),
    ("ra_track_length", 1, max(RA_TRACK_LENGTH.values())),
    ("center_sun", 1, MAX_SUN),
    ("tiles_in_bag", 1, sum(TILE_COUNTS)),
    ("auction_track", NUM_KINDS, AUCTION_TRACK_SIZE),
    ("unseen", NUM_KINDS, max(TILE_COUNTS)),
    ("auction_kind", len(_AUCTION_KINDS), 1),
    ("ra_player", MAX_PLAYERS, 1),
    ("high_bid", 1, MAX_SUN),
    ("high_bidder", MAX_PLAYERS, 1),
    ("must_bid", 1, 1),
    ("pending_disaster", len(_DISASTERS), 1),
    ("discards_left", 1, 4),
)
"""The global fields in order: (name, size, largest value of an entry)."""
PLAYER_FIELDS: Final[tuple[tuple[str, int, int], ...]] = (
    ("present", 1, 1),
    ("suns", MAX_SUN, 1),
    ("used_suns", MAX_SUN, 1),
    ("tiles", NUM_KINDS, max(TILE_COUNTS)),
    ("score", 1, _MAX_SCORE),
    ("score_known", 1, 1),
)
"""The fields of one player slot in order: (name, size, largest value of an entry)."""


def _layout() -> tuple[dict[str, tuple[int, int]], list[float]]:
    offsets: dict[str, tuple[int, int]] = {}
    high: list[float] = []
    fields = [*GLOBAL_FIELDS]
    for slot in range(MAX_PLAYERS):
        fields += [(f"slot{slot}.{name}", size, top) for name, size, top in PLAYER_FIELDS]
    for name, size, top in fields:
        offsets[name] = (len(high), size)
        high += [float(top)] * size
    return offsets, high


_OFFSETS, _HIGH = _layout()
FIELDS: Final[dict[str, tuple[int, int]]] = _OFFSETS
"""Every field's ``(offset, size)`` in the observation, in layout order."""
OBSERVATION_SIZE: Final = len(_HIGH)
OBSERVATION_HIGH: Final[tuple[float, ...]] = tuple(_HIGH)
"""The largest value of each entry (every entry is at least 0)."""
SLOT_SIZE: Final = sum(size for _, size, _ in PLAYER_FIELDS)
_SLOT0: Final = FIELDS["slot0.present"][0]
_PHASE: Final = FIELDS["phase"][0]
_PHASE_INDEX: Final = tuple(PHASES.index(name) for name in PHASE_NAMES)
"""The engine's phase code -> position in the one-hot ``phase`` field."""
_TO_MOVE: Final = FIELDS["to_move"][0]
_RA_COUNT: Final = FIELDS["ra_count"][0]
_TRACK: Final = FIELDS["auction_track"][0]
_UNSEEN: Final = FIELDS["unseen"][0]
_AUCTION: Final = FIELDS["auction_kind"][0]
_RA_PLAYER: Final = FIELDS["ra_player"][0]
_HIGH_BID: Final = FIELDS["high_bid"][0]
_HIGH_BIDDER: Final = FIELDS["high_bidder"][0]
_MUST_BID: Final = FIELDS["must_bid"][0]
_DISASTER: Final = FIELDS["pending_disaster"][0]
assert FIELDS["ra_track_length"][0] == _RA_COUNT + 1 and FIELDS["tiles_in_bag"][0] == _RA_COUNT + 3
assert FIELDS["discards_left"][0] == _DISASTER + 2


def observation(view: PlayerView) -> list[float]:
    """The view as :data:`OBSERVATION_SIZE` floats (layout in the module docstring)."""
    if not isinstance(view, PlayerView):
        raise TypeError(f"observation() takes a PlayerView (game.view(seat)), got {type(view).__name__}")
    return _encode(view, view.seat)


def observation_of(game: State, seat: int) -> list[float]:
    """``observation(game.view(seat))`` without building the view (faster, the same list).

    Reads only what ``seat`` may see (R9): never the bag, and other players' scores
    only when they are open.
    """
    if not isinstance(game, State):
        raise TypeError(f"observation_of() takes a game or a view, got {type(game).__name__}")
    return _encode(game, game.check_seat(seat))


def _encode(st: State, me: int) -> list[float]:
    # Reads the state's fast accessors (see ra.state): this runs at every step of an env.
    obs = [0.0] * OBSERVATION_SIZE
    n = st.num_players
    phase = st.phase_code
    obs[0] = n
    obs[1] = st.epoch
    obs[_PHASE + _PHASE_INDEX[phase]] = 1.0
    if phase != _PHASE_OVER:
        obs[_TO_MOVE + (cast(int, st.to_move) - me) % n] = 1.0
    obs[_RA_COUNT] = st.ra_count
    obs[_RA_COUNT + 1] = st.ra_track_length
    obs[_RA_COUNT + 2] = st.center_sun
    obs[_RA_COUNT + 3] = st.tiles_in_bag
    for t in st.track_tiles():
        obs[_TRACK + t] += 1.0
    obs[_UNSEEN : _UNSEEN + NUM_KINDS] = st.unseen_counts()
    if phase == _PHASE_BID:
        kind, ra_player, high, high_bidder, must_bid = st.auction_codes()
        obs[_AUCTION + kind] = 1.0
        obs[_RA_PLAYER + (ra_player - me) % n] = 1.0
        if high_bidder >= 0:
            obs[_HIGH_BID] = high
            obs[_HIGH_BIDDER + (high_bidder - me) % n] = 1.0
        obs[_MUST_BID] = float(must_bid)
    elif phase == _PHASE_DISCARD:
        obs[_DISASTER + (0 if st.pending_disaster == "unrest" else 1)] = 1.0
        obs[_DISASTER + 2] = st.discards_left
    hide = st.hidden_scores and phase != _PHASE_OVER
    suns = st.sun_masks()
    used = st.used_sun_masks()
    displays = st.displays()
    score = st.visible_score
    for slot in range(n):
        seat = (me + slot) % n
        at = _SLOT0 + slot * SLOT_SIZE
        obs[at] = 1.0
        up = suns[seat]
        down = used[seat]
        s = 1
        up >>= 1
        while up:
            if up & 1:
                obs[at + s] = 1.0
            up >>= 1
            s += 1
        s = 1
        down >>= 1
        while down:
            if down & 1:
                obs[at + MAX_SUN + s] = 1.0
            down >>= 1
            s += 1
        at += 1 + 2 * MAX_SUN
        obs[at : at + NUM_KINDS] = displays[seat]
        if not hide or seat == me:
            obs[at + NUM_KINDS] = cast(int, score(seat))
            obs[at + NUM_KINDS + 1] = 1.0
    return obs


# --- the same observation as float32 bytes, fast (the environments' path) ------------------
#
# One implementation of the layout is the list above (plain, the reference); this one builds
# the same vector as little-endian float32 bytes from precomputed pieces, for the RL adapters
# that need a numpy array at every step (``np.frombuffer`` makes it one without converting 370
# Python numbers).  tests/envs/test_encode.py checks the two agree on many positions.

_F32: Final = struct.Struct("<f").pack
_PACK2: Final = struct.Struct("<2f").pack
_PACK4: Final = struct.Struct("<4f").pack
_PACK_KINDS: Final = struct.Struct(f"<{NUM_KINDS}f").pack
_ZERO: Final = _F32(0.0)
_ONE: Final = _F32(1.0)


def _hot(size: int) -> tuple[bytes, ...]:
    """One-hot pieces of ``size`` floats: ``_hot(size)[i]`` has a 1 at ``i``."""
    return tuple(b"".join(_ONE if j == i else _ZERO for j in range(size)) for i in range(size))


_HOT_PHASE: Final = _hot(len(PHASES))
_HOT_SLOT: Final = _hot(MAX_PLAYERS)
_HOT_AUCTION: Final = _hot(len(_AUCTION_KINDS))
_HOT_DISASTER: Final = _hot(len(_DISASTERS))
_NO_SLOT: Final = _ZERO * MAX_PLAYERS
_NO_AUCTION: Final = _ZERO * (FIELDS["pending_disaster"][0] - FIELDS["auction_kind"][0])
_NO_DISCARD: Final = _ZERO * (OBSERVATION_SIZE - SLOT_SIZE * MAX_PLAYERS - FIELDS["pending_disaster"][0])
_NO_HIGH_BID: Final = _ZERO * (1 + MAX_PLAYERS)
assert MAX_SUN == 16  # two bytes of sun bits below
_SUN_BYTE: Final = tuple(b"".join(_ONE if b >> i & 1 else _ZERO for i in range(8)) for b in range(256))
"""Eight sun entries (suns ``8k+1`` .. ``8k+8``) from one byte of a sun bitmask."""
_ABSENT: Final = tuple(_ZERO * (SLOT_SIZE * (MAX_PLAYERS - n)) for n in range(MAX_PLAYERS + 1))
_BLOCKS: dict[tuple[Any, ...], bytes] = {}
"""Player slots already encoded, by what they show (displays change only now and then)."""
_BLOCKS_MAX: Final = 1 << 16
OBSERVATION_BYTES: Final = 4 * OBSERVATION_SIZE


def _block(up: int, down: int, score: int | None, display: tuple[int, ...]) -> bytes:
    return b"".join(
        (
            _ONE,
            _SUN_BYTE[up >> 1 & 255],
            _SUN_BYTE[up >> 9 & 255],
            _SUN_BYTE[down >> 1 & 255],
            _SUN_BYTE[down >> 9 & 255],
            _PACK_KINDS(*display),
            _PACK2(0.0, 0.0) if score is None else _PACK2(score, 1.0),
        )
    )


def observation_bytes(game: State, seat: int) -> bytes:
    """``observation_of(game, seat)`` as :data:`OBSERVATION_SIZE` little-endian float32 numbers
    (``numpy.frombuffer(..., "<f4")`` reads it), built much faster than the list."""
    if not isinstance(game, State):
        raise TypeError(f"observation_bytes() takes a game or a view, got {type(game).__name__}")
    st = game
    me = st.check_seat(seat)
    n = st.num_players
    phase = st.phase_code
    counts = [0] * NUM_KINDS
    for t in st.track_tiles():
        counts[t] += 1
    parts = [
        _PACK2(n, st.epoch),
        _HOT_PHASE[_PHASE_INDEX[phase]],
        _HOT_SLOT[(cast(int, st.to_move) - me) % n] if phase != _PHASE_OVER else _NO_SLOT,
        _PACK4(st.ra_count, st.ra_track_length, st.center_sun, st.tiles_in_bag),
        _PACK_KINDS(*counts),
        _PACK_KINDS(*st.unseen_counts()),
    ]
    if phase == _PHASE_BID:
        kind, ra_player, high, high_bidder, must_bid = st.auction_codes()
        parts.append(_HOT_AUCTION[kind])
        parts.append(_HOT_SLOT[(ra_player - me) % n])
        if high_bidder >= 0:
            parts.append(_F32(high))
            parts.append(_HOT_SLOT[(high_bidder - me) % n])
        else:
            parts.append(_NO_HIGH_BID)
        parts.append(_ONE if must_bid else _ZERO)
    else:
        parts.append(_NO_AUCTION)
    if phase == _PHASE_DISCARD:
        parts.append(_HOT_DISASTER[0 if st.pending_disaster == "unrest" else 1])
        parts.append(_F32(st.discards_left))
    else:
        parts.append(_NO_DISCARD)
    hide = st.hidden_scores and phase != _PHASE_OVER
    suns = st.sun_masks()
    used = st.used_sun_masks()
    displays = st.displays()
    score = st.visible_score
    blocks = _BLOCKS
    for slot in range(n):
        i = (me + slot) % n
        key = (suns[i], used[i], score(i) if not hide or i == me else None, displays[i])
        block = blocks.get(key)
        if block is None:
            if len(blocks) >= _BLOCKS_MAX:
                blocks.clear()
            block = blocks[key] = _block(*key)
        parts.append(block)
    parts.append(_ABSENT[n])
    return b"".join(parts)


def fields(obs: Sequence[float]) -> dict[str, list[float]]:
    """The raw entries of each field by name (``"phase"``, ``"slot1.tiles"`` ...)."""
    _check(obs)
    return {name: [float(x) for x in obs[off : off + size]] for name, (off, size) in FIELDS.items()}


def describe(obs: Sequence[float]) -> dict[str, Any]:
    """An observation read back into plain values, for debugging and tests.

    One-hot fields become their name (or slot number, ``None`` when all 0), sun bits
    become sun lists, tile counts become ``{tile id: count}`` without zeros; absent
    slots are left out of ``"slots"``.
    """
    raw = fields(obs)

    def one(name: str, labels: Sequence[Any]) -> Any:
        for i, x in enumerate(raw[name]):
            if x:
                return labels[i]
        return None

    def tiles(name: str) -> dict[str, int]:
        return {TILE_IDS[t]: int(c) for t, c in enumerate(raw[name]) if c}

    def suns(name: str) -> list[int]:
        return [s + 1 for s, x in enumerate(raw[name]) if x]

    slots = []
    for slot in range(MAX_PLAYERS):
        p = f"slot{slot}."
        if not raw[p + "present"][0]:
            continue
        known = bool(raw[p + "score_known"][0])
        slots.append(
            {
                "slot": slot,
                "suns": suns(p + "suns"),
                "used_suns": suns(p + "used_suns"),
                "tiles": tiles(p + "tiles"),
                "score": int(raw[p + "score"][0]) if known else None,
            }
        )
    seats = list(range(MAX_PLAYERS))
    return {
        "players": int(raw["players"][0]),
        "epoch": int(raw["epoch"][0]),
        "phase": one("phase", PHASES),
        "to_move": one("to_move", seats),
        "ra_count": int(raw["ra_count"][0]),
        "ra_track_length": int(raw["ra_track_length"][0]),
        "center_sun": int(raw["center_sun"][0]),
        "tiles_in_bag": int(raw["tiles_in_bag"][0]),
        "auction_track": tiles("auction_track"),
        "unseen": tiles("unseen"),
        "auction_kind": one("auction_kind", _AUCTION_KINDS),
        "ra_player": one("ra_player", seats),
        "high_bid": int(raw["high_bid"][0]) or None,
        "high_bidder": one("high_bidder", seats),
        "must_bid": bool(raw["must_bid"][0]),
        "pending_disaster": one("pending_disaster", _DISASTERS),
        "discards_left": int(raw["discards_left"][0]),
        "slots": slots,
    }


def _check(obs: Sequence[float]) -> None:
    if len(obs) != OBSERVATION_SIZE:
        raise ValueError(f"an observation has {OBSERVATION_SIZE} entries, got {len(obs)}")


__all__ = [
    "FIELDS",
    "GLOBAL_FIELDS",
    "OBSERVATION_HIGH",
    "OBSERVATION_SIZE",
    "PLAYER_FIELDS",
    "SLOT_SIZE",
    "describe",
    "fields",
    "observation",
    "observation_bytes",
    "observation_of",
]
