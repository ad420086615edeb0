"""What tests share: where things are, settings for a test, the product's app over an indexed
book, reading a Server-Sent Events body, waiting for a condition, the test doubles, and driving
the widget in a browser page (widget_pages.py).

Tests import these from here, never from `conftest` or from another test module (a contract
test checks). `conftest` keeps only fixtures.
"""
from __future__ import annotations

import multiprocessing

import json
import os
import socket
import time
from pathlib import Path
from typing import Callable

from built_sites import SITES, built_site, expected_routes, path_of
from fake_gemini import DEFAULT_ANSWER, FakeGemini, Recorded
from fakes import FailingGenerator, RecordingGenerator
from server.composition import Components, Index
from server.ingest.indexer import ingest
from server.ingest.site import detect_site
from server.settings import Settings
from server.store import ChunkStore, open_store
from widget_pages import (DEMO_PAGE, QUESTION, ask, bot, drag_select, focused, open_demo, overlap,
                          phrase_points, record_bot_states, wait_done, widget_box_of)

__all__ = [
    "REPO", "SHARED", "CORPORA", "EVAL", "PHYSICAL_AI", "RUST_BOOK", "SAMPLE_BOOK", "MODELS_DIR", "DEMO_PAGE",
    "make_settings", "small_site", "IndexedBook", "index_book", "all_chunks", "make_app", "make_client", "read_sse", "sse_done", "open_chat_stream", "read_until", "stream_session_id",
    "wait_until", "exit_codes_of_processes", "free_port", "gemini_env", "gemini_subprocess_env", "FakeGemini", "Recorded", "DEFAULT_ANSWER",
    "RecordingGenerator", "FailingGenerator", "built_site", "SITES", "expected_routes", "path_of",
    # the widget in a browser page (widget_pages.py)
    "QUESTION", "ask", "bot", "drag_select", "focused", "open_demo", "overlap", "phrase_points",
    "record_bot_states", "wait_done", "widget_box_of",
]

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
CORPORA = SHARED / "corpora"
EVAL = SHARED / "eval"
PHYSICAL_AI = CORPORA / "physical-ai-book" / "docs"
RUST_BOOK = CORPORA / "rust-book"
SAMPLE_BOOK = REPO / "sample-book"
MODELS_DIR = REPO / "data" / "models"

# Environment that would send the Gemini SDK somewhere other than the fake (or to Vertex AI).
_GEMINI_ENV = ("GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_USE_ENTERPRISE", "GOOGLE_API_KEY", "GEMINI_API_KEY",
               "GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION")


def make_settings(data_dir: Path, **overrides) -> Settings:
    """Settings for a test: its own data folder, the provisioned model, a rate limit no test reaches."""
    return Settings(data_dir=data_dir, models_dir=MODELS_DIR, rate_limit="1000 per minute", **overrides)


def small_site(root: Path) -> Path:
    """A small Docusaurus site written for a test: two pages with text, one with front matter
    only, and a sidebars file that is code (labels fall back to folders)."""
    basics = root / "docs" / "01-basics"
    basics.mkdir(parents=True)
    (root / "docusaurus.config.js").write_text(
        "module.exports = { title: 'Small', projectName: 'small', baseUrl: '/', url: 'https://small.example' };\n")
    (root / "sidebars.js").write_text("const items = require('./items');\nmodule.exports = { s: items() };\n")
    (basics / "_category_.json").write_text('{"label": "The Basics"}')
    (basics / "01-first.md").write_text("# First\n\nA sampled signal repeats its spectrum.\n")
    (basics / "02-second.md").write_text("# Second\n\nQuantization adds noise to every sample.\n")
    (basics / "03-blank.md").write_text("---\ntitle: Coming soon\n---\n")
    return root


class IndexedBook:
    """A book ingested once into its own local index; tests build the product's parts over it."""

    def __init__(self, settings: Settings, index: Index, site, report):
        self.settings = settings
        self.index = index
        self.site = site
        self.report = report

    @property
    def store(self) -> ChunkStore:
        return self.index.store

    @property
    def embedder(self):
        return self.index.embedder

    def components(self, settings: Settings, generator=None, rewriter=None) -> Components:
        """The product's parts over this book's index (which stays open for the next test)."""
        return Components.build(settings, index=self.index, generator=generator, rewriter=rewriter)


