"""/mcp at its edges: GET is 405 as the MCP specification asks of a server with no stream to
offer, its responses carry the API's security headers, a NUL in an argument is refused naming
the argument, and a conversation its `ask` starts cannot be claimed by whoever asks first."""
from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from apps import make_app
from server.sessions import sessions_table

ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@pytest.fixture
def app(sample_book, tmp_path, database_url):
    return make_app(sample_book, tmp_path / "data", database_url=database_url, mcp_enabled=True)


def _rpc(client, method: str, params: dict | None = None, n: int = 1):
    body = {"jsonrpc": "2.0", "id": n, "method": method, "params": params or {}}
    return client.post("/mcp", data=json.dumps(body), headers=ACCEPT)


def _initialize(client):
    response = _rpc(client, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                           "clientInfo": {"name": "test", "version": "1"}})
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    return response


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_get_is_405_with_allow_and_every_response_has_the_security_headers(app):
    client = app.test_client()
    got = client.get("/mcp", headers={"Accept": "text/event-stream"})
    assert got.status_code == 405 and "POST" in got.headers["Allow"]
    assert got.get_json()["code"] == "METHOD_NOT_ALLOWED"
    answered = _initialize(client)
    for response in (got, answered):
        assert response.headers["X-Frame-Options"] == "DENY"
        assert response.headers["Referrer-Policy"] == "no-referrer"
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert "Connection" not in response.headers


def test_a_nul_in_an_argument_is_refused_naming_it(app):
    client = app.test_client()
    _initialize(client)
    for tool, arguments, named in (("ask", {"question": "what is\x00 aliasing?"}, "question"),
                                   ("ask", {"question": "what is aliasing?", "book_id": "a\x00b"}, "book_id"),
                                   ("search_book", {"query": "x\x00"}, "query"),
                                   ("get_page", {"url_or_path": "/docs/\x00"}, "url_or_path")):
        result = _rpc(client, "tools/call", {"name": tool, "arguments": arguments}, 2).get_json()["result"]
        text = result["content"][0]["text"]
        assert result["isError"] and named in text and "NUL" in text, text


def test_a_conversation_started_by_mcp_ask_cannot_be_claimed(app):
    client = app.test_client()
    _initialize(client)
    result = _rpc(client, "tools/call", {"name": "ask", "arguments": {"question": "What is aliasing?"}}, 2)
    assert not result.get_json()["result"]["isError"]
    with app.extensions["textbook_chat"].sessions.engine.connect() as conn:
        (session_id,) = conn.execute(select(sessions_table.c.id)).scalars().all()
    claimed = app.test_client().post(f"/sessions/{session_id}/secret")
    assert claimed.status_code == 409, claimed.get_json()
    assert app.test_client().get(f"/sessions/{session_id}").status_code == 401
