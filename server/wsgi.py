"""The production WSGI server: waitress, threads, one process (local Qdrant allows one)."""
from __future__ import annotations

from flask import Flask
from waitress.server import create_server


def make_server(app: Flask, host: str = "127.0.0.1", port: int = 8000, threads: int = 8):
    # channel_request_lookahead lets waitress notice a client that hung up mid-stream
    # (environ["waitress.client_disconnected"]), so SSE generation can stop early.
    return create_server(app, host=host, port=port, threads=threads, channel_request_lookahead=1,
                         ident="textbook-chat", clear_untrusted_proxy_headers=True)
