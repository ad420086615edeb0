"""The sessions schema through Alembic: new databases get the latest schema, a database made
before migrations (tests/data: written by the version before them) keeps its conversations, and
servers starting together migrate once."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from sqlalchemy import inspect

from processes import exit_codes_of_processes
from server.api.session_schemas import ChatSessionSchema
from server.sessions import SessionStore, SourceReference
from server.sessions.migrate import head

BEFORE_MIGRATIONS = Path(__file__).parent / "data" / "sessions-before-migrations.db"
CLI = Path(sys.executable).with_name("textbook-chat")


def test_a_new_database_gets_the_latest_schema_and_a_second_start_changes_nothing(database_url):
    store = SessionStore(database_url)
    assert store.revisions == (None, head())
    columns = {c["name"] for c in inspect(store.engine).get_columns("queries")}
    assert {"state", "states", "server"} <= columns
    store.close()
    again = SessionStore(database_url)
    assert again.revisions == (head(), head())
    again.close()


def test_a_database_from_before_migrations_is_upgraded_with_its_conversations(tmp_path):
    database = tmp_path / "sessions.db"
    shutil.copy(BEFORE_MIGRATIONS, database)
    store = SessionStore(f"sqlite:///{database}")
    assert store.revisions == ("0001", head())
    session = store.get_session("91295e43-af0d-49c0-93c5-78392bb94eee")
    assert [(m.role, m.status) for m in session.messages] == [
        ("user", "answered"), ("assistant", "completed"), ("user", "received")]
    assert session.messages[1].source_references == (SourceReference(source_file="docs/a.md"),)
    shown = ChatSessionSchema().dump(session)  # the API shows what that version kept, and no more
    assert shown["messages"][1]["source_references"] == [{"source_file": "docs/a.md"}]
    assert shown["messages"][0]["timestamp"].endswith("Z") and len(shown["created_at"]) == len("2026-01-01T00:00:00.000Z")
    # the question that version left unfinished is interrupted by the first start of this one
    assert store.interrupt_unfinished() == 1
    assert store.get_session(session.id).messages[2].status == "interrupted"
    turn = store.open_turn(session.id, "and now?", None, "combined")  # the conversation goes on
    assert store.get_query(turn.query_id).server == store.server
    assert [m.content for m in store.recent_messages(session.id)][-1] == "and now?"
    store.close()


def test_the_migrate_command_reports_the_schema(tmp_path):
    database = tmp_path / "sessions.db"
    shutil.copy(BEFORE_MIGRATIONS, database)
    env = {"DATABASE_URL": f"sqlite:///{database}", "PATH": "/usr/bin:/bin"}
    first = subprocess.run([str(CLI), "migrate"], env=env, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip().endswith(f"schema {head()} (was 0001)")
    second = subprocess.run([str(CLI), "migrate"], env=env, capture_output=True, text=True, timeout=120)
    assert second.stdout.strip().endswith(f"schema {head()}, up to date")


def _open(url: str) -> None:
    SessionStore(url).close()


def test_servers_starting_together_on_a_new_postgresql_database_migrate_it_once(postgres):
    url = postgres.new_database()
    assert exit_codes_of_processes(_open, [(url,)] * 3) == [0, 0, 0]
    store = SessionStore(url)
    assert store.revisions == (head(), head())
    store.close()
