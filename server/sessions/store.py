"""Chat sessions, messages, query lifecycles and feedback in SQL (SQLAlchemy Core).

SQLite file by default; PostgreSQL through DATABASE_URL. Opening a store brings its database
to the current schema (migrate.py). A database that fails raises DatabaseUnavailable; a
conversation deleted while one of its questions is answered raises SessionNotFound, and
nothing of that answer is kept.
"""
from __future__ import annotations

import json
import os
import socket
import time
import uuid
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, Sequence, TypeVar

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection

from server.batching import Batcher
from server.errors import DatabaseUnavailable
from server.text.privacy import mask
from server.sessions import migrate, statements as sql
from server.sessions.database import answering, describe, file_problem, inode_of, make_engine, parse_url, sqlite_file
from server.sessions.interrupted import ABANDONED_AFTER, interrupt, left_by
from server.sessions.locks import CommitTogether, ProcessLock, probe_write
from server.sessions.recording import GAP_QUESTION, Asked, keep_gap
from server.sessions.records import (DatabaseCheck, Entered, Feedback, Kept, Message, NewSession, OpenedTurn, Query, Reply, Session, message_of,
                      query_of, session_of)
from server.sessions.abandoned import AbandonedQuestions
from server.sessions.retention import Retention
from server.sessions.schema import feedback_table, messages_table, queries_table, sessions_table
from server.sessions.turns import Closing, Opening, close_question, history_of, open_question

if TYPE_CHECKING:
    from server.sessions.asked_reads import PageAsked, QuestionsRead, Window

Written = TypeVar("Written")


