"""A conversation belongs to whoever holds its secret: the response that starts it hands the
secret out once, and every endpoint about it answers 401 without it and 404 with a wrong one;
a conversation from before secrets is claimed once; one rating per answer; and one rate-limit
budget per reader across every write."""
from __future__ import annotations

import pytest
from sqlalchemy import select

from apps import make_app
from server.sessions import feedback_table, sessions_table

QUESTION = {"question": "What is the Nyquist rate?"}


@pytest.fixture
def app(sample_book, tmp_path, database_url):
    return make_app(sample_book, tmp_path / "data", database_url=database_url)


def _requests(session_id: str, message_id: str):
    """Every request about one conversation, as (method, path, json)."""
    return [("GET", f"/sessions/{session_id}", None), ("DELETE", f"/sessions/{session_id}", None),
            ("POST", "/chat", {**QUESTION, "session_id": session_id}),
            ("POST", "/feedback", {"message_id": message_id, "rating": "up"})]


def test_only_the_holder_of_the_secret_reaches_the_conversation(app):
    reader = app.test_client()
    events = reader.post("/chat", json=QUESTION, headers={"Accept": "text/event-stream"}).get_data(as_text=True)
    assert events.count('"session_secret"') == 2  # in `meta` and in `done`
    (session_id, secret), = reader.secrets.items()
    assert len(secret) >= 40
    message_id = next(iter(reader.answers))
    stored = app.extensions["textbook_chat"].sessions
    with stored.engine.connect() as conn:
        kept = conn.execute(select(sessions_table.c.secret_hash).where(sessions_table.c.id == session_id)).scalar()
    assert kept and secret not in kept  # only its hash

    stranger = app.test_client()  # knows the id (from a proxy log, say), not the secret
    for method, path, body in _requests(session_id, message_id):
        bare = stranger.open(path, method=method, json=body)
        assert bare.status_code == 401 and bare.get_json()["code"] == "UNAUTHORIZED", (method, path)
        assert bare.headers["WWW-Authenticate"].startswith("Bearer")
        wrong = stranger.open(path, method=method, json=body, headers={"Authorization": "Bearer not-it"})
        assert wrong.status_code == 404 and wrong.get_json()["code"] == "NOT_FOUND", (method, path)
    assert reader.get(f"/sessions/{session_id}").status_code == 200  # nothing was changed
    assert reader.post("/chat", json={**QUESTION, "session_id": session_id}).status_code == 200
    assert "session_secret" not in reader.get(f"/sessions/{session_id}").get_json()  # not shown again
    assert reader.delete(f"/sessions/{session_id}").status_code == 204

    created = reader.post("/sessions", json={})
    assert created.status_code == 201 and created.get_json()["session_secret"]
    answer = reader.post("/chat", json=QUESTION).get_json()
    assert answer["session_secret"] and answer["session_secret"] != created.get_json()["session_secret"]


def test_a_conversation_from_before_secrets_is_claimed_once(app):
    legacy = app.extensions["textbook_chat"].sessions.create_session(user_id="reader")  # no secret, as before
    reader, late = app.test_client(), app.test_client()
    assert reader.get(f"/sessions/{legacy.id}").status_code == 401
    claimed = reader.post(f"/sessions/{legacy.id}/secret")
    assert claimed.status_code == 201 and claimed.get_json()["session_id"] == legacy.id
    assert reader.get(f"/sessions/{legacy.id}").status_code == 200
    assert late.post(f"/sessions/{legacy.id}/secret").status_code == 409  # once only
    assert late.post("/sessions/nope/secret").status_code == 404


def test_one_rating_per_answer_and_the_latest_counts(app):
    reader = app.test_client()
    message_id = reader.post("/chat", json=QUESTION).get_json()["assistant_message_id"]
    for rating in ("up", "down", "down", "up", "down"):
        assert reader.post("/feedback", json={"message_id": message_id, "rating": rating}).status_code == 201
    with app.extensions["textbook_chat"].sessions.engine.connect() as conn:
        rows = conn.execute(select(feedback_table.c.rating).where(feedback_table.c.message_id == message_id)).all()
    assert [r.rating for r in rows] == ["down"]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_rate_limit_is_one_budget_across_the_writes(sample_book, tmp_path, database_url):
    reader = make_app(sample_book, tmp_path / "data", config={"RATELIMIT_APPLICATION": "3 per minute"}).test_client()
    assert reader.post("/chat", json=QUESTION).status_code == 200
    assert reader.post("/sessions", json={}).status_code == 201
    assert reader.post("/sessions", json={}).status_code == 201
    for method, path in (("POST", "/sessions"), ("POST", "/chat"), ("POST", "/feedback")):
        refused = reader.open(path, method=method, json=QUESTION if path == "/chat" else {})
        assert refused.status_code == 429 and refused.headers["Retry-After"], path
    assert reader.get("/health").status_code == 200  # reads are not counted
