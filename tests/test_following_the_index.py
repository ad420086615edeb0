"""A running server follows its index at once: the question right after an ingest, a new book or
`remove-book` is answered from what they published, by whichever worker process takes it, and
no refusal of the old index reaches the author's insights."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from click.testing import CliRunner

from apps import make_settings
from places import MODELS_DIR
from processes import free_port, wait_until
from server.cli import main
from server.ingest.indexer import ingest
from server.ingest.site import detect_site
from server.store import open_store

CLI = Path(sys.executable).with_name("textbook-chat")
TOKEN = "insights-token-for-the-following-test"
ASKED_AT_ONCE = 6  # questions sent together, so that both workers take some


def _docs(root: Path, pages: dict[str, str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in pages.items():
        (root / name).write_text(text)
    return root


def _ingest(settings, embedder, docs: Path, book_id: str) -> None:
    store = open_store(settings, embedder.model_name, embedder.dim)
    try:
        ingest(detect_site(docs), store, embedder, book_id=book_id, progress=False)
    finally:
        store.close()  # published: the server may switch from here on


def _ask(port: int, question: str, book_id: str) -> tuple[int, dict]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/chat", method="POST",
                                     data=json.dumps({"question": question, "filters": {"book_id": book_id}}).encode(),
                                     headers={"Content-Type": "application/json", "Connection": "close"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def _ask_at_once(port: int, question: str, book_id: str) -> list[tuple[int, dict]]:
    with ThreadPoolExecutor(ASKED_AT_ONCE) as pool:
        return list(pool.map(lambda _: _ask(port, question, book_id), range(ASKED_AT_ONCE)))


@pytest.fixture
def server(tmp_path, embedder):
    settings = make_settings(tmp_path / "data")
    walking = _docs(tmp_path / "walking" / "docs",
                    {"01-walking.md": "# Walking\n\nA robot walks on two legs, shifting its weight with care.\n"})
    _ingest(settings, embedder, walking, "walking")
    port = free_port()
    env = {key: value for key, value in os.environ.items() if not key.startswith(("GEMINI", "GOOGLE"))}
    env.update(TEXTBOOK_CHAT_DATA_DIR=str(settings.data_dir), TEXTBOOK_CHAT_MODELS_DIR=str(MODELS_DIR),
               RATE_LIMIT="1000 per minute", INSIGHTS_TOKEN=TOKEN, DATABASE_URL="", QDRANT_URL="")
    log = (tmp_path / "serve.log").open("w")
    process = subprocess.Popen([str(CLI), "serve", "--workers", "2", "--threads", "4", "--port", str(port)],
                               env=env, stdout=log, stderr=subprocess.STDOUT)

    def healthy() -> bool:
        try:
            return json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2))["status"] == "ok"
        except OSError:
            return process.poll() is not None  # it ended: said below

    try:
        wait_until(healthy, timeout_s=120, what="the server to answer /health", poll_s=0.1)
        assert process.poll() is None, (tmp_path / "serve.log").read_text()[-2000:]
        yield port, settings, walking
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def test_the_question_after_a_publication_is_answered_from_it(server, embedder, tmp_path):
    port, settings, walking = server
    status, answer = _ask(port, "How does a robot walk?", "walking")
    assert status == 200 and answer["status"] == "completed", answer

    # a sentence added and ingested: the very next questions (on every worker) find it
    (walking / "01-walking.md").write_text("# Walking\n\nA robot walks on two legs, shifting its weight with care.\n"
                                           "The Zorblat walker balanced on one leg for an hour.\n")
    _ingest(settings, embedder, walking, "walking")
    for status, answer in _ask_at_once(port, "How long did the Zorblat walker balance on one leg?", "walking"):
        assert status == 200 and answer["status"] == "completed", answer
        assert "for an hour" in answer["answer"], answer["answer"]

    # a new book: answered at once, never "unknown book"
    gears = _docs(tmp_path / "gears" / "docs", {"01-gears.md": "# Gears\n\nA quibblet gear turns the wheel of the cart.\n"})
    _ingest(settings, embedder, gears, "gears")
    for status, answer in _ask_at_once(port, "What does a quibblet gear turn?", "gears"):
        assert status == 200 and answer["status"] == "completed", answer
        assert "wheel of the cart" in answer["answer"], answer["answer"]

    # a book removed: the very next questions to it are 404 UNKNOWN_BOOK, not answered from it
    removed = CliRunner().invoke(main, ["remove-book", "walking"], env={
        "TEXTBOOK_CHAT_DATA_DIR": str(settings.data_dir), "TEXTBOOK_CHAT_MODELS_DIR": str(MODELS_DIR),
        "QDRANT_URL": "", "DATABASE_URL": ""})
    assert removed.exit_code == 0, removed.output
    for status, answer in _ask_at_once(port, "How does a robot walk?", "walking"):
        assert status == 404 and answer["code"] == "UNKNOWN_BOOK", answer
    assert _ask(port, "What does a quibblet gear turn?", "gears")[0] == 200

    # nothing was refused, so the author sees no coverage gap
    request = urllib.request.Request(f"http://127.0.0.1:{port}/insights.json?since=all",
                                     headers={"Authorization": f"Bearer {TOKEN}"})
    insights = json.load(urllib.request.urlopen(request, timeout=30))
    assert insights["coverage_gaps"] == [] and insights["outcomes"].get("refused", 0) == 0, insights["outcomes"]
