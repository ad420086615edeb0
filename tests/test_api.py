"""The HTTP contract: validation, errors, selection modes, sessions, streaming, OpenAPI."""
from __future__ import annotations

import json
import re

import pytest
from limits.errors import ConfigurationError
from openapi_spec_validator import validate
from sqlalchemy import select

from fakes import FailingGenerator, RecordingGenerator
from server.question.compose.extractive.answer_units import sentences_of
from server.text.blocks import split_blocks
from sse import read_sse
from server.question.context import HighlightedPassage
from server.text.sentences import normalised
from server.sessions import feedback_table
from server.settings import load_settings

ERROR_KEYS = {"error", "code", "details"}


@pytest.fixture
def client(chat_app):
    return chat_app().test_client()


@pytest.mark.parametrize("body, field", [
    ({"question": ""}, "question"),
    ({"question": "   "}, "question"),
    ({"question": "x" * 1001}, "question"),
    ({}, "question"),
    ({"question": "ok?", "selected_text": "x" * 8001}, "selected_text"),
    ({"question": "ok?", "max_chunks": 0}, "max_chunks"),
    ({"question": "ok?", "max_chunks": 11}, "max_chunks"),
    ({"question": "ok?", "similarity_threshold": 1.5}, "similarity_threshold"),
    ({"question": "ok?", "similarity_threshold": -0.1}, "similarity_threshold"),
    ({"question": 5}, "question"),
    ({"question": "ok?", "max_chunks": "3"}, "max_chunks"),
    ({"question": "ok?", "selection_mode": "both"}, "selection_mode"),
    ({"question": "ok?", "surprise": True}, "surprise"),
    ({"question": "ok?", "user_preferences": {"level": "expert"}}, "user_preferences"),
])
def test_validation_errors(client, body, field):
    response = client.post("/chat", json=body)
    assert response.status_code == 400
    data = response.get_json()
    assert ERROR_KEYS <= set(data) and data["code"] == "VALIDATION_ERROR"
    assert field in data["details"]


def test_question_of_1000_characters_is_accepted(client):
    assert client.post("/chat", json={"question": "What is aliasing? " + "x" * 982}).status_code == 200


def test_body_that_is_not_an_object(client):
    response = client.post("/chat", data="[1, 2]", content_type="application/json")
    assert response.status_code == 400 and response.get_json()["code"] == "VALIDATION_ERROR"
    response = client.post("/chat", data="{not json", content_type="application/json")
    assert response.status_code == 400 and response.get_json()["code"] == "VALIDATION_ERROR"


def test_unknown_session_is_404(client):
    some = {"Authorization": "Bearer some-secret"}
    response = client.post("/chat", json={"question": "What is aliasing?", "session_id": "nope"}, headers=some)
    assert response.status_code == 404 and response.get_json()["code"] == "NOT_FOUND"
    assert client.get("/sessions/nope", headers=some).get_json()["code"] == "NOT_FOUND"


def test_body_over_the_limit_is_413(client):
    response = client.post("/chat", json={"question": "q?", "selected_text": "x" * 70_000})
    assert response.status_code == 413
    assert response.get_json() == {"error": "The request body is larger than the limit of 65536 bytes.", "code": "PAYLOAD_TOO_LARGE",
                                   "details": {"limit_bytes": 65536}}


def test_unknown_route_and_method_are_json(client):
    assert client.get("/nowhere").get_json()["code"] == "NOT_FOUND"
    assert client.get("/chat").get_json()["code"] == "METHOD_NOT_ALLOWED"


def test_answer_cites_sample_book_pages(client):
    response = client.post("/chat", json={"question": "What is the Nyquist rate and what happens below it?"})
    assert response.status_code == 200
    data = response.get_json()
    assert data["status"] == "completed" and data["generator"] == "extractive"
    assert data["sources"] and all(s["url"].startswith("http://127.0.0.1:8000/book/docs/") for s in data["sources"])
    assert "[1]" in data["answer"] or "[2]" in data["answer"]
    markers = {int(n) for n in re.findall(r"\[(\d+)\]", data["answer"])}
    assert markers <= set(range(1, len(data["sources"]) + 1))
    # the sources it used: every one its markers cite, in the order first cited, and only those
    assert data["cited_sources"] == list(dict.fromkeys(int(n) for n in re.findall(r"\[(\d+)\]", data["answer"])))
    # retrieved (5), and the chunks read on after them that a piece is quoted from, numbered after them
    assert len(data["cited_sources"]) < len(data["sources"]) and len(data["sources"]) >= 5
    assert 0 < data["confidence"] <= 1 and data["timestamp"].endswith("Z")
    assert [c["text"] for c in data["citations"]] == [f"[{n}]" for n in range(1, len(data["sources"]) + 1)]
    assert all(s["source_type"] == "database" for s in data["sources"])


