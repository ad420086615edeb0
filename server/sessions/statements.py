"""The statements every question runs, built once.

Values are passed when a statement is executed (`conn.execute(ADD_MESSAGE, row)`), so
SQLAlchemy compiles each statement once per process; building one with `.values(...)` per call
makes it coerce and key every value again, which cost about half of each write's time.
Bound names that are not columns are prefixed `b_` (a column's own name is its SET value).
"""
from __future__ import annotations

from sqlalchemy import bindparam, case, insert, select, update

from server.sessions.schema import messages_table, queries_table, sessions_table

ADD_SESSION = insert(sessions_table)
ADD_QUERY = insert(queries_table)
ADD_MESSAGE = insert(messages_table)

SESSION = select(sessions_table.c.id).where(sessions_table.c.id == bindparam("b_session"))
# on PostgreSQL the row stays locked until the transaction ends
LOCK_SESSION = SESSION.with_for_update()
_updated, _now = sessions_table.c.updated_at, bindparam("b_now", type_=sessions_table.c.updated_at.type)
# a write to the session: its updated_at moved on (never back: another server's clock may be
# ahead), and on PostgreSQL its row locked until the transaction ends, as LOCK_SESSION does; no
# row updated: no such session
TOUCH_SESSION = (update(sessions_table).where(sessions_table.c.id == bindparam("b_session"))
                 .values(updated_at=case((_updated > _now, _updated), else_=_now)))

QUERY_STATES = select(queries_table.c.states, queries_table.c.created_at).where(queries_table.c.id == bindparam("b_query"))
UPDATE_QUERY = update(queries_table).where(queries_table.c.id == bindparam("b_query"))
UPDATE_MESSAGE = update(messages_table).where(messages_table.c.id == bindparam("b_message"))

LAST_MESSAGE = (select(messages_table.c.seq, messages_table.c.timestamp)
                .where(messages_table.c.session_id == bindparam("b_session"))
                .order_by(messages_table.c.seq.desc()).limit(1))
RECENT_MESSAGES = (select(messages_table).where(messages_table.c.session_id == bindparam("b_session"))
                   .order_by(messages_table.c.seq.desc()).limit(bindparam("b_limit")))
# what an assistant message of a conversation practised (a quiz it posed)
PRACTICE = select(messages_table.c.practice).where(
    (messages_table.c.id == bindparam("b_message")) & (messages_table.c.session_id == bindparam("b_session"))
    & (messages_table.c.role == "assistant"))
# asked for with every follow-up question (access.py)
SECRET_HASH = select(sessions_table.c.secret_hash).where(sessions_table.c.id == bindparam("b_session"))


def touch_session(conn, session_id: str, now) -> bool:
    """Whether the session exists; it is locked as by `lock_session`, and its updated_at is now."""
    return conn.execute(TOUCH_SESSION, {"b_session": session_id, "b_now": now}).rowcount > 0


def lock_session(conn, session_id: str) -> bool:
    """Whether the session exists; on PostgreSQL its row stays locked until the transaction
    ends, so that its messages are numbered one at a time and a deletion waits for a write."""
    return conn.execute(LOCK_SESSION, {"b_session": session_id}).first() is not None


def upsert(dialect: str, table, row: dict, keys: list[str]):
    """INSERT `row`, or on a row with the same `keys` (a unique index), UPDATE it to `row` (built
    for each row: a rare write, the reader's rating of an answer)."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    statement = insert(table).values(**row)
    return statement.on_conflict_do_update(index_elements=keys, set_={k: v for k, v in row.items() if k not in keys})
