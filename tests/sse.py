"""Reading the answer stream: Server-Sent Events bodies, and /chat over a plain socket (so a
test can hang up mid-answer)."""
from __future__ import annotations

import json
import socket
from typing import Callable


def read_sse(body: str | bytes) -> list[tuple[str, dict]]:
    """The (event name, data) pairs of a Server-Sent Events body, comments (keep-alives) left out."""
    if isinstance(body, bytes):
        body = body.decode()
    events = []
    for block in body.replace("\r\n", "\n").split("\n\n"):
        lines = [line for line in block.split("\n") if line and not line.startswith(":")]
        if not lines:
            continue
        name = next(line[7:] for line in lines if line.startswith("event: "))
        data = "\n".join(line[6:] for line in lines if line.startswith("data: "))
        events.append((name, json.loads(data)))
    return events


def sse_done(body: str | bytes) -> dict:
    """The data of the stream's `done` event (the whole answer)."""
    (done,) = [data for name, data in read_sse(body) if name == "done"]
    return done


def open_chat_stream(port: int, body: dict, timeout_s: float = 30.0) -> socket.socket:
    """POST /chat asking for an event stream, over a plain socket (so the test can hang up)."""
    payload = json.dumps(body).encode()
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout_s)
    sock.sendall(b"POST /chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Accept: text/event-stream\r\nContent-Length: " + str(len(payload)).encode() + b"\r\n\r\n" + payload)
    return sock


def read_until(sock: socket.socket, enough: Callable[[bytes], bool]) -> bytes:
    """Bytes from `sock` until `enough(received)`; fails if the server closes the connection
    first (and the socket's timeout bounds a server that goes quiet)."""
    received = b""
    while not enough(received):
        chunk = sock.recv(4096)
        if not chunk:
            raise AssertionError(f"the server closed the connection early after: {received[-500:]!r}")
        received += chunk
    return received


def stream_session_id(received: bytes) -> str:
    """The session id in a stream's `meta` event."""
    return json.loads(received.split(b"event: meta\ndata: ")[1].split(b"\n")[0])["session_id"]
