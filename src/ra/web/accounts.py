"""Accounts: optional names that last. A guest plays exactly as before; an account keeps the
seats its person played (a guest's seats join it on signing up), has a public profile, an
export of its games and can be deleted.

Passwords are hashed with argon2id (argon2-cffi); a session is a random token in an HttpOnly,
SameSite=Lax cookie (Secure over HTTPS), stored hashed, new at every sign-in (no fixation);
every state-changing request made with the cookie must carry the session's CSRF token in
``X-CSRF-Token``; sign-in is rate-limited per address and per name.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Annotated, TypeVar

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import Request
from pydantic import BaseModel, Field, field_validator
from sqlalchemy.exc import IntegrityError
from typing_extensions import TypedDict

from ra.web.addresses import EMAIL, Addresses
from ra.web.db import accounts, games, now, puzzle_attempts, puzzle_solvers, seats, sessions
from ra.web.limits import AddressLimiter, Failures, address_prefix
from ra.web.lobby import ApiError
from ra.web.names import clean_name, name_key
from ra.web.ratings import Rating, rating
from ra.web.store import Store, hash_token, new_id, new_token
from ra.words import DEFAULT_LANG, normalize

COOKIE = "ra_session"
SESSION_DAYS = 30
SIGN_INS_PER_MINUTE = 5.0
"""Sign-in attempts one address (an IPv6 /64) may make a minute (bursts of as many)."""
FAILURES_PER_NAME_AND_ADDRESS = 10.0
"""Wrong passwords for one name from one address (an IPv6 /64) an hour; then that address is
refused for that name.  Another address, the owner's, is not."""
FAILURES_BEFORE_DELAY = 20.0
"""Wrong passwords for one name an hour, from anywhere, after which every sign-in to that name
first waits :data:`ATTACKED_DELAY`: a correct password still gets in, only slower (finding 4:
a flood once locked the owner out)."""
ATTACKED_DELAY = 1.0
PASSWORD_THREADS = 2
"""Threads that hash and check passwords (argon2id), apart from the shared pool."""
PASSWORD_QUEUE = 64
MAX_KNOWN_NAMES = 10_000
"""Password checks waiting or running at most; beyond, the answer is 503 at once (finding 5:
a flood once queued 42 s of argon2 work in the shared pool, ahead of the owner's sign-in)."""
MAX_CLAIMS = 200

_hasher = PasswordHasher(time_cost=2, memory_cost=19_456, parallelism=1)
"""argon2id with OWASP's parameters (19 MiB, 2 passes, 1 lane): a tenth of the library's default
work per check, so a flood costs the server less; hashes made before keep their own parameters."""
KNOWN_ADDRESSES = 8
"""Addresses remembered per name that signed in (or up) with its password: the most urgent."""
T = TypeVar("T")


class SeatClaim(BaseModel):
    """A seat this browser holds: the game and the seat's token."""

    game: Annotated[str, Field(max_length=16)]
    token: Annotated[str, Field(max_length=200)]


class Credentials(BaseModel):
    name: str
    password: Annotated[str, Field(min_length=8, max_length=200)]

    @field_validator("name")
    @classmethod
    def _nm(cls, v: str) -> str:
        return clean_name(v)


class SignUp(Credentials):
    seats: Annotated[list[SeatClaim], Field(max_length=MAX_CLAIMS)] = []
    """The seats this browser held as a guest: they join the new account."""
    email: Annotated[str, Field(max_length=254)] | None = None
    """Where "your turn" mail goes (games by turns); None or empty: no mail."""
    lang: Annotated[str, Field(max_length=8)] = "en"

    @field_validator("email")
    @classmethod
    def _email(cls, v: str | None) -> str | None:
        v = (v or "").strip()
        if not v:
            return None
        if not EMAIL.fullmatch(v):
            raise ValueError(f"not an e-mail address: {v!r}")
        return v

    @field_validator("lang")
    @classmethod
    def _lang(cls, v: str) -> str:
        return normalize(v) or DEFAULT_LANG


class Claim(BaseModel):
    seats: Annotated[list[SeatClaim], Field(max_length=MAX_CLAIMS)]


class Password(BaseModel):
    password: Annotated[str, Field(max_length=200)]


class Me(TypedDict):
    """Who is signed in, and the token their page sends back with every change it asks for."""

    name: str
    csrf: str
    claimed: int


