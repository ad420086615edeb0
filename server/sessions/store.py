"""Chat sessions, messages, query lifecycles and feedback in SQL (SQLAlchemy Core).

SQLite file by default; PostgreSQL through DATABASE_URL. Opening a store brings its database
to the current schema (migrate.py). A database that fails raises DatabaseUnavailable; a
conversation deleted while one of its questions is answered raises SessionNotFound, and
nothing of that answer is kept.
"""
from __future__ import annotations

import fcntl
import json
import os
import socket
import time
import uuid
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable, Iterator, TypeVar

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection

from ..batching import Batcher
from ..errors import DatabaseUnavailable, SessionNotFound
from ..privacy import mask
from . import migrate, statements as sql
from .database import answering, describe, file_problem, inode_of, make_engine, parse_url, sqlite_file
from .recording import GAP_QUESTION, Asked, keep_gap, record_asked
from .retention import Retention
from .schema import UNFINISHED_STATES, feedback_table, messages_table, queries_table, sessions_table

Written = TypeVar("Written")
# no answer takes this long (gunicorn gives a request 120 s): a question still unfinished after
# it was left by a server that is gone, whichever server starts next
ABANDONED_AFTER = timedelta(minutes=10)


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _utc(value: datetime) -> datetime:
    return value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value  # SQLite drops the zone


def _iso(value: datetime | None) -> str | None:
    if value is None:
        return None
    return _utc(value).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _new_id() -> str:
    return str(uuid.uuid4())


def default_server_name(data_dir: Path | None = None) -> str:
    """This machine and data folder: a server restarted there is the same server."""
    return f"{socket.gethostname()}:{data_dir.resolve() if data_dir else os.getcwd()}"[:300]


