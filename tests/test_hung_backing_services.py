"""A backing service that hangs instead of failing: a Redis stopped mid-flight (SIGSTOP) costs
each request a short timeout at most and shows on /health as degraded, not down; and a question
whose server never comes back is marked INTERRUPTED by another server after a bounded time."""
from __future__ import annotations

import os
import signal
import time
from datetime import datetime, timedelta, timezone

from sqlalchemy import update

from apps import make_app
from processes import wait_until
from server.sessions import SessionStore, queries_table
from server.sessions.interrupted import ABANDONED_AFTER

QUESTION = {"question": "What is the Nyquist rate?"}


def test_a_hung_redis_holds_no_request_up_and_health_names_it(sample_book, tmp_path, redis_server, redis_url):
    client = make_app(sample_book, tmp_path / "data", rate_limit_storage=redis_url).test_client()
    assert client.post("/chat", json=QUESTION).status_code == 200
    assert client.get("/health").get_json()["failing"] == []
    os.kill(redis_server.process.pid, signal.SIGSTOP)  # answers nothing, refuses nothing
    try:
        for _ in range(3):
            started = time.monotonic()
            assert client.post("/chat", json=QUESTION).status_code == 200
            assert time.monotonic() - started < 3.0  # was 10 s, then 5 s each
        started = time.monotonic()
        health = client.get("/health")
        assert time.monotonic() - started < 2.0
        assert health.status_code == 200  # degraded, not down: readers are still answered
        assert health.get_json()["status"] == "degraded" and health.get_json()["failing"] == ["rate_limit_storage"]
    finally:
        os.kill(redis_server.process.pid, signal.SIGCONT)
    wait_until(lambda: client.get("/health").get_json()["failing"] == [], timeout_s=30, what="Redis to be back")


def test_a_question_whose_server_never_returns_is_interrupted_by_another(database_url):
    crashed = SessionStore(database_url, server="a host that is gone")
    opened = crashed.open_turn(None, "What is aliasing?", None, "exclusive")
    long_ago = datetime.now(timezone.utc) - ABANDONED_AFTER - timedelta(minutes=1)
    with crashed.engine.begin() as conn:
        conn.execute(update(queries_table).where(queries_table.c.id == opened.query_id).values(created_at=long_ago))
    fresh = crashed.open_turn(None, "What is sampling?", None, "exclusive")  # still being answered, maybe
    crashed.close()  # and it never starts again

    other = SessionStore(database_url, server="another host")
    try:
        other.check()  # a load balancer's health check is enough to start the look
        wait_until(lambda: other.get_query(opened.query_id).state == "INTERRUPTED", timeout_s=30,
                   what="the abandoned question to be marked")
        assert other.get_query(fresh.query_id).state == "CREATED"  # young: perhaps still answered
        messages = other.get_session(opened.session_id).messages
        assert [m.status for m in messages] == ["interrupted"]
    finally:
        other.close()


def test_a_slow_answer_marked_interrupted_that_then_completes_keeps_no_error(database_url):
    from server.sessions import Reply
    from server.sessions.interrupted import interrupt

    store = SessionStore(database_url, server="a slow host")
    try:
        opened = store.open_turn(None, "What is aliasing?", None, "exclusive")
        with store.engine.begin() as conn:
            assert interrupt(conn, queries_table.c.id == opened.query_id, "left unanswered") == 1
        assert store.get_query(opened.query_id).error == "left unanswered"
        store.close_turn(opened.query_id, [("COMPLETED", datetime.now(timezone.utc))], session_id=opened.session_id,
                         user_message_id=opened.user_message_id, user_status="answered",
                         assistant=Reply("Aliasing is…", "completed"))
        query = store.get_query(opened.query_id)
        assert (query.state, query.error) == ("COMPLETED", None)
    finally:
        store.close()
