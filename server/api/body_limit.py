"""Request bodies over MAX_REQUEST_BYTES are refused from their headers, before a byte is parsed.

Two places see a request before its body: the WSGI server (waitress reads a whole body before
it calls the application, so its own limit is set to ours, see server/serving/wsgi.py) and, under
any server, the first thing the app does for a request (`refuse_large_bodies`). Both answer
with the JSON 413 below; the second also before rate limiting, and with CORS headers.
"""
from __future__ import annotations

import json

from flask import Flask, request
from werkzeug.exceptions import RequestEntityTooLarge

from server.api.errors import error_body, too_large_message


def too_large(limit: int) -> dict:
    return error_body(too_large_message(limit), "PAYLOAD_TOO_LARGE", {"limit_bytes": limit})


def too_large_json(limit: int) -> bytes:
    return json.dumps(too_large(limit)).encode()


class BodyTooLarge(RequestEntityTooLarge):
    def __init__(self, limit: int):
        super().__init__()
        self.data = {"details": {"limit_bytes": limit}}


DRAINED = 1 << 20  # a body over the limit but under this is read and dropped before the 413


def refuse_large_bodies(app: Flask, limit: int) -> None:
    """Before any other request hook: a Content-Length over `limit` is 413, its body read and
    dropped first when it is not much over (a proxy still sending it when the server closes the
    connection answers 502 instead of the 413), never parsed."""

    def check() -> None:
        length = request.content_length
        if length is not None and length > limit:
            if length <= DRAINED:
                _drain(request.environ.get("wsgi.input"), length)
            raise BodyTooLarge(limit)

    app.before_request_funcs.setdefault(None, []).insert(0, check)


def _drain(stream, length: int) -> None:
    try:
        while length > 0 and stream is not None and (chunk := stream.read(min(length, 65536))):
            length -= len(chunk)
    except (OSError, ValueError):  # the reader hung up: nothing left to answer
        pass
