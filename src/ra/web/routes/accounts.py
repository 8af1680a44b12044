"""Accounts (optional): sign-up, sign-in and out (here or everywhere), the session cookie and its
CSRF token, changing the password or setting a new one by a mailed link, an account's seats, its
export and deletion; the puzzles' and the mail addresses' routers get the session from the same
:class:`Gate`."""

from __future__ import annotations

import secrets

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from typing_extensions import TypedDict

from ra.bots import LEVEL_RATINGS, LEVELS
from ra.web.accounts import (
    Accounts,
    Claim,
    Credentials,
    Me,
    Password,
    PasswordChange,
    ResetAsk,
    ResetPassword,
    SignUp,
)
from ra.web.addresses import AddressChange, AddressChanged
from ra.web.addresses import make_router as make_address_router
from ra.web.assets import NO_CACHE
from ra.web.lobby import ApiError
from ra.web.mail_pages import make_router as make_mail_pages
from ra.web.profiles import Profile
from ra.web.puzzles import make_router as make_puzzle_router
from ra.web.rating_policy import MIN_OWN_DECISIONS, PROVISIONAL_GAMES, STAND_IN_DECISIONS
from ra.web.ratings import level_rating
from ra.web.security import client_address, origin_allowed
from ra.web.services import Services
from ra.web.sessions import COOKIE, SESSION_DAYS, Session
from ra.web.settings import Settings


class RatedLevel(TypedDict):
    level: str
    rating: float
    """Its fixed rating as shown (mu - 3 sigma)."""


class RatingRules(TypedDict):
    """What this server rates (the leaderboard page says it in words): :func:`ra.web.ratings.rate_game`."""

    levels: list[RatedLevel]
    """The bot levels a rated game may have, with their fixed ratings."""
    stand_in_decisions: int
    """A seat whose stand-in made more of its decisions than this is rated as forfeited (last)."""
    min_own_decisions: int
    """A seat that forfeits before this many decisions of its own aborts the game for rating."""
    provisional_games: int
    """Rated games before an account's rating is established (listed, shown without "?")."""
    move_deadline: float
    """Seconds a person has for a decision at a table without a clock before the seat forfeits."""


class Gate:
    """Who is asking: the session of a request, and whether it may change anything."""

    def __init__(self, accounts: Accounts, settings: Settings) -> None:
        self.accounts = accounts
        self.settings = settings

    async def signed_in(self, request: Request) -> Session:
        s = await self.accounts.sessions.of(request.cookies.get(COOKIE))
        if s is None:
            raise ApiError(401, "sign_in", "sign in first")
        return s

    async def changing(self, request: Request) -> Session:
        """The session of a request that changes something: from this site, with its CSRF token."""
        self.same_site(request)
        s = await self.signed_in(request)
        if not secrets.compare_digest(request.headers.get("x-csrf-token", ""), s.csrf):
            raise ApiError(403, "csrf", "this request lacks the page's X-CSRF-Token")
        return s

    def same_site(self, request: Request) -> None:
        """Refuse a request another site's page sent (its Origin is not this site's)."""
        origin, host = request.headers.get("origin"), request.headers.get("host")
        if not origin_allowed(origin, host, self.settings.allowed_origins):
            raise ApiError(403, "origin", "another site may not sign in or change an account here")

    async def account_of(self, request: Request) -> tuple[str, str] | None:
        """The signed-in account's id and name, or None for a guest."""
        s = await self.accounts.sessions.of(request.cookies.get(COOKIE))
        return None if s is None else (s.account_id, s.name)

    async def changing_account(self, request: Request) -> tuple[str, str] | None:
        s = await self.changing(request)
        return s.account_id, s.name


def with_cookie(body: Me | dict[str, object], request: Request, token: str | None) -> JSONResponse:
    """The answer, setting (a new session's token) or clearing (None) the session cookie."""
    response = JSONResponse(body, headers={"Cache-Control": NO_CACHE})
    if token is None:
        response.delete_cookie(COOKIE, path="/")
    else:
        response.set_cookie(
            COOKIE,
            token,
            max_age=SESSION_DAYS * 86400,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
            path="/",
        )
    return response


def router(services: Services, gate: Gate) -> APIRouter:
    """The account routes, with the puzzles' and the mail addresses' routers inside."""
    api = APIRouter()
    api.include_router(make_puzzle_router(services.store, gate.account_of, gate.changing_account))
    api.include_router(make_address_router(services.addresses, gate.account_of, gate.changing_account))
    api.include_router(make_mail_pages(services.addresses))
    _sign_in_routes(api, services.accounts, gate)
    _holding_routes(api, services, gate)
    _public_routes(api, services.accounts, gate)
    return api