class PlayedGame(TypedDict):
    id: str
    status: str
    players: int
    seat: int
    to_move: int | None
    """Whose turn it is in a running game (None otherwise)."""
    created: str
    won: bool | None
    scores: list[int] | None


class Tally(TypedDict):
    played: int
    won: int


class Profile(TypedDict):
    name: str
    since: str
    rating: Rating
    games: list[PlayedGame]
    by_players: dict[str, Tally]
    """Finished games and wins by number of players ("2" to "5")."""


@dataclass(frozen=True)
class Session:
    account_id: str
    name: str
    csrf: str
    token_hash: str


def _iso(t: datetime) -> str:
    return t.isoformat(timespec="seconds").replace("+00:00", "Z")


class Accounts:
    """Accounts and sessions over the server's database."""

    def __init__(self, store: Store, addresses: Addresses | None = None) -> None:
        self.store = store
        self.addresses = addresses or Addresses(store, None)
        self._by_address = AddressLimiter(SIGN_INS_PER_MINUTE / 60, SIGN_INS_PER_MINUTE)
        self._failures = Failures(per_hour=FAILURES_BEFORE_DELAY)
        self.passwords = PasswordWork(PASSWORD_THREADS, PASSWORD_QUEUE)
        self._known: dict[str, list[str]] = {}  # name key -> addresses that signed in lately

    # --- sessions -------------------------------------------------------------------

    async def session(self, token: str | None) -> Session | None:
        """The live session of a cookie's token (None: no cookie, unknown or expired)."""
        if not token or len(token) > 200:
            return None
        q = (
            sa.select(sessions.c.account_id, sessions.c.csrf, sessions.c.expires_at, accounts.c.name)
            .join(accounts, accounts.c.id == sessions.c.account_id)
            .where(sessions.c.token_hash == hash_token(token))
        )
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(q)).first()
        if row is None or _aware(row.expires_at) < now():
            return None
        return Session(row.account_id, row.name, row.csrf, hash_token(token))

    async def _open_session(self, account_id: str) -> tuple[str, str]:
        """A new session: its cookie token and its CSRF token."""
        token, csrf, t = new_token(), secrets.token_urlsafe(24), now()
        async with self.store.engine.begin() as conn:
            await conn.execute(sa.delete(sessions).where(sessions.c.expires_at < t))  # tidy up
            await conn.execute(
                sa.insert(sessions).values(
                    token_hash=hash_token(token),
                    account_id=account_id,
                    csrf=csrf,
                    created_at=t,
                    expires_at=t + timedelta(days=SESSION_DAYS),
                )
            )
        return token, csrf

    async def close(self, s: Session) -> None:
        async with self.store.engine.begin() as conn:
            await conn.execute(sa.delete(sessions).where(sessions.c.token_hash == s.token_hash))

    # --- names ------------------------------------------------------------------------

    async def is_anothers(self, name: str, cookie: str | None) -> bool:
        """Whether ``name`` is an account's name (by key: look-alikes too) that the session of
        ``cookie`` is not signed in to: a guest may not sit or speak under it (finding 6)."""
        key = name_key(name)
        async with self.store.engine.connect() as conn:
            held = await conn.scalar(sa.select(accounts.c.id).where(accounts.c.name_key == key))
        if held is None:
            return False
        session = await self.session(cookie)
        return session is None or session.account_id != held

    async def guard_name(self, name: str | None, request: Request) -> None:
        """Refuse a guest's ``name`` that is an account's (:meth:`is_anothers`), naming what to do."""
        if name and await self.is_anothers(name, request.cookies.get(COOKIE)):
            raise ApiError(
                409,
                "name_is_account",
                f"{name!r} is an account's name: sign in as that player, or choose another",
            )

    # --- signing up and in ------------------------------------------------------------

    async def sign_up(self, body: SignUp, addr: str) -> tuple[str, Me]:
        """A new account (the name is free, casefolded) with the guest's seats; its session."""
        if not self._by_address.allow(address_prefix(addr)):
            raise ApiError(
                429, "rate_limited", "too many sign-ups and sign-ins from this address; wait a minute"
            )
        digest = await self.passwords.run(_hasher.hash, body.password)
        account_id = new_id()
        try:
            async with self.store.engine.begin() as conn:
                await conn.execute(
                    sa.insert(accounts).values(
                        id=account_id,
                        name=body.name,
                        name_key=name_key(body.name),
                        password_hash=digest,
                        lang=body.lang,
                        created_at=now(),
                    )
                )
        except IntegrityError:
            raise ApiError(
                409, "name_taken", f"the name {body.name!r} has an account; choose another"
            ) from None
        self._remember(name_key(body.name), address_prefix(addr))
        if body.email:  # unconfirmed until its owner opens the mailed link
            await self.addresses.give(account_id, body.name, body.email, body.lang)
        claimed = await self.claim(account_id, body.seats)
        token, csrf = await self._open_session(account_id)
        return token, {"name": body.name, "csrf": csrf, "claimed": claimed}

    async def sign_in(self, body: Credentials, addr: str) -> tuple[str, Me]:
        """A new session for the right password (the same answer for a wrong name or password).

        Wrong passwords count against the name from that address (then that address is refused
        for the name) and against the name from anywhere (then every try waits a second): a
        flood from elsewhere never refuses the owner's right password."""
        key, prefix = name_key(body.name), address_prefix(addr)
        if not self._by_address.allow(prefix):
            raise ApiError(429, "rate_limited", "too many sign-ins; wait a minute and try again")
        if self._failures.count(f"{key}\n{prefix}") >= FAILURES_PER_NAME_AND_ADDRESS:
            raise ApiError(429, "rate_limited", "too many wrong passwords for this name; try again later")
        if self._failures.count(key) >= FAILURES_BEFORE_DELAY:
            await asyncio.sleep(ATTACKED_DELAY)
        async with self.store.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(accounts.c.id, accounts.c.name, accounts.c.password_hash).where(
                        accounts.c.name_key == key
                    )
                )
            ).first()
        digest = row.password_hash if row is not None else _DUMMY  # the same work either way
        rank = self._rank(key, prefix)
        if not await self.passwords.run(_verify, digest, body.password, rank=rank) or row is None:
            self._failures.add(key)
            self._failures.add(f"{key}\n{prefix}")
            raise ApiError(401, "bad_credentials", "wrong name or password")
        self._remember(key, prefix)
        token, csrf = await self._open_session(row.id)
        return token, {"name": row.name, "csrf": csrf, "claimed": 0}

    def _rank(self, key: str, prefix: str) -> int:
        """How urgent a sign-in is: 0 from an address that signed in to the name lately (the
        owner, most likely), 1 from one that has not failed for it, 2 from a guesser."""
        if prefix in self._known.get(key, ()):
            return 0
        return 1 if self._failures.count(f"{key}\n{prefix}") == 0 else 2

    def _remember(self, key: str, prefix: str) -> None:
        known = [p for p in self._known.pop(key, []) if p != prefix][-(KNOWN_ADDRESSES - 1) :]
        self._known[key] = [*known, prefix]
        if len(self._known) > MAX_KNOWN_NAMES:
            del self._known[next(iter(self._known))]  # the name signed in longest ago

    async def check_password(self, s: Session, password: str) -> None:
        async with self.store.engine.connect() as conn:
            digest = await conn.scalar(
                sa.select(accounts.c.password_hash).where(accounts.c.id == s.account_id)
            )
        if digest is None or not await self.passwords.run(_verify, str(digest), password):
            raise ApiError(403, "bad_credentials", "wrong password")

    # --- seats, profile, export, deletion -----------------------------------------------

    async def claim(self, account_id: str, claims: list[SeatClaim]) -> int:
        """Join to the account each seat whose token holds it (others are passed over)."""
        done = 0
        async with self.store.engine.begin() as conn:
            for c in claims:
                res = await conn.execute(
                    sa.update(seats)
                    .where(
                        seats.c.game_id == c.game,
                        seats.c.token_hash == hash_token(c.token),
                        # a seat another account holds stays its (an old guest token is not enough)
                        sa.or_(seats.c.account_id.is_(None), seats.c.account_id == account_id),
                    )
                    .values(account_id=account_id)
                )
                done += res.rowcount
        return done

    async def profile(self, name: str) -> Profile:
        key = name_key(name)
        async with self.store.engine.connect() as conn:
            acc = (await conn.execute(sa.select(accounts).where(accounts.c.name_key == key))).first()
            if acc is None:
                raise ApiError(404, "not_found", f"no player {name!r}")
            q = (
                sa.select(games, seats.c.seat.label("my_seat"))
                .join(seats, seats.c.game_id == games.c.id)
                .where(seats.c.account_id == acc.id)
                .order_by(games.c.created_at.desc())
                .limit(200)
            )
            rows = (await conn.execute(q)).mappings().all()
        played: list[PlayedGame] = []
        tally: dict[str, Tally] = {}
        for r in rows:
            over = r["status"] == "finished"
            won = (r["winner"] == r["my_seat"]) if over else None
            played.append(
                {
                    "id": r["id"],
                    "status": r["status"],
                    "players": r["players"],
                    "seat": r["my_seat"],
                    "to_move": r["to_move"] if r["status"] == "running" else None,
                    "created": _iso(_aware(r["created_at"])),
                    "won": won,
                    "scores": r["scores"] if over else None,
                }
            )
            if over:
                t = tally.setdefault(str(r["players"]), {"played": 0, "won": 0})
                t["played"] += 1
                t["won"] += int(bool(won))
        return {
            "name": acc.name,
            "since": _iso(_aware(acc.created_at)),
            "rating": rating(acc.rating_mu, acc.rating_sigma, acc.rated_games),
            "games": played,
            "by_players": tally,
        }

    async def play_here(self, account_id: str, game_id: str, seat: int) -> str:
        """A new token for a seat the account holds in a game not over (the account on another
        device): the seat's old token stops holding it, so its pages are closed."""
        token = new_token()
        unfinished = sa.select(games.c.id).where(games.c.id == game_id, games.c.status != "finished")
        async with self.store.engine.begin() as conn:
            res = await conn.execute(
                sa.update(seats)
                .where(
                    seats.c.game_id == game_id,
                    seats.c.seat == seat,
                    seats.c.account_id == account_id,
                    seats.c.game_id.in_(unfinished),
                )
                .values(token_hash=hash_token(token))
            )
            await self.store.notify_game(conn, game_id)  # the other workers drop the old token's pages
        if res.rowcount != 1:
            raise ApiError(404, "not_found", "your account holds no such seat in a game that is not over")
        return token

    async def delete(self, s: Session) -> None:
        """The account goes; its seats stay in their games, no longer joined to anyone."""
        async with self.store.engine.begin() as conn:
            await conn.execute(
                sa.update(seats).where(seats.c.account_id == s.account_id).values(account_id=None)
            )
            await conn.execute(sa.delete(sessions).where(sessions.c.account_id == s.account_id))
            for table in (puzzle_solvers, puzzle_attempts):
                await conn.execute(sa.delete(table).where(table.c.account_id == s.account_id))
            await conn.execute(sa.delete(accounts).where(accounts.c.id == s.account_id))


