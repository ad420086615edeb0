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

from sqlalchemy import bindparam, select, update

from ..errors import SessionNotFound, TextbookChatError
from .schema import messages_table, sessions_table


# asked for with every follow-up question: built once (statements.py says why)
_SECRET_HASH = select(sessions_table.c.secret_hash).where(sessions_table.c.id == bindparam("b_session"))


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


def authorize(store, session_id: str, secret: str | None) -> None:
    """Nothing when `secret` is the session's; SecretRequired without one; SessionNotFound for
    a wrong one, as for a session that does not exist (so a guess tells nothing)."""
    with store._reading() as conn:
        row = conn.execute(_SECRET_HASH, {"b_session": session_id}).first()
    if secret is None:
        raise SecretRequired(session_id, claimable=row is not None and row.secret_hash is None)
    if row is None or row.secret_hash is None or not hmac.compare_digest(row.secret_hash, hash_of(secret)):
        raise SessionNotFound(session_id)


class AlreadyClaimed(TextbookChatError):
    code = "CONFLICT"

    def __init__(self, session_id: str):
        super().__init__("This conversation has its secret already: only its reader holds it.",
                         details={"session_id": session_id})


def claim(store, session_id: str) -> str:
    """A secret for a session made before secrets existed; AlreadyClaimed when it has one,
    SessionNotFound when there is no such session."""
    secret, hashed = new_secret()
    claimed = store._write(lambda conn: conn.execute(
        update(sessions_table).where((sessions_table.c.id == session_id) & sessions_table.c.secret_hash.is_(None))
        .values(secret_hash=hashed)).rowcount)
    if not claimed:
        if store.exists(session_id):
            raise AlreadyClaimed(session_id)
        raise SessionNotFound(session_id)
    return secret


def upsert(dialect: str, table, row: dict, keys: list[str]):
    """INSERT `row`, or on a row with the same `keys` (a unique index), UPDATE it to `row`."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    statement = insert(table).values(**row)
    return statement.on_conflict_do_update(index_elements=keys, set_={k: v for k, v in row.items() if k not in keys})


def session_of_message(store, message_id: str, role: str = "assistant") -> str | None:
    with store._reading() as conn:
        return conn.execute(select(messages_table.c.session_id).where(
            (messages_table.c.id == message_id) & (messages_table.c.role == role))).scalar()