def _sign_in_routes(api: APIRouter, accounts: Accounts, gate: Gate) -> None:
    """Signing up, in and out; the password and the address, and a forgotten password's link."""

    @api.post("/api/account/signup")
    async def sign_up(body: SignUp, request: Request) -> JSONResponse:
        gate.same_site(request)
        token, me = await accounts.sign_up(body, client_address(request))
        return with_cookie(me, request, token)

    @api.post("/api/account/login")
    async def sign_in(body: Credentials, request: Request) -> JSONResponse:
        gate.same_site(request)
        token, me = await accounts.sign_in(body, client_address(request))
        return with_cookie(me, request, token)

    @api.post("/api/account/logout")
    async def sign_out(request: Request) -> JSONResponse:
        await accounts.sessions.close(await gate.changing(request))
        return with_cookie({"ok": True}, request, None)

    @api.post("/api/account/logout-everywhere")
    async def sign_out_everywhere(request: Request) -> JSONResponse:
        """End every session of the account, on every device; this page's cookie is cleared."""
        ended = await accounts.sessions.end_everywhere((await gate.changing(request)).account_id)
        return with_cookie({"ok": True, "ended": ended}, request, None)

    @api.post("/api/account/password")
    async def change_password(body: PasswordChange, request: Request) -> JSONResponse:
        """A new password for the right current one; the other sessions end, this page gets a
        new session (and CSRF token)."""
        token, me = await accounts.change_password(await gate.changing(request), body)
        return with_cookie(me, request, token)

    @api.post("/api/account/email")
    async def change_address(body: AddressChange, request: Request) -> AddressChanged:
        """Set, change or remove the address (with the password, unless signed in just now); a
        new one is confirmed by a mailed link first, the old one is told and may undo it."""
        return await accounts.change_address(await gate.changing(request), body)

    @api.post("/api/account/reset")
    async def ask_reset(body: ResetAsk, request: Request) -> JSONResponse:
        """Mail a password link to the confirmed address of the account of a name or address:
        the same answer whether there is one (``mail``: whether this server sends mail at all)."""
        gate.same_site(request)
        await accounts.links.ask(body, client_address(request))
        return JSONResponse(
            {"ok": True, "mail": accounts.addresses.can_mail}, headers={"Cache-Control": NO_CACHE}
        )

    @api.post("/api/account/reset/password")
    async def reset_password(body: ResetPassword, request: Request) -> JSONResponse:
        """Set the new password by a mailed link's token; every session ends, this page is signed in."""
        gate.same_site(request)
        token, me = await accounts.links.use(body, client_address(request))
        return with_cookie(me, request, token)

    @api.get("/api/account")
    async def me(request: Request) -> Me:
        s = await gate.signed_in(request)
        return {"name": s.name, "csrf": s.csrf, "claimed": 0}


def _holding_routes(api: APIRouter, services: Services, gate: Gate) -> None:
    """What an account holds: its seats (claimed, played here), its export, its deletion."""
    accounts, hub = services.accounts, services.hub

    @api.post("/api/account/claim")
    async def claim(body: Claim, request: Request) -> dict[str, int]:
        s = await gate.changing(request)
        return {"claimed": await accounts.claim(s.account_id, body.seats)}

    @api.post("/api/account/seats/{game_id}/{seat}/here")
    async def play_here(game_id: str, seat: int, request: Request) -> dict[str, object]:
        """Play an account's seat on this device: a new seat token (the old one's pages close)."""
        s = await gate.changing(request)
        token = await accounts.play_here(s, game_id[:40], seat)
        await hub.changed(game_id)  # the old token's connections are dropped here (the note: elsewhere)
        return {"game": game_id, "seat": seat, "token": token}

    @api.get("/api/account/export")
    async def export(request: Request) -> JSONResponse:
        """Everything the account holds: its profile and its games' public records."""
        s = await gate.signed_in(request)
        profile = await accounts.profile(s.name)
        # A table still waiting for its players has no record yet (asking for one is refused).
        records = [
            await services.lobby.records.record(g["id"]) for g in profile["games"] if g["status"] != "open"
        ]
        body = {
            "account": {"name": profile["name"], "since": profile["since"]},
            "games": profile["games"],
            "records": records,
        }
        headers = {"Content-Disposition": 'attachment; filename="ra-account.json"', "Cache-Control": NO_CACHE}
        return JSONResponse(body, headers=headers)

    @api.post("/api/account/delete")
    async def delete_account(body: Password, request: Request) -> JSONResponse:
        s = await gate.changing(request)
        await accounts.check_password(s, body.password)
        await accounts.delete(s)
        return with_cookie({"ok": True}, request, None)


def _public_routes(api: APIRouter, accounts: Accounts, gate: Gate) -> None:
    """What anyone may read: the rating rules and a player's profile."""

    @api.get("/api/ratings")
    async def rating_rules() -> RatingRules:
        """Which games this server rates, as the leaderboard page explains them."""
        rated = [lv for lv in LEVELS if lv in LEVEL_RATINGS]
        return {
            "levels": [{"level": lv, "rating": level_rating(lv) or 0.0} for lv in rated],
            "stand_in_decisions": STAND_IN_DECISIONS,
            "min_own_decisions": MIN_OWN_DECISIONS,
            "provisional_games": PROVISIONAL_GAMES,
            "move_deadline": gate.settings.move_deadline,
        }

    @api.get("/api/players/{name}")
    async def player(name: str) -> Profile:
        if len(name) > 40:
            raise ApiError(404, "not_found", "no such player")
        return await accounts.profile(name)
