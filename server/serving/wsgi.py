"""Production HTTP serving: waitress, in one process or in each of `serve --workers N` (workers.py).

waitress reads a whole request (headers and body, up to its limits) on its event loop before
a thread sees it, so a slow or idle client costs a socket, not one of the `--threads`. What
it does not bound on its own, this module does:
- how long a request may take to arrive: a client that sends its headers or body a byte at a
  time is cut off after `read_timeout_s` (waitress only closes connections that go quiet);
- how many connections are held: `connection_limit` per process, watched with poll(), which
  unlike select() is not limited to 1024 descriptors; and of those, at most
  `connections_per_address` from one address (a trusted proxy's excepted), so that one client
  cannot fill them all and hold up everyone else: a connection over it is answered 503 and closed;
- what a refusal looks like: waitress's own errors (malformed request, body too large,
  unsupported transfer coding) leave in the API's {error, code, details} shape;
- /health gets threads of its own, so a load balancer's probe is answered at once even
  while answers hold every one of the `--threads`.
"""
from __future__ import annotations

import json
import socket
import time

from flask import Flask
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import BaseWSGIServer, create_server
from waitress.task import ErrorTask, ThreadedTaskDispatcher

from server.api.body_limit import too_large_json
from server.api.client_address import in_networks, parse_networks
from server.api.errors import error_body
from server.api.headers import API_POLICY

QUICK_PATHS = frozenset({"/health"})
FRAMING_FACTOR = 8  # a chunked body may take this many times MAX_REQUEST_BYTES on the wire
_CODES = {413: "PAYLOAD_TOO_LARGE", 431: "HEADERS_TOO_LARGE", 501: "NOT_IMPLEMENTED", 500: "INTERNAL"}


class _JsonErrorTask(ErrorTask):
    """waitress's own refusals (a body over the limit, a malformed request) in our error shape."""

    def execute(self):
        error = self.request.error
        if error.code == 413:  # waitress's limit is one byte over ours (make_server): quote ours
            body = too_large_json(self.channel.adj.max_request_body_size - 1)
        else:
            body = json.dumps(error_body(f"{error.reason}: {error.body}", _CODES.get(error.code, "VALIDATION_ERROR"))).encode()
        self.status = f"{error.code} {error.reason}"
        self.response_headers.extend([("Content-Type", "application/json"), ("X-Content-Type-Options", "nosniff"),
                                      ("Content-Security-Policy", API_POLICY)])
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class _Parser(HTTPRequestParser):
    """A chunked body counted against the limit by its own bytes, not its framing: a 12 kB body
    sent in 1-byte chunks is 72 kB on the wire. The framing is bounded too (FRAMING_FACTOR times
    the limit), and a request that takes too long to arrive is cut off anyway (below)."""

    _on_the_wire = 0

    @property
    def body_bytes_received(self) -> int:
        if self.chunked and self.body_rcv is not None and \
                self._on_the_wire < FRAMING_FACTOR * self.adj.max_request_body_size:
            return len(self.body_rcv)  # the body as decoded so far
        return self._on_the_wire

    @body_bytes_received.setter
    def body_bytes_received(self, value: int) -> None:
        self._on_the_wire = value


class _Channel(HTTPChannel):
    """A connection that knows since when its current request has been arriving."""

    error_task_class = _JsonErrorTask
    parser_class = _Parser
    reading_since: float | None = None

    def received(self, data):
        before = self.request
        result = super().received(data)
        if self.request is None:
            self.reading_since = None
        elif self.request is not before or self.reading_since is None:
            self.reading_since = time.monotonic()
        return result


_BUSY = json.dumps(error_body("Too many connections from this address; retry shortly.", "RATE_LIMITED")).encode()
TOO_MANY_CONNECTIONS = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 5\r\n"
                        b"Connection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(_BUSY), _BUSY))


