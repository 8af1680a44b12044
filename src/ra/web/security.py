"""What keeps a browser from being turned against ``ra serve`` or its players.

- :class:`HostCheck`: the server answers only to its own names (DNS rebinding: a page
  on another site must not reach a server on someone's laptop through a name it controls).
- :func:`origin_allowed`: a game's WebSocket opens only from the server's own pages or a
  configured origin (another site must not play a seat from a visitor's browser).
- :class:`SecurityHeaders`: every response forbids framing, inline script and referrers.
- :class:`RedactTokens`: no seat token or mailed link's token reaches a log line, at any level.
- :func:`parse_networks`: the proxies whose ``X-Forwarded-For`` is believed, and who may read
  ``/metrics`` (``ra serve --forwarded-allow-ips``, ``--metrics-from``).
"""

from __future__ import annotations

import ipaddress
import json
import logging
import re
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection

from ra.words import worded

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
"""The names a server always answers to."""

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
)


def host_name(host: str) -> str:
    """The name in a ``Host`` header, without the port (``[::1]:8000`` → ``::1``), lower-case."""
    host = host.strip().lower()
    if host.startswith("["):
        end = host.find("]")
        return host[1:end] if end > 0 else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def allowed_hosts(listen_host: str, extra: Iterable[str] = ()) -> tuple[str, ...]:
    """Loopback names, the address listened on (unless a wildcard) and the configured names."""
    names = [*LOOPBACK_HOSTS, *(host_name(h) for h in extra)]
    if listen_host not in ("0.0.0.0", "::", ""):
        names.append(host_name(listen_host))
    return tuple(dict.fromkeys(names))


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(text: str) -> tuple[Network, ...]:
    """Comma-separated IP addresses and CIDR networks (``127.0.0.1, 10.0.0.0/8, ::1``); a
    ValueError names the entry that is neither."""
    out: list[Network] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        try:
            out.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise worded(ValueError, "serve.err.network", item=repr(item)) from None
    return tuple(out)


def address_in(address: str, networks: Iterable[Network]) -> bool:
    """Whether ``address`` (an IP, maybe ``::ffff:``-mapped) is in one of ``networks``."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in net for net in networks)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


class HostCheck:
    """Refuse requests and WebSockets whose ``Host`` is not one of ``hosts`` (``*`` allows all)."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str]) -> None:
        self.app = app
        self.hosts = frozenset(host_name(h) for h in hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or "*" in self.hosts:
            await self.app(scope, receive, send)
            return
        host = _header(scope, b"host")
        if host is not None and host_name(host) in self.hosts:
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": "unknown host"})
            return
        body = (
            b'{"error":"bad_host","message":"this server does not answer to that host name '
            b'(its operator can allow it: ra serve --allowed-host NAME)"}'
        )
        await send(
            {
                "type": "http.response.start",
                "status": 400,
                "headers": [(b"content-type", b"application/json"), *SECURITY_HEADERS],
            }
        )
        await send({"type": "http.response.body", "body": body})


def origin_allowed(origin: str | None, host: str | None, allowed: Iterable[str]) -> bool:
    """Whether a WebSocket with this ``Origin`` may open: the server's own (same host and
    port as the ``Host`` it was reached by) or one configured; a client that sends no
    ``Origin`` is no browser, and no browser can be made to omit it."""
    if origin is None:
        return True
    if origin in allowed:
        return True
    if host is None or origin == "null":
        return False
    return urlsplit(origin).netloc.lower() == host.strip().lower()


class SecurityHeaders:
    """Add :data:`SECURITY_HEADERS` to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", ())}
                extra = [(k, v) for k, v in SECURITY_HEADERS if k not in names]
                message["headers"] = [*message.get("headers", ()), *extra]
            await send(message)

        await self.app(scope, receive, with_headers)


MAX_BODY_BYTES = 512 * 1024
"""The largest request body the server reads (a game record is at most 256 KiB)."""


class BodyLimit:
    """Refuse a request whose body is larger than :data:`MAX_BODY_BYTES` with 413, before it is
    read whole: by its ``Content-Length``, or while a body without one arrives."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers", ())).get(b"content-length", b"0")
        if not length.isdigit() or int(length) > self.limit:
            await _too_large(send, self.limit)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise TooLargeError
            return message

        try:
            await self.app(scope, counted, send)
        except TooLargeError:
            await _too_large(send, self.limit)


