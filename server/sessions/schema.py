"""The sessions database's tables, as the code queries them.

The tables themselves are made and changed by the migrations (migrations/versions/); a change
here needs a new migration beside them.
"""
from __future__ import annotations

from sqlalchemy import JSON, Column, DateTime, ForeignKey, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

sessions_table = Table(
    "chat_sessions", metadata,
    Column("id", String(64), primary_key=True),
    Column("user_id", String(200)),
    Column("book_id", String(200)),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

messages_table = Table(
    "chat_messages", metadata,
    Column("id", String(64), primary_key=True),
    Column("session_id", String(64), ForeignKey("chat_sessions.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("seq", Integer, nullable=False),
    Column("role", String(16), nullable=False),
    Column("content", Text, nullable=False),
    Column("timestamp", DateTime(timezone=True), nullable=False),
    Column("query_id", String(64), index=True),
    Column("status", String(16)),
    Column("source_references", JSON),
    Index("uq_chat_messages_session_seq", "session_id", "seq", unique=True),  # one order per conversation
)

queries_table = Table(
    "queries", metadata,
    Column("id", String(64), primary_key=True),
    Column("session_id", String(64), ForeignKey("chat_sessions.id", ondelete="CASCADE"), nullable=False),
    Column("question", Text, nullable=False),
    Column("selected_text", Text),
    Column("selection_mode", String(16)),
    Column("state", String(16), nullable=False, index=True),
    Column("states", JSON, nullable=False),  # [[state, iso time], ...]: the whole lifecycle
    Column("generator", String(100)),
    Column("error", Text),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("server", String(300)),  # the server answering it: its unfinished questions are its own
)

feedback_table = Table(
    "feedback", metadata,
    Column("id", String(64), primary_key=True),
    Column("message_id", String(64), ForeignKey("chat_messages.id", ondelete="CASCADE"), nullable=False),
    Column("rating", String(8), nullable=False),
    Column("comment", Text),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# a question in one of these states has not been answered yet
UNFINISHED_STATES = ("CREATED", "RETRIEVING", "GENERATING")
