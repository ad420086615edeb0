"""SessionStore on a real SQLite file and a real PostgreSQL database (`database_url`, from
tests/backing_services.py), under concurrent writers: nothing lost, one order per conversation,
times that follow it, unfinished questions marked INTERRUPTED, deletions during an answer."""
from __future__ import annotations

import threading
from datetime import datetime, timezone

import pytest
from sqlalchemy.exc import IntegrityError

from processes import exit_codes_of_processes
from server.errors import DatabaseUnavailable, SessionNotFound
from server.sessions import Reply, SessionStore, feedback_table, messages_table, queries_table, sessions_table


def test_concurrent_turns_all_land_in_order(database_url):
    store = SessionStore(database_url)
    shared = store.create_session().id
    errors: list[BaseException] = []
    barrier = threading.Barrier(24)

    def ask(i: int) -> None:
        try:
            barrier.wait()
            session_id = shared if i % 2 else None  # half in one session, half each in a new one
            turn = store.open_turn(session_id, f"question {i}", None, "combined")
            store.close_turn(turn.query_id, [("COMPLETED", datetime.now(timezone.utc))], session_id=turn.session_id,
                             user_message_id=turn.user_message_id, user_status="answered",
                             assistant=Reply(f"answer {i}", "completed"))
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(24)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert errors == []
    messages = store.get_session(shared).messages
    assert len(messages) == 24  # 12 questions and 12 answers, none lost
    position = {m.content: i for i, m in enumerate(messages)}
    assert set(position) == {f"{kind} {i}" for i in range(1, 24, 2) for kind in ("question", "answer")}
    # turns overlap, so their order among each other is the database's; within a turn it is fixed
    for i in range(1, 24, 2):
        assert position[f"question {i}"] < position[f"answer {i}"], f"answer {i} is listed before its question"
    assert [m.role for m in messages if m.content in ("question 1", "answer 1")] == ["user", "assistant"]
    times = [m.timestamp for m in messages]
    assert all(earlier <= later for earlier, later in zip(times, times[1:])), "listed out of time order"
    store.close()


def test_a_failing_write_does_not_take_the_writes_committed_with_it(tmp_path):
    store = SessionStore(f"sqlite:///{tmp_path / 'sessions.db'}")
    first, second = store.create_session(), store.create_session()
    turn = store.open_turn(first.id, "kept?", None, "combined")
    works = [
        lambda conn: conn.execute(feedback_table.insert().values(
            id="f1", message_id=turn.user_message_id, rating="up", created_at=datetime.now(timezone.utc))),
        lambda conn: conn.execute(feedback_table.insert().values(  # no such message: a foreign key error
            id="f2", message_id="missing", rating="up", created_at=datetime.now(timezone.utc))),
        lambda conn: conn.execute(sessions_table.delete().where(sessions_table.c.id == second.id)),
    ]
    results = store._commit_together(works)  # as if the three had queued up together
    assert isinstance(results[1], IntegrityError)
    assert not isinstance(results[0], Exception) and not isinstance(results[2], Exception)
    with store.engine.connect() as conn:
        assert [r.id for r in conn.execute(feedback_table.select())] == ["f1"]
    assert store.get_session(second.id) is None and store.get_session(first.id) is not None
    store.close()


def test_closing_the_store_waits_for_a_write_in_progress(tmp_path):
    """A sweep in the background may be writing when the store closes (a health check starts
    one): the close waits for it instead of pulling the file lock from under it."""
    store = SessionStore(f"sqlite:///{tmp_path / 'sessions.db'}")
    inside, release, errors = threading.Event(), threading.Event(), []

    def write() -> None:
        try:
            store._write(lambda conn: (inside.set(), release.wait(10)))
        except BaseException as exc:  # reported below
            errors.append(exc)

    writer, closing = threading.Thread(target=write), threading.Thread(target=store.close)
    writer.start()
    assert inside.wait(10)
    closing.start()
    closing.join(0.3)
    assert closing.is_alive(), "the store closed under a write"
    release.set()
    writer.join(10)
    closing.join(10)
    assert errors == [] and not closing.is_alive()


def _ask_many(url: str, tag: str, count: int) -> None:
    store = SessionStore(url)
    for i in range(count):
        turn = store.open_turn(None, f"{tag} {i}", None, "combined")
        store.close_turn(turn.query_id, [("COMPLETED", datetime.now(timezone.utc))], session_id=turn.session_id,
                         user_message_id=turn.user_message_id, user_status="answered",
                         assistant=Reply(f"answer {i}", "completed"))
    store.close()


