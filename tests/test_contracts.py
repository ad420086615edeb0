"""Contracts inside the server: responses load back through their schema, store outages are
503s, the error schema lists every code, and the layers import only what they should."""
from __future__ import annotations

import ast
import re
import json
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from marshmallow import ValidationError

from apps import make_settings
from places import MODELS_DIR, REPO
from sse import read_sse
from server.api.errors import STATUS
from server.api.schemas import ChatResponseSchema
from server.app import create_app
from server.composition import Components, Index
from server.errors import DatabaseUnavailable, EmbeddingMismatch, StoreUnavailable, UnknownBook
from server.store import open_store

SERVER = REPO / "server"
WEB_LAYER = {"api", "app.py", "serving", "cli", "insights/web.py", "library/web.py", "mcp_server/web.py"}

pytest_plugins = ["pytester"]  # a pytest run of its own: the collection order


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# --- responses load back through the response schema ------------------------------------------

@pytest.mark.parametrize("body", [
    {"question": "What is the Nyquist rate and what happens below it?"},
    {"question": "Who won the 1998 football world cup?"},
    {"question": "What happens to frequencies above half the sample rate?",
     "selected_text": "A sampled signal can only represent frequencies below half the sample rate. Anything above "
                      "that folds back and appears as a lower frequency, which is called aliasing.",
     "selection_mode": "combined"},
])
def test_real_responses_load_back_through_the_response_schema(chat_app, body):
    client = chat_app().test_client()
    plain = client.post("/chat", json=body).get_json()
    done = read_sse(client.post("/chat", json=body, headers={"Accept": "text/event-stream"}).get_data(as_text=True))[-1]
    assert done[0] == "done"
    schema = ChatResponseSchema()
    for response in (plain, done[1]):
        loaded = schema.load(response)  # every field and rule of the schema runs here
        assert loaded["text"] == response["answer"] and loaded["status"] == response["status"]
        assert [s["number"] for s in response["sources"]] == list(range(1, len(response["sources"]) + 1))
    # the schema's rules are live: a completed answer without sources does not load
    if plain["status"] == "completed":
        with pytest.raises(ValidationError, match="source"):
            schema.load({**plain, "sources": [], "citations": []})
    else:
        with pytest.raises(ValidationError, match="confidence|sources"):
            schema.load({**plain, "confidence": 0.9})


# --- store outages --------------------------------------------------------------------------

def _unreachable_app(book, tmp_path, url: str):
    settings = make_settings(tmp_path / "data", qdrant_url=url)
    store = open_store(settings, book.embedder.model_name, book.embedder.dim)
    chat = Components.build(settings, index=Index(book.embedder, store))
    return create_app(settings, components=chat).test_client(), store


class _Failing(BaseHTTPRequestHandler):
    def _answer(self):
        body = json.dumps({"status": {"error": "Service Unavailable"}}).encode()
        self.send_response(503)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = do_PUT = _answer

    def log_message(self, *args):
        pass


@pytest.fixture
def failing_qdrant():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Failing)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("kind", ["refused", "5xx"])
def test_store_that_does_not_answer_is_503_store_unavailable(sample_book, tmp_path, kind, request):
    url = f"http://127.0.0.1:{_closed_port()}" if kind == "refused" else request.getfixturevalue("failing_qdrant")
    client, store = _unreachable_app(sample_book, tmp_path, url)
    with pytest.raises(StoreUnavailable):
        store.count()
    chat = client.post("/chat", json={"question": "What is the Nyquist rate?"})
    assert chat.status_code == 503
    data = chat.get_json()
    assert data["code"] == "STORE_UNAVAILABLE" and "not reachable" in data["error"] and data["details"]["reason"]
    health = client.get("/health")
    assert health.status_code == 503
    assert health.get_json()["status"] == "degraded" and health.get_json()["store"]["kind"] == "server"
    assert client.post("/sessions", json={}).status_code == 201  # what does not need the store still works


def test_serve_with_an_unreachable_store_says_so_in_one_line(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "QDRANT_URL": f"http://127.0.0.1:{_closed_port()}",
           "TEXTBOOK_CHAT_DATA_DIR": str(tmp_path / "data"), "TEXTBOOK_CHAT_MODELS_DIR": str(MODELS_DIR),
           "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", "from server.cli import main; main()", "serve", "--port",
                           str(_closed_port())], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    errors = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 1, done.stderr
    assert len(errors) == 1 and errors[0].startswith("error: The book index is not reachable"), done.stderr
    assert "Traceback" not in done.stdout + done.stderr


