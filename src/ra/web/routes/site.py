"""The site around the game: its pages from one table of paths, the static files and the
catalogue, ``/health``, ``/metrics``, and every error as the API's JSON (or the 404 page)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from ra.web.assets import LONG_CACHE, NO_CACHE, CachedStatic, Pages
from ra.web.lobby import ApiError
from ra.web.metrics import CONTENT_TYPE, Metrics
from ra.web.protocol import catalogue_data
from ra.web.security import BodyLimit, HostCheck, Network, SecurityHeaders, address_in, client_address
from ra.web.services import Services
from ra.web.sessions import COOKIE
from ra.web.settings import Settings
from ra.words import DEFAULT_LANG, normalize

log = logging.getLogger("ra.web")

PAGES: dict[str, str] = {
    "/": "index.html",
    "/g/{game_id}": "table.html",
    "/replay/{game_id}": "replay.html",
    "/account": "account.html",
    "/players": "leaderboard.html",
    "/u/{name}": "profile.html",
    "/rules": "rules.html",
    "/learn": "learn.html",
    "/guide": "guide.html",
    "/puzzles": "puzzles.html",
    "/e/{event_id}": "event.html",
    "/events/new": "event_new.html",
}
"""The site's pages by path: static HTML that its script fills from the API."""


def metrics_allowed(conn: HTTPConnection, networks: tuple[Network, ...]) -> bool:
    """``/metrics`` is for a scraper on the machine (or ``--metrics-from``), asking directly:
    never through a proxy (any ``X-Forwarded-For``), so a public reverse proxy cannot expose it."""
    if "x-forwarded-for" in conn.headers:
        return False
    return address_in(client_address(conn), networks)


def html_page(pages: Pages, name: str, status_code: int = 200, request: Request | None = None) -> Response:
    """A page of the site, never cached (it names this build's static files).  A request with a
    session cookie gets ``<html data-account="1">``: only then do the page's scripts ask for the
    account (a guest's pages asked and logged a 401 each, issue 54)."""
    body = pages.html(name)
    if body is None:
        raise ApiError(404, "not_found", f"page {name} is missing")
    if request is not None and COOKIE in request.cookies:
        body = body.replace(b"<html ", b'<html data-account="1" ', 1)
    return Response(body, status_code, media_type="text/html", headers={"Cache-Control": NO_CACHE})


Exists = Callable[[str], Awaitable[bool]]
"""Whether the thing a page's path names (a game, a player) exists."""


def page_endpoint(
    pages: Pages, name: str, exists: Exists | None = None
) -> Callable[[Request], Awaitable[Response]]:
    """The endpoint that answers a path of :data:`PAGES` with its page — or, where the game or
    player it names does not exist, with the 404 page (issue 54: an unknown replay was a 200
    with replay controls and an active Analyse button)."""

    async def endpoint(request: Request) -> Response:
        named = next(iter(request.path_params.values()), "")
        if exists is not None and not await exists(str(named)):
            return html_page(pages, "404.html", 404, request)
        return html_page(pages, name, request=request)

    return endpoint


def existence(services: Services) -> dict[str, Exists]:
    """The pages of :data:`PAGES` that name a game or a player, and how each is looked up."""

    async def game(game_id: str) -> bool:
        return len(game_id) <= 16 and await services.store.game(game_id) is not None

    async def player(name: str) -> bool:
        if len(name) > 40:
            return False
        try:
            await services.accounts.profile(name)
        except ApiError:
            return False
        return True

    return {"/g/{game_id}": game, "/replay/{game_id}": game, "/u/{name}": player}


