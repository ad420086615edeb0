"""Questions left unanswered (the server stopped, or the database failed as the answer was
written) are marked INTERRUPTED, and their readers' messages `interrupted`."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from server.sessions.records import iso
from server.sessions.schema import UNFINISHED_STATES, messages_table, queries_table

# no answer takes this long (gunicorn gives a request 120 s): a question still unfinished after
# it was left by a server that is gone, whichever server starts next
ABANDONED_AFTER = timedelta(minutes=10)


def left_by(server: str):
    """The questions this server (or a version before servers were recorded) was answering,
    and those any server left long ago."""
    column = queries_table.c.server
    return (column == server) | column.is_(None) | (
        queries_table.c.created_at < datetime.now(timezone.utc) - ABANDONED_AFTER)


def interrupt(conn: Connection, which, reason: str) -> int:
    """Unfinished questions among `which` become INTERRUPTED, their messages `interrupted`. How many."""
    now = datetime.now(timezone.utc)
    rows = conn.execute(select(queries_table.c.id, queries_table.c.states)
                        .where(queries_table.c.state.in_(UNFINISHED_STATES) & which)).all()
    for row in rows:
        conn.execute(update(queries_table).where(queries_table.c.id == row.id).values(
            state="INTERRUPTED", states=[*row.states, ["INTERRUPTED", iso(now)]], updated_at=now, error=reason))
        conn.execute(update(messages_table).where((messages_table.c.query_id == row.id)
                                                  & (messages_table.c.role == "user")).values(status="interrupted"))
    return len(rows)
