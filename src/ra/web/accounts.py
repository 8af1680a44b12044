"""Accounts: optional names that last. A guest plays exactly as before; an account keeps the
seats its person played (a guest's seats join it on signing up), has a public profile, an
export of its games and can be deleted.

Passwords are hashed with argon2id (argon2-cffi); a session is a random token in an HttpOnly,
SameSite=Lax cookie (Secure over HTTPS), stored hashed, new at every sign-in (no fixation);
every state-changing request made with the cookie must carry the session's CSRF token in
``X-CSRF-Token``; sign-in is rate-limited per address and per name.

Keeping an account (issue 40): its password can be changed (the other sessions end) or set anew
by a link mailed to its *confirmed* address (the link's token stored hashed, good once, for an
hour; asking says the same whether the account exists, and the mail goes out after the answer);
every session can be ended at once; a deleted account's name is nobody's for
:data:`RESERVED_DAYS`.

Accounts nobody can take (issue 52): the address changes only with the password (or within
:data:`FRESH_MINUTES` of signing in), the old address may undo it (:mod:`ra.web.addresses`);
a seat token made by "Play on this device" belongs to its session and ends with it, with every
session ("sign out everywhere", a new password, an undone change).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Annotated, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import Request
from pydantic import BaseModel, Field, field_validator
from typing_extensions import TypedDict

from ra.web.addresses import EMAIL, AddressChange, AddressChanged, Addresses, fold_address
from ra.web.db import (
    now,
)
from ra.web.limits import SharedBucket, SharedTally, address_prefix
from ra.web.lobby import ApiError
from ra.web.names import RESERVED, NameHolder, clean_name, name_key
from ra.web.profiles import Profile, read_profile
from ra.web.sessions import COOKIE, Session, Sessions
from ra.web.store import Store, hash_token, new_id, new_token
from ra.web.store.accounts import AccountStorage, Created
from ra.words import DEFAULT_LANG, normalize

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
WRONG_PASSWORDS_PER_HOUR = 10.0
"""Wrong current passwords a signed-in account may give an hour (changing the password, deleting
the account); then 429: a session left open on a shared computer is no way to guess it."""
RESET_MINUTES = 60
"""How long a mailed password link works (once)."""
RESET_MAILS_PER_HOUR = 3.0
"""Password links mailed an hour to one account, and to one address; more asks are answered
the same but mail nothing (a stranger's asking must not flood an inbox)."""
RESET_ASKS_PER_HOUR = 20.0
"""Password links one client address (an IPv6 /64) may ask for an hour, in bursts of
:data:`RESET_ASK_BURST`: then 429, whatever name or address was asked about."""
RESET_ASK_BURST = 5.0
RESET_TRIES_PER_MINUTE = 10.0
"""New passwords one client address may try to set by a link a minute (a token is 256 random
bits: this only keeps a flood of argon2 work away)."""
FRESH_MINUTES = 10
"""Minutes after signing in during which the address may be changed without the password again
(issue 52: a moment at a computer left signed in must not be enough to take the account)."""
RESERVED_DAYS = 90
"""Days a deleted account's name (its key: look-alikes too) cannot be signed up with."""
T = TypeVar("T")
log = logging.getLogger("ra.web")


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


class PasswordChange(BaseModel):
    """The current password, and the new one (8 to 200 characters)."""

    current: Annotated[str, Field(max_length=200)]
    password: Annotated[str, Field(min_length=8, max_length=200)]


class ResetAsk(BaseModel):
    """A name or an address: whose password link to mail (to the account's confirmed address)."""

    who: Annotated[str, Field(min_length=1, max_length=254)]


class ResetPassword(BaseModel):
    """The token of a mailed link, and the new password."""

    token: Annotated[str, Field(min_length=1, max_length=100)]
    password: Annotated[str, Field(min_length=8, max_length=200)]


class Me(TypedDict):
    """Who is signed in, and the token their page sends back with every change it asks for."""

    name: str
    csrf: str
    claimed: int


class Accounts:
    """Accounts and sessions over the server's database."""

    def __init__(self, store: Store, addresses: Addresses | None = None) -> None:
        self.store = store
        self.addresses = addresses or Addresses(store, None)
        levels = store.levels  # one count for every worker of the site
        self._by_address = SharedBucket(levels, "sign-ins", SIGN_INS_PER_MINUTE / 60, SIGN_INS_PER_MINUTE)
        self._failures = SharedTally(levels, "failures", per_hour=FAILURES_BEFORE_DELAY)
        self.passwords = PasswordWork(PASSWORD_THREADS, PASSWORD_QUEUE)
        self._known: dict[str, list[str]] = {}  # name key -> addresses that signed in lately
        self._wrong_passwords = SharedTally(
            levels, "wrong-passwords", per_hour=WRONG_PASSWORDS_PER_HOUR
        )  # by account
        self.links = PasswordLinks(self)
        self.stored: AccountStorage = store.accounts
        """The accounts, sessions and password links as stored (:mod:`ra.web.store.accounts`)."""
        self.sessions = Sessions(self.stored)
        self.addresses.taken_back = self._taken_back

    # --- names ------------------------------------------------------------------------

    async def holder(self, name: str, cookie: str | None) -> NameHolder:
        """Whose name ``name`` is (by key: look-alikes too): no account's, the account the session
        of ``cookie`` is signed in to, or another account's — under which a guest may neither sit
        nor speak (finding 6); or a deleted account's, reserved for a while (issue 52)."""
        key = name_key(name)
        held = await self.stored.holder(key)
        if held is None:  # a deleted account's name stays nobody's to wear while reserved
            until = await self.stored.reserved_until(key)
            return "reserved" if until is not None and until > now() else "nobody"
        session = await self.sessions.of(cookie)
        return "you" if session is not None and session.account_id == held else "another"

    async def guard_name(self, name: str | None, request: Request) -> bool:
        """Refuse a guest's ``name`` that is an account's (:meth:`holder`), naming what to do;
        True when ``name`` is the signed-in account's own (the pages link it to its profile)."""
        if not name:
            return False
        held = await self.holder(name, request.cookies.get(COOKIE))
        if held == "reserved":
            raise ApiError(409, "name_reserved", RESERVED)
        if held == "another":
            raise ApiError(
                409,
                "name_is_account",
                f"{name!r} is an account's name: sign in as that player, or choose another",
            )
        return held == "you"

    # --- signing up and in ------------------------------------------------------------

    async def sign_up(self, body: SignUp, addr: str) -> tuple[str, Me]:
        """A new account (the name is free, casefolded) with the guest's seats; its session."""
        if not await self._by_address.allow(address_prefix(addr)):
            raise ApiError(
                429, "rate_limited", "too many sign-ups and sign-ins from this address; wait a minute"
            )
        digest = await self.passwords.run(_hasher.hash, body.password)
        account_id = new_id()
        created = await self.stored.create(account_id, body.name, name_key(body.name), digest, body.lang)
        _refuse(created, body.name)
        self._remember(name_key(body.name), address_prefix(addr))
        if body.email:  # unconfirmed until its owner opens the mailed link
            await self.addresses.give(account_id, body.name, body.email, body.lang, "signup")
        claimed = await self.claim(account_id, body.seats)
        token, csrf = await self.sessions.open(account_id)
        return token, {"name": body.name, "csrf": csrf, "claimed": claimed}

    async def sign_in(self, body: Credentials, addr: str) -> tuple[str, Me]:
        """A new session for the right password (the same answer for a wrong name or password).

        Wrong passwords count against the name from that address (then that address is refused
        for the name) and against the name from anywhere (then every try waits a second): a
        flood from elsewhere never refuses the owner's right password."""
        key, prefix = name_key(body.name), address_prefix(addr)
        if not await self._by_address.allow(prefix):
            raise ApiError(429, "rate_limited", "too many sign-ins; wait a minute and try again")
        here = await self._failures.count(f"{key}\n{prefix}")
        if here >= FAILURES_PER_NAME_AND_ADDRESS:
            raise ApiError(429, "rate_limited", "too many wrong passwords for this name; try again later")
        if await self._failures.count(key) >= FAILURES_BEFORE_DELAY:
            await asyncio.sleep(ATTACKED_DELAY)
        row = await self.stored.credential(key)
        digest = row.password_hash if row is not None else _DUMMY  # the same work either way
        rank = self._rank(key, prefix, here)
        if not await self.passwords.run(_verify, digest, body.password, rank=rank) or row is None:
            await self._failures.add(key)
            await self._failures.add(f"{key}\n{prefix}")
            raise ApiError(401, "bad_credentials", "wrong name or password")
        self._remember(key, prefix)
        token, csrf = await self.sessions.open(row.id)
        return token, {"name": row.name, "csrf": csrf, "claimed": 0}

    def _rank(self, key: str, prefix: str, failures: float) -> int:
        """How urgent a sign-in is: 0 from an address that signed in to the name lately (the
        owner, most likely), 1 from one that has not failed for it (``failures``), 2 from a guesser."""
        if prefix in self._known.get(key, ()):
            return 0
        return 1 if failures == 0 else 2

    def _remember(self, key: str, prefix: str) -> None:
        known = [p for p in self._known.pop(key, []) if p != prefix][-(KNOWN_ADDRESSES - 1) :]
        self._known[key] = [*known, prefix]
        if len(self._known) > MAX_KNOWN_NAMES:
            del self._known[next(iter(self._known))]  # the name signed in longest ago

    async def check_password(self, s: Session, password: str) -> None:
        """403 ``wrong_password`` unless ``password`` is the account's; after
        :data:`WRONG_PASSWORDS_PER_HOUR` wrong ones, 429 for the account whatever is given."""
        if await self._wrong_passwords.count(s.account_id) > WRONG_PASSWORDS_PER_HOUR - 1:  # fading: N-ε
            raise ApiError(429, "rate_limited", "too many wrong passwords; try again later")
        digest = await self.stored.password_hash(s.account_id)
        if digest is None or not await self.passwords.run(_verify, digest, password):
            await self._wrong_passwords.add(s.account_id)
            raise ApiError(403, "wrong_password", "wrong password")

    # --- changing the address, the password, and resetting it ------------------------------

    async def change_address(self, s: Session, body: AddressChange) -> AddressChanged:
        """Set, change or remove the account's address: with the current password, unless this
        session signed in within :data:`FRESH_MINUTES` (403 ``password_needed``)."""
        if now() - s.signed_in_at > timedelta(minutes=FRESH_MINUTES):
            if body.password is None:
                raise ApiError(403, "password_needed", "give your current password to change the address")
            await self.check_password(s, body.password)
        mailed = await self.addresses.give(s.account_id, s.name, body.email, body.lang, "change")
        return {**await self.addresses.settings(s.account_id), "mailed": mailed}

    async def _taken_back(self, account_id: str) -> None:
        await self.sessions.end_everywhere(account_id)

    async def change_password(self, s: Session, body: PasswordChange) -> tuple[str, Me]:
        """The new password for the right current one: every session of the account ends and
        this page gets a new one (a copy of its old cookie signs in no more); mailed links die."""
        await self.check_password(s, body.current)
        digest = await self.passwords.run(_hasher.hash, body.password)
        await self.sessions.tell(await self.stored.set_password(s.account_id, digest))
        token, csrf = await self.sessions.open(s.account_id)
        return token, {"name": s.name, "csrf": csrf, "claimed": 0}

    # --- seats, profile, export, deletion -----------------------------------------------

    async def claim(self, account_id: str, claims: list[SeatClaim]) -> int:
        """Join to the account each seat whose token holds it (others are passed over)."""
        # a seat another account holds stays its (an old guest token is not enough)
        held = [(c.game, hash_token(c.token)) for c in claims]
        done, games_claimed = await self.stored.claim(account_id, held)
        for game_id in games_claimed:  # this worker's table, once it is committed
            await self.sessions.seats_changed(game_id)
        return done

    async def profile(self, name: str) -> Profile:
        """The public profile of the account named ``name`` (:mod:`ra.web.profiles`)."""
        return await read_profile(self.store.profiles, name)

    async def play_here(self, s: Session, game_id: str, seat: int) -> str:
        """A new token for a seat the account holds in a game not over (the account on another
        device): the seat's old token stops holding it, so its pages are closed.  The token is
        the session's: it ends when the session is signed out, or all of them."""
        token = new_token()
        if not await self.stored.play_here(s.account_id, game_id, seat, hash_token(token), s.token_hash):
            raise ApiError(404, "not_found", "your account holds no such seat in a game that is not over")
        return token

    async def delete(self, s: Session) -> None:
        """The account goes; its seats stay in their games, no longer joined to anyone; its name
        (by key) is nobody's for :data:`RESERVED_DAYS`."""
        until = now() + timedelta(days=RESERVED_DAYS)
        await self.stored.delete(s.account_id, name_key(s.name), until)


class PasswordLinks:
    """Links mailed to set a new password: to an account's confirmed address only, their tokens
    stored hashed, each good once for :data:`RESET_MINUTES` (a newer one replaces it); asking is
    limited per client address (said), per account and per mail address (not said)."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        levels = accounts.store.levels  # one count for every worker of the site
        self._asks = SharedBucket(levels, "reset-asks", RESET_ASKS_PER_HOUR / 3600, RESET_ASK_BURST)
        self._mails = SharedBucket(levels, "reset-mails", RESET_MAILS_PER_HOUR / 3600, RESET_MAILS_PER_HOUR)
        self._tries = SharedBucket(levels, "reset-tries", RESET_TRIES_PER_MINUTE / 60, RESET_TRIES_PER_MINUTE)
        self._mailing: set[asyncio.Task[None]] = set()  # links on their way

    async def ask(self, body: ResetAsk, addr: str) -> None:
        """Mail a password link for the account named ``body.who`` (a name, or a confirmed
        address) to its confirmed address, if there is one.  Only this address's rate is
        checked before the answer: the looking up and the mailing happen after it, so the answer
        and its time are the same whether the account exists, has an address, or was asked
        about too often."""
        if not await self._asks.allow(address_prefix(addr)):
            raise ApiError(429, "rate_limited", "too many password links asked from here; wait a while")
        if not self.accounts.addresses.can_mail:
            return  # no mail server: no link to keep
        task = asyncio.create_task(self._mail(body.who.strip()))
        self._mailing.add(task)
        task.add_done_callback(self._mailing.discard)

    async def _mail(self, who: str) -> None:
        try:
            key = None
            with contextlib.suppress(ValueError):  # not a name: an address only
                key = name_key(clean_name(who))
            rows = await self.accounts.stored.mail_targets(fold_address(who), key)
            for row in rows:
                if row.email and row.email_confirmed and await self._may_mail(row.id, row.email):
                    await self._send(row.id, row.name, row.email, row.lang or DEFAULT_LANG)
        except Exception:  # the answer has gone: nobody else would hear of it
            log.exception("could not mail a password link")

    async def _may_mail(self, account_id: str, email: str) -> bool:
        mails = self._mails
        return await mails.allow(f"account\n{account_id}") and await mails.allow(
            f"mail\n{fold_address(email)}"
        )

    async def _send(self, account_id: str, name: str, email: str, lang: str) -> None:
        """A new token (stored hashed; the account's older links stop working), mailed."""
        token = secrets.token_urlsafe(32)
        await self.accounts.stored.new_link(account_id, hash_token(token), timedelta(minutes=RESET_MINUTES))
        await self.accounts.addresses.mail_reset(email, name, token, lang, RESET_MINUTES)

    async def use(self, body: ResetPassword, addr: str) -> tuple[str, Me]:
        """Set the new password by a mailed link's token (once, within the hour): every session of
        the account ends, the account's links die, and this page is signed in afresh."""
        if not await self._tries.allow(address_prefix(addr)):
            raise ApiError(429, "rate_limited", "too many tries from this address; wait a minute")
        token_hash = hash_token(body.token)
        account_id = await self.accounts.stored.link_holder(token_hash)
        if account_id is None:
            raise _bad_reset()
        digest = await self.accounts.passwords.run(_hasher.hash, body.password)
        used = await self.accounts.stored.use_link(token_hash, digest)
        if used is None:  # another request used it just now
            raise _bad_reset()
        name, ended = used
        await self.accounts.sessions.tell(ended)
        session, csrf = await self.accounts.sessions.open(account_id)
        return session, {"name": name, "csrf": csrf, "claimed": 0}


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


def _refuse(created: Created, name: str) -> None:
    """409 for a sign-up whose name has an account, or had one deleted lately (its key: look-alikes too)."""
    if created == "taken":
        raise ApiError(409, "name_taken", f"the name {name!r} has an account; choose another")
    if created == "reserved":
        raise ApiError(
            409,
            "name_reserved",
            f"the name {name!r} belonged to an account deleted lately; it is free again after "
            f"{RESERVED_DAYS} days: choose another",
        )


def _bad_reset() -> ApiError:
    return ApiError(404, "bad_reset", "this password link is not valid (any more): ask for a new one")


def _verify(digest: str, password: str) -> bool:
    try:
        return _hasher.verify(digest, password)
    except (VerificationError, InvalidHashError):
        return False


_DUMMY = _hasher.hash(secrets.token_urlsafe(16))
"""A hash to verify against for a name without an account (no timing difference to probe)."""
