"""/mcp on `serve` when MCP_ENABLED: the SDK's streamable HTTP transport beside the Flask API,
in the same process and port (the route is api/mcp.py).

The transport is an ASGI app; the API is served by WSGI servers (waitress threads, or
gunicorn's forked workers). The transport runs stateless and answers in JSON: each POST is
one whole exchange, so any thread of any worker can take any request, nothing is kept
between requests, and a client needs no sticky session. Each serving process starts the
transport's event loop on a thread of its own at its first /mcp request (after any fork),
and Flask hands the request to it through a2wsgi's ASGI-to-WSGI bridge.

Before that, Flask has done what it does for every request: the reader's address
(TRUSTED_PROXIES), the body limit (MAX_REQUEST_BYTES) and CORS; here the `Origin` a browser
sends is checked against ALLOWED_ORIGINS (the MCP specification asks servers to).
"""
from __future__ import annotations

import asyncio
import os
import threading

from server.composition import Components

PATH = "/mcp"


class StreamableHttp:
    def __init__(self, components: Components):
        self.components = components
        self._lock = threading.Lock()
        self._wsgi = None
        self._pid: int | None = None

    def wsgi_app(self):
        with self._lock:
            if self._wsgi is None or self._pid != os.getpid():  # a forked worker starts its own
                self._wsgi, self._pid = self._start(), os.getpid()
            return self._wsgi

    def _start(self):
        from a2wsgi import ASGIMiddleware
        from mcp.server.transport_security import TransportSecuritySettings

        from server.mcp_server.server import build_server

        server = build_server(self.components)
        asgi = server.streamable_http_app(
            streamable_http_path=PATH, stateless_http=True, json_response=True,
            max_request_body_size=self.components.settings.max_request_bytes,
            # the Origin is checked here against ALLOWED_ORIGINS; the Host is the deployment's business
            transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False))
        loop = asyncio.new_event_loop()
        threading.Thread(target=loop.run_forever, name="mcp-http", daemon=True).start()
        running = threading.Event()

        async def serve() -> None:
            async with server.session_manager.run():  # what the ASGI lifespan would do
                running.set()
                await asyncio.Event().wait()

        asyncio.run_coroutine_threadsafe(serve(), loop)
        if not running.wait(30):
            raise RuntimeError("the MCP transport did not start")
        return ASGIMiddleware(asgi, loop=loop)


def origin_allowed(origin: str | None, allowed: tuple[str, ...]) -> bool:
    """No Origin (not a browser) is allowed; a browser's must be one of ALLOWED_ORIGINS."""
    return not origin or "*" in allowed or origin.rstrip("/") in allowed
