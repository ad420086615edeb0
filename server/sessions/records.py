"""What the sessions store takes and gives at its boundary, as typed records: a conversation a
question starts (NewSession), a question opened (OpenedTurn), the states it passed (Entered) and the answer that closes it (Reply); its
lifecycle as kept (Query); conversations (Session), their
messages (Message) with the sources an answer cited (SourceReference), and a reader's rating
(Feedback). Times are aware UTC datetimes; how the API shows them is the API's business."""
from __future__ import annotations

import json
import secrets
import uuid
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime, timezone
from typing import Mapping, Sequence

Entered = tuple[str, datetime]  # a lifecycle state and when it was entered
# a document the question path writes and reads back whole (what an answer practised:
# question/practice.py); the store keeps it as it was given
Kept = Mapping[str, object]


@dataclass(frozen=True)
class NewSession:
    """A conversation a question starts: made in the transaction that stores the question."""

    id: str = field(default_factory=lambda: str(uuid.uuid4()))
    # of the secret its reader will show (access.py); by default a secret nobody is given (a
    # conversation of MCP `ask` or the CLI), so that none can claim it as a conversation made
    # before secrets existed
    secret_hash: str | None = field(default_factory=lambda: secrets.token_hex(32))


@dataclass(frozen=True)
class OpenedTurn:
    """A question stored with its conversation, before it is answered, and the conversation's
    last messages before it (as many as were asked for)."""

    session_id: str
    query_id: str
    user_message_id: str
    new_session: bool
    history: tuple["Message", ...] = ()


@dataclass(frozen=True)
class SourceReference:
    """A source an answer cited, as its conversation keeps it. Conversations kept by older
    versions may lack any of these (None)."""

    source_file: str | None = None  # "" for the highlighted passage
    source_location: str | None = None
    content_snippet: str | None = None  # the passage's first characters
    confidence: float | None = None
    retrieved_content_id: str | None = None  # the chunk's id
    url: str | None = None

    @classmethod
    def stored(cls, value: Mapping) -> "SourceReference":
        return cls(**{f.name: value.get(f.name) for f in fields(cls)})

    def to_stored(self) -> dict:
        """The JSON the database keeps: the fields known."""
        return {name: value for name, value in asdict(self).items() if value is not None}


@dataclass(frozen=True)
class Reply:
    """The assistant's message that closes a question."""

    content: str
    status: str  # "completed" | "refused" | "cancelled"
    source_references: tuple[SourceReference, ...] = ()
    practice: Kept | None = None  # what it practised, as the conversation keeps it (question/practice.py)


@dataclass(frozen=True)
class Message:
    """One message of a conversation: the reader's question or the assistant's answer."""

    id: str
    role: str  # "user" | "assistant"
    content: str
    timestamp: datetime
    query_id: str | None = None
    status: str | None = None  # user: received, answered, failed, interrupted; assistant: completed, refused, cancelled
    source_references: tuple[SourceReference, ...] = ()
    practice: Kept | None = None  # an assistant message: the quiz it posed, the feedback or hint it gave


@dataclass(frozen=True)
class Session:
    """A conversation, with its messages in order (none when just made)."""

    id: str
    user_id: str | None
    book_id: str | None
    created_at: datetime
    updated_at: datetime
    messages: tuple[Message, ...] = ()


@dataclass(frozen=True)
class Feedback:
    """A reader's rating of an answer (the latest replaces an earlier one)."""

    id: str
    message_id: str
    rating: str  # "up" | "down"
    comment: str | None
    created_at: datetime


@dataclass(frozen=True)
class DatabaseCheck:
    """The database answered a health check: which kind, and how fast."""

    kind: str  # "sqlite" | "postgresql"
    latency_ms: float


@dataclass(frozen=True)
class Query:
    """A question's lifecycle: CREATED → RETRIEVING → GENERATING → COMPLETED, or REFUSED (or
    FAILED, CANCELLED, INTERRUPTED), each state with when it was entered."""

    id: str
    session_id: str
    question: str
    state: str
    states: tuple[Entered, ...]
    generator: str | None  # what wrote the answer
    error: str | None  # why it failed or was interrupted
    server: str | None  # the server that answered it (None: a version before servers were recorded)
    created_at: datetime
    updated_at: datetime


def utc(value: datetime) -> datetime:
    return value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value  # SQLite drops the zone


def iso(value: datetime | None) -> str | None:
    """A time as the lifecycle states store it."""
    if value is None:
        return None
    return utc(value).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def stored_states(states: Sequence[Entered]) -> list[list[str]]:
    return [[state, iso(at)] for state, at in states]


def query_of(row: Mapping) -> Query:
    states = tuple((state, utc(datetime.fromisoformat(at))) for state, at in row["states"])
    return Query(row["id"], row["session_id"], row["question"], row["state"], states, row["generator"], row["error"],
                 row["server"], utc(row["created_at"]), utc(row["updated_at"]))


def message_of(row: Mapping) -> Message:
    refs = row.get("source_references") or []
    if isinstance(refs, str):
        refs = json.loads(refs)
    practice = row.get("practice")
    if isinstance(practice, str):
        practice = json.loads(practice)
    return Message(row["id"], row["role"], row["content"], utc(row["timestamp"]), row.get("query_id"),
                   row.get("status"), tuple(SourceReference.stored(r) for r in refs), practice or None)


def session_of(row: Mapping, messages: tuple[Message, ...] = ()) -> Session:
    return Session(row["id"], row.get("user_id"), row.get("book_id"), utc(row["created_at"]), utc(row["updated_at"]),
                   messages)
