"""Hostile and odd request bodies: each is a 400 VALIDATION_ERROR that says why, never a 500,
over JSON and over SSE; and what the schema allows, the server takes."""
from __future__ import annotations

import json

import pytest

from server.api.parser import MAX_DEPTH, UnsafeJson, parse_body

SURROGATE = "\\ud800"  # as a client writes it in JSON text: a lone high surrogate


@pytest.fixture
def client(chat_app):
    return chat_app().test_client()


def _post(client, path: str, text: str, stream: bool = False):
    headers = {"Accept": "text/event-stream"} if stream else {}
    return client.post(path, data=text.encode(), content_type="application/json", headers=headers)


def _is_validation_error(response, words: str) -> None:
    assert response.status_code == 400, response.get_data(as_text=True)[:300]
    body = response.get_json()
    assert body["code"] == "VALIDATION_ERROR" and isinstance(body["details"], dict)
    assert words in json.dumps(body["details"]), body


CHAT_FIELDS = [
    '{"question": "what is %s?"}',
    '{"question": "ok?", "selected_text": "a passage %s"}',
    '{"question": "ok?", "filters": {"book_id": "%s"}}',
    '{"question": "ok?", "session_id": "%s"}',
    '{"question": "ok?", "metadata": {"page_url": "%s"}}',
    '{"question": "ok?", "%s": 1}',
]


@pytest.mark.parametrize("template", CHAT_FIELDS)
@pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])
def test_lone_surrogates_in_chat_fields(client, template, stream):
    _is_validation_error(_post(client, "/chat", template % SURROGATE, stream), "lone surrogate")


@pytest.mark.parametrize("path, text", [
    ("/sessions", '{"user_id": "%s"}' % SURROGATE),
    ("/sessions", '{"book_id": "%s"}' % SURROGATE),
    ("/feedback", '{"message_id": "%s", "rating": "up"}' % SURROGATE),
    ("/feedback", '{"message_id": "m", "rating": "up", "comment": "%s"}' % SURROGATE),
])
def test_lone_surrogates_in_session_and_feedback_fields(client, path, text):
    _is_validation_error(_post(client, path, text), "lone surrogate")


@pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])
def test_body_nested_a_thousand_deep(client, stream):
    text = '{"question": "ok?", "filters": ' + "[" * 1000 + "]" * 1000 + "}"
    _is_validation_error(_post(client, "/chat", text, stream), "nested 1001 levels")


@pytest.mark.parametrize("number", ["9" * 5000, "1e999", "NaN", "-Infinity", "0." + "1" * 5000])
def test_numbers_the_server_cannot_hold(client, number):
    _is_validation_error(_post(client, "/chat", '{"question": "ok?", "max_chunks": %s}' % number), "number")


@pytest.mark.parametrize("text", ["{not json", '{"question": "ok?"', b'{"question": "\xff"}'.decode("latin-1")])
def test_broken_json_is_a_validation_error_too(client, text):
    body = text.encode("latin-1")
    response = client.post("/chat", data=body, content_type="application/json")
    _is_validation_error(response, "not valid JSON")


def test_what_the_parser_lets_through():
    nested = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert parse_body(nested) is not None  # as deep as allowed
    assert parse_body('{"a": "[[[[ {{ inside a string is text", "b": "\\"["}')["b"] == '"['
    assert parse_body('{"text": "\\ud83d\\ude00 a pair is a character"}')["text"].startswith("\U0001F600")
    assert parse_body('{"n": 12345678901234567890, "x": 0.25}') == {"n": 12345678901234567890, "x": 0.25}
    with pytest.raises(UnsafeJson, match="nested"):
        parse_body("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    with pytest.raises(UnsafeJson, match=r"filters\.book_id"):
        parse_body('{"filters": {"book_id": "\\udfff"}}')


def test_no_break_space_selection_is_no_selection(client):
    """The schema allows any string up to 8000 characters; white space alone selects nothing."""
    response = client.post("/chat", json={"question": "What is the Nyquist rate?", "selected_text": "\u00a0"})
    assert response.status_code == 200 and response.get_json()["mode"] != "selection_exclusive"


def test_session_without_a_body_as_documented(client):
    spec = client.get("/openapi.json").get_json()
    assert spec["paths"]["/sessions"]["post"]["requestBody"].get("required", False) is False
    assert client.post("/sessions").status_code == 201
    assert client.post("/sessions", data="", content_type="application/json").status_code == 201


def test_every_error_response_is_documented_with_the_real_shape(client):
    spec = client.get("/openapi.json").get_json()
    shape = spec["components"]["schemas"]["ErrorResponse"]
    assert set(shape["required"]) == {"error", "code", "details"} and shape["properties"]["details"]["type"] == "object"
    responses = spec["components"].get("responses", {})
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":
                continue
            for status, response in operation["responses"].items():
                if status.startswith("2") or status == "503" and path == "/health":
                    continue
                response = responses[response["$ref"].rsplit("/", 1)[1]] if "$ref" in response else response
                schema = response["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/ErrorResponse"}, (method, path, status)


def test_errors_always_carry_details_and_405_says_what_is_allowed(client):
    for response in (client.get("/nowhere"), client.get("/chat"), client.put("/sessions/abc")):
        assert set(response.get_json()) == {"error", "code", "details"}
    not_allowed = client.get("/chat")
    assert not_allowed.status_code == 405 and "POST" in not_allowed.headers["Allow"]
    assert set(client.delete("/feedback").headers["Allow"].split(", ")) >= {"POST"}
