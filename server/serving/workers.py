"""`serve --workers N`: N forked processes, so that answering is not held to one core by
Python's interpreter lock.

gunicorn's master does what it is good at: forking the workers from the process that loaded
everything (they share the model's weights and the vocabulary), replacing one that dies, and
stopping them all on SIGTERM. Each worker serves HTTP with waitress (wsgi.py), exactly as the
single-process server does, so both read requests, limit bodies, refuse malformed ones and
keep /health apart the same way (gunicorn's own request handling would let a slow client hold
a thread, and answers its refusals in HTML).

A worker stops taking connections as soon as its master is gone (a killed master cannot stop
it) and ends when the answers in flight are written. Workers open their own database
connections and index replica (Components.after_fork); the master holds none when it forks.
"""
from __future__ import annotations

import os
import sys
import time
from typing import Callable

from flask import Flask
from gunicorn.workers.base import Worker
from waitress import wasyncore
from waitress.server import BaseWSGIServer

from server.serving.wsgi import make_server

CHECK_S = 0.5  # how often a worker looks for its master and tells it it is alive


class _WaitressWorker(Worker):
    """A gunicorn worker process serving with waitress on the master's listening sockets."""

    options: dict = {}  # make_server's, set by serve_workers

    def run(self) -> None:
        server = make_server(self.wsgi, threads=self.cfg.threads, sockets=[s.sock for s in self.sockets],
                             **self.options)
        dispatchers = server._map if hasattr(server, "_map") else server.map

        def serving() -> bool:
            return self.alive and os.getppid() == self.ppid

        while serving():
            self.notify()
            _loop(server, dispatchers, CHECK_S)
        # no new connections; the requests already read are answered and recorded first
        for listener in [d for d in dispatchers.values() if isinstance(d, BaseWSGIServer)]:
            listener.accepting = False
            wasyncore.dispatcher.close(listener)  # its socket only: the trigger still wakes the loop
        deadline = time.monotonic() + self.cfg.graceful_timeout
        while _busy(dispatchers) and time.monotonic() < deadline:
            if os.getppid() == self.ppid:
                self.notify()
            _loop(server, dispatchers, 0.1)
        server.task_dispatcher.shutdown(cancel_pending=True, timeout=1)


def _loop(server, dispatchers: dict, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        server.asyncore.loop(timeout=min(0.1, seconds), map=dispatchers, use_poll=True, count=1)


def _busy(dispatchers: dict) -> bool:
    """Whether a connection has a request being answered or an answer still to send."""
    return any(getattr(d, "requests", None) or getattr(d, "total_outbufs_len", 0) for d in dispatchers.values())


def serve_workers(app: Flask, host: str, port: int, *, workers: int, threads: int,
                  after_fork: Callable[[], None], on_ready: Callable[[], None] = lambda: None,
                  on_worker_exit: Callable[[], None] = lambda: None, **server_options) -> None:
    """Run `workers` forked processes of `threads` threads each until stopped (SIGINT/SIGTERM)."""
    from gunicorn.app.base import BaseApplication

    worker_class = type("Worker", (_WaitressWorker,), {"options": server_options})

    class Workers(BaseApplication):
        def load_config(self):
            options = {
                "bind": [f"[{host}]:{port}" if ":" in host else f"{host}:{port}"],
                "workers": workers, "worker_class": worker_class, "threads": threads,
                "proc_name": "textbook-chat",
                # a worker that stops telling its master it is alive for this long is replaced;
                # a stopped server waits this long for answers in flight
                "timeout": 120, "graceful_timeout": 30,
                "control_socket_disable": True,
                # not post_fork: until the worker has its own signal handlers (set after
                # post_fork) a SIGTERM goes to the master's, copied, and the worker stays
                "post_worker_init": lambda worker: after_fork(),
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
    """End a worker after `cleanup` (its own index replica and connections) without running
    finalizers: the model's native threads were never the worker's."""
    try:
        cleanup()
    except Exception as exc:  # a worker leaves whatever happens; say why its replica stayed behind
        print(f"worker {os.getpid()}: {exc}", file=sys.stderr)
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    os._exit(0)
