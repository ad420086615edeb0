"""SessionStore on a real SQLite file under concurrent writers."""
from __future__ import annotations

import multiprocessing
import threading
from datetime import datetime, timezone

from sqlalchemy.exc import IntegrityError

from server.sessions import SessionStore, feedback_table, messages_table, sessions_table


def test_concurrent_turns_all_land_in_order(tmp_path):
    store = SessionStore(f"sqlite:///{tmp_path / 'sessions.db'}")
    shared = store.create_session()["id"]
    errors: list[BaseException] = []
    barrier = threading.Barrier(24)

    def ask(i: int) -> None:
        try:
            barrier.wait()
            session_id = shared if i % 2 else None  # half in one session, half each in a new one
            turn = store.open_turn(session_id, f"question {i}", None, "combined")
            store.close_turn(turn["query_id"], [["COMPLETED", "t"]], session_id=turn["session_id"],
                             user_message_id=turn["user_message_id"], user_status="answered",
                             assistant={"content": f"answer {i}", "status": "completed"})
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(24)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert errors == []
    messages = store.get_session(shared)["messages"]
    assert len(messages) == 24  # 12 questions and 12 answers, none lost
    assert sorted(m["content"] for m in messages if m["role"] == "user") == sorted(
        f"question {i}" for i in range(1, 24, 2))
    store.close()


def test_a_failing_write_does_not_take_the_writes_committed_with_it(tmp_path):
    store = SessionStore(f"sqlite:///{tmp_path / 'sessions.db'}")
    first, second = store.create_session(), store.create_session()
    turn = store.open_turn(first["id"], "kept?", None, "combined")
    works = [
        lambda conn: conn.execute(feedback_table.insert().values(
            id="f1", message_id=turn["user_message_id"], rating="up", created_at=datetime.now(timezone.utc))),
        lambda conn: conn.execute(feedback_table.insert().values(  # no such message: a foreign key error
            id="f2", message_id="missing", rating="up", created_at=datetime.now(timezone.utc))),
        lambda conn: conn.execute(sessions_table.delete().where(sessions_table.c.id == second["id"])),
    ]
    results = store._commit_together(works)  # as if the three had queued up together
    assert isinstance(results[1], IntegrityError)
    assert not isinstance(results[0], Exception) and not isinstance(results[2], Exception)
    with store.engine.connect() as conn:
        assert [r.id for r in conn.execute(feedback_table.select())] == ["f1"]
    assert store.get_session(second["id"]) is None and store.get_session(first["id"]) is not None
    store.close()


def _ask_many(url: str, tag: str, count: int) -> None:
    store = SessionStore(url)
    for i in range(count):
        turn = store.open_turn(None, f"{tag} {i}", None, "combined")
        store.close_turn(turn["query_id"], [["COMPLETED", "t"]], session_id=turn["session_id"],
                         user_message_id=turn["user_message_id"], user_status="answered",
                         assistant={"content": f"answer {i}", "status": "completed"})
    store.close()


def test_processes_writing_one_file_lose_nothing(tmp_path):
    url = f"sqlite:///{tmp_path / 'sessions.db'}"
    SessionStore(url).close()  # the tables exist before the writers start
    context = multiprocessing.get_context("spawn")
    writers = [context.Process(target=_ask_many, args=(url, f"p{n}", 60)) for n in range(3)]
    for w in writers:
        w.start()
    for w in writers:
        w.join(120)
    assert [w.exitcode for w in writers] == [0, 0, 0]
    store = SessionStore(url)
    with store.engine.connect() as conn:
        questions = [r.content for r in conn.execute(messages_table.select().where(messages_table.c.role == "user"))]
    assert sorted(questions) == sorted(f"p{n} {i}" for n in range(3) for i in range(60))
    store.close()
