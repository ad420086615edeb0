"""The sessions database failing, for real: PostgreSQL stopped and started again, a read-only
SQLite database, its file removed, a session deleted while its answer streams, and start-up
with a database that is down or a DATABASE_URL that cannot work."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from places import MODELS_DIR
from processes import free_port
from sse import read_sse
from server.errors import DatabaseUnavailable
from server.question.compose.generator import Deltas, GenerationInput, Outcome
from server.sessions import SessionStore
from server.sessions.access import new_secret

CLI = Path(sys.executable).with_name("textbook-chat")
QUESTION = {"question": "What is the Nyquist rate?"}


def _unavailable(response) -> bool:
    return response.status_code == 503 and response.get_json()["code"] == "DATABASE_UNAVAILABLE"


def _health(client) -> tuple[int, dict]:
    response = client.get("/health")
    return response.status_code, response.get_json()


def test_postgresql_stopping_is_503_with_health_naming_it_and_starting_again_recovers(chat_app, own_postgres):
    client = chat_app(database_url=own_postgres.new_database()).test_client()
    first = client.post("/chat", json=QUESTION).get_json()
    assert _health(client)[1]["database"]["kind"] == "postgresql"

    own_postgres.halt()
    refused = client.post("/chat", json=QUESTION)
    assert _unavailable(refused)
    for body in (refused.get_data(as_text=True), client.get("/health").get_data(as_text=True)):
        # the database's user, host, port and name are for the operator's log only
        assert not any(detail in body for detail in ("postgres@", "user", "127.0.0.1", str(own_postgres.port))), body
    assert _unavailable(client.post("/chat", json=QUESTION, headers={"Accept": "text/event-stream"}))
    assert _unavailable(client.get(f"/sessions/{first['session_id']}"))
    assert _unavailable(client.post("/sessions", json={}))
    status, health = _health(client)
    assert status == 503 and health["status"] == "degraded" and health["failing"] == ["database"]
    assert "not answering" in health["database"]["error"]

    own_postgres.start()
    status, health = _health(client)
    assert status == 200 and health["failing"] == [], health
    again = client.post("/chat", json={**QUESTION, "session_id": first["session_id"]})
    assert again.status_code == 200
    assert len(client.get(f"/sessions/{first['session_id']}").get_json()["messages"]) == 4


def test_a_read_only_sqlite_database_is_503_and_health_says_so_after_a_failed_write(chat_app, tmp_path):
    database = tmp_path / "data" / "sessions.db"
    store = SessionStore(f"sqlite:///{database}")
    secret, hashed = new_secret()
    kept = store.create_session(user_id="reader", secret_hash=hashed)
    store.close()
    client = chat_app(database_url=f"sqlite:///file:{database}?mode=ro&uri=true").test_client()
    reading = client.get(f"/sessions/{kept.id}", headers={"Authorization": f"Bearer {secret}"})
    assert reading.status_code == 200  # reading still works
    response = client.post("/chat", json=QUESTION)
    assert _unavailable(response) and "readonly" in response.get_json()["error"]
    status, health = _health(client)
    assert status == 503 and health["failing"] == ["database"]


def test_a_clean_up_that_writes_nothing_does_not_hide_a_failed_write(tmp_path):
    database = tmp_path / "sessions.db"
    SessionStore(f"sqlite:///{database}").close()
    store = SessionStore(f"sqlite:///file:{database}?mode=ro&uri=true")
    try:
        with pytest.raises(DatabaseUnavailable):  # the question also starts the look for abandoned questions …
            store.open_turn(None, "kept?", None, "combined")
        for thread in threading.enumerate():
            if thread.name == "abandoned-questions":
                thread.join()  # … which a read-only file takes, finding nothing to mark, whenever it ends
        with pytest.raises(DatabaseUnavailable):
            store.check()
        assert store.delete_session("no-such-session") is False  # nor does a deletion that finds nothing
        with pytest.raises(DatabaseUnavailable):
            store.check()
    finally:
        store.close()


def test_a_removed_sqlite_file_is_503(chat_app, tmp_path):
    client = chat_app().test_client()
    assert client.post("/chat", json=QUESTION).status_code == 200
    for suffix in ("", "-wal", "-shm"):
        Path(f"{tmp_path / 'data' / 'sessions.db'}{suffix}").unlink(missing_ok=True)
    response = client.post("/chat", json=QUESTION)
    assert _unavailable(response) and "missing" in response.get_json()["error"]
    status, health = _health(client)
    assert status == 503 and health["failing"] == ["database"] and "missing" in health["database"]["error"]


class _HeldGenerator:
    """Streams one word, then waits until the test lets it finish."""

    name = "held"

    def __init__(self):
        self.started = threading.Event()
        self.release = threading.Event()

    def generate(self, request: GenerationInput) -> Deltas:
        yield "The Nyquist rate "
        self.started.set()
        assert self.release.wait(30)
        yield "is twice the bandwidth [1]."
        return Outcome(self.name)


def _delete_while_answering(client, generator: _HeldGenerator, headers: dict) -> tuple[tuple[int, bytes], dict]:
    session = client.post("/sessions", json={}).get_json()
    replies = []

    def ask() -> None:  # the body is read on this thread too: a stream is produced as it is read
        response = client.post("/chat", json={**QUESTION, "session_id": session["id"]}, headers=headers)
        replies.append((response.status_code, response.get_data()))

    asking = threading.Thread(target=ask)
    asking.start()
    assert generator.started.wait(30)
    assert client.delete(f"/sessions/{session['id']}").status_code == 204
    generator.release.set()
    asking.join(30)
    return replies[0], session


def test_a_session_deleted_mid_answer_ends_the_json_call_with_404_and_keeps_nothing(chat_app):
    generator = _HeldGenerator()
    app = chat_app(generator=generator)
    reader = app.test_client()
    (status, body), session = _delete_while_answering(reader, generator, {})
    assert status == 404 and json.loads(body)["code"] == "NOT_FOUND"
    assert reader.get(f"/sessions/{session['id']}").status_code == 404
    sessions = app.extensions["textbook_chat"].sessions
    with sessions.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM chat_messages").scalar() == 0


def test_a_session_deleted_mid_answer_ends_the_stream_with_an_error_event(chat_app):
    generator = _HeldGenerator()
    app = chat_app(generator=generator)
    (status, body), session = _delete_while_answering(app.test_client(), generator, {"Accept": "text/event-stream"})
    events = read_sse(body)
    assert [name for name, _ in events][0] == "meta" and events[-1][0] == "error"
    assert events[-1][1]["code"] == "NOT_FOUND" and "done" not in [name for name, _ in events]


def _serve(tmp_path, **env) -> subprocess.CompletedProcess:
    environment = {**os.environ, "TEXTBOOK_CHAT_DATA_DIR": str(tmp_path / "data"),
                   "TEXTBOOK_CHAT_MODELS_DIR": str(MODELS_DIR), **env}
    return subprocess.run([str(CLI), "serve", "--port", str(free_port())], env=environment, capture_output=True,
                          text=True, timeout=300)


def test_starting_with_postgresql_down_is_one_line(tmp_path):
    url = f"postgresql+psycopg://reader:secret@127.0.0.1:{free_port()}/textbook_chat"
    result = _serve(tmp_path, DATABASE_URL=url)
    assert result.returncode == 1
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("error: The sessions database (postgresql+psycopg://reader:***@127.0.0.1")
    assert "secret" not in line and "refused" in line.lower()


def test_a_database_url_that_cannot_work_is_one_line(tmp_path):
    for url, says in [("postgres//host/db", "not a database URL"), ("mysql://u@host/db", "'mysql'"),
                      ("postgresql+pg8000://u@host/db", "not installed"), ("postgresql+psycopg://u@host", "no database")]:
        result = _serve(tmp_path, DATABASE_URL=url)
        assert result.returncode == 1 and "Traceback" not in result.stderr
        (line,) = result.stderr.strip().splitlines()
        assert "DATABASE_URL" in line and says in line, line
