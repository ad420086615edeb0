"""What binds a conversation to its reader: a secret handed out once, when the session is
made, and asked for (`Authorization: Bearer <secret>`) by every later request about it. Only
the secret's hash is kept: the database, its backups and its logs never hold a usable one.

Sessions made before secrets existed have none; their reader claims one once (`claim`), and
from then on the session is bound like any other.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets

from server.errors import SessionNotFound, TextbookChatError
from server.sessions.store import SessionStore


class SecretRequired(TextbookChatError):
    """A request about a session without its secret."""

    code = "UNAUTHORIZED"

    def __init__(self, session_id: str, *, claimable: bool = False):
        message = ("This conversation has no secret yet: claim it with POST /sessions/{id}/secret." if claimable
                   else "This conversation needs its secret: send Authorization: Bearer <session_secret>.")
        super().__init__(message, details={"session_id": session_id})


def new_secret() -> tuple[str, str]:
    """A new secret (for the reader) and its hash (for the database)."""
    secret = secrets.token_urlsafe(32)
    return secret, hash_of(secret)


def hash_of(secret: str) -> str:
    # the secret has 256 random bits: a plain hash cannot be reversed by guessing
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def authorize(store: SessionStore, session_id: str, secret: str | None) -> None:
    """Nothing when `secret` is the session's; SecretRequired without one; SessionNotFound for
    a wrong one, as for a session that does not exist (so a guess tells nothing)."""
    exists, hashed = store.secret_hash(session_id)
    if secret is None:
        raise SecretRequired(session_id, claimable=exists and hashed is None)
    if hashed is None or not hmac.compare_digest(hashed, hash_of(secret)):
        raise SessionNotFound(session_id)


class AlreadyClaimed(TextbookChatError):
    code = "CONFLICT"

    def __init__(self, session_id: str):
        super().__init__("This conversation has its secret already: only its reader holds it.",
                         details={"session_id": session_id})


def claim(store: SessionStore, session_id: str) -> str:
    """A secret for a session made before secrets existed; AlreadyClaimed when it has one,
    SessionNotFound when there is no such session."""
    secret, hashed = new_secret()
    if not store.claim_secret(session_id, hashed):
        if store.exists(session_id):
            raise AlreadyClaimed(session_id)
        raise SessionNotFound(session_id)
    return secret
