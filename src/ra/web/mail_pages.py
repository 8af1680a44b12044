"""The pages a mail's links open (issue 52, issue 54): confirm an address, stop "your turn"
mail, undo a change of address.  Opening one (a GET, which a mail scanner may prefetch) changes
nothing: the page says what its button will do, and the button POSTs.  Each page is the site's
(its style sheet, an h1) in the mail's language (the token's), or the reader's when the link is
dead, and says what happened whether its reader is signed in or not.  The token is in the path:
:func:`ra.web.security.redact` keeps it out of the access log."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from html import escape

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ra.web.addresses import Addresses, Confirmed
from ra.web.lobby import ApiError
from ra.web.store.mail_links import MAX_TOKEN, Purpose
from ra.words import DEFAULT_LANG, Words, bcp47, normalize, words

NO_STORE = {"Cache-Control": "no-store"}
Action = Callable[[str], Awaitable[Confirmed | None]]


def reader_lang(request: Request) -> str:
    """The first language of the reader's ``Accept-Language`` the site speaks (else English)."""
    for part in request.headers.get("accept-language", "").split(","):
        tag = part.split(";", 1)[0].strip()
        lang = normalize(tag) if tag and tag != "*" else None
        if lang:
            return lang
    return DEFAULT_LANG


def page(lang: str, title: str, text: str, button: str | None = None, status: int = 200) -> HTMLResponse:
    """A page of the site: the top bar's brand, an h1, a paragraph and, maybe, a button that
    POSTs to the page's own address; links to the lobby and the account page."""
    w = words(lang)
    form = ""
    if button:
        form = f'<form method="post"><button class="btn primary">{escape(button)}</button></form>'
    html = (
        f'<!doctype html><html lang="{bcp47(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(w('app.title'))} — {escape(title)}</title>"
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
        '<link rel="stylesheet" href="/static/style.css"></head><body class="page-account page-mail">'
        '<header class="topbar"><a class="brand" href="/"><span class="brand-sun" aria-hidden="true"></span>'
        f"<span>{escape(w('app.title'))}</span></a>"
        f'<nav class="topnav" aria-label="{escape(w("nav.site"))}"><a href="/">{escape(w("nav.lobby"))}</a>'
        f'<a href="/account">{escape(w("nav.account"))}</a></nav></header>'
        f'<main class="account-page"><h1>{escape(title)}</h1>'
        f'<section class="card"><p>{escape(text)}</p>{form}</section>'
        "</main></body></html>"
    )
    return HTMLResponse(html, status_code=status, headers=NO_STORE)


def dead(lang: str, err: ApiError | None = None) -> HTMLResponse:
    """The page of a link that works no more (or of an address another account confirmed)."""
    w = words(lang)
    if err is not None and err.code == "email_taken":
        return page(lang, w("mailpage.taken.title"), w("mailpage.taken.text"), status=409)
    return page(lang, w("mailpage.dead.title"), w("mailpage.dead.text"), status=404)


def make_router(addresses: Addresses) -> APIRouter:
    """GET (a page that asks) and POST (its button, which acts) for each link a mail carries."""
    router = APIRouter(include_in_schema=False)

    async def ask(purpose: Purpose, token: str, request: Request) -> HTMLResponse:
        link = await addresses.about(purpose, token[:MAX_TOKEN])
        if link is None:
            return dead(reader_lang(request))
        w = words(link.lang)
        return page(
            link.lang,
            w(f"mailpage.{purpose}.title"),
            w(f"mailpage.{purpose}.ask", email=link.email or ""),
            w(f"mailpage.{purpose}.button"),
        )

    async def act(purpose: Purpose, token: str, request: Request, action: Action) -> HTMLResponse:
        lang = await addresses.lang_of(purpose, token[:MAX_TOKEN]) or reader_lang(request)
        try:
            done = await action(token[:MAX_TOKEN])
        except ApiError as err:
            return dead(lang, err)
        w: Words = words(lang)
        email = done.email if done is not None else ""
        return page(lang, w(f"mailpage.{purpose}.done.title"), w(f"mailpage.{purpose}.done", email=email))

    async def unsubscribe(token: str) -> None:
        await addresses.unsubscribe(token)

    actions: dict[Purpose, Action] = {
        "confirm": addresses.confirm,
        "unsubscribe": unsubscribe,
        "undo": addresses.undo,
    }
    for purpose, action in actions.items():
        _route(router, purpose, ask, act, action)
    return router


def _route(
    router: APIRouter,
    purpose: Purpose,
    ask: Callable[[Purpose, str, Request], Awaitable[HTMLResponse]],
    act: Callable[[Purpose, str, Request, Action], Awaitable[HTMLResponse]],
    action: Action,
) -> None:
    path = f"/api/mail/{purpose}/{{token}}"

    @router.get(path)
    async def asking(token: str, request: Request) -> HTMLResponse:
        return await ask(purpose, token, request)

    @router.post(path)
    async def acting(token: str, request: Request) -> HTMLResponse:
        """The page's button; for ``unsubscribe`` also RFC 8058's one-click POST."""
        return await act(purpose, token, request, action)
