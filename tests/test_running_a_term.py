"""The commands a course author runs during a term: `books` and `remove-book`, `status`, and
`backup` / `restore` (taken while the server is open, restored into an empty folder, answering
the same questions with the same sessions)."""
from __future__ import annotations

import json
from datetime import datetime, timezone

from click.testing import CliRunner

from apps import make_settings, small_site
from places import MODELS_DIR
from server.app import create_app
from server.cli import main
from server.composition import Components, Index
from server.sessions import Reply, SessionStore
from server.store import open_store


def _cli(data_dir, *args):
    env = {"TEXTBOOK_CHAT_DATA_DIR": str(data_dir), "TEXTBOOK_CHAT_MODELS_DIR": str(MODELS_DIR),
           "DATABASE_URL": "", "QDRANT_URL": ""}
    return CliRunner().invoke(main, list(args), env=env)


def test_books_remove_book_and_status(tmp_path):
    site, data = small_site(tmp_path / "site"), tmp_path / "data"
    for book_id in ("first", "second"):
        assert _cli(data, "ingest", str(site), "--book-id", book_id).exit_code == 0
    listed = _cli(data, "books")
    assert listed.exit_code == 0
    assert listed.stdout.splitlines() == ["first  'Small': 2 pages, 2 chunks (en)", "second  'Small': 2 pages, 2 chunks (en)"]

    unknown = _cli(data, "remove-book", "third")
    assert unknown.exit_code == 1 and unknown.stderr == "error: no book 'third' in the index (it holds: first, second)\n"
    removed = _cli(data, "remove-book", "second")
    assert removed.exit_code == 0, removed.output
    assert removed.stdout == "removed second ('Small': 2 pages, 2 chunks); the index holds first\n"
    assert [b["book_id"] for b in json.loads(_cli(data, "books", "--json").stdout)] == ["first"]

    shown = _cli(data, "status")
    assert shown.exit_code == 0, shown.output
    lines = shown.stdout.splitlines()
    assert lines[0].startswith(f"data folder: {data.resolve()} (TEXTBOOK_CHAT_DATA_DIR), ")
    assert any(line.split()[0] == "index/" and "the book index" in line for line in lines)
    assert "  published/" in shown.stdout and "(current: g000003)" in shown.stdout  # 2 ingests, 1 removal
    assert "books: 1\n  first  'Small': 2 pages, 2 chunks" in shown.stdout
    assert "model: sentence-transformers/all-MiniLM-L6-v2 in " in shown.stdout
    assert "database: sqlite:///" in shown.stdout and "not created yet" in shown.stdout
    state = json.loads(_cli(data, "status", "--json").stdout)
    assert state["index"]["generations"] == ["g000003"]  # older generations went as they were replaced
    assert state["data"]["bytes"] == sum(p["bytes"] for p in state["data"]["parts"]) > 0


def _ask(client, question, session_id=None):
    body = {"question": question, **({"session_id": session_id} if session_id else {})}
    answer = client.post("/chat", json=body).get_json()
    assert answer["status"] == "completed", answer
    return answer


def test_backup_while_serving_restores_into_an_empty_folder(sample_book, embedder, tmp_path, chat_app):
    questions = ["What is the Nyquist rate?", "How does quantization add noise?"]
    (tmp_path / "live").mkdir()
    live_app = chat_app(data_dir=sample_book.settings.data_dir, database_url=f"sqlite:///{tmp_path / 'live' / 'sessions.db'}")
    serving, live = live_app.extensions["textbook_chat"].settings, live_app.test_client()
    first = _ask(live, questions[0])
    before = [first, _ask(live, questions[1], first["session_id"])]

    env = {"TEXTBOOK_CHAT_DATA_DIR": str(serving.data_dir), "TEXTBOOK_CHAT_MODELS_DIR": str(MODELS_DIR),
           "DATABASE_URL": serving.database_url, "QDRANT_URL": ""}
    made = CliRunner().invoke(main, ["backup", str(tmp_path / "backup")], env=env)  # the server is open meanwhile
    assert made.exit_code == 0, made.output
    manifest = json.loads((tmp_path / "backup" / "backup.json").read_text())
    assert manifest["sessions"] == {"file": "sessions.db"} and manifest["index"]["record"]["dim"] == embedder.dim
    assert "not empty" in _cli(serving.data_dir, "backup", str(tmp_path / "backup")).stderr

    restored = tmp_path / "restored"
    done = _cli(restored, "restore", str(tmp_path / "backup"))
    assert done.exit_code == 0, done.output
    again = _cli(restored, "restore", str(tmp_path / "backup"))
    assert again.exit_code == 1 and "already exist: restore into an empty data folder" in again.stderr

    settings = make_settings(restored)
    index = Index(embedder, open_store(settings, embedder.model_name, embedder.dim))
    chat = Components.build(settings, index=index)
    try:
        client = create_app(settings, components=chat).test_client()
        client.secrets = live.secrets  # the reader still holds the conversation's secret
        session = before[0]["session_id"]
        assert client.get(f"/sessions/{session}").get_json() == live.get(f"/sessions/{session}").get_json()
        after = [_ask(client, questions[0]), ]
        after.append(_ask(client, questions[1], session))  # the restored session goes on
        for old, new in zip(before, after):
            assert new["answer"] == old["answer"] and new["sources"] == old["sources"]
        assert len(client.get(f"/sessions/{session}").get_json()["messages"]) == 6
    finally:
        chat.close()


def _conversation(data_dir, text: str) -> tuple[SessionStore, str]:
    """A sessions database in `data_dir` (sessions.db) holding one answered question; left open."""
    store = SessionStore(make_settings(data_dir).sqlalchemy_url)
    turn = store.open_turn(None, text, None, "combined")
    store.close_turn(turn.query_id, [("COMPLETED", datetime.now(timezone.utc))], session_id=turn.session_id,
                     user_message_id=turn.user_message_id, user_status="answered", assistant=Reply("a", "completed"))
    return store, turn.session_id


def test_restore_never_overwrites_a_sessions_database_in_use(tmp_path):
    """A data folder whose sessions.db exists (a server writing it) but has no index yet: the
    restore refuses, and the live conversations stay as they were."""
    backed_up, backed_session = _conversation(tmp_path / "old", "from the backup")
    backed_up.close()
    made = _cli(tmp_path / "old", "backup", str(tmp_path / "backup"))
    assert made.exit_code == 0, made.output
    assert json.loads((tmp_path / "backup" / "backup.json").read_text())["sessions"] == {"file": "sessions.db"}

    live, live_session = _conversation(tmp_path / "live", "asked on the live server")
    try:
        assert not (tmp_path / "live" / "index").exists()  # only the sessions are there
        refused = _cli(tmp_path / "live", "restore", str(tmp_path / "backup"))
        assert refused.exit_code == 1, refused.output
        assert "sessions.db" in refused.stderr and "already exist: restore into an empty data folder" in refused.stderr
        assert [m.content for m in live.get_session(live_session).messages] == ["asked on the live server", "a"]
        assert live.get_session(backed_session) is None  # nothing of the backup written over it
    finally:
        live.close()
    reopened = SessionStore(make_settings(tmp_path / "live").sqlalchemy_url)
    assert reopened.get_session(live_session) is not None and reopened.get_session(backed_session) is None
    reopened.close()