def test_processes_writing_one_database_lose_nothing(database_url):
    url = database_url
    assert exit_codes_of_processes(_ask_many, [(url, f"p{n}", 30) for n in range(3)]) == [0, 0, 0]
    store = SessionStore(url)
    with store.engine.connect() as conn:
        questions = [r.content for r in conn.execute(messages_table.select().where(messages_table.c.role == "user"))]
    assert sorted(questions) == sorted(f"p{n} {i}" for n in range(3) for i in range(30))
    store.close()


def _answer_in(url: str, session_id: str, tag: str, count: int) -> None:
    store = SessionStore(url, server=tag)
    for i in range(count):
        turn = store.open_turn(session_id, f"{tag} {i}", None, "combined")
        store.close_turn(turn.query_id, [("COMPLETED", datetime.now(timezone.utc))], session_id=session_id,
                         user_message_id=turn.user_message_id, user_status="answered",
                         assistant=Reply(f"answer {i}", "completed"))
    store.close()


def test_one_conversation_from_several_processes_keeps_one_order_and_its_times_follow_it(database_url):
    store = SessionStore(database_url)
    session_id = store.create_session().id
    writers = [(database_url, session_id, f"p{n}", 15) for n in range(3)]
    assert exit_codes_of_processes(_answer_in, writers) == [0, 0, 0]
    messages = store.get_session(session_id).messages
    assert len(messages) == 90
    times = [m.timestamp for m in messages]
    assert times == sorted(times), "a message is dated before the one it follows"
    store.close()


def test_unfinished_questions_of_a_server_that_stopped_are_interrupted_at_its_start(database_url):
    first, other = SessionStore(database_url, server="host-a:/srv/data"), SessionStore(database_url, server="host-b:/srv/data")
    answered = first.open_turn(None, "answered?", None, "combined")
    first.close_turn(answered.query_id, [("COMPLETED", datetime.now(timezone.utc))], session_id=answered.session_id,
                     user_message_id=answered.user_message_id, user_status="answered",
                     assistant=Reply("yes", "completed"))
    left = first.open_turn(None, "left mid-answer", None, "combined")  # then the server was killed
    first.close()

    assert other.interrupt_unfinished() == 0  # another server's recent question may still be answered
    restarted = SessionStore(database_url, server="host-a:/srv/data")
    assert restarted.interrupt_unfinished() == 1
    assert restarted.interrupt_unfinished() == 0
    query = restarted.get_query(left.query_id)
    assert query.state == "INTERRUPTED" and [s for s, _ in query.states] == ["CREATED", "INTERRUPTED"]
    assert query.states[0][1] <= query.states[1][1] and query.error
    assert [(m.content, m.status) for m in restarted.get_session(left.session_id).messages] == [
        ("left mid-answer", "interrupted")]
    assert restarted.get_query(answered.query_id).state == "COMPLETED"
    restarted.close()
    other.close()


def test_a_session_deleted_during_an_answer_keeps_nothing_of_it(database_url):
    store = SessionStore(database_url)
    session_id = store.create_session().id
    turn = store.open_turn(session_id, "question", None, "combined")
    assert store.delete_session(session_id)
    with pytest.raises(SessionNotFound):
        store.close_turn(turn.query_id, [("COMPLETED", datetime.now(timezone.utc))], session_id=session_id,
                         user_message_id=turn.user_message_id, user_status="answered",
                         assistant=Reply("the answer", "completed"))
    with pytest.raises(SessionNotFound):
        store.open_turn(session_id, "another", None, "combined")
    with store.engine.connect() as conn:
        assert conn.execute(messages_table.select().where(messages_table.c.session_id == session_id)).first() is None
        assert conn.execute(queries_table.select().where(queries_table.c.session_id == session_id)).first() is None
    store.close()


def test_a_question_whose_answer_could_not_be_saved_is_interrupted_once_the_database_is_back(own_postgres):
    store = SessionStore(own_postgres.new_database())
    turn = store.open_turn(None, "saved?", None, "combined")
    own_postgres.halt()
    with pytest.raises(DatabaseUnavailable):
        store.close_turn(turn.query_id, [("COMPLETED", datetime.now(timezone.utc))], session_id=turn.session_id,
                         user_message_id=turn.user_message_id, user_status="answered",
                         assistant=Reply("lost", "completed"))
    own_postgres.start()
    store.create_session()  # the next write that works
    assert store.get_query(turn.query_id).state == "INTERRUPTED"
    assert [(m.content, m.status) for m in store.get_session(turn.session_id).messages] == [
        ("saved?", "interrupted")]
    store.close()