def _cited_runs(answer: str) -> list[tuple[int, str]]:
    """(n, text) for each run of text (sentences, or a whole block: a list, a table, code) the
    answer closes with `[n]` (punctuation put back)."""
    return [(int(n), (text + punct).strip())
            for text, n, punct in re.findall(r"(.*?)\s*\[(\d+)\]([.!?]?)", answer, re.S)]


def test_extractive_answer_quotes_each_piece_from_the_source_it_cites(client):
    cited: set[int] = set()
    for question in ("What is the Nyquist rate and what happens below it?", "How does quantization add noise?",
                     "Why filter before sampling?", "What command shows a file's sample rate?"):
        data = client.post("/chat", json={"question": question}).get_json()
        assert data["generator"] == "extractive" and data["status"] == "completed", question
        runs = _cited_runs(data["answer"])
        uncited = re.sub(r"\s*\[\d+\]", "", data["answer"])
        assert runs and "".join(text for _, text in runs).replace(" ", "").replace("\n", "") == \
            uncited.replace(" ", "").replace("\n", "")  # all cited
        for number, text in runs:
            source = data["sources"][number - 1]["content"]
            headings = [normalised(h) for h in data["sources"][number - 1]["section_hierarchy"]]
            # quoted as the book wrote it: sentences, list items, a table or a code block of that source,
            # under a heading of that source (a line of its own in bold)
            for block in split_blocks(text):
                if block.kind == "paragraph" and re.fullmatch(r"\*\*[^*\n]+\*\*", block.text.strip()):
                    assert normalised(block.text) in headings or normalised(block.text) in normalised(source), \
                        f"[{number}] is shown under a heading it does not stand under: {block.text!r}"
                    continue
                if block.kind in ("code", "table"):
                    assert block.text in source, f"[{number}] cites a {block.kind} it does not hold: {block.text!r}"
                    continue
                pieces = sentences_of(block.text) if block.kind == "paragraph" else block.text.splitlines()
                for piece in pieces:
                    assert normalised(piece) and normalised(piece) in normalised(source), \
                        f"[{number}] cites text it does not hold: {piece!r}"
        cited.update(n for n, _ in runs)
    assert len(cited) >= 2  # the answers cite more than one source, so a wrong number shows


def test_exclusive_selection_reaches_the_generator_alone(chat_app):
    generator = RecordingGenerator()
    client = chat_app(generator=generator).test_client()
    passage = ("A sampled signal can only represent frequencies below half the sample rate. "
               "Anything above that folds back and appears as a lower frequency, which is called aliasing.")
    data = client.post("/chat", json={"question": "What happens to frequencies above half the sample rate?",
                                      "selected_text": passage}).get_json()
    assert data["status"] == "completed" and data["mode"] == "selection_exclusive"
    assert data["sources"] and all(s["source_type"] == "selected_text" for s in data["sources"])
    assert data["context"]["database_chunks"] == []
    sent = generator.inputs[-1]
    assert sent.selection_only and all(s.source_type == "selected_text" for s in sent.sources)
    assert all(isinstance(s.chunk, HighlightedPassage) and s.chunk.content in passage for s in sent.sources)
    # a piece of the highlight is not dressed up as a book chunk: no book, file or module of its own
    assert all({"book_id", "source_file", "module", "labels"}.isdisjoint(s) for s in data["sources"])
    assert all(s["source_location"] == "Highlighted passage" and s["content"] in passage for s in data["sources"])


def test_exclusive_selection_unrelated_question_is_refused_without_the_book(chat_app):
    generator = RecordingGenerator()
    client = chat_app(generator=generator).test_client()
    data = client.post("/chat", json={"question": "What is a good recipe for lasagna?",
                                      "selected_text": "Dither is a small amount of noise added before quantization."}
                       ).get_json()
    assert data["context"]["selected_text_chunks"] == []  # below the 0.1 floor
    assert data["status"] == "refused" and data["sources"] == [] and generator.inputs == []
    assert "highlighted passage" in data["answer"]