# --- one table of error codes ------------------------------------------------------------------

def test_every_error_code_is_in_the_openapi_error_schema(chat_app):
    spec = chat_app().test_client().get("/openapi.json").get_json()
    listed = spec["components"]["schemas"]["ErrorResponse"]["properties"]["code"]["enum"]
    assert set(listed) == set(STATUS)
    expected = {StoreUnavailable: 503, DatabaseUnavailable: 503, EmbeddingMismatch: 409, UnknownBook: 404}
    for error, status in expected.items():
        assert error("x").code in listed and STATUS[error("x").code] == status


# --- layers -----------------------------------------------------------------------------------

def _imports(path: Path) -> set[str]:
    """Absolute module names a server file imports (relative imports resolved)."""
    package = ".".join(path.relative_to(REPO).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def test_layers_import_only_what_they_should():
    for path in SERVER.rglob("*.py"):
        relative = path.relative_to(SERVER)
        imports = _imports(path)
        if relative.parts[0] not in WEB_LAYER and relative.as_posix() not in WEB_LAYER:
            assert not any(m == "flask" or m.startswith(("flask.", "flask_")) for m in imports), relative
        if relative.parts[:2] == ("question", "compose"):
            assert not any(m.startswith("server.question.pipeline") for m in imports), relative
        assert len(path.read_text().splitlines()) <= 400, relative


# the question path's parts: built, and wired to each other, by the composition root alone
QUESTION_PATH = {"ChatPipeline", "Understand", "Gather", "Judge", "Compose", "Record", "Retriever", "StoreVocabulary"}


def _constructions(path: Path) -> set[str]:
    """The question path's classes that `path` calls, however imported or spelt (`X(`, `m.X(`)."""
    calls = (node.func for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.Call))
    names = {getattr(func, "id", None) or getattr(func, "attr", None) for func in calls}
    return names & QUESTION_PATH


def test_the_question_path_is_built_in_one_place(tmp_path):
    builders = {p.relative_to(REPO): found for p in SERVER.rglob("*.py") if (found := _constructions(p))}
    assert builders == {Path("server/composition.py"): QUESTION_PATH}
    # the check sees every spelling of a construction, the one a second wiring would use too
    second = tmp_path / "second_wiring.py"
    second.write_text("from server.question import retrieval\nr = retrieval.Retriever(s, e)\nRetriever(s, e).retrieve(q)\n")
    assert _constructions(second) == {"Retriever"}


# --- what tests share, and what only browser tests may import ---------------------------------

TESTS = REPO / "tests"
# modules of tests/ that hold no tests, each with one job
TEST_SUPPORT = {"places", "apps", "sse", "processes", "fakes", "fake_gemini", "built_sites", "backing_services", "readers",
                "widget_pages", "sample_site", "docusaurus_site", "builds_ahead", "axe_audit", "book_pages"}
BROWSER_ONLY = {"playwright", "widget_pages", "axe_audit"}


