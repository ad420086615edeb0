"""One question's two write transactions, as run inside the store's write (store.py): opened
(its conversation when new, the query in state CREATED, the reader's message, and what the
conversation said before) and closed (the rest of the lifecycle, the reader's message status,
what the insights read, the answer).

Each statement here runs for every question, so each is there once: a conversation made in the
transaction is not looked up again, the write that moves a conversation's updated_at is the one
that locks it (and finds it), its last messages are read once (the history and the next
number), and the insights' columns go with the lifecycle's UPDATE.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Sequence

from sqlalchemy.engine import Connection

from server.errors import SessionNotFound
from server.sessions import statements as sql
from server.sessions.recording import Asked, asked_columns, record_cited
from server.sessions.records import Entered, Message, NewSession, Reply, iso, message_of, stored_states, utc


@dataclass(frozen=True)
class Opening:
    """A question to store: in `session` (an id) or in a conversation it starts (NewSession)."""

    session: str | NewSession
    query_id: str
    message_id: str
    question: str
    selected_text: str | None
    selection_mode: str
    book_id: str | None
    server: str
    history: int  # how many of the conversation's last messages to read


def open_question(conn: Connection, opening: Opening, now: datetime) -> list:
    """The rows of the conversation's last messages before the question, newest first."""
    new = opening.session if isinstance(opening.session, NewSession) else None
    session_id = new.id if new else opening.session
    seq, rows = 1, []
    if new is not None:
        conn.execute(sql.ADD_SESSION, {"id": new.id, "book_id": opening.book_id, "created_at": now, "updated_at": now,
                                       "secret_hash": new.secret_hash})
    else:
        if not sql.touch_session(conn, session_id, now):
            raise SessionNotFound(session_id)
        rows = conn.execute(sql.RECENT_MESSAGES, {"b_session": session_id,
                                                  "b_limit": max(opening.history, 1)}).mappings().all()
        if rows:  # a message's time is never before the one it follows (its clock may be another server's)
            seq, now = rows[0]["seq"] + 1, max(now, utc(rows[0]["timestamp"]))
    conn.execute(sql.ADD_QUERY, {
        "id": opening.query_id, "session_id": session_id, "question": opening.question,
        "selected_text": opening.selected_text, "selection_mode": opening.selection_mode, "state": "CREATED",
        "states": [["CREATED", iso(now)]], "created_at": now, "updated_at": now, "server": opening.server})
    conn.execute(sql.ADD_MESSAGE, {
        "id": opening.message_id, "session_id": session_id, "seq": seq, "role": "user", "content": opening.question,
        "timestamp": now, "query_id": opening.query_id, "status": "received", "source_references": []})
    return rows[:opening.history]


@dataclass(frozen=True)
class Closing:
    query_id: str
    states: Sequence[Entered]
    session_id: str
    user_message_id: str
    user_status: str
    assistant: Reply | None
    assistant_id: str
    generator: str | None
    error: str | None
    asked: Asked | None


def close_question(conn: Connection, closing: Closing, now: datetime) -> Message | None:
    """The assistant's message as stored, if any. Raises SessionNotFound (the whole transaction
    is then undone) when the conversation was deleted meanwhile."""
    session_id, assistant = closing.session_id, closing.assistant
    # an answer moves the conversation's updated_at; without one it is only locked
    found = sql.touch_session(conn, session_id, now) if assistant else sql.lock_session(conn, session_id)
    if not found:
        raise SessionNotFound(session_id)
    recorded, asked_at = conn.execute(sql.QUERY_STATES, {"b_query": closing.query_id}).one()
    values = {"b_query": closing.query_id, "state": closing.states[-1][0],
              "states": [*recorded, *stored_states(closing.states)], "updated_at": now}
    if closing.generator:
        values["generator"] = closing.generator
    # set either way: a slow answer the sweep took for abandoned (INTERRUPTED) and that then
    # completed keeps no error of the sweep's
    values["error"] = closing.error
    if closing.asked is not None:
        values.update(asked_columns(closing.asked))
    conn.execute(sql.UPDATE_QUERY, values)
    conn.execute(sql.UPDATE_MESSAGE, {"b_message": closing.user_message_id, "status": closing.user_status})
    if closing.asked is not None:
        record_cited(conn, closing.query_id, closing.asked, asked_at)
    if assistant is None:
        return None
    last = conn.execute(sql.LAST_MESSAGE, {"b_session": session_id}).first()
    seq, at = (last.seq + 1, max(now, utc(last.timestamp))) if last is not None else (1, now)
    row = {"id": closing.assistant_id, "session_id": session_id, "seq": seq, "role": "assistant",
           "content": assistant.content, "timestamp": at, "query_id": closing.query_id, "status": assistant.status,
           "source_references": [r.to_stored() for r in assistant.source_references],
           "practice": assistant.practice}
    conn.execute(sql.ADD_MESSAGE, row)
    return message_of(row)


def history_of(rows: list) -> tuple[Message, ...]:
    """Rows newest first: the messages in the conversation's order."""
    return tuple(message_of(r) for r in reversed(rows))
