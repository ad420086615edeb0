"""Has the reader hung up? Asked between streamed events, so that an answer nobody will read
stops being generated (and its tokens paid for) at once rather than at the next failed write.

Works under both servers `serve` runs: waitress (one process) reports it itself; under
gunicorn (`serve --workers N`) the client's socket is in the environ, and a closed connection
reads as end-of-file without blocking. Any other server: nothing to ask, and generation stops
when a write to the gone client fails and the server closes the response.
"""
from __future__ import annotations

import socket
from typing import Callable

ClientGone = Callable[[], bool]


def client_gone_check(environ: dict) -> ClientGone:
    """A cheap, non-blocking check for this request's client having closed the connection."""
    waitress = environ.get("waitress.client_disconnected")
    if waitress is not None:
        return waitress
    sock = environ.get("gunicorn.socket")
    if isinstance(sock, socket.socket):
        return lambda: _closed(sock)
    return lambda: False


def _closed(sock: socket.socket) -> bool:
    try:
        # MSG_PEEK leaves any bytes (a pipelined request) for the server to read later
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except (BlockingIOError, InterruptedError):
        return False  # open, nothing to read
    except OSError:
        return True  # reset or already closed
