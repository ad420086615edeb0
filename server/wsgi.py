"""Production WSGI serving.

One process (the default): waitress, with threads. Several processes (`serve --workers N`, not
on Windows): gunicorn forks N workers from the process that loaded everything, so that the
work of answering is not held to one core by Python's interpreter lock. The workers share
what was loaded before the fork (the local index in memory, the model's weights) and open
their own connections afterwards (Components.after_fork). The local index only allows its
loading process, so only that process ever closes it.
"""
from __future__ import annotations

import os
import sys
from typing import Callable

from flask import Flask
from waitress.server import create_server


def make_server(app: Flask, host: str = "127.0.0.1", port: int = 8000, threads: int = 8):
    # channel_request_lookahead lets waitress notice a client that hung up mid-stream
    # (environ["waitress.client_disconnected"]), so SSE generation can stop early.
    return create_server(app, host=host, port=port, threads=threads, channel_request_lookahead=1,
                         ident="textbook-chat", clear_untrusted_proxy_headers=True)


def serve_workers(app: Flask, host: str, port: int, *, workers: int, threads: int,
                  after_fork: Callable[[], None], on_ready: Callable[[], None] = lambda: None) -> None:
    """Run `workers` forked processes of `threads` threads each until stopped (SIGINT/SIGTERM)."""
    from gunicorn.app.base import BaseApplication

    class Workers(BaseApplication):
        def load_config(self):
            options = {
                "bind": [f"[{host}]:{port}" if ":" in host else f"{host}:{port}"],
                "workers": workers, "worker_class": "gthread", "threads": threads,
                "proc_name": "textbook-chat",
                # a stream can outlast gunicorn's defaults; a stopped server waits for answers in flight
                "timeout": 120, "graceful_timeout": 30, "keepalive": 5,
                "control_socket_disable": True,
                "post_fork": lambda server, worker: after_fork(),
                "when_ready": lambda server: on_ready(),
                "worker_exit": lambda server, worker: _leave(),
            }
            for key, value in options.items():
                if key in self.cfg.settings:  # older gunicorn releases lack some settings
                    self.cfg.set(key, value)

        def load(self):
            return app

    Workers().run()


def _leave() -> None:
    """End a worker without running finalizers: closing the inherited local index would release
    the folder lock its parent still holds, and the model's native threads were never the
    worker's to join."""
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    os._exit(0)
