"""The events' API (issue 55): signed-in accounts create, join and withdraw; the organiser
starts, cancels and removes a player; anyone (guests too) reads an event and the list.  The
business is :class:`ra.web.events.Events`'."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from ra.web.events import JoinEvent, NewEvent
from ra.web.routes.accounts import Gate
from ra.web.services import Services


def router(services: Services, gate: Gate) -> APIRouter:
    """The events' routes over the site's database."""
    api = APIRouter()
    events = services.events

    @api.post("/api/events")
    async def create(body: NewEvent, request: Request) -> dict[str, Any]:
        return await events.create(body, await _account(gate, request))

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

    return api


async def _account(gate: Gate, request: Request) -> tuple[str, str]:
    """The signed-in account making a change (same site, with its CSRF token): guests watch only."""
    s = await gate.changing(request)
    return s.account_id, s.name
