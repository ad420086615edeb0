"""The real WSGI server: streaming over a socket, and a client that hangs up."""
from __future__ import annotations

import json
import socket
import threading
import time

import pytest

from helpers import RecordingGenerator, make_settings
from server.app import create_app
from server.wsgi import make_server


@pytest.fixture
def served(sample_book, tmp_path):
    generator = RecordingGenerator(answer=" ".join(f"word{i}" for i in range(200)) + " [1].", delay_s=0.05)
    settings = make_settings(tmp_path / "data")
    app = create_app(settings, components=sample_book.components(settings, generator))
    server = make_server(app, "127.0.0.1", 0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield app, server.effective_port, generator
    server.close()


def _open_stream(port: int, body: dict) -> socket.socket:
    payload = json.dumps(body).encode()
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(b"POST /chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Accept: text/event-stream\r\nContent-Length: " + str(len(payload)).encode() + b"\r\n\r\n" + payload)
    return sock


def test_stream_over_a_real_socket_and_stop_when_client_leaves(served):
    app, port, generator = served
    sock = _open_stream(port, {"question": "What is the Nyquist rate?"})
    received = b""
    while received.count(b"event: token") < 3:
        received += sock.recv(4096)
    head = received.split(b"\r\n\r\n")[0].lower()
    assert head.startswith(b"http/1.1 200") and b"content-type: text/event-stream" in head
    assert b": stream open" in received and b"event: meta" in received
    session_id = json.loads(received.split(b"event: meta\ndata: ")[1].split(b"\n")[0])["session_id"]
    sock.close()  # the reader closed the tab
    assert generator.cancelled.wait(5), "generation went on after the client left"
    time.sleep(0.3)
    session = app.extensions["textbook_chat"].sessions.get_session(session_id)
    roles = [(m["role"], m["status"]) for m in session["messages"]]
    assert roles[0] == ("user", "received") and roles[1][1] == "cancelled"
    assert len(session["messages"][1]["content"].split()) < 200


def test_keep_alive_comments_while_the_generator_is_quiet(sample_book, tmp_path):
    generator = RecordingGenerator(answer="slow answer [1].", delay_s=0.8)
    settings = make_settings(tmp_path / "data")
    app = create_app(settings, components=sample_book.components(settings, generator), config={"SSE_KEEPALIVE_S": 0.2})
    body = app.test_client().post("/chat", json={"question": "What is the Nyquist rate?"},
                                  headers={"Accept": "text/event-stream"}).get_data(as_text=True)
    assert body.count(": keep-alive") >= 2
    assert body.index("event: meta") < body.index("event: token") < body.index("event: done")
