"""Questions are kept RETENTION_DAYS: older ones go with their messages, citations and ratings,
and conversations left empty go too. Automatically, at most once an hour (in the background,
started by a question), and on demand (`textbook-chat purge`)."""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Callable

from sqlalchemy import delete, exists, or_, select
from sqlalchemy.engine import Connection

from server.errors import TextbookChatError
from server.sessions.schema import (citations_table, feedback_table, messages_table, practised_table, queries_table,
                                    sessions_table)

log = logging.getLogger("textbook_chat.retention")
EVERY_S = 3600.0


@dataclass(frozen=True)
class Purged:
    before: datetime
    questions: int
    messages: int
    ratings: int
    conversations: int

    def summary(self) -> str:
        return (f"deleted what was recorded before {self.before:%Y-%m-%d %H:%M} UTC: {self.questions} question(s), "
                f"{self.messages} message(s), {self.ratings} rating(s), {self.conversations} empty conversation(s)")


def purge_before(conn: Connection, before: datetime) -> Purged:
    old_questions = select(queries_table.c.id).where(queries_table.c.created_at < before)
    old_messages = select(messages_table.c.id).where(
        or_(messages_table.c.timestamp < before, messages_table.c.query_id.in_(old_questions)))
    ratings = conn.execute(delete(feedback_table).where(feedback_table.c.message_id.in_(old_messages))).rowcount
    conn.execute(delete(citations_table).where(citations_table.c.query_id.in_(old_questions)))
    conn.execute(delete(practised_table).where(practised_table.c.query_id.in_(old_questions)))
    messages = conn.execute(delete(messages_table).where(
        or_(messages_table.c.timestamp < before, messages_table.c.query_id.in_(old_questions)))).rowcount
    questions = conn.execute(delete(queries_table).where(queries_table.c.created_at < before)).rowcount
    has_messages = exists().where(messages_table.c.session_id == sessions_table.c.id)
    has_questions = exists().where(queries_table.c.session_id == sessions_table.c.id)
    conversations = conn.execute(delete(sessions_table).where(
        (sessions_table.c.updated_at < before) & ~has_messages & ~has_questions)).rowcount
    return Purged(before, questions, messages, ratings, conversations)


class Retention:
    def __init__(self, write: Callable, days: int):
        self._write = write
        self.days = days
        self._next = 0.0
        self._lock = threading.Lock()

    def purge(self, now: datetime | None = None, days: int | None = None) -> Purged:
        """Delete what is older than the retention period (or `days`) now. Raises DatabaseUnavailable."""
        days = self.days if days is None else days
        before = (now or datetime.now(timezone.utc)) - timedelta(days=days)
        return self._write(lambda conn: purge_before(conn, before))

    def due(self) -> None:
        """Start a purge in the background if none ran in the last hour (no-op without a period)."""
        if self.days <= 0 or time.monotonic() < self._next or not self._lock.acquire(blocking=False):
            return
        self._next = time.monotonic() + EVERY_S
        threading.Thread(target=self._purge_in_background, daemon=True, name="retention").start()

    def _purge_in_background(self) -> None:
        try:
            purged = self.purge()
            if purged.questions:
                log.info(purged.summary())
        except TextbookChatError as exc:  # the database is down: tried again within the hour
            log.warning("retention: %s", exc.message)
        finally:
            self._lock.release()
