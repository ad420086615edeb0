"""The web side of binding a conversation to its reader (sessions/access.py): the secret read
from `Authorization: Bearer …`, checked before anything about the session is read or written,
and handed out in the response that creates the session."""
from __future__ import annotations

from flask import request

from server.errors import SessionNotFound
from server.sessions import access
from server.sessions.store import SessionStore
from server.api.failures import guarded

SECURITY = [{"session_secret": []}]  # an operation's OpenAPI security requirement
SCHEME = {"type": "http", "scheme": "bearer",
          "description": "The `session_secret` of the response that created the session."}


def bearer_token() -> str | None:
    """The token of the request's `Authorization: Bearer …` header, if it has one."""
    scheme, _, secret = (request.headers.get("Authorization") or "").strip().partition(" ")
    return secret.strip() or None if scheme.lower() == "bearer" else None


def authorize(sessions: SessionStore, session_id: str) -> None:
    """401 UNAUTHORIZED without a secret, 404 NOT_FOUND with a wrong one or for no such session."""
    _authorize(sessions, session_id, bearer_token())


def authorize_message(sessions: SessionStore, message_id: str) -> bool:
    """Whether the assistant message exists; 401 or 404 as `authorize` when it is not the reader's."""
    secret = bearer_token()
    if secret is None:
        raise access.SecretRequired("")
    session_id = sessions.session_of_message(message_id)
    if session_id is None:
        return False
    _authorize(sessions, session_id, secret)
    return True


def _authorize(sessions: SessionStore, session_id: str, secret: str | None) -> None:
    """A wrong secret costs the reader's address a try of its failure budget (failures.py)."""
    if secret is None:
        access.authorize(sessions, session_id, None)  # SecretRequired: no guess was made
        return

    def matches() -> bool:
        try:
            access.authorize(sessions, session_id, secret)
        except SessionNotFound:
            return False
        return True

    if not guarded(matches):
        raise SessionNotFound(session_id)


def with_secret(exc, secret: str | None):
    """A failed question kept in a conversation it started: the error carries its secret, so
    that the reader can see the question and ask again there."""
    if secret and "session_id" in exc.details:
        exc.details = {**exc.details, "session_secret": secret}
    return exc


class WithSecret:
    """An answer (or any object the response schema reads) with the new session's secret."""

    def __init__(self, shaped, session_secret: str | None):
        self._shaped = shaped
        self.session_secret = session_secret

    def __getattr__(self, name):
        return getattr(self._shaped, name)