def _admit_per_address(server: BaseWSGIServer, limit: int, exempt: tuple[str, ...]) -> None:
    """Make the listener's new connections through a check of how many its address already holds."""
    networks = parse_networks(exempt)
    make_channel = server.channel_class

    def admitted(srv, conn: socket.socket, addr, adj, map=None):
        host = addr[0] if isinstance(addr, tuple) else None
        if host is not None and not in_networks(host, networks):
            held = sum(1 for d in srv._map.values() if isinstance(d, HTTPChannel) and d.addr and d.addr[0] == host)
            if held >= limit:
                try:
                    conn.setblocking(False)
                    conn.send(TOO_MANY_CONNECTIONS)  # a fresh socket's buffer takes it whole
                except OSError:
                    pass
                conn.close()
                return None
        return make_channel(srv, conn, addr, adj, map=map)

    server.channel_class = admitted


def _cut_off_slow_requests(server: BaseWSGIServer, read_timeout_s: float) -> None:
    """Add to `server`'s periodic maintenance (which closes idle connections) the closing of
    connections whose request has been arriving for longer than `read_timeout_s`."""
    idle_maintenance = server.maintenance

    def maintenance(now):
        idle_maintenance(now)
        cutoff = time.monotonic() - read_timeout_s
        for channel in list(server.active_channels.values()):
            since = getattr(channel, "reading_since", None)
            if since is not None and since < cutoff and not channel.requests:
                channel.will_close = True

    server.maintenance = maintenance


class _QuickFirst(ThreadedTaskDispatcher):
    """Health checks get threads of their own."""

    def __init__(self, threads: int, quick_threads: int = 2):
        super().__init__()
        self.set_thread_count(threads)
        self.quick = ThreadedTaskDispatcher()
        self.quick.set_thread_count(quick_threads)

    def add_task(self, task):
        requests = getattr(task, "requests", None)
        # a malformed request has an error and perhaps no path: it goes the ordinary way
        if requests and not requests[0].error and getattr(requests[0], "path", None) in QUICK_PATHS:
            return self.quick.add_task(task)
        return super().add_task(task)

    def shutdown(self, cancel_pending=True, timeout=5):
        self.quick.shutdown(cancel_pending, timeout)
        return super().shutdown(cancel_pending, timeout)


def make_server(app: Flask, host: str = "127.0.0.1", port: int = 8000, threads: int = 8, *,
                max_body_bytes: int = 64 * 1024, read_timeout_s: float = 10.0, connection_limit: int = 1000,
                connections_per_address: int | None = None, trusted_proxies: tuple[str, ...] = (),
                sockets: list | None = None):
    """waitress on `host`:`port` (or on already listening `sockets`, as a forked worker has)."""
    where = {"sockets": sockets} if sockets else {"host": host, "port": port}
    dispatchers: dict = {}
    server = create_server(app, map=dispatchers, threads=threads, _dispatcher=_QuickFirst(threads), **where,
                           # lets waitress notice a client that hung up mid-stream
                           # (environ["waitress.client_disconnected"]), so SSE generation can stop early
                           channel_request_lookahead=1,
                           # forwarding headers reach the app, which believes them only from
                           # TRUSTED_PROXIES and drops them otherwise (api/client_address.py)
                           ident="textbook-chat", clear_untrusted_proxy_headers=False,
                           max_request_body_size=max_body_bytes + 1,  # waitress refuses from this size on
                           connection_limit=connection_limit, asyncore_use_poll=True,
                           # idle connections go after a minute; the maintenance that closes them
                           # (and slow requests) runs every second
                           channel_timeout=60, cleanup_interval=1)
    per_address = min(connections_per_address or connection_limit, max(1, connection_limit // 2))
    for listener in [d for d in dispatchers.values() if isinstance(d, BaseWSGIServer)]:
        listener.channel_class = _Channel
        _admit_per_address(listener, per_address, trusted_proxies)
        _cut_off_slow_requests(listener, read_timeout_s)
    return server