def test_combined_mode_labels_both_kinds(chat_app):
    generator = RecordingGenerator()
    client = chat_app(generator=generator).test_client()
    data = client.post("/chat", json={
        "question": "Why must a signal be filtered before sampling to avoid aliasing?",
        "selected_text": "Before sampling, an analog low-pass filter removes content above half the sample rate, "
                         "so that it cannot alias.", "selection_mode": "combined", "max_chunks": 6}).get_json()
    kinds = {s["source_type"] for s in data["sources"]}
    assert kinds == {"selected_text", "database"}
    scores = [s["score"] for s in data["sources"]]
    assert scores == sorted(scores, reverse=True)
    assert {s.source_type for s in generator.inputs[-1].sources} == kinds


def test_refusal_names_nearest_sections_without_a_model(sample_book, chat_app):
    generator = RecordingGenerator()
    client = chat_app(generator=generator).test_client()
    data = client.post("/chat", json={"question": "Who won the 1998 football world cup?"}).get_json()
    assert data["status"] == "refused" and data["sources"] == [] and data["confidence"] <= 0.5
    assert generator.inputs == []
    assert "couldn't find" in data["answer"]
    # the nearest sections are the book's own, each named with its link
    named = re.findall(r"\[([^\]]+)\]\((http[^)]+)\)", data["answer"].split("The closest sections are:")[1])
    assert named, data["answer"]
    book = {(c.source_location, c.url) for c in sample_book.store.all_chunks()}
    assert all(section in book for section in named), named


def test_follow_up_question_retrieves_in_context(physical_ai, chat_app):
    client = chat_app(physical_ai).test_client()
    first = client.post("/chat", json={"question": "How do topics work in ROS 2?"}).get_json()
    follow = client.post("/chat", json={"question": "and what about services?",
                                        "session_id": first["session_id"]}).get_json()
    assert follow["status"] == "completed"
    top = follow["sources"][0]
    assert "service" in (top["heading"] + top["content"]).lower()
    assert "ros" in (top["source_file"] + top["source_location"]).lower()


def test_a_short_question_that_names_its_topic_is_asked_on_its_own_in_a_conversation(physical_ai, chat_app):
    """"what is Nav2?" after a question on topics is a new question: searched alone, not with the
    question before it (which finds the pages on ROS 2 topics)."""
    client = chat_app(physical_ai).test_client()
    first = client.post("/chat", json={"question": "How do topics work in ROS 2?"}).get_json()
    new = client.post("/chat", json={"question": "what is Nav2?", "session_id": first["session_id"]}).get_json()
    assert new["status"] == "completed", new["answer"]
    assert "nav2" in new["sources"][0]["source_file"], [s["source_file"] for s in new["sources"]]
    assert "Nav2" in new["answer"]


def test_generator_failure_keeps_the_user_message(chat_app, database_url):
    client = chat_app(generator=FailingGenerator(), database_url=database_url).test_client()
    response = client.post("/chat", json={"question": "What is the Nyquist rate?"})
    assert response.status_code == 500
    data = response.get_json()
    assert data["code"] == "INTERNAL" and "saved" in data["error"] and "Traceback" not in json.dumps(data)
    session = client.get(f"/sessions/{data['details']['session_id']}").get_json()
    assert [(m["role"], m["content"], m["status"]) for m in session["messages"]] == [
        ("user", "What is the Nyquist rate?", "failed")]
    state = client.application.extensions["textbook_chat"].sessions.get_query(data["details"]["query_id"])
    assert state.state == "FAILED" and [s for s, _ in state.states] == ["CREATED", "RETRIEVING", "GENERATING", "FAILED"]


def test_generator_failure_mid_stream_is_an_error_event(chat_app, database_url):
    client = chat_app(generator=FailingGenerator(during_stream=True), database_url=database_url).test_client()
    response = client.post("/chat", json={"question": "What is the Nyquist rate?"},
                           headers={"Accept": "text/event-stream"})
    events = read_sse(response.get_data(as_text=True))
    assert [e for e, _ in events] == ["meta", "token", "error"]
    assert events[-1][1]["code"] == "INTERNAL"
    session = client.get(f"/sessions/{events[0][1]['session_id']}").get_json()
    assert session["messages"][0]["role"] == "user" and session["messages"][0]["status"] == "failed"


