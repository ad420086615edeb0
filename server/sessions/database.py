"""The connection to the sessions database: engines for SQLite and PostgreSQL, a URL checked
before use, and the database's failures in the product's words (DatabaseUnavailable)."""
from __future__ import annotations

import os
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from sqlalchemy import create_engine, event, make_url
from sqlalchemy.engine import URL, Engine
from sqlalchemy.exc import ArgumentError, DataError, DBAPIError, IntegrityError, NoSuchModuleError

from server.errors import DatabaseUnavailable

DIALECTS = ("sqlite", "postgresql")


class DatabaseUrlError(ValueError):
    """DATABASE_URL cannot be used."""


def parse_url(text: str) -> URL:
    """The URL, or DatabaseUrlError saying why it cannot be used."""
    try:
        url = make_url(text)
    except ArgumentError:
        raise DatabaseUrlError(f"DATABASE_URL is not a database URL: {text!r}; "
                               "e.g. postgresql+psycopg://user:password@host:5432/textbook_chat") from None
    if url.get_backend_name() not in DIALECTS:
        raise DatabaseUrlError(f"DATABASE_URL names {url.get_backend_name()!r}; sessions are kept in SQLite "
                               "(sqlite:///path/sessions.db) or PostgreSQL (postgresql+psycopg://…)")
    try:
        url.get_dialect().import_dbapi()
    except (NoSuchModuleError, ImportError):
        raise DatabaseUrlError(f"DATABASE_URL names the driver {url.drivername!r}, which is not installed; "
                               "use postgresql+psycopg://…") from None
    if url.get_backend_name() == "postgresql" and not url.database:
        raise DatabaseUrlError("DATABASE_URL names no database: postgresql+psycopg://user:password@host:5432/DATABASE")
    return url


def describe(url: URL) -> str:
    """The URL without its password, for messages."""
    return url.render_as_string(hide_password=True)


def sqlite_file(url: URL) -> Path | None:
    """The file of a SQLite URL (None: in memory)."""
    database = url.database
    if url.get_backend_name() != "sqlite" or not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def make_engine(url: URL) -> Engine:
    if url.get_backend_name() == "postgresql":
        # pre-ping: a restarted PostgreSQL drops pooled connections; a down one is refused at once
        return create_engine(url, pool_pre_ping=True, connect_args={"connect_timeout": 5})
    # Connections are kept (no pings: a file does not drop connections) so that a burst does
    # not reopen them.
    pool = {"pool_size": 32, "max_overflow": -1} if sqlite_file(url) else {}
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, **pool)
    event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


@contextmanager
def answering(where: str) -> Iterator[None]:
    """Turn the database failing (down, refusing, read-only, full, file gone) into
    DatabaseUnavailable naming `where`; a broken constraint or a value the database cannot
    store (a bug: requests are checked for those) stays what it is."""
    try:
        yield
    except (IntegrityError, DataError):
        raise
    except DBAPIError as exc:
        reason = str(exc.orig).strip().splitlines()[0] if exc.orig is not None else type(exc).__name__
        if getattr(exc.orig, "sqlstate", None) == "25006":  # PostgreSQL: read-only transaction
            raise DatabaseUnavailable(where, reason, state="is read-only") from exc
        # SQLite says what is wrong with the file; PostgreSQL's words may name its host, user and
        # database, so they stay in the diagnosis
        state = f"is not answering: {reason}" if isinstance(exc.orig, sqlite3.Error) else "is not answering"
        raise DatabaseUnavailable(where, reason, state=state) from exc


def file_problem(path: Path | None, inode: int | None) -> str | None:
    """Why the SQLite file at `path` (opened with `inode`) cannot be used any more, if it cannot
    (in words that do not name the file: they reach readers)."""
    if path is None or inode is None:
        return None
    try:
        stat = os.stat(path)
    except FileNotFoundError:
        return "its file is missing"
    except OSError as exc:
        return f"its file cannot be read ({exc.strerror})"
    if stat.st_ino != inode:
        return "its file was replaced while the server was running"
    return None


def inode_of(path: Path | None) -> int | None:
    try:
        return os.stat(path).st_ino if path else None
    except OSError:
        return None
