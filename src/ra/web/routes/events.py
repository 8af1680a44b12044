"""The events' API (issue 55): signed-in accounts create, join and withdraw; the organiser
starts, cancels and removes a player; anyone (guests too) reads an event, the list, a
crosstable and a finished event's files.  The business is :class:`ra.web.events.Events`' and
:class:`ra.web.event_export.EventExport`'s."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response, WebSocket

from ra.web.event_export import EventExport
from ra.web.events import JoinEvent, NewEvent
from ra.web.routes.accounts import Gate
from ra.web.security import client_address, origin_allowed
from ra.web.services import Services


def router(services: Services, gate: Gate) -> APIRouter:
    """The events' routes over the site's database."""
    api = APIRouter()
    events = services.events

    @api.post("/api/events")
    async def create(body: NewEvent, request: Request) -> dict[str, Any]:
        return await events.create(body, await _account(gate, request))

    @api.get("/api/events/form")
    async def form() -> dict[str, Any]:
        """What a new event may be (its fields, kinds and bounds): the create page builds its
        form from the server's own validation, so the two never disagree."""
        return NewEvent.model_json_schema()

    @api.get("/api/events")
    async def listed() -> dict[str, list[dict[str, Any]]]:
        return {"events": await events.listed()}

    @api.get("/api/events/{event_id}")
    async def show(event_id: str) -> dict[str, Any]:
        return await events.view(event_id)

    @api.post("/api/events/{event_id}/join")
    async def join(event_id: str, body: JoinEvent, request: Request) -> dict[str, Any]:
        return await events.join(event_id, body, await _account(gate, request))

    @api.post("/api/events/{event_id}/withdraw")
    async def withdraw(event_id: str, request: Request) -> dict[str, Any]:
        return await events.withdraw(event_id, await _account(gate, request))

    @api.post("/api/events/{event_id}/start")
    async def start(event_id: str, request: Request) -> dict[str, Any]:
        return await events.start(event_id, await _account(gate, request))

    @api.post("/api/events/{event_id}/cancel")
    async def cancel(event_id: str, request: Request) -> dict[str, Any]:
        return await events.cancel(event_id, await _account(gate, request))

    @api.post("/api/events/{event_id}/players/{player}/remove")
    async def remove(event_id: str, player: str, request: Request) -> dict[str, Any]:
        return await events.remove(event_id, player, await _account(gate, request))

    files(api, services)
    live(api, services)
    return api


def live(api: APIRouter, services: Services) -> None:
    """``/ws/e/{id}``: an event's page is pushed the event whenever it changes (from an allowed
    Origin; counted per address like the lobby's pages: :mod:`ra.web.event_feed`)."""
    settings, metrics = services.settings, services.metrics

    @api.websocket("/ws/e/{event_id}")
    async def follow(ws: WebSocket, event_id: str) -> None:
        if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), settings.allowed_origins):
            await ws.close(1008, "this page may not follow the event here (Origin not allowed)")
            return
        metrics.websockets.inc()
        try:
            await services.event_feed.follow(ws, event_id, client_address(ws))
        finally:
            metrics.websockets.dec()


def files(api: APIRouter, services: Services) -> None:
    """An event's crosstable, and a finished event's crosstable (CSV) and records (JSON lines)."""
    export = EventExport(services.events, services.lobby, services.hub, services.store.levels)

    @api.get("/api/events/{event_id}/crosstable")
    async def crosstable(event_id: str) -> dict[str, Any]:
        return await export.crosstable(event_id)

    @api.get("/api/events/{event_id}/crosstable.csv")
    async def crosstable_csv(event_id: str, request: Request) -> Response:
        body = await export.crosstable_csv(event_id, client_address(request))
        return _download(body, "text/csv; charset=utf-8", f"ra-event-{event_id}.csv")

    @api.get("/api/events/{event_id}/records.jsonl")
    async def records(event_id: str, request: Request) -> Response:
        body = await export.records(event_id, client_address(request))
        return _download(body, "application/jsonl; charset=utf-8", f"ra-event-{event_id}.jsonl")


def _download(body: bytes, media: str, filename: str) -> Response:
    """A file to save (a finished event's: the same for everyone, kept by caches for an hour)."""
    headers = {
        "Content-Disposition": f'attachment; filename="{filename}"',
        "Cache-Control": "public, max-age=3600",
    }
    return Response(body, media_type=media, headers=headers)


async def _account(gate: Gate, request: Request) -> tuple[str, str]:
    """The signed-in account making a change (same site, with its CSRF token): guests watch only."""
    s = await gate.changing(request)
    return s.account_id, s.name
