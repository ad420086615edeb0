"""Conversations kept in SQL: the tables (schema), their migrations (migrate, migrations/), the
connection and its failures (database), and the store the pipeline and the API use (store)."""
from server.sessions.database import DatabaseUrlError, parse_url
from server.sessions.records import DatabaseCheck, Entered, Feedback, Message, NewSession, OpenedTurn, Query, Reply, Session, SourceReference
from server.sessions.schema import feedback_table, messages_table, metadata, queries_table, sessions_table
from server.sessions.store import SessionStore, default_server_name

__all__ = ["DatabaseCheck", "DatabaseUrlError", "Entered", "Feedback", "Message", "NewSession", "OpenedTurn", "Query", "Reply", "Session",
           "SessionStore", "SourceReference", "default_server_name", "feedback_table", "messages_table", "metadata",
           "parse_url", "queries_table", "sessions_table"]
