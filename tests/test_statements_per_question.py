"""What one question costs the sessions database, statement by statement, on SQLite and
PostgreSQL: a streamed question that starts a conversation, and one that continues it. Every
statement here runs for every question a server answers, so one more fails this test."""
from __future__ import annotations

import threading
from collections import Counter

from sqlalchemy import event

from sse import read_sse

QUOTES = '"'
QUESTION = {"question": "What is the Nyquist rate?"}

NEW_SESSION = {  # the conversation, the question and the reader's message in one transaction …
    "INSERT chat_sessions": 1, "INSERT queries": 1, "INSERT chat_messages": 2,
    # … then the conversation locked as its updated_at moves on, the lifecycle read and written
    # with what the insights keep, the reader's message answered, the pages cited, the next number
    "UPDATE chat_sessions": 1, "SELECT queries": 1, "UPDATE queries": 1, "UPDATE chat_messages": 1,
    "INSERT citations": 1, "SELECT chat_messages": 1}
FOLLOW_UP = {  # the reader's secret checked; the history read in the transaction that opens the question
    **NEW_SESSION, "INSERT chat_sessions": 0, "SELECT chat_sessions": 1, "UPDATE chat_sessions": 2,
    "SELECT chat_messages": 2}


def _kind(statement: str) -> str:
    words = statement.split()
    verb = words[0].upper()
    table = words[words.index({"INSERT": "INTO", "SELECT": "FROM", "UPDATE": "UPDATE", "DELETE": "FROM"}[verb]) + 1]
    return f"{verb} {table.strip(QUOTES)}"


def _asked(client, body: dict) -> tuple[Counter, dict]:
    engine = client.application.extensions["textbook_chat"].sessions.engine
    seen: Counter = Counter()

    def count(conn, cursor, statement, parameters, context, executemany):
        seen[_kind(statement)] += 1

    event.listen(engine, "before_cursor_execute", count)
    try:
        events = read_sse(client.post("/chat", json=body, headers={"Accept": "text/event-stream"})
                          .get_data(as_text=True))
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert [name for name, _ in events][-1] == "done", events[-1]
    return seen, events[-1][1]


def test_statements_of_a_new_and_a_follow_up_question(chat_app, database_url):
    client = chat_app(database_url=database_url).test_client()
    _asked(client, QUESTION)  # the first question also starts the background look for abandoned questions
    for thread in threading.enumerate():
        if thread.name == "abandoned-questions":
            thread.join()

    started, done = _asked(client, QUESTION)
    assert done["sources"] and done["session_secret"]
    assert started == Counter(NEW_SESSION), sorted(started.items())
    assert sum(started.values()) == 10

    followed, done = _asked(client, {**QUESTION, "session_id": done["session_id"]})
    assert followed == +Counter(FOLLOW_UP), sorted(followed.items())
    assert sum(followed.values()) == 12
    messages = client.get(f"/sessions/{done['session_id']}").get_json()["messages"]
    assert [(m["role"], m["status"]) for m in messages] == [("user", "answered"), ("assistant", "completed")] * 2
