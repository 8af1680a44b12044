"""The refusal every server layer raises: a code and words for the one client that asked."""

from __future__ import annotations

from ra.words import MsgJson


class ClientError(Exception):
    """A request the server refuses; ``code`` and the words go to that client only."""

    def __init__(self, code: str, message: str, why: MsgJson | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.why = why