def test_lifecycle_is_recorded(chat_app, database_url):
    client = chat_app(database_url=database_url).test_client()
    data = client.post("/chat", json={"question": "What is the Nyquist rate?"}).get_json()
    query = client.application.extensions["textbook_chat"].sessions.get_query(data["query_id"])
    assert [s for s, _ in query.states] == ["CREATED", "RETRIEVING", "GENERATING", "COMPLETED"]
    refused = client.post("/chat", json={"question": "Best lasagna recipe with béchamel?"}).get_json()
    query = client.application.extensions["textbook_chat"].sessions.get_query(refused["query_id"])
    assert [s for s, _ in query.states] == ["CREATED", "RETRIEVING", "REFUSED"]
    # the stored reply carries the same outcome as the answer: a refusal is kept as refused, not completed
    assert refused["status"] == "refused" and data["status"] == "completed"
    for answer, status in ((data, "completed"), (refused, "refused")):
        messages = client.get(f"/sessions/{answer['session_id']}").get_json()["messages"]
        assert [(m["role"], m["status"]) for m in messages] == [("user", "answered"), ("assistant", status)], messages
        assert messages[1]["id"] == answer["assistant_message_id"] and messages[1]["content"] == answer["answer"]


def test_sse_events_in_order_and_done_equals_json(client):
    question = {"question": "How does a window function reduce spectral leakage?"}
    streamed = client.post("/chat", json=question, headers={"Accept": "text/event-stream"})
    assert streamed.mimetype == "text/event-stream"
    assert streamed.headers["Cache-Control"].startswith("no-cache") and streamed.headers["X-Accel-Buffering"] == "no"
    events = read_sse(streamed.get_data(as_text=True))
    names = [e for e, _ in events]
    assert names[0] == "meta" and names[-1] == "done" and set(names[1:-1]) <= {"token", "meta"}
    done = events[-1][1]
    assert "".join(d["text"] for e, d in events if e == "token").strip() == done["answer"]
    # markers read 1, 2, 3 … as first cited; each, as it streams, cites the latest `meta`'s list,
    # which holds the same passage at that number as the finished answer
    cited = [int(n) for n in re.findall(r"\[(\d+)\]", done["answer"])]
    assert cited and list(dict.fromkeys(cited)) == list(range(1, max(cited) + 1))
    latest, text = None, ""
    for name, data in events[:-1]:
        if name == "meta":
            latest = [s["chunk_id"] for s in data["sources"]]
        else:
            for n in re.findall(r"\[(\d+)\]", data["text"]):
                assert latest[int(n) - 1] == done["sources"][int(n) - 1]["chunk_id"]
    assert sorted(latest) == sorted(s["chunk_id"] for s in done["sources"])
    plain = client.post("/chat", json=question).get_json()
    volatile = {"query_id", "session_id", "session_secret", "assistant_message_id", "timestamp"}
    assert {k: v for k, v in done.items() if k not in volatile} == {k: v for k, v in plain.items() if k not in volatile}


def test_sessions_crud_and_survive_restart(chat_app, database_url):
    client = chat_app(database_url=database_url).test_client()
    created = client.post("/sessions", json={"user_id": "student-1"})
    assert created.status_code == 201
    sid = created.get_json()["id"]
    client.post("/chat", json={"question": "What is quantization noise?", "session_id": sid})
    client.post("/chat", json={"question": "What is a digital filter?", "session_id": sid})
    client.application.extensions["textbook_chat"].sessions.close()

    restarted = chat_app(database_url=database_url).test_client()
    restarted.secrets = client.secrets  # the reader still holds the conversation's secret
    session = restarted.get(f"/sessions/{sid}").get_json()
    assert [m["role"] for m in session["messages"]] == ["user", "assistant", "user", "assistant"]
    assert session["messages"][0]["content"] == "What is quantization noise?"
    refs = session["messages"][1]["source_references"]
    assert refs and {"source_file", "source_location", "content_snippet", "confidence", "retrieved_content_id"} <= set(refs[0])
    assert restarted.delete(f"/sessions/{sid}").status_code == 204
    assert restarted.get(f"/sessions/{sid}").status_code == 404


