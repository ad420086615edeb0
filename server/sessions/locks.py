"""Taking turns on the sessions database: between our own processes, writes committed
together, and a write that proves the database takes writes."""
from __future__ import annotations

import fcntl
import os
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from sqlalchemy import update
from sqlalchemy.engine import Connection, Engine

from server.errors import DatabaseUnavailable
from server.sessions.schema import sessions_table


class ProcessLock:
    """Our own processes (`serve --workers`) take turns on a file lock, which passes at once,
    instead of meeting in SQLite's busy handler, which polls with sleeps of up to 100 ms. No
    path (PostgreSQL): nothing to take turns on."""

    def __init__(self, path: Path | None):
        self.path = path
        self._fd: int | None = None
        self._pid: int | None = None
        self._held = threading.RLock()  # closing waits for a write in progress (a sweep in the background)

    @contextmanager
    def __call__(self) -> Iterator[None]:
        if self.path is None:
            yield
            return
        with self._held:
            if self._pid != os.getpid():  # a forked worker needs its own open file to lock
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
                self._pid = os.getpid()
            fcntl.flock(self._fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(self._fd, fcntl.LOCK_UN)

    def close(self) -> None:
        with self._held:
            if self._fd is not None:
                os.close(self._fd)
            self._fd = self._pid = None


class CommitTogether:
    """SQLite commits one writer at a time, so writes that queue up while one commits are
    committed together, one transaction per batch (a burst of questions would otherwise queue
    50 commits); when one of them fails, the others are committed alone."""

    def __init__(self, engine: Engine, between_processes: ProcessLock, where: str, problem: Callable[[], str | None]):
        self.engine = engine
        self.between_processes = between_processes
        self.where = where
        self.problem = problem  # why the database file cannot be written, if it cannot

    def __call__(self, works: list[Callable[[Connection], object]]) -> list[object]:
        with self.between_processes():
            problem = self.problem()
            if problem:
                raise DatabaseUnavailable(self.where, state=f"is not answering: {problem}")
            try:
                with self.engine.begin() as conn:
                    return [work(conn) for work in works]
            except Exception as exc:
                if len(works) == 1:
                    return [exc]
            return [self._alone(work) for work in works]  # one failed; the others must not fail with it

    def _alone(self, work: Callable[[Connection], object]) -> object:
        try:
            with self.engine.begin() as conn:
                return work(conn)
        except Exception as exc:
            return exc


def probe_write(conn: Connection, dialect: str) -> None:
    """A write that changes nothing, refused by a database that takes no writes."""
    if dialect == "sqlite":  # rewrites the header page: fails on a read-only or full file
        version = conn.exec_driver_sql("PRAGMA user_version").scalar()
        conn.exec_driver_sql(f"PRAGMA user_version = {int(version)}")
    else:
        conn.execute(update(sessions_table).where(sessions_table.c.id == "").values(id=""))
