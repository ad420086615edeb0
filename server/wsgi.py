"""Production WSGI serving.

One process (the default): waitress, with threads. Several processes (`serve --workers N`, not
on Windows): gunicorn forks N workers from the process that loaded everything, so that the
work of answering is not held to one core by Python's interpreter lock. The workers share
what was loaded before the fork (the model's weights, the vocabulary) and open their own
connections and index replica afterwards (Components.after_fork): an embedded index shard
does not survive a fork, so the parent lets go of its own before forking.
"""
from __future__ import annotations

import json
import os
import sys
from typing import Callable

from flask import Flask
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer, create_server
from waitress.task import ErrorTask, ThreadedTaskDispatcher

from .api.body_limit import too_large_json
from .api.errors import error_body


class _JsonErrorTask(ErrorTask):
    """waitress's own refusals (a body over the limit, a malformed request) in our error shape."""

    def execute(self):
        error = self.request.error
        if error.code == 413:  # waitress's limit is one byte over ours (make_server): quote ours
            body = too_large_json(self.channel.adj.max_request_body_size - 1)
        else:
            body = json.dumps(error_body(f"{error.reason}: {error.body}", "VALIDATION_ERROR", {})).encode()
        self.status = f"{error.code} {error.reason}"
        self.response_headers.append(("Content-Type", "application/json"))
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class _Channel(HTTPChannel):
    error_task_class = _JsonErrorTask


QUICK_PATHS = frozenset({"/health"})


class _QuickFirst(ThreadedTaskDispatcher):
    """Health checks get threads of their own, so that a load balancer's probe is answered at
    once even while answers hold every one of the `--threads`."""

    def __init__(self, threads: int, quick_threads: int = 2):
        super().__init__()
        self.set_thread_count(threads)
        self.quick = ThreadedTaskDispatcher()
        self.quick.set_thread_count(quick_threads)

    def add_task(self, task):
        requests = getattr(task, "requests", None)
        if requests and requests[0].path in QUICK_PATHS and not requests[0].error:
            return self.quick.add_task(task)
        return super().add_task(task)

    def shutdown(self, cancel_pending=True, timeout=5):
        self.quick.shutdown(cancel_pending, timeout)
        return super().shutdown(cancel_pending, timeout)


def make_server(app: Flask, host: str = "127.0.0.1", port: int = 8000, threads: int = 8, *,
                max_body_bytes: int = 64 * 1024):
    """waitress; a body over `max_body_bytes` is refused from its Content-Length, never read, and
    /health has threads of its own."""
    sockets: dict = {}
    # channel_request_lookahead lets waitress notice a client that hung up mid-stream
    # (environ["waitress.client_disconnected"]), so SSE generation can stop early.
    server = create_server(app, map=sockets, host=host, port=port, threads=threads, channel_request_lookahead=1,
                           _dispatcher=_QuickFirst(threads),
                           # forwarding headers reach the app, which believes them only from
                           # TRUSTED_PROXIES and drops them otherwise (api/client_address.py)
                           ident="textbook-chat", clear_untrusted_proxy_headers=False,
                           max_request_body_size=max_body_bytes + 1)  # waitress refuses from this size on
    for listener in list(sockets.values()):
        if isinstance(listener, BaseWSGIServer):
            listener.channel_class = _Channel
    return server


def serve_workers(app: Flask, host: str, port: int, *, workers: int, threads: int,
                  after_fork: Callable[[], None], on_ready: Callable[[], None] = lambda: None,
                  on_worker_exit: Callable[[], None] = lambda: None) -> None:
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
                "worker_exit": lambda server, worker: _leave(on_worker_exit),
            }
            for key, value in options.items():
                if key in self.cfg.settings:  # older gunicorn releases lack some settings
                    self.cfg.set(key, value)

        def load(self):
            return app

    Workers().run()


def _leave(cleanup: Callable[[], None]) -> None:
    """End a worker after `cleanup` (its own index replica) without running finalizers: the
    inherited sessions connections and the model's native threads were never the worker's."""
    try:
        cleanup()
    except Exception as exc:  # a worker leaves whatever happens; say why its replica stayed behind
        print(f"worker {os.getpid()}: {exc}", file=sys.stderr)
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    os._exit(0)
