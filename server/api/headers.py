"""Headers every response carries, whichever route or error handler made it.

The API answers JSON and event streams that no browser should sniff into something else or
show in a frame; the author's HTML pages run no inline script (PAGE_POLICY); the demo pages
get a policy of their own (server/serving/demo.py). `Retry-After` says
when to come back after a refusal, so it is left on 429 and 503 only (the rate limiter adds it
to every response).
"""
from __future__ import annotations

from flask import Flask, Response

# JSON and event streams: nothing in them may run, load or be framed
API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
# the author's pages: scripts and styles from this server's own files only, no inline script
PAGE_POLICY = ("default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; "
               "frame-ancestors 'none'; form-action 'self'")
RETRY_STATUSES = (429, 503)


def add_security_headers(app: Flask) -> None:
    """Register before the rate limiter: Flask runs later-registered hooks first, so this one
    sees the limiter's headers and can take `Retry-After` off the responses it does not fit."""

    @app.after_request
    def _secure(response: Response) -> Response:
        headers = response.headers
        headers.setdefault("X-Content-Type-Options", "nosniff")
        headers.setdefault("X-Frame-Options", "DENY")
        headers.setdefault("Referrer-Policy", "no-referrer")
        if response.mimetype in ("application/json", "text/event-stream"):
            headers.setdefault("Content-Security-Policy", API_POLICY)
        elif response.mimetype == "text/html":
            headers.setdefault("Content-Security-Policy", PAGE_POLICY)
        if response.status_code not in RETRY_STATUSES:
            headers.pop("Retry-After", None)
        return response