def _test_imports(path: Path) -> set[str]:
    """Module names a test file imports, relative imports spelled with their leading dots."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.add("." * node.level + (node.module or ""))
            if not node.module:  # `from . import x`
                found.update("." * node.level + alias.name for alias in node.names)
    return found


def test_tests_share_code_only_through_the_support_modules():
    local = {p.stem for p in TESTS.rglob("*.py") if "node_modules" not in p.parts}
    for path in TESTS.rglob("*.py"):
        if "node_modules" in path.parts:
            continue
        where = path.relative_to(REPO)
        for module in _test_imports(path):
            name = module.lstrip(".").split(".")[-1] if module.startswith(".") else module.split(".")[0]
            assert name != "conftest", f"{where} imports {module}: fixtures come in by name, code from a support module"
            assert not name.startswith("test_"), f"{where} imports the test module {module}"
            if name in local:
                assert name in TEST_SUPPORT, f"{where} imports {module}, which is not a support module"
            if "browser" not in where.parts and path.stem not in BROWSER_ONLY:
                assert name not in BROWSER_ONLY, f"{where} imports {module}: only tests/browser/ drives a browser"


def test_unit_tests_run_without_a_browser():
    """conftest, every support module but the browser's, and every test module outside
    tests/browser/ import without Playwright."""
    modules = ["conftest", *sorted(TEST_SUPPORT - BROWSER_ONLY), *sorted(p.stem for p in TESTS.glob("test_*.py"))]
    script = ("import sys; sys.path[:0] = [sys.argv[1], sys.argv[2]]\n"
              "for name in sys.argv[3:]: __import__(name)\n"
              "print(sorted(m for m in sys.modules if m.split('.')[0] == 'playwright'))")
    done = subprocess.run([sys.executable, "-c", script, str(TESTS), str(REPO), *modules],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "[]", done.stdout


def test_one_embedder_protocol_and_one_cache_of_the_books(sample_book, tmp_path):
    protocols = [p.relative_to(REPO) for p in SERVER.rglob("*.py")
                 if any(isinstance(node, ast.ClassDef) and node.name.endswith("Embedder")
                        and any(getattr(base, "id", "") == "Protocol" for base in node.bases)
                        for node in ast.walk(ast.parse(p.read_text())))]
    assert protocols == [Path("server/embedding/protocol.py")]
    settings = make_settings(tmp_path / "data")
    parts = sample_book.components(settings)
    # the books' words and the pages questions are asked on are made from the one cache of published books
    readers = (parts.vocabulary, parts.pages)
    assert all((r.books, r.book_of) == (parts.index.outlines.books, parts.index.book) for r in readers)
    # one vocabulary, built with the index, read by understanding, re-ranking and the extractive generator
    readers = (parts.search.understand.lexicon, parts.retriever.lexicon, parts.generator.lexicon)
    assert all(reader is sample_book.index.vocabulary for reader in readers), readers


def test_the_sessions_store_gives_typed_records_not_wire_shapes():
    """What the store returns is a record of the domain (dates as datetimes); how the API shows
    it (ISO strings, its keys) is the schemas' business."""
    import dataclasses
    import inspect

    from server.sessions import SessionStore, records

    returns = {name: inspect.signature(method).return_annotation for name, method in vars(SessionStore).items()
               if inspect.isfunction(method) and not name.startswith("_")}
    assert [name for name, shape in returns.items() if "dict" in str(shape)] == []
    assert returns["get_session"] == "Session | None" and returns["add_feedback"] == "Feedback"
    kept = [records.Session, records.Message, records.SourceReference, records.Feedback, records.Query]
    assert all(dataclasses.is_dataclass(r) and r.__dataclass_params__.frozen for r in kept)


def test_the_app_factory_leaves_logging_to_the_program(chat_app):
    import logging

    root = logging.getLogger()
    kept = (root.level, root.handlers[:])
    root.handlers.clear()  # as in a program that has not configured logging (basicConfig would act)
    try:
        chat_app()
        assert root.handlers == [] and root.level == kept[0]  # only `textbook-chat` configures logging
    finally:
        root.setLevel(kept[0])
        root.handlers[:] = kept[1]


def test_one_cache_of_the_books_outlines_for_the_course_path_and_the_book_tools(sample_book, tmp_path):
    parts = sample_book.components(make_settings(tmp_path / "data"))
    outlines = sample_book.index.outlines
    assert parts.search.course.outlines is outlines and parts.bookshelf.outlines is outlines
    published = outlines.book(None)
    assert parts.search.course.outline(None) is published.outline is not None
    assert parts.bookshelf.outline() is parts.bookshelf.outline(published.book_id)  # built once per published book
    assert [page.url for page in parts.bookshelf.outline().pages] == [page.url for page in published.outline.pages]


