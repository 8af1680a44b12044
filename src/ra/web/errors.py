"""The refusals every server layer raises: a code and words for the one client that asked
(:class:`ClientError`, over a socket), or an HTTP status with them (:class:`ApiError`)."""

from __future__ import annotations

from ra.words import MsgJson


class ClientError(Exception):
    """A request the server refuses; ``code`` and the words go to that client only."""

    def __init__(self, code: str, message: str, why: MsgJson | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.why = why


class ApiError(Exception):
    """A refused request: the HTTP status, a stable code and the reason in words."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