class SessionStore:
    def __init__(self, url: str, *, server: str | None = None, retention_days: int = 0):
        """`server` names this server in the questions it answers (default: host and folder);
        questions older than `retention_days` are deleted (0: kept)."""
        parsed = parse_url(url)
        self.dialect = parsed.get_backend_name()
        self.where = describe(parsed)
        self.server = server or default_server_name()
        self._writes: Batcher | None = None
        self._file = sqlite_file(parsed)
        self._lock_path: Path | None = None
        self._lock_fd: int | None = None
        self._lock_pid: int | None = None
        self._failing: str | None = None  # why the last write failed, until one succeeds
        self._unclosed: dict[str, None] = {}  # questions whose last write failed: marked when writes work again
        if self._file is not None:
            self._file.parent.mkdir(parents=True, exist_ok=True)
            self._lock_path = Path(f"{self._file}.write-lock")
        self.engine = make_engine(parsed)
        if self.dialect == "sqlite":
            # SQLite commits one writer at a time, so writes that queue up while one commits are
            # committed together, one transaction per batch (a burst of questions would otherwise
            # queue 50 commits)
            self._writes = Batcher(self._commit_together, max_size=64)
        try:
            with answering(self.where), self._between_processes():
                self.revisions = migrate.upgrade(self.engine)
        except BaseException:
            self.engine.dispose()
            raise
        self._inode = inode_of(self._file)
        self.retention = Retention(self._write, retention_days)

    def close(self) -> None:
        self.engine.dispose()
        if self._lock_fd is not None:
            os.close(self._lock_fd)
        self._lock_fd = self._lock_pid = None

    def after_fork(self) -> None:
        """Forget the parent process's pooled connections without closing them under it."""
        self.engine.dispose(close=False)

    # --- reading and writing ----------------------------------------------------------------
    @contextmanager
    def _reading(self) -> Iterator[Connection]:
        with answering(self.where), self.engine.connect() as conn:
            yield conn

    def _write(self, work: Callable[[Connection], Written]) -> Written:
        """`work` inside a write transaction; with SQLite, possibly one shared with other writes."""
        try:
            with answering(self.where):
                if self._writes is not None:
                    result = self._writes.submit(work)
                else:
                    with self.engine.begin() as conn:
                        result = work(conn)
        except DatabaseUnavailable as exc:
            self._failing = exc.message
            raise
        self._failing = None
        if self._unclosed:
            self._interrupt_unclosed()
        return result

    def _interrupt_unclosed(self) -> None:
        """Questions whose closing write failed while the database was down: INTERRUPTED now."""
        ids = list(self._unclosed)
        for query_id in ids:
            self._unclosed.pop(query_id, None)
        try:
            self._write(lambda conn: self._interrupt(conn, queries_table.c.id.in_(ids),
                                                     "The database did not answer when the answer was written."))
        except DatabaseUnavailable:
            self._unclosed.update(dict.fromkeys(ids))

    def _commit_together(self, works: list[Callable[[Connection], object]]) -> list[object]:
        with self._between_processes():
            problem = file_problem(self._file, self._inode)
            if problem:
                raise DatabaseUnavailable(self.where, state=f"is not answering: {problem}")
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

    # --- health ---------------------------------------------------------------------------
    def check(self) -> dict:
        """A cheap look: the file is the one opened, the tables answer, PostgreSQL takes
        writes; after a failed write, a write. Raises DatabaseUnavailable."""
        started = time.perf_counter()
        problem = file_problem(self._file, self._inode)
        if problem:
            raise DatabaseUnavailable(self.where, state=f"is not answering: {problem}")
        probe = select(sessions_table.c.id).limit(1).scalar_subquery()
        if self.dialect == "postgresql":  # one round trip: the table answers, and takes writes
            probe = select(probe, func.current_setting("transaction_read_only"))
        with self._reading() as conn:
            row = conn.execute(select(probe) if self.dialect != "postgresql" else probe).first()
        if self.dialect == "postgresql" and row[1] == "on":
            raise DatabaseUnavailable(self.where, state="is read-only")
        if self._failing:
            self._write(self._probe)
        return {"kind": self.dialect, "latency_ms": round((time.perf_counter() - started) * 1000, 2)}

    def _probe(self, conn: Connection) -> None:
        if self.dialect == "sqlite":  # rewrites the header page: fails on a read-only or full file
            version = conn.exec_driver_sql("PRAGMA user_version").scalar()
            conn.exec_driver_sql(f"PRAGMA user_version = {int(version)}")
        else:
            conn.execute(update(sessions_table).where(sessions_table.c.id == "").values(id=""))

    # --- sessions -------------------------------------------------------------------------
    def create_session(self, user_id: str | None = None, book_id: str | None = None) -> dict:
        now = _now()
        row = {"id": _new_id(), "user_id": user_id, "book_id": book_id, "created_at": now, "updated_at": now}
        self._write(lambda conn: conn.execute(insert(sessions_table).values(**row)))
        return self._session_dict(row, [])

    def exists(self, session_id: str) -> bool:
        with self._reading() as conn:
            return conn.execute(sql.SESSION, {"b_session": session_id}).first() is not None

    def get_session(self, session_id: str) -> dict | None:
        with self._reading() as conn:
            row = conn.execute(select(sessions_table).where(sessions_table.c.id == session_id)).mappings().first()
            if row is None:
                return None
            messages = conn.execute(select(messages_table).where(messages_table.c.session_id == session_id)
                                    .order_by(messages_table.c.seq)).mappings().all()
        return self._session_dict(dict(row), [self._message_dict(dict(m)) for m in messages])

    def delete_session(self, session_id: str) -> bool:
        def delete_all(conn: Connection) -> bool:
            if not _lock_session(conn, session_id):
                return False
            message_ids = select(messages_table.c.id).where(messages_table.c.session_id == session_id)
            conn.execute(delete(feedback_table).where(feedback_table.c.message_id.in_(message_ids)))
            conn.execute(delete(messages_table).where(messages_table.c.session_id == session_id))
            conn.execute(delete(queries_table).where(queries_table.c.session_id == session_id))
            return conn.execute(delete(sessions_table).where(sessions_table.c.id == session_id)).rowcount > 0
        return self._write(delete_all)

    def recent_messages(self, session_id: str, limit: int = 6) -> list[dict]:
        with self._reading() as conn:
            rows = conn.execute(sql.RECENT_MESSAGES, {"b_session": session_id, "b_limit": limit}).mappings().all()
        return [self._message_dict(dict(r)) for r in reversed(rows)]

    # --- messages -------------------------------------------------------------------------
    def message_exists(self, message_id: str, role: str | None = None) -> bool:
        query = select(messages_table.c.id).where(messages_table.c.id == message_id)
        if role:
            query = query.where(messages_table.c.role == role)
        with self._reading() as conn:
            return conn.execute(query).first() is not None

    # --- one question: two transactions ---------------------------------------------------
    def open_turn(self, session_id: str | None, question: str, selected_text: str | None, selection_mode: str,
                  *, book_id: str | None = None) -> dict:
        """The session (created when None), the query in state CREATED and the reader's message,
        in one transaction, before any retrieval or generation. Raises SessionNotFound."""
        now = _now()
        question = mask(question)  # personal details never reach the database (privacy.py)
        self.retention.due()
        created = session_id is None
        session_id = session_id or _new_id()
        query_id, message_id = _new_id(), _new_id()

        def record(conn: Connection) -> None:
            if created:
                conn.execute(sql.ADD_SESSION, {"id": session_id, "book_id": book_id, "created_at": now, "updated_at": now})
            elif not _lock_session(conn, session_id):
                raise SessionNotFound(session_id)
            conn.execute(sql.ADD_QUERY, {
                "id": query_id, "session_id": session_id, "question": question, "selected_text": selected_text,
                "selection_mode": selection_mode, "state": "CREATED", "states": [["CREATED", _iso(now)]],
                "created_at": now, "updated_at": now, "server": self.server})
            self._insert_message(conn, session_id, message_id, "user", question, now, query_id, "received", [],
                                 first=created)
        self._write(record)
        return {"session_id": session_id, "query_id": query_id, "user_message_id": message_id, "new_session": created}

    def close_turn(self, query_id: str, states: list[list[str]], *, session_id: str, user_message_id: str,
                   user_status: str, assistant: dict | None = None, generator: str | None = None,
                   error: str | None = None, asked: Asked | None = None) -> dict | None:
        """Record the rest of the lifecycle, the reader's message status, what the insights read
        (`asked`) and the answer (if any) in one transaction. `assistant` is {content, status,
        source_references}. Raises
        SessionNotFound (and records nothing) when the conversation was deleted meanwhile."""
        now = _now()

        def record(conn: Connection) -> dict | None:
            if not _lock_session(conn, session_id):
                raise SessionNotFound(session_id)
            recorded, asked_at = conn.execute(sql.QUERY_STATES, {"b_query": query_id}).one()
            values = {"b_query": query_id, "state": states[-1][0], "states": [*recorded, *states], "updated_at": now}
            if generator:
                values["generator"] = generator
            if error:
                values["error"] = error
            conn.execute(sql.UPDATE_QUERY, values)
            conn.execute(sql.UPDATE_MESSAGE, {"b_message": user_message_id, "status": user_status})
            if asked is not None:
                record_asked(conn, query_id, asked, asked_at)
            if assistant is None:
                return None
            return self._insert_message(conn, session_id, _new_id(), "assistant", assistant["content"], now,
                                        query_id, assistant["status"], assistant.get("source_references", []))
        try:
            return self._write(record)
        except DatabaseUnavailable:
            self._unclosed[query_id] = None
            raise

    def _insert_message(self, conn, session_id: str, message_id: str, role: str, content: str, now: datetime,
                        query_id: str | None, status: str | None, refs: list[dict], *, first: bool = False) -> dict:
        """`first`: the session was created in this transaction, so it has no messages yet. A
        message's time is never before the one it follows (its clock may be another server's)."""
        seq = 1
        if not first:
            last = conn.execute(sql.LAST_MESSAGE, {"b_session": session_id}).first()
            if last is not None:
                seq, now = last.seq + 1, max(now, _utc(last.timestamp))
        row = {"id": message_id, "session_id": session_id, "seq": seq, "role": role, "content": content,
               "timestamp": now, "query_id": query_id, "status": status, "source_references": refs}
        conn.execute(sql.ADD_MESSAGE, row)
        if not first:
            conn.execute(sql.TOUCH_SESSION, {"b_session": session_id, "updated_at": now})
        return self._message_dict(row)

    # --- query lifecycle ------------------------------------------------------------------
    def get_query(self, query_id: str) -> dict | None:
        with self._reading() as conn:
            row = conn.execute(select(queries_table).where(queries_table.c.id == query_id)).mappings().first()
        return dict(row) if row else None

    def interrupt_unfinished(self) -> int:
        """At start-up: questions this server was answering when it stopped (or that any server
        left unfinished long ago, or a version before servers were recorded) become INTERRUPTED,
        their messages `interrupted`. How many."""
        now = _now()
        server = queries_table.c.server
        unfinished = (server == self.server) | server.is_(None) | (queries_table.c.created_at < now - ABANDONED_AFTER)
        return self._write(lambda conn: self._interrupt(conn, unfinished,
                                                        "The server stopped before the answer was written."))

    @staticmethod
    def _interrupt(conn: Connection, which, reason: str) -> int:
        """Unfinished questions among `which` become INTERRUPTED, their messages `interrupted`."""
        now = _now()
        rows = conn.execute(select(queries_table.c.id, queries_table.c.states)
                            .where(queries_table.c.state.in_(UNFINISHED_STATES) & which)).all()
        for row in rows:
            conn.execute(update(queries_table).where(queries_table.c.id == row.id).values(
                state="INTERRUPTED", states=[*row.states, ["INTERRUPTED", _iso(now)]], updated_at=now, error=reason))
            conn.execute(update(messages_table).where((messages_table.c.query_id == row.id)
                                                      & (messages_table.c.role == "user")).values(status="interrupted"))
        return len(rows)

    # --- feedback -------------------------------------------------------------------------
    def add_feedback(self, message_id: str, rating: str, comment: str | None) -> dict:
        row = {"id": _new_id(), "message_id": message_id, "rating": rating, "comment": mask(comment), "created_at": _now()}
        self._write(lambda conn: conn.execute(insert(feedback_table).values(**row)))
        return {**row, "created_at": _iso(row["created_at"])}

    def keep_gap_vector(self, message_id: str, vector_of: Callable[[str], bytes]) -> None:
        """An answer rated down: its question's vector (`vector_of(question)`) kept for the coverage gaps."""
        with self._reading() as conn:
            found = conn.execute(GAP_QUESTION, {"b_message": message_id}).first()
        if found is not None and found.gap_vector is None:
            vector = vector_of(found.question)
            self._write(lambda conn: keep_gap(conn, found.id, vector))

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


def _lock_session(conn: Connection, session_id: str) -> bool:
    """Whether the session exists; on PostgreSQL its row stays locked until the transaction
    ends, so that its messages are numbered one at a time and a deletion waits for a write."""
    return conn.execute(sql.LOCK_SESSION, {"b_session": session_id}).first() is not None
