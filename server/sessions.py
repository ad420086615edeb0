"""Chat sessions, messages, query lifecycles and feedback in SQL (SQLAlchemy Core).

SQLite file by default; any SQLAlchemy URL (e.g. PostgreSQL) through DATABASE_URL.
"""
from __future__ import annotations

import fcntl
import json
import os
import uuid
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterator, TypeVar

from sqlalchemy import (JSON, Column, DateTime, ForeignKey, Integer, MetaData, String, Table, Text,
                        create_engine, delete, event, func, insert, make_url, select, update)
from sqlalchemy.engine import Connection, Engine

from .batching import Batcher

Written = TypeVar("Written")

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
)

queries_table = Table(
    "queries", metadata,
    Column("id", String(64), primary_key=True),
    Column("session_id", String(64), ForeignKey("chat_sessions.id", ondelete="CASCADE"), nullable=False),
    Column("question", Text, nullable=False),
    Column("selected_text", Text),
    Column("selection_mode", String(16)),
    Column("state", String(16), nullable=False),
    Column("states", JSON, nullable=False),  # [[state, iso time], ...]: the whole lifecycle
    Column("generator", String(100)),
    Column("error", Text),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

feedback_table = Table(
    "feedback", metadata,
    Column("id", String(64), primary_key=True),
    Column("message_id", String(64), ForeignKey("chat_messages.id", ondelete="CASCADE"), nullable=False),
    Column("rating", String(8), nullable=False),
    Column("comment", Text),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _iso(value: datetime | None) -> str | None:
    if value is None:
        return None
    if value.tzinfo is None:  # SQLite drops the zone; everything is stored in UTC
        value = value.replace(tzinfo=timezone.utc)
    return value.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _new_id() -> str:
    return str(uuid.uuid4())


class SessionStore:
    def __init__(self, url: str):
        self._writes: Batcher | None = None
        self._lock_path: Path | None = None
        self._lock_fd: int | None = None
        self._lock_pid: int | None = None
        if url.startswith("sqlite"):
            # SQLite commits one writer at a time, so writes that queue up while one commits are
            # committed together, one transaction per batch (a burst of questions would otherwise
            # queue 50 commits). Connections are kept (no pings: a file does not drop connections)
            # so that a burst does not reopen them.
            database = make_url(url).database
            in_file = bool(database) and database != ":memory:" and not database.startswith("file:")
            pool = {"pool_size": 32, "max_overflow": -1} if in_file else {}
            self.engine: Engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, **pool)
            self._writes = Batcher(self._commit_together, max_size=64)
            if in_file:
                Path(database).parent.mkdir(parents=True, exist_ok=True)
                self._lock_path = Path(f"{database}.write-lock")
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            self.engine = create_engine(url, pool_pre_ping=True)
        metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()
        if self._lock_fd is not None:
            os.close(self._lock_fd)
        self._lock_fd = self._lock_pid = None

    def after_fork(self) -> None:
        """Forget the parent process's pooled connections without closing them under it."""
        self.engine.dispose(close=False)

    def _write(self, work: Callable[[Connection], Written]) -> Written:
        """`work` inside a write transaction; with SQLite, possibly one shared with other writes."""
        if self._writes is None:
            with self.engine.begin() as conn:
                return work(conn)
        return self._writes.submit(work)

    def _commit_together(self, works: list[Callable[[Connection], object]]) -> list[object]:
        with self._between_processes():
            try:
                with self.engine.begin() as conn:
                    return [work(conn) for work in works]
            except Exception as exc:
                if len(works) == 1:
                    return [exc]
            return [self._commit_alone(work) for work in works]  # one failed; the others must not fail with it

    def _commit_alone(self, work: Callable[[Connection], object]) -> object:
        try:
            with self.engine.begin() as conn:
                return work(conn)
        except Exception as exc:
            return exc

    @contextmanager
    def _between_processes(self) -> Iterator[None]:
        """Our own processes (`serve --workers`) take turns on a file lock, which passes at once,
        instead of meeting in SQLite's busy handler, which polls with sleeps of up to 100 ms."""
        if self._lock_path is None:
            yield
            return
        if self._lock_pid != os.getpid():  # a forked worker needs its own open file to lock
            self._lock_fd = os.open(self._lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            self._lock_pid = os.getpid()
        fcntl.flock(self._lock_fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)

    # --- sessions -------------------------------------------------------------------------
    def create_session(self, user_id: str | None = None, book_id: str | None = None) -> dict:
        now = _now()
        row = {"id": _new_id(), "user_id": user_id, "book_id": book_id, "created_at": now, "updated_at": now}
        self._write(lambda conn: conn.execute(insert(sessions_table).values(**row)))
        return self._session_dict(row, [])

    def exists(self, session_id: str) -> bool:
        with self.engine.connect() as conn:
            return conn.execute(select(sessions_table.c.id).where(sessions_table.c.id == session_id)).first() is not None

    def get_session(self, session_id: str) -> dict | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(sessions_table).where(sessions_table.c.id == session_id)).mappings().first()
            if row is None:
                return None
            messages = conn.execute(select(messages_table).where(messages_table.c.session_id == session_id)
                                    .order_by(messages_table.c.seq)).mappings().all()
        return self._session_dict(dict(row), [self._message_dict(dict(m)) for m in messages])

    def delete_session(self, session_id: str) -> bool:
        def delete_all(conn: Connection) -> bool:
            message_ids = select(messages_table.c.id).where(messages_table.c.session_id == session_id)
            conn.execute(delete(feedback_table).where(feedback_table.c.message_id.in_(message_ids)))
            conn.execute(delete(messages_table).where(messages_table.c.session_id == session_id))
            conn.execute(delete(queries_table).where(queries_table.c.session_id == session_id))
            return conn.execute(delete(sessions_table).where(sessions_table.c.id == session_id)).rowcount > 0
        return self._write(delete_all)

    def recent_messages(self, session_id: str, limit: int = 6) -> list[dict]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(messages_table).where(messages_table.c.session_id == session_id)
                                .order_by(messages_table.c.seq.desc()).limit(limit)).mappings().all()
        return [self._message_dict(dict(r)) for r in reversed(rows)]

    # --- messages -------------------------------------------------------------------------
    def message_exists(self, message_id: str, role: str | None = None) -> bool:
        query = select(messages_table.c.id).where(messages_table.c.id == message_id)
        if role:
            query = query.where(messages_table.c.role == role)
        with self.engine.connect() as conn:
            return conn.execute(query).first() is not None

    # --- one question: two transactions ---------------------------------------------------
    def open_turn(self, session_id: str | None, question: str, selected_text: str | None, selection_mode: str,
                  *, book_id: str | None = None) -> dict:
        """The session (created when None), the query in state CREATED and the reader's message,
        in one transaction, before any retrieval or generation."""
        now = _now()
        created = session_id is None
        session_id = session_id or _new_id()
        query_id, message_id = _new_id(), _new_id()

        def record(conn: Connection) -> None:
            if created:
                conn.execute(insert(sessions_table).values(id=session_id, book_id=book_id, created_at=now, updated_at=now))
            conn.execute(insert(queries_table).values(
                id=query_id, session_id=session_id, question=question, selected_text=selected_text,
                selection_mode=selection_mode, state="CREATED", states=[["CREATED", _iso(now)]],
                created_at=now, updated_at=now))
            self._insert_message(conn, session_id, message_id, "user", question, now, query_id, "received", [],
                                 first=created)
        self._write(record)
        return {"session_id": session_id, "query_id": query_id, "user_message_id": message_id, "new_session": created}

    def close_turn(self, query_id: str, states: list[list[str]], *, session_id: str, user_message_id: str,
                   user_status: str, assistant: dict | None = None, generator: str | None = None,
                   error: str | None = None) -> dict | None:
        """Record the rest of the lifecycle, the reader's message status and the answer (if any)
        in one transaction. `assistant` is {content, status, source_references}."""
        now = _now()

        def record(conn: Connection) -> dict | None:
            recorded = conn.execute(select(queries_table.c.states).where(queries_table.c.id == query_id)).scalar_one()
            values = {"state": states[-1][0], "states": [*recorded, *states], "updated_at": now}
            if generator:
                values["generator"] = generator
            if error:
                values["error"] = error
            conn.execute(update(queries_table).where(queries_table.c.id == query_id).values(**values))
            conn.execute(update(messages_table).where(messages_table.c.id == user_message_id).values(status=user_status))
            if assistant is None:
                return None
            return self._insert_message(conn, session_id, _new_id(), "assistant", assistant["content"], now,
                                        query_id, assistant["status"], assistant.get("source_references", []))
        return self._write(record)

    def _insert_message(self, conn, session_id: str, message_id: str, role: str, content: str, now: datetime,
                        query_id: str | None, status: str | None, refs: list[dict], *, first: bool = False) -> dict:
        """`first`: the session was created in this transaction, so it has no messages yet."""
        seq = 1 if first else conn.execute(select(func.coalesce(func.max(messages_table.c.seq), 0))
                                           .where(messages_table.c.session_id == session_id)).scalar_one() + 1
        row = {"id": message_id, "session_id": session_id, "seq": seq, "role": role, "content": content,
               "timestamp": now, "query_id": query_id, "status": status, "source_references": refs}
        conn.execute(insert(messages_table).values(**row))
        if not first:
            conn.execute(update(sessions_table).where(sessions_table.c.id == session_id).values(updated_at=now))
        return self._message_dict(row)

    # --- query lifecycle ------------------------------------------------------------------
    def get_query(self, query_id: str) -> dict | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(queries_table).where(queries_table.c.id == query_id)).mappings().first()
        return dict(row) if row else None

    # --- feedback -------------------------------------------------------------------------
    def add_feedback(self, message_id: str, rating: str, comment: str | None) -> dict:
        row = {"id": _new_id(), "message_id": message_id, "rating": rating, "comment": comment, "created_at": _now()}
        self._write(lambda conn: conn.execute(insert(feedback_table).values(**row)))
        return {**row, "created_at": _iso(row["created_at"])}

    # --- shapes ---------------------------------------------------------------------------
    @staticmethod
    def _message_dict(row: dict) -> dict:
        refs = row.get("source_references") or []
        if isinstance(refs, str):
            refs = json.loads(refs)
        return {"id": row["id"], "role": row["role"], "content": row["content"], "timestamp": _iso(row["timestamp"]),
                "query_id": row.get("query_id"), "status": row.get("status"), "source_references": refs}

    @staticmethod
    def _session_dict(row: dict, messages: list[dict]) -> dict:
        return {"id": row["id"], "user_id": row.get("user_id"), "book_id": row.get("book_id"),
                "created_at": _iso(row["created_at"]), "updated_at": _iso(row["updated_at"]), "messages": messages}


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()
