"""/mcp (MCP_ENABLED): the MCP tools' streamable HTTP transport (mcp_server/http.py), after the
app's own request handling (reader's address, body limit, CORS) and a check of the browser's
Origin against ALLOWED_ORIGINS."""
from __future__ import annotations

from flask import Flask, Response, jsonify, request
from werkzeug.http import is_hop_by_hop_header

from server.composition import Components
from server.mcp_server.http import PATH, StreamableHttp, origin_allowed


def mount_mcp(app: Flask, components: Components) -> None:
    transport = StreamableHttp(components)
    allowed = components.settings.allowed_origins

    def mcp_endpoint():
        origin = request.headers.get("Origin")
        if not origin_allowed(origin, allowed):
            # a JSON-RPC error, so that MCP clients show the reason
            response = jsonify({"jsonrpc": "2.0", "id": None, "error": {
                "code": -32600, "message": f"Origin {origin!r} is not allowed: it is not in ALLOWED_ORIGINS."}})
            response.status_code = 403
            return response
        return Response.force_type(_without_hop_by_hop(transport.wsgi_app()), request.environ)

    # no GET: the transport is stateless and opens no stream a client could listen on, so GET is
    # 405 with `Allow`, as the MCP specification has it
    app.add_url_rule(PATH, "mcp", mcp_endpoint, methods=["POST", "DELETE"])


def _without_hop_by_hop(wsgi_app):
    """The transport's response without the headers that are the WSGI server's to set (the
    ASGI app may send `Connection`, which WSGI forbids an application to)."""

    def app(environ, start_response):
        def start(status, headers, exc_info=None):
            return start_response(status, [(k, v) for k, v in headers if not is_hop_by_hop_header(k)], exc_info)

        return wsgi_app(environ, start)

    return app


def register(app: Flask, api, components: Components) -> None:
    """/mcp, when MCP_ENABLED."""
    if components.settings.mcp_enabled:
        mount_mcp(app, components)
