"""Bodies over MAX_REQUEST_BYTES are refused from their Content-Length, before they are read:
by waitress (which would otherwise spool the whole body to disk first) and by the app under any
server, always as our JSON 413."""
from __future__ import annotations

import json
import socket
import threading

import pytest

from server.serving.wsgi import make_server

LIMIT = 4096
HUGE = 100 * 1024 * 1024


@pytest.fixture
def app(chat_app):
    return chat_app(max_request_bytes=LIMIT)


@pytest.fixture
def port(app):
    server = make_server(app, "127.0.0.1", 0, threads=2, max_body_bytes=LIMIT)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield server.effective_port
    server.trigger.pull_trigger(server._map.clear)  # the loop ends on its own thread, then the sockets close
    thread.join(10)
    server.close()


def _raw_post(port: int, length: int, sent: bytes, path: str = "/chat") -> tuple[str, dict, dict]:
    """Announce `length` bytes, send only `sent`, and read the reply without sending the rest."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     f"Content-Length: {length}\r\n\r\n".encode() + sent)
        reply = b""
        while b"\r\n\r\n" not in reply or len(reply.split(b"\r\n\r\n", 1)[1]) < _length(reply):
            chunk = sock.recv(65536)  # a server waiting for the rest of the body times this out
            if not chunk:
                break
            reply += chunk
    head, body = reply.split(b"\r\n\r\n", 1)
    lines = head.decode().split("\r\n")
    headers = {k.lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
    return lines[0], headers, json.loads(body)


def _length(reply: bytes) -> int:
    for line in reply.split(b"\r\n\r\n", 1)[0].split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value)
    return 1 << 30


def test_waitress_answers_a_huge_content_length_at_once_with_json(port):
    status, headers, body = _raw_post(port, HUGE, b'{"question": "' + b"x" * 1024)
    assert status.startswith("HTTP/1.1 413") and headers["content-type"] == "application/json"
    assert body["code"] == "PAYLOAD_TOO_LARGE" and body["details"] == {"limit_bytes": LIMIT}
    assert body["error"] == f"The request body is larger than the limit of {LIMIT} bytes."  # as set, not waitress's own


def test_waitress_takes_a_body_of_exactly_the_limit(port):
    question = b'{"question": "What is the Nyquist rate?", "metadata": {"page_title": "'
    padding = LIMIT - len(question) - 3
    body = question + b"p" * padding + b'"}}'
    assert len(body) == LIMIT
    status, _, answer = _raw_post(port, LIMIT, body)
    assert status.startswith("HTTP/1.1 400") and "page_title" in answer["details"]["metadata"]  # read and validated


class _Unreadable:
    """A request body that must not be read."""

    def read(self, *args):
        raise AssertionError("the body was read")

    readline = read


@pytest.mark.parametrize("path", ["/chat", "/sessions", "/feedback", "/health"])
def test_the_app_refuses_from_the_headers_under_any_server(app, path):
    response = app.test_client().post(path, environ_overrides={
        "CONTENT_LENGTH": str(HUGE), "CONTENT_TYPE": "application/json", "wsgi.input": _Unreadable()},
        headers={"Origin": "http://localhost:3000"})
    assert response.status_code == 413
    assert response.get_json() == {"error": f"The request body is larger than the limit of {LIMIT} bytes.", "code": "PAYLOAD_TOO_LARGE",
                                   "details": {"limit_bytes": LIMIT}}
    assert response.headers["Access-Control-Allow-Origin"] == "http://localhost:3000"  # the widget can read it


def test_a_body_a_little_over_the_limit_is_read_and_dropped_before_the_413(app):
    """A proxy still sending a body the server did not read sees its connection reset (nginx then
    answers 502, not our 413): a body up to a megabyte is read to its end first, and never parsed."""
    import io

    body = b'{"question": "' + b"x" * (LIMIT + 100) + b'"}'
    stream = io.BytesIO(body)
    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/chat", "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "80",
               "wsgi.url_scheme": "http", "wsgi.input": stream, "CONTENT_TYPE": "application/json",
               "CONTENT_LENGTH": str(len(body)), "wsgi.errors": io.StringIO(), "REMOTE_ADDR": "127.0.0.1"}
    statuses = []
    reply = b"".join(app(environ, lambda status, headers, *_: statuses.append(status)))
    assert statuses[0].startswith("413") and json.loads(reply)["code"] == "PAYLOAD_TOO_LARGE"
    assert stream.tell() == len(body)