def index_book(data_dir: Path, embedder, path: Path) -> IndexedBook:
    settings = make_settings(data_dir)
    store = open_store(settings, embedder.model_name, embedder.dim)
    site = detect_site(path)
    report = ingest(site, store, embedder, progress=False)
    return IndexedBook(settings, Index(embedder, store), site, report)


def all_chunks(store: ChunkStore, book_id: str | None = None):
    return store.all_chunks(book_id)


def make_app(book: IndexedBook, data_dir: Path, generator=None, rewriter=None, config: dict | None = None,
             **settings_overrides):
    """The real Flask app over `book`'s index with sessions and limits under `data_dir`."""
    from server.app import create_app  # Flask only where a test asks for the web layer

    settings = make_settings(data_dir, **settings_overrides)
    return create_app(settings, components=book.components(settings, generator, rewriter), config=config)


def make_client(book: IndexedBook, data_dir: Path, generator=None, rewriter=None, config: dict | None = None,
                **settings_overrides):
    return make_app(book, data_dir, generator, rewriter, config, **settings_overrides).test_client()


def read_sse(body: str | bytes) -> list[tuple[str, dict]]:
    """The (event name, data) pairs of a Server-Sent Events body, comments (keep-alives) left out."""
    if isinstance(body, bytes):
        body = body.decode()
    events = []
    for block in body.replace("\r\n", "\n").split("\n\n"):
        lines = [line for line in block.split("\n") if line and not line.startswith(":")]
        if not lines:
            continue
        name = next(line[7:] for line in lines if line.startswith("event: "))
        data = "\n".join(line[6:] for line in lines if line.startswith("data: "))
        events.append((name, json.loads(data)))
    return events


def sse_done(body: str | bytes) -> dict:
    """The data of the stream's `done` event (the whole answer)."""
    (done,) = [data for name, data in read_sse(body) if name == "done"]
    return done


def open_chat_stream(port: int, body: dict, timeout_s: float = 30.0) -> socket.socket:
    """POST /chat asking for an event stream, over a plain socket (so the test can hang up)."""
    payload = json.dumps(body).encode()
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout_s)
    sock.sendall(b"POST /chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Accept: text/event-stream\r\nContent-Length: " + str(len(payload)).encode() + b"\r\n\r\n" + payload)
    return sock


def read_until(sock: socket.socket, enough: Callable[[bytes], bool]) -> bytes:
    """Bytes from `sock` until `enough(received)`; fails if the server closes the connection
    first (and the socket's timeout bounds a server that goes quiet)."""
    received = b""
    while not enough(received):
        chunk = sock.recv(4096)
        if not chunk:
            raise AssertionError(f"the server closed the connection early after: {received[-500:]!r}")
        received += chunk
    return received


def stream_session_id(received: bytes) -> str:
    """The session id in a stream's `meta` event."""
    return json.loads(received.split(b"event: meta\ndata: ")[1].split(b"\n")[0])["session_id"]


def exit_codes_of_processes(target: Callable, arguments: list[tuple], timeout_s: float = 120.0) -> list[int | None]:
    """Run `target(*args)` in one fresh (spawned) process per tuple, all at once; their exit codes."""
    context = multiprocessing.get_context("spawn")
    processes = [context.Process(target=target, args=args) for args in arguments]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout_s)
    return [process.exitcode for process in processes]


def wait_until(condition: Callable[[], object], timeout_s: float = 30.0, what: str = "condition",
               poll_s: float = 0.02):
    """Poll `condition` until it returns something truthy (returned); fail after `timeout_s`.
    The timeout only bounds a hang: no test passes or fails on how fast something happened."""
    deadline = time.monotonic() + timeout_s
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(poll_s)


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (right now)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def gemini_env(monkeypatch, fake: FakeGemini) -> None:
    """Point the real `google-genai` client at `fake` and clear what would send it elsewhere."""
    for name in _GEMINI_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GOOGLE_GEMINI_BASE_URL", fake.url)


def gemini_subprocess_env(fake: FakeGemini, **extra: str) -> dict:
    """The environment for a child process whose Gemini client talks to `fake`."""
    env = {k: v for k, v in os.environ.items() if k not in _GEMINI_ENV}
    # the `server` package of this checkout, whichever one the command's install points at
    return {**env, "PYTHONPATH": str(REPO), "GEMINI_API_KEY": "test-key", "GOOGLE_GEMINI_BASE_URL": fake.url, **extra}