def _now() -> datetime:
    return datetime.now(timezone.utc)


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
        self._failing: str | None = None  # why the last write failed, until one succeeds
        self._unclosed: dict[str, None] = {}  # questions whose last write failed: marked when writes work again
        if self._file is not None:
            self._file.parent.mkdir(parents=True, exist_ok=True)
        # our own processes (`serve --workers`) take turns on a file lock
        self._between_processes = ProcessLock(Path(f"{self._file}.write-lock") if self._file is not None else None)
        self.engine = make_engine(parsed)
        if self.dialect == "sqlite":
            self._commit_together = CommitTogether(self.engine, self._between_processes, self.where,
                                                   lambda: file_problem(self._file, self._inode))
            self._writes = Batcher(self._commit_together, max_size=64)
        try:
            with answering(self.where), self._between_processes():
                self.revisions = migrate.upgrade(self.engine)
        except BaseException:
            self.engine.dispose()
            raise
        self._inode = inode_of(self._file)
        self.retention = Retention(self._sweep, retention_days)
        self.abandoned = AbandonedQuestions(self._sweep, ABANDONED_AFTER)

    def close(self) -> None:
        self.engine.dispose()
        self._between_processes.close()

    def after_fork(self) -> None:
        """Forget the parent process's pooled connections without closing them under it."""
        self.engine.dispose(close=False)

    # --- reading and writing ----------------------------------------------------------------
    @contextmanager
    def _reading(self) -> Iterator[Connection]:
        with answering(self.where), self.engine.connect() as conn:
            yield conn

    def _sweep(self, work: Callable[[Connection], Written]) -> Written:  # a clean-up's write in the background:
        return self._write(work, proves=lambda _: False)  # it may change nothing, which a read-only file takes

    def _write(self, work: Callable[[Connection], Written], *,
               proves: Callable[[Written], bool] | None = None) -> Written:
        """`work` inside a write transaction; with SQLite, possibly one shared with other writes.
        A write that succeeds shows the database takes writes again, unless `proves(result)` says
        it wrote nothing (a read-only SQLite file takes those)."""
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
        if proves is None or proves(result):
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
            self._write(lambda conn: interrupt(conn, queries_table.c.id.in_(ids),
                                               "The database did not answer when the answer was written."))
        except DatabaseUnavailable:
            self._unclosed.update(dict.fromkeys(ids))

    # --- health ---------------------------------------------------------------------------
    def check(self) -> DatabaseCheck:
        """A cheap look: the file is the one opened, the tables answer, PostgreSQL takes
        writes; after a failed write, a write. Raises DatabaseUnavailable. Also starts the
        look for questions a server left unfinished and never came back for."""
        started = time.perf_counter()
        self.abandoned.due()
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
            self._write(lambda conn: probe_write(conn, self.dialect))
        return DatabaseCheck(self.dialect, round((time.perf_counter() - started) * 1000, 2))

    # --- sessions -------------------------------------------------------------------------
    def create_session(self, user_id: str | None = None, book_id: str | None = None, *,
                       secret_hash: str | None = None) -> Session:
        """`secret_hash`: of the secret its reader will show (access.py)."""
        now = _now()
        row = {"id": _new_id(), "user_id": user_id, "book_id": book_id, "created_at": now, "updated_at": now}
        self._write(lambda conn: conn.execute(insert(sessions_table).values(**row, secret_hash=secret_hash)))
        return session_of(row)

    def exists(self, session_id: str) -> bool:
        with self._reading() as conn:
            return conn.execute(sql.SESSION, {"b_session": session_id}).first() is not None

    def get_session(self, session_id: str) -> Session | None:
        with self._reading() as conn:
            row = conn.execute(select(sessions_table).where(sessions_table.c.id == session_id)).mappings().first()
            if row is None:
                return None
            messages = conn.execute(select(messages_table).where(messages_table.c.session_id == session_id)
                                    .order_by(messages_table.c.seq)).mappings().all()
        return session_of(row, tuple(message_of(m) for m in messages))

    def delete_session(self, session_id: str) -> bool:
        def delete_all(conn: Connection) -> bool:
            if not sql.lock_session(conn, session_id):
                return False
            message_ids = select(messages_table.c.id).where(messages_table.c.session_id == session_id)
            conn.execute(delete(feedback_table).where(feedback_table.c.message_id.in_(message_ids)))
            conn.execute(delete(messages_table).where(messages_table.c.session_id == session_id))
            conn.execute(delete(queries_table).where(queries_table.c.session_id == session_id))
            return conn.execute(delete(sessions_table).where(sessions_table.c.id == session_id)).rowcount > 0
        return self._write(delete_all, proves=lambda deleted: deleted)

    # --- the secret that binds a session to its reader (access.py) ------------------------
    def secret_hash(self, session_id: str) -> tuple[bool, str | None]:
        """Whether the session exists, and the hash of its secret (None: made before secrets)."""
        with self._reading() as conn:
            row = conn.execute(sql.SECRET_HASH, {"b_session": session_id}).first()
        return row is not None, row.secret_hash if row is not None else None

    def claim_secret(self, session_id: str, secret_hash: str) -> bool:
        """A session made before secrets gets its secret's hash; False when it has one already
        or there is no such session."""
        unclaimed = (sessions_table.c.id == session_id) & sessions_table.c.secret_hash.is_(None)
        claiming = update(sessions_table).where(unclaimed).values(secret_hash=secret_hash)
        return self._write(lambda conn: conn.execute(claiming).rowcount > 0)

    def recent_messages(self, session_id: str, limit: int = 6) -> list[Message]:
        with self._reading() as conn:
            rows = conn.execute(sql.RECENT_MESSAGES, {"b_session": session_id, "b_limit": limit}).mappings().all()
        return [message_of(r) for r in reversed(rows)]

    def practice_of(self, message_id: str, session_id: str) -> Kept | None:
        """What an assistant message of this conversation practised (a quiz it posed), None when
        the conversation has no such message."""
        with self._reading() as conn:
            found = conn.execute(sql.PRACTICE, {"b_message": message_id, "b_session": session_id}).scalar()
        return json.loads(found) if isinstance(found, str) else (found or None)

    # --- messages -------------------------------------------------------------------------
    def message_exists(self, message_id: str, role: str | None = None) -> bool:
        query = select(messages_table.c.id).where(messages_table.c.id == message_id)
        if role:
            query = query.where(messages_table.c.role == role)
        with self._reading() as conn:
            return conn.execute(query).first() is not None

    def session_of_message(self, message_id: str, role: str = "assistant") -> str | None:
        with self._reading() as conn:
            return conn.execute(select(messages_table.c.session_id).where(
                (messages_table.c.id == message_id) & (messages_table.c.role == role))).scalar()

    # --- one question: two transactions (turns.py) --------------------------------------
    def open_turn(self, session: str | NewSession | None, question: str, selected_text: str | None,
                  selection_mode: str, *, book_id: str | None = None, history: int = 0) -> OpenedTurn:
        """The session (created when a NewSession or None), the query in state CREATED and the
        reader's message, in one transaction, before any retrieval or generation; with the
        conversation's last `history` messages before it. Raises SessionNotFound."""
        now = _now()
        self.retention.due()
        self.abandoned.due()
        session = NewSession() if session is None else session
        opening = Opening(session, _new_id(), _new_id(), mask(question),  # personal details never reach the database
                          mask(selected_text), selection_mode, book_id, self.server, history)
        rows = self._write(lambda conn: open_question(conn, opening, now))
        created = isinstance(session, NewSession)
        return OpenedTurn(session.id if created else session, opening.query_id, opening.message_id, created,
                          history_of(rows))

    def close_turn(self, query_id: str, states: Sequence[Entered], *, session_id: str, user_message_id: str,
                   user_status: str, assistant: Reply | None = None, generator: str | None = None,
                   error: str | None = None, asked: Asked | None = None) -> Message | None:
        """Record the rest of the lifecycle, the reader's message status, what the insights read
        (`asked`) and the answer (if any) in one transaction; the assistant's message as stored,
        if any. Raises SessionNotFound (and records nothing) when the conversation was deleted meanwhile."""
        closing = Closing(query_id, states, session_id, user_message_id, user_status, assistant, _new_id(),
                          generator, error, asked)
        now = _now()
        try:
            return self._write(lambda conn: close_question(conn, closing, now))
        except DatabaseUnavailable:
            self._unclosed[query_id] = None
            raise

    # --- query lifecycle ------------------------------------------------------------------
    def get_query(self, query_id: str) -> Query | None:
        with self._reading() as conn:
            row = conn.execute(select(queries_table).where(queries_table.c.id == query_id)).mappings().first()
        return query_of(row) if row else None

    def interrupt_unfinished(self) -> int:
        """At start-up: questions this server was answering when it stopped (or that any server
        left unfinished long ago, or a version before servers were recorded) become INTERRUPTED,
        their messages `interrupted`. How many."""
        return self._write(lambda conn: interrupt(conn, left_by(self.server),
                                                  "The server stopped before the answer was written."))

    # --- feedback -------------------------------------------------------------------------
    def add_feedback(self, message_id: str, rating: str, comment: str | None) -> Feedback:
        """The reader's rating of an answer, replacing an earlier one of the same answer."""
        row = {"id": _new_id(), "message_id": message_id, "rating": rating, "comment": mask(comment), "created_at": _now()}
        self._write(lambda conn: conn.execute(sql.upsert(self.dialect, feedback_table, row, ["message_id"])))
        return Feedback(**row)

    def questions_read(self, window: "Window", max_grouped: int) -> "QuestionsRead":
        """What the insights report is made of (asked_reads.py), for one book or all, over a period."""
        from server.sessions.asked_reads import read_questions

        return read_questions(self.engine, window, max_grouped)

    def asked_on_page(self, page_url: str, since=None) -> "PageAsked":
        """One page as its author sees it: highlighted passages, cited sections, questions asked on it."""
        from server.sessions.asked_reads import read_page

        return read_page(self.engine, page_url, since)

    def keep_gap_vector(self, message_id: str, vector_of: Callable[[str], bytes]) -> None:
        """An answer rated down: its question's vector (`vector_of(question)`) kept for the coverage gaps."""
        with self._reading() as conn:
            found = conn.execute(GAP_QUESTION, {"b_message": message_id}).first()
        if found is not None and found.gap_vector is None:
            vector = vector_of(found.question)
            self._write(lambda conn: keep_gap(conn, found.id, vector))
