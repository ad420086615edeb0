"""The sessions database's tables, as the code queries them.

The tables themselves are made and changed by the migrations (migrations/versions/); a change
here needs a new migration beside them.
"""
from __future__ import annotations

from sqlalchemy import (JSON, Column, DateTime, ForeignKey, Index, Integer, LargeBinary, MetaData, String, Table,
                        Text)

metadata = MetaData()

sessions_table = Table(
    "chat_sessions", metadata,
    Column("id", String(64), primary_key=True),
    Column("user_id", String(200)),
    Column("book_id", String(200)),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("secret_hash", String(64)),  # of the secret its reader holds (sessions/access.py); None: made before
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
    # an assistant message: what it practised (question/practice.py's Practice, stored): the quiz
    # it posed with its answers, the feedback it gave, the hint
    Column("practice", JSON),
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
    # what the author's insights read (insights/): the book, the indexed page it was asked on,
    # the highlighted passage's place, how it was answered, and for a question the book did not
    # answer, its vector (grouped by meaning) and the book's nearest sections
    Column("book_id", String(200)),
    Column("page_url", String(2000)),
    Column("page_title", String(500)),
    Column("passage_fingerprint", String(32)),
    Column("passage_section", String(500)),
    Column("passage_url", String(4000)),  # the passage on the site: its section and a text fragment
    Column("outcome", String(16), index=True),  # answered | refused | declined | fallback
    Column("gap_vector", LargeBinary),  # float16
    Column("nearest", JSON),  # [{section, url}]
    Index("ix_queries_created_at", "created_at", "page_url", "page_title", "outcome", "book_id"),
    # the insights' counts by page, outcome and day, read from the index alone
    Index("ix_queries_counts", "page_url", "page_title", "outcome", "created_at", "book_id"),
    Index("ix_queries_passages", "passage_fingerprint", "created_at", "book_id"),
)

# the pages and sections an answer cited, one row each
citations_table = Table(
    "citations", metadata,
    Column("query_id", String(64), ForeignKey("queries.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("page_url", String(2000), nullable=False),
    Column("section", String(500)),
    Column("section_url", String(2000)),
    Column("book_id", String(200)),  # the question's, so that a page's citations are counted without it
    Column("created_at", DateTime(timezone=True), index=True),
    Index("ix_citations_page_url_query_id", "page_url", "query_id"),
)

# one row per quiz item a student answered, or hint asked for, by the page it was asked on
practised_table = Table(
    "practised", metadata,
    Column("query_id", String(64), ForeignKey("queries.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("book_id", String(200)),
    Column("page_url", String(2000)),
    Column("kind", String(16), nullable=False),  # answered | hint
    Column("item", Text, nullable=False),  # the quiz item's question, or the question hinted at
    Column("verdict", String(16)),  # answered: correct | partly | incorrect
    Column("section", String(500)),  # the section it tests, or where the hint sends the reader
    Column("section_url", String(2000)),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_practised_page", "page_url", "kind", "created_at", "book_id"),
)

feedback_table = Table(
    "feedback", metadata,
    Column("id", String(64), primary_key=True),
    Column("message_id", String(64), ForeignKey("chat_messages.id", ondelete="CASCADE"), nullable=False),
    Column("rating", String(8), nullable=False),
    Column("comment", Text),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("uq_feedback_message_id", "message_id", unique=True),  # one rating per answer: the latest
)

# a question in one of these states has not been answered yet
UNFINISHED_STATES = ("CREATED", "RETRIEVING", "GENERATING")
