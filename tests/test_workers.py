"""`textbook-chat serve --workers 2`: forked processes each read a replica of the published
index and share one sessions database (SQLite or PostgreSQL); a book ingested while they serve
reaches them; a worker that goes away takes its replica with it, and the server stops cleanly."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from apps import copy_index, make_settings
from fake_gemini import FakeGemini, gemini_subprocess_env
from places import MODELS_DIR, SAMPLE_BOOK
from processes import free_port, wait_until
from sse import open_chat_stream, read_until, stream_session_id
from server.ingest.indexer import ingest
from server.ingest.site import detect_site
from server.store import open_store

CLI = Path(sys.executable).with_name("textbook-chat")


def _children(pid: int) -> set[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return {int(p) for p in path.read_text().split()} if path.exists() else set()


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def _wait(condition, timeout: float = 60.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def _bearer(secret: str | None) -> dict:
    return {"Authorization": f"Bearer {secret}"} if secret else {}


def _stream_chat(port: int, body: dict, secret: str | None = None) -> dict:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/chat", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", "Accept": "text/event-stream",
                                              **_bearer(secret)})
    with urllib.request.urlopen(request, timeout=60) as response:
        text = response.read().decode()
    done = text.split("event: done\ndata: ")[1].split("\n")[0]
    return json.loads(done)


@pytest.fixture
def workers_server(request, tmp_path, indexed_folder):
    """Sessions in a SQLite file, or (parametrized "postgresql") in the throwaway PostgreSQL."""
    database = getattr(request, "param", "sqlite")
    database_url = request.getfixturevalue("postgres").new_database() if database == "postgresql" else None
    settings = make_settings(copy_index(indexed_folder(SAMPLE_BOOK), tmp_path / "data"))
    fake = FakeGemini()  # each test scripts its answers
    port = free_port()
    env = gemini_subprocess_env(fake, TEXTBOOK_CHAT_DATA_DIR=str(settings.data_dir),
                                TEXTBOOK_CHAT_MODELS_DIR=str(MODELS_DIR), RATE_LIMIT="1000 per minute",
                                **({"DATABASE_URL": database_url} if database_url else {}))
    log = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen([str(CLI), "serve", "--workers", "2", "--threads", "4", "--port", str(port)],
                              env=env, stdout=log, stderr=subprocess.STDOUT)

    def healthy() -> bool:
        try:
            return json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2))["status"] == "ok"
        except OSError:
            return False

    try:
        _wait(lambda: healthy() and len(_children(server.pid)) == 2, what="two workers and /health")
        yield server, port, settings, fake
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        fake.close()
        log.close()


def _script_answers(fake: FakeGemini, count: int = 70) -> None:
    fake.script(*[{"stream": ["The Nyquist ", "rate is twice ", "the bandwidth [1]."], "delay": 0.05}
                  for _ in range(count)])


@pytest.mark.parametrize("workers_server", ["sqlite", "postgresql"], indirect=True)
def test_workers_share_the_index_and_the_sessions(workers_server):
    server, port, settings, fake = workers_server
    _script_answers(fake)
    workers = _children(server.pid)
    busy_before = {pid: _cpu_ticks(pid) for pid in workers}
    answers: list[dict] = []
    threads = [threading.Thread(target=lambda: answers.append(_stream_chat(port, {"question": "What is the Nyquist rate?"})))
               for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(answers) == 8
    assert all(a["status"] == "completed" and a["generator"] != "extractive" for a in answers)
    assert all(a["answer"] == "The Nyquist rate is twice the bandwidth [1]." and a["sources"] for a in answers)
    # which worker accepts a connection is the kernel's choice: on a loaded machine one may take
    # a whole round, so a few more rounds are asked before a worker is said to do no work
    for _ in range(3):
        if all(_cpu_ticks(pid) > busy_before[pid] for pid in workers):
            break
        more = [threading.Thread(target=_stream_chat, args=(port, {"question": "What is the Nyquist rate?"}))
                for _ in range(8)]
        for t in more:
            t.start()
        for t in more:
            t.join()
    assert all(_cpu_ticks(pid) > busy_before[pid] for pid in workers), "a worker did no work"

    # one conversation whose turns land on either worker: every turn sees the ones before it
    session_id, secret = answers[0]["session_id"], answers[0]["session_secret"]
    for _ in range(3):
        follow_up = _stream_chat(port, {"question": "And the sampling theorem?", "session_id": session_id}, secret)
        assert follow_up["session_id"] == session_id
    reading = urllib.request.Request(f"http://127.0.0.1:{port}/sessions/{session_id}", headers=_bearer(secret))
    session = json.load(urllib.request.urlopen(reading, timeout=10))
    assert [m["role"] for m in session["messages"]] == ["user", "assistant"] * 4


def test_a_reader_hanging_up_stops_the_answer_in_a_worker(workers_server):
    server, port, settings, fake = workers_server
    fake.script({"stream": [f"word{i} " for i in range(100)] + ["[1]."], "delay": 0.1})
    sock = open_chat_stream(port, {"question": "What is the Nyquist rate?"})
    received = read_until(sock, lambda got: got.count(b"event: token") >= 3)
    session_id = stream_session_id(received)
    secret = json.loads(received.split(b"event: meta\ndata: ")[1].split(b"\n")[0])["session_secret"]
    sock.close()  # the reader closed the tab

    def answer_recorded():
        url = urllib.request.Request(f"http://127.0.0.1:{port}/sessions/{session_id}", headers=_bearer(secret))
        messages = json.load(urllib.request.urlopen(url, timeout=10))["messages"]
        return messages if len(messages) == 2 else None

    messages = wait_until(answer_recorded, timeout_s=60, what="the worker to record the answer")
    assert messages[1]["status"] == "cancelled"
    assert 0 < len(messages[1]["content"].split()) < 100


def _replicas(settings) -> set[str]:
    folder = settings.index_path / settings.collection / "replicas"
    return {p.name.split("-")[0] for p in folder.iterdir()} if folder.exists() else set()


def test_a_worker_leaving_takes_its_replica_and_the_server_stops_cleanly(workers_server, embedder, tiny_copy):
    server, port, settings, fake = workers_server
    _script_answers(fake)
    _wait(lambda: _replicas(settings) == {str(pid) for pid in _children(server.pid)}, what="a replica per worker")
    leaving = sorted(_children(server.pid))[0]
    os.kill(leaving, signal.SIGTERM)
    try:
        _wait(lambda: leaving not in _children(server.pid) and len(_children(server.pid)) == 2,
              what="the worker to be replaced")
    except AssertionError as exc:  # what the server said meanwhile
        raise AssertionError(f"{exc}; serve.log ends: {(settings.data_dir.parent / 'serve.log').read_text()[-2000:]}")
    assert str(leaving) not in _replicas(settings)
    assert _stream_chat(port, {"question": "What is the Nyquist rate?"})["status"] == "completed"

    # a book ingested while the server runs reaches every worker
    store = open_store(settings, embedder.model_name, embedder.dim)
    ingest(detect_site(tiny_copy), store, embedder, book_id="second-book", progress=False)
    store.close()

    def both_books() -> bool:
        return all(json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5))["books"]
                   == ["sample-book", "second-book"] for _ in range(6))
    _wait(both_books, what="the workers to read the new publication")

    workers = _children(server.pid)
    server.send_signal(signal.SIGTERM)
    assert server.wait(timeout=40) == 0
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)
    assert _replicas(settings) == set()