class TooLargeError(Exception):
    """A request body grew past the limit while it was read."""


async def _too_large(send: Send, limit: int) -> None:
    body = json.dumps({"error": "too_large", "message": f"a request is at most {limit // 1024} KiB"}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


_TOKEN = re.compile(r"""(token["']?\s*(?:=|:|%3D|%22%3A%22)\s*["']?)[A-Za-z0-9_\-%]{6,}""", re.IGNORECASE)


_MAIL_LINK = re.compile(r"(/api/mail/[a-z]+/)[^\s\"'?#]+")
"""A mailed link's token, in its path (the access log at debug level writes each path)."""


def redact(text: str) -> str:
    """``text`` with every seat token replaced (``token=…`` in addresses, ``"token": "…"`` in
    JSON) and every mailed link's token (``/api/mail/confirm/…``)."""
    return _MAIL_LINK.sub(r"\1[redacted]", _TOKEN.sub(r"\1[redacted]", text))


class RedactTokens(logging.Filter):
    """A logging filter (on every handler) that removes seat tokens from each record."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a record whose arguments do not fit its format: leave it be
            return True
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


class JsonLines(logging.Formatter):
    """One JSON object a line: ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message`` and,
    when there is one, ``exception``; tokens redacted in all of them (tracebacks too)."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": redact(record.getMessage()),
        }
        if record.exc_info:
            entry["exception"] = redact(self.formatException(record.exc_info))
        return json.dumps(entry, ensure_ascii=False)


LOG_FORMATS = ("text", "json")
"""``ra serve --log-format``: uvicorn's lines, or :class:`JsonLines`."""


def log_config(level: str, log_format: str = "text") -> dict[str, object]:
    """Uvicorn's logging configuration with :class:`RedactTokens` on every handler and a root
    handler, so the server's own and its libraries' records are filtered too; with
    ``log_format="json"`` every handler writes :class:`JsonLines`."""
    from uvicorn.config import LOGGING_CONFIG

    if log_format not in LOG_FORMATS:
        raise ValueError(f"unknown log format {log_format!r}; formats are: {', '.join(LOG_FORMATS)}")
    formatters = LOGGING_CONFIG["formatters"]
    if log_format == "json":
        formatters = {name: {"()": "ra.web.security.JsonLines"} for name in formatters}
    config: dict[str, Any] = {
        **LOGGING_CONFIG,
        "formatters": formatters,
        "filters": {"redact": {"()": "ra.web.security.RedactTokens"}},
        "handlers": {
            name: {**handler, "filters": ["redact"]} for name, handler in LOGGING_CONFIG["handlers"].items()
        },
        "loggers": {**LOGGING_CONFIG["loggers"], "": {"handlers": ["default"], "level": level.upper()}},
    }
    return config


MAX_ADDRESS = 64
"""Characters of a client address kept (the database's column; an IPv6 address has at most 45)."""


def client_address(conn: HTTPConnection) -> str:
    """The address every per-address limit keys on: the peer's, or, when the peer is a proxy
    trusted by ``--forwarded-allow-ips``, the right-most address in ``X-Forwarded-For`` that is
    not a trusted proxy (uvicorn's :class:`ProxyHeadersMiddleware` has put it in the scope;
    an untrusted peer's ``X-Forwarded-For`` is ignored)."""
    return conn.client.host[:MAX_ADDRESS] if conn.client else "?"
