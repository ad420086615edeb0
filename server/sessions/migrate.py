"""Bring a sessions database to the code's schema with the Alembic migrations beside this file.

A database made before migrations existed (tables, no `alembic_version`) is recorded as the
first revision, which is the schema it has, and then upgraded. Servers that start together
take turns: PostgreSQL with an advisory lock, SQLite with the caller's file lock.
"""
from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine

MIGRATIONS = Path(__file__).with_name("migrations")
FIRST_REVISION = "0001"
_LOCK_KEY = 7_114_051_016  # pg_advisory_xact_lock key: "migrating the sessions database"


def _config(conn: Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = conn
    return config


def head() -> str:
    return ScriptDirectory(str(MIGRATIONS)).get_current_head()


def current(conn: Connection) -> str | None:
    return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine) -> tuple[str | None, str]:
    """Apply what is missing; (revision before, revision after)."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK_KEY})
        before = current(conn)
        if before == head():
            return before, before
        config = _config(conn)
        if before is None and inspect(conn).has_table("chat_sessions"):
            command.stamp(config, FIRST_REVISION)  # made by a version before migrations
            before = FIRST_REVISION
        command.upgrade(config, "head")
        return before, current(conn)