def router(services: Services, networks: tuple[Network, ...]) -> APIRouter:
    """The pages, the catalogue, ``/health`` and ``/metrics`` (from ``networks`` only)."""
    pages, store, metrics = services.pages, services.store, services.metrics
    site = APIRouter()
    exists = existence(services)
    for path, name in PAGES.items():  # one table of paths: each a static page its script fills
        endpoint = page_endpoint(pages, name, exists.get(path))
        site.add_api_route(path, endpoint, methods=["GET"], include_in_schema=False)

    @site.get("/static/{build}/catalogue/{lang}.json", include_in_schema=False)
    async def catalogue_json(build: str, lang: str) -> Response:
        """The words of a language and the tiles' facts (``ra.words``): this build's for a year,
        any other build's (an old page) always checked.  An unknown language gets English."""
        data = catalogue_data(normalize(lang) or DEFAULT_LANG)
        cache = LONG_CACHE if build == pages.build else NO_CACHE
        return JSONResponse(data, headers={"Cache-Control": cache})

    @site.get("/static/catalogue/{lang}.json", include_in_schema=False)
    async def catalogue_json_unversioned(lang: str) -> Response:
        """The same for a page loaded from the plain ``/static/`` names."""
        return await catalogue_json("", lang)

    @site.get("/health")
    async def health() -> JSONResponse:
        try:
            await asyncio.wait_for(store.ping(), 5)
        except Exception as err:
            return JSONResponse({"ok": False, "error": type(err).__name__}, status_code=503)
        return JSONResponse({"ok": True})

    @site.get("/metrics", include_in_schema=False)
    async def metrics_page(request: Request) -> Response:
        """The Prometheus text format (docs/hosting.md lists the names); from the machine only."""
        if not metrics_allowed(request, networks):
            raise ApiError(
                403,
                "forbidden",
                "metrics are for the server's machine (its operator: ra serve --metrics-from)",
            )
        for status, count in (await store.count_by_status()).items():
            metrics.games.labels(status).set(count)
        return Response(metrics.render(), media_type=CONTENT_TYPE, headers={"Cache-Control": NO_CACHE})

    return site


def mount_static(app: FastAPI, pages: Pages) -> None:
    """This build's files for a year; the plain names (an old page's links) always checked."""
    if pages.directory.is_dir():
        app.mount(pages.prefix.rstrip("/"), CachedStatic(pages.directory, LONG_CACHE), name="build")
        app.mount("/static", CachedStatic(pages.directory, NO_CACHE), name="static")


def answer_errors(app: FastAPI, metrics: Metrics, pages: Pages) -> None:
    """Every refusal and failure as the API's JSON (``error``, ``message``), counted by code; an
    unknown page's address gets the site's 404 page."""

    @app.exception_handler(ApiError)
    async def _api_error(_: Request, err: ApiError) -> JSONResponse:
        metrics.errors.labels(err.code).inc()
        return JSONResponse({"error": err.code, "message": err.message}, status_code=err.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, err: RequestValidationError) -> JSONResponse:
        parts = []
        for e in err.errors()[:3]:
            where = ".".join(str(x) for x in e.get("loc", ()) if x != "body")
            parts.append(f"{where}: {e.get('msg', 'invalid')}" if where else str(e.get("msg")))
        metrics.errors.labels("bad_request").inc()
        return JSONResponse({"error": "bad_request", "message": "; ".join(parts)}, status_code=422)

    @app.exception_handler(Exception)
    async def _crash(_: Request, err: Exception) -> JSONResponse:
        log.exception("request failed", exc_info=err)
        metrics.errors.labels("server_error").inc()
        return JSONResponse({"error": "server_error", "message": "the server failed; try again"}, 500)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, err: StarletteHTTPException) -> Response:
        if err.status_code == 404 and not request.url.path.startswith(("/api/", "/ws/", "/static/")):
            return html_page(pages, "404.html", 404, request)
        return JSONResponse({"error": "http", "message": str(err.detail)}, status_code=err.status_code)


def add_middleware(app: FastAPI, settings: Settings) -> None:
    """Compression, the security headers, the body limit, the host check and, when a proxy is
    trusted, its client addresses (outermost: everything inside sees the client's address)."""
    app.add_middleware(GZipMiddleware, minimum_size=1024)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(BodyLimit)
    app.add_middleware(HostCheck, hosts=settings.allowed_hosts or ("*",))
    if settings.forwarded_allow_ips:
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(settings.forwarded_allow_ips))