class PasswordWork:
    """argon2id on its own few threads with a cap on the work waiting: password checks never
    queue behind other work in the shared thread pool, and a flood is answered 503 at once.
    Waiting checks go in order of urgency (:meth:`Accounts._rank`): the owner before the flood."""

    def __init__(self, threads: int, queue: int) -> None:
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="argon2")
        self._queue = queue
        self._free = threads
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self.pending = 0

    async def run(self, fn: Callable[..., T], *args: object, rank: int = 0) -> T:
        """``fn(*args)`` on the password threads; waiting, lower ``rank`` goes first."""
        if self.pending >= self._queue:
            raise ApiError(503, "busy", "the server is busy signing people in; try again in a few seconds")
        self.pending += 1
        try:
            await self._slot(rank)
            try:
                return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)
            finally:
                self._release()
        finally:
            self.pending -= 1

    async def _slot(self, rank: int) -> None:
        if self._free > 0:
            self._free -= 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (rank, next(self._order), turn))
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._release()  # the slot was handed over just as the request went away
            raise

    def _release(self) -> None:
        while self._waiting:
            _, _, turn = heapq.heappop(self._waiting)
            if not turn.done():
                turn.set_result(None)  # the slot goes straight to the most urgent waiting
                return
        self._free += 1

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def _verify(digest: str, password: str) -> bool:
    try:
        return _hasher.verify(digest, password)
    except (VerificationError, InvalidHashError):
        return False


def _aware(t: datetime) -> datetime:
    from datetime import UTC

    return t.replace(tzinfo=UTC) if t.tzinfo is None else t


_DUMMY = _hasher.hash(secrets.token_urlsafe(16))
"""A hash to verify against for a name without an account (no timing difference to probe)."""
