"""The real WSGI server: streaming over a socket, and a client that hangs up."""
from __future__ import annotations

import threading

import pytest

from fakes import RecordingGenerator
from processes import wait_until
from sse import open_chat_stream, read_until, stream_session_id
from server.serving.wsgi import make_server


@pytest.fixture
def served(chat_app):
    generator = RecordingGenerator(answer=" ".join(f"word{i}" for i in range(200)) + " [1].", delay_s=0.05)
    app = chat_app(generator=generator)
    server = make_server(app, "127.0.0.1", 0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield app, server.effective_port, generator
    server.close()


def test_stream_over_a_real_socket_and_stop_when_client_leaves(served):
    app, port, generator = served
    sock = open_chat_stream(port, {"question": "What is the Nyquist rate?"})
    received = read_until(sock, lambda got: got.count(b"event: token") >= 3)
    head = received.split(b"\r\n\r\n")[0].lower()
    assert head.startswith(b"http/1.1 200") and b"content-type: text/event-stream" in head
    assert b": stream open" in received and b"event: meta" in received
    session_id = stream_session_id(received)
    sock.close()  # the reader closed the tab
    assert generator.cancelled.wait(30), "generation went on after the client left"
    sessions = app.extensions["textbook_chat"].sessions

    def answer_recorded():
        messages = sessions.get_session(session_id).messages
        return messages if len(messages) == 2 and messages[1].status != "streaming" else None

    messages = wait_until(answer_recorded, what="the cancelled answer to be recorded")
    assert messages[0].role == "user" and messages[0].status == "received"
    assert messages[1].role == "assistant" and messages[1].status == "cancelled"
    assert 0 < len(messages[1].content.split()) < 200


def test_keep_alive_comments_while_the_generator_is_quiet(chat_app):
    generator = RecordingGenerator(answer="slow answer [1].", delay_s=0.8)
    app = chat_app(generator=generator, config={"SSE_KEEPALIVE_S": 0.2})
    body = app.test_client().post("/chat", json={"question": "What is the Nyquist rate?"},
                                  headers={"Accept": "text/event-stream"}).get_data(as_text=True)
    assert body.count(": keep-alive") >= 2
    assert body.index("event: meta") < body.index("event: token") < body.index("event: done")


def test_a_closed_connection_is_noticed_under_any_server():
    import socket

    from server.api.disconnect import client_gone_check

    waitress_says = iter([False, True])
    assert client_gone_check({"waitress.client_disconnected": lambda: next(waitress_says)})() is False
    # gunicorn (serve --workers) hands the application the client's socket
    ours, reader = socket.socketpair()
    with ours, reader:
        gone = client_gone_check({"gunicorn.socket": ours})
        assert gone() is False  # open, nothing sent
        reader.sendall(b"GET / HTTP/1.1\r\n\r\n")  # a pipelined request is not a hang-up
        assert gone() is False and ours.recv(64, socket.MSG_PEEK).startswith(b"GET")
        reader.close()
        assert gone() is False  # its unread request is still there to read
        ours.recv(64)
        assert gone() is True
    assert client_gone_check({})() is False  # a server that offers neither: writes fail instead


def test_a_reader_leaving_while_the_answer_is_quiet_ends_the_stream_before_any_keep_alive():
    from server.api.sse import sse_stream

    resume, closed = threading.Event(), threading.Event()

    def quiet_producer():
        try:
            resume.wait(60)  # the model thinks for a long time
            yield "event: token\ndata: {}\n\n"
            yield "event: token\ndata: {}\n\n"
        finally:
            closed.set()

    gone = threading.Event()
    stream = sse_stream(quiet_producer(), keepalive_s=600, client_gone=gone.is_set, check_s=0.05)
    assert next(stream) == ": stream open\n\n"
    gone.set()  # the reader hangs up while nothing is being sent
    rest: list[str] = []
    reader = threading.Thread(target=lambda: rest.extend(stream), daemon=True)
    reader.start()
    reader.join(30)  # far below the 600 s keep-alive: only the check while quiet ends it
    assert not reader.is_alive() and rest == []
    resume.set()  # the model's next words find the producer abandoned, and it is closed
    assert closed.wait(30)
