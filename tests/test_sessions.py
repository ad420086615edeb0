"""SessionStore on a real SQLite file under concurrent writers."""
from __future__ import annotations

import threading

from server.sessions import SessionStore


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