def test_deleting_a_session_leaves_every_other_session_whole(chat_app, database_url):
    client = chat_app(database_url=database_url).test_client()
    kept = client.post("/chat", json={"question": "What is quantization noise?"}).get_json()
    gone = client.post("/chat", json={"question": "What is a digital filter?"}).get_json()
    assert kept["session_id"] != gone["session_id"]
    assert client.post("/feedback", json={"message_id": kept["assistant_message_id"], "rating": "up"}).status_code == 201
    before = client.get(f"/sessions/{kept['session_id']}").get_json()
    assert [m["role"] for m in before["messages"]] == ["user", "assistant"]

    assert client.delete(f"/sessions/{gone['session_id']}").status_code == 204
    assert client.get(f"/sessions/{gone['session_id']}").status_code == 404
    assert client.get(f"/sessions/{kept['session_id']}").get_json() == before  # its messages, untouched
    sessions = client.application.extensions["textbook_chat"].sessions
    assert sessions.get_query(kept["query_id"]) is not None and sessions.get_query(gone["query_id"]) is None
    with sessions.engine.connect() as conn:
        rated = [r["message_id"] for r in conn.execute(select(feedback_table)).mappings()]
    assert rated == [kept["assistant_message_id"]]


def test_feedback(chat_app, database_url):
    client = chat_app(database_url=database_url).test_client()
    data = client.post("/chat", json={"question": "What is the Nyquist rate?"}).get_json()
    ok = client.post("/feedback", json={"message_id": data["assistant_message_id"], "rating": "up", "comment": "clear"})
    assert ok.status_code == 201 and ok.get_json()["rating"] == "up"
    sessions = client.application.extensions["textbook_chat"].sessions
    with sessions.engine.connect() as conn:
        rows = conn.execute(select(feedback_table)).mappings().all()
    assert [(r["message_id"], r["rating"], r["comment"]) for r in rows] == [(data["assistant_message_id"], "up", "clear")]
    assert rows[0]["id"] == ok.get_json()["id"]
    assert client.post("/feedback", json={"message_id": data["assistant_message_id"], "rating": "meh"}).status_code == 400
    assert client.post("/feedback", json={"message_id": "missing", "rating": "down"},
                       headers={"Authorization": "Bearer some-secret"}).status_code == 404
    with sessions.engine.connect() as conn:
        assert len(conn.execute(select(feedback_table)).all()) == 1  # refused feedback is not stored


def test_health_reports_store_model_and_generator(client, sample_book):
    data = client.get("/health").get_json()
    assert data["status"] == "ok" and data["index_size"] == sample_book.report.chunks_total
    assert data["embedding_model"] == "sentence-transformers/all-MiniLM-L6-v2"
    assert data["generator"] == "extractive" and data["store"]["kind"] == "local"
    assert set(data["database"]) == {"kind", "latency_ms"} and data["database"]["kind"] in ("sqlite", "postgresql")


def test_openapi_document_is_valid_and_generated_from_schemas(client):
    spec = client.get("/openapi.json").get_json()
    validate(spec)
    schemas = spec["components"]["schemas"]
    for name in ("Query", "ChatResponse", "ChatSession", "ChatMessage", "Feedback", "ErrorResponse", "Source"):
        assert name in schemas
    assert schemas["Query"]["properties"]["max_chunks"]["maximum"] == 10
    assert "/chat" in spec["paths"] and "/sessions/{session_id}" in spec["paths"]


def test_cors_allows_configured_origins_only(client):
    allowed = client.options("/chat", headers={"Origin": "http://localhost:3000", "Access-Control-Request-Method": "POST"})
    assert allowed.headers.get("Access-Control-Allow-Origin") == "http://localhost:3000"
    denied = client.options("/chat", headers={"Origin": "http://evil.example", "Access-Control-Request-Method": "POST"})
    assert "Access-Control-Allow-Origin" not in denied.headers


def test_rate_limits_are_counted_where_rate_limit_storage_says(chat_app, monkeypatch):
    monkeypatch.setenv("RATE_LIMIT_STORAGE", "memcached://127.0.0.1:1")
    settings = load_settings(env_file=None)
    assert settings.rate_limit_storage == "memcached://127.0.0.1:1"
    # the limiter takes the store it was given: here one whose client library is not installed
    with pytest.raises(ConfigurationError, match="pymemcache"):
        chat_app(rate_limit_storage=settings.rate_limit_storage)


def test_rate_limit_is_429_with_error_shape(chat_app):
    client = chat_app(rate_limit="2 per minute").test_client()
    codes = [client.post("/chat", json={"question": "What is aliasing?"}).status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    limited = client.post("/chat", json={"question": "What is aliasing?"})
    data = limited.get_json()
    assert data["code"] == "RATE_LIMITED" and data["details"]["limit"] == "2 per 1 minute"
    assert 0 < int(limited.headers["Retry-After"]) <= 60
    assert client.get("/health").status_code == 200
