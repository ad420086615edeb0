"""A Gemini outage is not a service outage: a refused connection is not retried, repeated
failures open a circuit breaker (the fallback answers at once, `fallback_reason:
"circuit_open"`), one question probes Gemini again after the cool-down, and /health is
answered on threads of its own while answers hold every other thread."""
from __future__ import annotations

import json
import logging
import socket
import threading
import urllib.request

import pytest

from apps import make_settings
from fake_gemini import FakeGemini
from server.question.compose.extractive import ExtractiveGenerator
from server.question.compose.fallback import WithFallback
from server.question.compose.gemini import GeminiClient, GeminiGenerator, GeminiRewriter
from server.question.compose.gemini.breaker import CircuitBreaker, CircuitOpen
from server.serving.wsgi import make_server

QUESTION = {"question": "What is the Nyquist rate and what happens below it?"}


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def gemini_app(chat_app, sample_book, tmp_path):
    """gemini_app(breaker, timeout_s=1.5) -> the app over the sample book answering with Gemini
    (the fake) through `breaker`, the extractive generator as its fallback."""
    def make(breaker: CircuitBreaker, timeout_s: float = 1.5):
        overrides = {"gemini_api_key": "test-key", "gemini_timeout_s": timeout_s, "gemini_model": "gemini-test-model"}
        settings = make_settings(tmp_path / "data", **overrides)
        client = GeminiClient(settings, backoff_s=0.05, breaker=breaker)
        generator = WithFallback(GeminiGenerator(settings, client), ExtractiveGenerator(sample_book.embedder),
                                 label="Gemini")
        return chat_app(generator=generator, rewriter=GeminiRewriter(client), **overrides)
    return make


# --- the breaker on its own ----------------------------------------------------------------------

def test_breaker_opens_after_repeated_failures_and_probes_once_after_the_cool_down():
    clock = Clock()
    breaker = CircuitBreaker(failures_to_open=3, cool_down_s=30, clock=clock)
    for _ in range(2):
        breaker.admit()
        breaker.failed("unreachable")
    assert breaker.state == "closed"
    breaker.admit()
    breaker.failed("unreachable")
    assert breaker.state == "open"
    with pytest.raises(CircuitOpen):
        breaker.admit()
    clock.now += 30
    assert breaker.admit() is True  # the probe
    assert breaker.state == "half-open"
    with pytest.raises(CircuitOpen):
        breaker.admit()  # others wait for the probe
    breaker.failed("unreachable")
    assert breaker.state == "open"
    with pytest.raises(CircuitOpen):
        breaker.admit()
    clock.now += 30
    assert breaker.admit() is True
    breaker.succeeded()
    assert breaker.state == "closed" and breaker.admit() is False


def test_a_probe_that_never_reports_is_given_up_after_a_cool_down():
    clock = Clock()
    breaker = CircuitBreaker(failures_to_open=1, cool_down_s=10, clock=clock)
    breaker.failed("timeout")
    clock.now += 10
    assert breaker.admit() is True  # its reader leaves; nobody says how it went
    clock.now += 5
    with pytest.raises(CircuitOpen):
        breaker.admit()
    clock.now += 5
    assert breaker.admit() is True


def test_a_success_between_failures_starts_the_count_again():
    breaker = CircuitBreaker(failures_to_open=3, clock=Clock())
    for reason in ("timeout", "server_error", None, "timeout", "timeout"):
        breaker.admit()
        breaker.failed(reason) if reason else breaker.succeeded()
    assert breaker.state == "closed"


# --- through the app ---------------------------------------------------------------------------

def test_refused_connection_is_not_retried_and_opens_the_circuit(fake, monkeypatch, caplog, gemini_app):
    caplog.set_level(logging.INFO, logger="textbook_chat")
    closed = FakeGemini()
    closed.close()  # nothing listens on its port any more
    monkeypatch.setenv("GOOGLE_GEMINI_BASE_URL", closed.url)
    clock = Clock()
    client = gemini_app(CircuitBreaker(failures_to_open=3, cool_down_s=30, clock=clock)).test_client()
    reasons = [client.post("/chat", json=QUESTION).get_json()["fallback_reason"] for _ in range(5)]
    assert reasons == ["unreachable"] * 3 + ["circuit_open"] * 2
    assert not [r for r in caplog.records if "failed (unreachable" in r.getMessage()], "a refused connection was retried"
    opened = [r.getMessage() for r in caplog.records if "times in a row" in r.getMessage()]
    assert len(opened) == 1 and "answering with the fallback at once" in opened[0]


def test_after_the_cool_down_one_question_probes_and_a_success_closes_the_circuit(fake, gemini_app):
    clock = Clock()
    client = gemini_app(CircuitBreaker(failures_to_open=2, cool_down_s=30, clock=clock),
                  timeout_s=0.6).test_client()
    fake.script(*[{"status": 503}] * 40)
    first = [client.post("/chat", json=QUESTION).get_json() for _ in range(2)]
    assert [a["fallback_reason"] for a in first] == ["server_error"] * 2
    asked = len(fake.requests)
    opened = client.post("/chat", json=QUESTION).get_json()
    assert opened["fallback_reason"] == "circuit_open" and opened["generator"] == "extractive"
    assert opened["status"] == "completed" and opened["answer"].strip()
    assert len(fake.requests) == asked  # Gemini was not asked
    # a follow-up's rewrite is not sent either while the circuit is open
    follow = client.post("/chat", json={**QUESTION, "session_id": opened["session_id"]}).get_json()
    assert follow["fallback_reason"] == "circuit_open" and len(fake.requests) == asked

    clock.now += 30
    fake.forget_script()  # Gemini is back
    fake.script({"text": "Twice the highest frequency [1]."})
    probe = client.post("/chat", json=QUESTION).get_json()
    assert probe["generator"] == "gemini-test-model" and probe["fallback_reason"] is None
    assert client.post("/chat", json=QUESTION).get_json()["generator"] == "gemini-test-model"


def test_health_is_answered_while_answers_hold_every_thread(fake, gemini_app):
    threads = 4
    fake.script(*[{"stream": ["The Nyquist rate", " is twice [1]."], "hang_after": 1}] * threads)
    app = gemini_app(CircuitBreaker(), timeout_s=60)
    server = make_server(app, "127.0.0.1", 0, threads=threads)
    loop = threading.Thread(target=server.run, daemon=True)
    loop.start()
    port = server.effective_port
    streams = []
    try:
        for _ in range(threads):
            sock = socket.create_connection(("127.0.0.1", port), timeout=30)
            body = json.dumps(QUESTION).encode()
            sock.sendall(b"POST /chat HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Accept: text/event-stream\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
            streams.append(sock)
        for sock in streams:  # every answer has begun: each holds a thread, its model hanging
            received = b""
            while b"event: token" not in received:
                received += sock.recv(4096)
        # a request queued behind the answers would wait the 60 s of GEMINI_TIMEOUT_S
        health = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=10))
        assert health["status"] == "ok"
    finally:
        for sock in streams:
            sock.close()
        fake.close()
        server.trigger.pull_trigger(server._map.clear)
        loop.join(10)
        server.close()
