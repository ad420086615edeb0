"""Text no database can store (the NUL character, lone surrogates) is the reader's mistake:
400 naming the field, the same on SQLite and PostgreSQL, never an outage; and what the
documented schema calls white space is what the server trims."""
from __future__ import annotations

import re

import pytest


QUESTION = "What is the Nyquist rate?"


@pytest.fixture
def client(chat_app, database_url):
    return chat_app(database_url=database_url).test_client()


def _names(response, field: str) -> None:
    assert response.status_code == 400, response.get_data(as_text=True)
    body = response.get_json()
    assert body["code"] == "VALIDATION_ERROR" and field in body["details"], body
    assert "NUL" in " ".join(body["details"][field])


def test_a_nul_character_anywhere_is_a_400_naming_the_field(client):
    answer = client.post("/chat", json={"question": QUESTION}).get_json()
    _names(client.post("/chat", json={"question": "a\u0000b"}), "question")
    _names(client.post("/chat", json={"question": QUESTION, "session_id": "a\u0000b"}), "session_id")
    _names(client.post("/chat", json={"question": QUESTION, "filters": {"book_id": "\u0000"}}), "filters.book_id")
    _names(client.post("/chat", headers={"Accept": "text/event-stream"},
                       data='{"question": "a\\u0000b"}'.encode(), content_type="application/json"), "question")
    _names(client.post("/sessions", json={"user_id": "a\u0000"}), "user_id")
    _names(client.post("/feedback", json={"message_id": answer["assistant_message_id"], "rating": "up",
                                          "comment": "nice\u0000"}), "comment")
    _names(client.post("/feedback", json={"message_id": "m\u0000", "rating": "up"}), "message_id")
    _names(client.get("/sessions/a%00b"), "session_id")
    _names(client.delete("/sessions/a%00b"), "session_id")
    assert client.get("/health").get_json()["failing"] == []  # nothing was taken for an outage


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("text", ["\u001c", "\u001f\u001e", "\u0085", "\ufeff", " \u3000 "])
def test_white_space_alone_is_refused_as_the_schema_says(client, text):
    pattern = client.get("/openapi.json").get_json()["components"]["schemas"]["Query"]["properties"]["question"]["pattern"]
    assert re.search(pattern, text) is None  # the documented rule: nothing but white space
    response = client.post("/chat", json={"question": text})
    assert response.status_code == 400 and "question" in response.get_json()["details"]
    assert client.post("/chat", json={"question": f"{text}Nyquist?{text}"}).get_json()["query"] == "Nyquist?"
