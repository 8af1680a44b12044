"""Ids and tokens: a game's or an account's id, a secret token, and how a token is stored
(hashed: a leaked database does not let anyone act)."""

from __future__ import annotations

import hashlib
import secrets


def new_id() -> str:
    """A short random game id (unguessable enough to keep private games private)."""
    return secrets.token_urlsafe(8)[:10].replace("-", "x").replace("_", "y")


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """Seat tokens are stored hashed: a leaked database does not let anyone act."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()