def test_each_books_chunks_are_read_from_the_store_once(sample_book, tmp_path):
    """The published books are the one reader of a book's chunks: start-up and questions of every
    kind (a misspelt one, one asked on a page about a highlight, one about the course, one naming
    the book, one without) and the book tools read each book's chunks from the store once."""
    from server.question import Page, Question, Selection
    from server.store import Filters

    class CountingStore:
        def __init__(self, store):
            self.store, self.reads = store, []

        def __getattr__(self, name):
            return getattr(self.store, name)

        def all_chunks(self, book_id=None):
            self.reads.append(book_id)
            return self.store.all_chunks(book_id)

    store = CountingStore(sample_book.store)
    chat = Components.build(make_settings(tmp_path / "data"), index=Index(sample_book.embedder, store))
    try:
        chat.warm_up()
        book_id = chat.bookshelf.book_id()
        page = Page(url="https://mirror.example.org/docs/foundations/sampling-and-aliasing")
        questions = [Question("what is aliasng", 5, 0.3),
                     Question("why does this happen?", 5, 0.3, page=page,
                              selection=Selection("Sampling below the Nyquist rate folds high frequencies")),
                     Question("what will I learn in this book?", 5, 0.3, page=page),
                     Question("how does a digital filter work?", 5, 0.3, filters=Filters(book_id=book_id))]
        answers = [chat.pipeline.answer(question) for question in questions]
        chat.bookshelf.outline()
    finally:
        chat.close()
    assert all(answer.text for answer in answers)
    assert store.reads == [book_id]


def test_a_newer_ingest_reaches_the_books_words_and_pages(tmp_path, embedder):
    """A book ingested again while the parts run, then another book: the new words and pages are
    seen once the published books are read again (every 30 s in the product, on every call here)."""
    from server.ingest.indexer import ingest
    from server.ingest.site import detect_site

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "01-walking.md").write_text("# Walking\n\nA robot walks on two legs, shifting its weight with care.\n")
    store, closing = open_store(make_settings(tmp_path / "data"), embedder.model_name, embedder.dim), []
    try:
        ingest(detect_site(docs), store, embedder, progress=False)
        index = Index(embedder, store)
        index.outlines.refresh_s = 0.0
        chat = Components.build(make_settings(tmp_path / "data"), index=index)
        closing.append(chat)
        chat.warm_up()
        book_id = chat.bookshelf.book_id()
        assert not index.vocabulary(book_id).knows("zorblat") and not index.vocabulary().knows("zorblat")
        (docs / "02-balancing.md").write_text("# Balancing\n\nThe Zorblat walker balanced on one leg for an hour.\n")
        ingest(detect_site(docs), store, embedder, progress=False)
        deadline = time.monotonic() + 30
        while not index.vocabulary(book_id).knows("zorblat") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert index.vocabulary(book_id).knows("zorblat") and index.vocabulary().knows("zorblat")
        new_page = next(c.url for c in index.book(book_id).chunks if "Zorblat" in c.content)
        assert chat.pages.page_of(new_page).title == "Balancing"
        other = tmp_path / "other" / "docs"
        other.mkdir(parents=True)
        (other / "01-gears.md").write_text("# Gears\n\nA quibblet gear turns the wheel of the cart.\n")
        ingest(detect_site(other), store, embedder, book_id="other-book", progress=False)
        whole = index.vocabulary()  # every book's words, once several books are indexed
        assert whole.knows("quibblet") and whole.knows("zorblat") and not index.vocabulary(book_id).knows("quibblet")
        assert index.vocabulary() is whole and chat.pages.page_of(new_page).book_id == book_id
    finally:
        for chat in closing:
            chat.close()
        store.close()


def test_every_module_that_waits_on_a_build_runs_after_the_others():
    """A module that calls a build (or a browser module that uses the sample site's) is marked, so the
    whole suite runs it last, after the build was made ahead (tests/builds_ahead.py)."""
    from builds_ahead import BUILD_FIXTURES

    calls = re.compile(r"\b(?:built_site|sample_site|install_packages)\(")
    uses = re.compile(r"\b(?:%s)\b" % "|".join(BUILD_FIXTURES))
    for path in sorted(TESTS.rglob("test_*.py")):
        text = path.read_text(encoding="utf-8")
        if calls.search(text) and not uses.search(text):
            assert "pytestmark = pytest.mark.needs_build" in text, f"{path.relative_to(REPO)} builds a site unmarked"


def test_the_marked_modules_are_collected_last(pytester):
    pytester.makepyfile(test_a="import pytest\npytestmark = pytest.mark.needs_build\ndef test_one(): pass\n",
                        test_b="def test_two(): pass\n")
    result = pytester.runpytest_inprocess("-p", "builds_ahead", "--collect-only", "-q", "-p", "no:cacheprovider")
    collected = [line for line in result.outlines if "::" in line]
    assert collected == ["test_b.py::test_two", "test_a.py::test_one"]
