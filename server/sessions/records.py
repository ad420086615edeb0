"""What the sessions store takes and gives at its boundary, as typed records: a question
opened (OpenedTurn) and the answer that closes it (Reply); and the rows of conversations and
messages as the API shows them."""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone


@dataclass(frozen=True)
class OpenedTurn:
    """A question stored with its conversation, before it is answered."""

    session_id: str
    query_id: str
    user_message_id: str
    new_session: bool


@dataclass(frozen=True)
class Reply:
    """The assistant's message that closes a question."""

    content: str
    status: str  # "completed" | "refused" | "cancelled"
    source_references: tuple[dict, ...] = ()  # {source_file, source_location, content_snippet, confidence, …}


def utc(value: datetime) -> datetime:
    return value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value  # SQLite drops the zone


def iso(value: datetime | None) -> str | None:
    if value is None:
        return None
    return utc(value).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def message_dict(row: dict) -> dict:
    refs = row.get("source_references") or []
    if isinstance(refs, str):
        refs = json.loads(refs)
    return {"id": row["id"], "role": row["role"], "content": row["content"], "timestamp": iso(row["timestamp"]),
            "query_id": row.get("query_id"), "status": row.get("status"), "source_references": refs}


def session_dict(row: dict, messages: list[dict]) -> dict:
    return {"id": row["id"], "user_id": row.get("user_id"), "book_id": row.get("book_id"),
            "created_at": iso(row["created_at"]), "updated_at": iso(row["updated_at"]), "messages": messages}
