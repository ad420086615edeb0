"""Two app servers, one state: `serve` processes with data folders of their own (as on two
machines, each with its own copy of the book index) share one PostgreSQL and one Redis. A
conversation goes on from one to the other, one rate limit counts across both, a server
killed mid-answer marks that question INTERRUPTED when it comes back, and with Redis down
each server counts the limit on its own instead of failing."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from apps import IndexedFolder, copy_index
from fake_gemini import FakeGemini, gemini_subprocess_env
from places import MODELS_DIR, REPO, SAMPLE_BOOK
from processes import free_port, wait_until

CLI = Path(sys.executable).with_name("textbook-chat")
LIMIT = 12  # POST /sessions per minute, per reader, counted in Redis


class Server:
    def __init__(self, data_dir: Path, env: dict, log: Path):
        self.data_dir, self.env, self.log = data_dir, env, log
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    def start(self) -> "Server":
        with self.log.open("a") as log:
            self.process = subprocess.Popen([str(CLI), "serve", "--port", str(self.port)], env=self.env,
                                            stdout=log, stderr=subprocess.STDOUT)
        wait_until(self._healthy, 180, what=f"the server on port {self.port}", poll_s=0.2)
        return self

    def _healthy(self) -> bool:
        assert self.process.poll() is None, self.log.read_text()[-3000:]
        try:
            return self.get("/health")["status"] == "ok"
        except OSError:
            return False

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(60)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def get(self, path: str, secret: str | None = None) -> dict:
        request = urllib.request.Request(self.url(path), headers=_bearer(secret))
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.load(response)

    def post(self, path: str, body: dict, secret: str | None = None) -> tuple[int, dict]:
        request = urllib.request.Request(self.url(path), data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json", **_bearer(secret)})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:
            return error.code, json.load(error)


def _bearer(secret: str | None) -> dict:
    return {"Authorization": f"Bearer {secret}"} if secret else {}


@pytest.fixture(scope="module")
def book_index(indexed_folder) -> IndexedFolder:
    """The sample book's index, made once; each server gets a copy in its own data folder."""
    return indexed_folder(SAMPLE_BOOK)


@pytest.fixture(scope="module")
def shared_state(postgres, redis_server) -> dict:
    return {"DATABASE_URL": postgres.new_database(), "RATE_LIMIT_STORAGE": redis_server.url,
            "RATE_LIMIT": f"{LIMIT} per minute"}


def _server(tmp_path_factory, book_index: IndexedFolder, shared: dict, name: str, **env) -> Server:
    folder = tmp_path_factory.mktemp(name)
    copy_index(book_index, folder / "data")
    quiet = {k: v for k, v in os.environ.items() if k not in ("GEMINI_API_KEY", "GOOGLE_API_KEY")}
    environment = {**quiet, **shared, "PYTHONPATH": str(REPO), "TEXTBOOK_CHAT_DATA_DIR": str(folder / "data"),
                   "TEXTBOOK_CHAT_MODELS_DIR": str(MODELS_DIR), **env}
    return Server(folder / "data", environment, folder / "serve.log")


@pytest.fixture(scope="module")
def two_servers(tmp_path_factory, book_index, shared_state):
    servers = [_server(tmp_path_factory, book_index, shared_state, name) for name in ("one", "two")]
    try:
        yield [server.start() for server in servers]
    finally:
        for server in servers:
            server.stop()


def test_a_conversation_started_on_one_server_continues_on_the_other_with_its_history(two_servers):
    one, two = two_servers
    status, first = one.post("/chat", {"question": "What is the Nyquist rate?"})
    assert status == 200 and first["status"] == "completed"
    # a follow-up that means nothing alone: answered from the book only with the history
    secret = first["session_secret"]
    status, follow_up = two.post("/chat", {"question": "Why does it matter?", "session_id": first["session_id"]}, secret)
    assert status == 200 and follow_up["session_id"] == first["session_id"]
    assert follow_up["status"] == "completed" and any("nyquist" in s["content"].lower() or "sampl" in s["content"].lower()
                                                      for s in follow_up["sources"])
    seen_by_one = one.get(f"/sessions/{first['session_id']}", secret)
    seen_by_two = two.get(f"/sessions/{first['session_id']}", secret)
    assert seen_by_one == seen_by_two
    assert [(m["role"], m["content"]) for m in seen_by_one["messages"][::2]] == [
        ("user", "What is the Nyquist rate?"), ("user", "Why does it matter?")]


def test_one_rate_limit_counts_across_both_servers(two_servers, redis_url):  # counted from zero
    one, two = two_servers
    statuses = [(one if i % 2 else two).post("/sessions", {})[0] for i in range(2 * LIMIT + 2)]
    assert statuses.count(201) == LIMIT and statuses[:LIMIT] == [201] * LIMIT
    assert set(statuses[LIMIT:]) == {429}


def _ask_and_wait_for_sources(server: Server) -> tuple[socket.socket, str, str]:
    payload = json.dumps({"question": "What is the Nyquist rate?"}).encode()
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=60)
    sock.sendall(b"POST /chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Accept: text/event-stream\r\nContent-Length: " + str(len(payload)).encode() + b"\r\n\r\n" + payload)
    received = b""
    while b"event: meta\ndata: " not in received or b"\n" not in received.split(b"event: meta\ndata: ")[1]:
        chunk = sock.recv(4096)
        assert chunk, received
        received += chunk
    meta = json.loads(received.split(b"event: meta\ndata: ")[1].split(b"\n")[0])
    return sock, meta["session_id"], meta["session_secret"]


def test_a_server_killed_mid_answer_marks_the_question_interrupted_when_it_comes_back(
        tmp_path_factory, book_index, shared_state, two_servers, redis_url):  # a budget of its own
    fake = FakeGemini().script({"hang": 120})  # the model is still writing when the server dies
    crashing = _server(tmp_path_factory, book_index, shared_state, "crashing",
                       **{**gemini_subprocess_env(fake), "GEMINI_TIMEOUT_S": "120"})
    try:
        crashing.start()
        assert crashing.get("/health")["generator"] != "extractive"
        sock, session_id, secret = _ask_and_wait_for_sources(crashing)
        wait_until(lambda: fake.requests, 60, what="the question to reach the model")
        crashing.stop(signal.SIGKILL)
        sock.close()
        other = two_servers[0]
        assert [m["status"] for m in other.get(f"/sessions/{session_id}", secret)["messages"]] == ["received"]
        crashing.start()
        assert "1 question(s) left unanswered when the server last stopped are marked INTERRUPTED" in crashing.log.read_text()
        assert [m["status"] for m in other.get(f"/sessions/{session_id}", secret)["messages"]] == ["interrupted"]
    finally:
        crashing.stop(signal.SIGKILL)
        fake.close()


def test_with_redis_down_each_server_counts_the_limit_on_its_own(chat_app):
    nowhere = f"redis://127.0.0.1:{free_port()}"  # nothing listens there
    client = chat_app(config={"RATELIMIT_APPLICATION": "3 per minute"}, rate_limit_storage=nowhere).test_client()
    assert [client.post("/sessions", json={}).status_code for _ in range(5)] == [201, 201, 201, 429, 429]
