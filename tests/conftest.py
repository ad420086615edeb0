"""Shared fixtures: the real embedding model (provisioned once per machine under ~/.cache/textbook-chat/models),
real local Qdrant folders and SQLite files in temporary directories, books indexed once per
session, and the product's app over one of them (`chat_app`).

What tests import lives in small modules by job: places (where things are), apps (settings, an
indexed book, the app), sse (reading the answer stream), processes (ports, child processes,
waiting), fake_gemini and fakes (the test doubles), built_sites (real Docusaurus builds) and,
for browser tests only, widget_pages. Nothing here imports a browser."""
from __future__ import annotations

import fcntl
import hashlib
import os
import pickle
import shutil
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from apps import IndexedFolder, index_folder, make_app, make_settings, open_copy
from fake_gemini import FakeGemini, gemini_env
from places import MODELS_DIR, PHYSICAL_AI, SAMPLE_BOOK
from readers import reader_client_class
from server.embedding.embedder import load_embedder
from server.settings import Settings
from server.store import open_store

# CI runs the property tests on the same examples every time (a red run is then one to fix, not
# luck); a developer's runs go on exploring new ones. No per-example deadline: on a loaded 2-core
# machine a first example's import took longer than 200 ms; speed lives in benchmarks/
hypothesis_settings.register_profile("dev", deadline=None)
hypothesis_settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
hypothesis_settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(scope="session", autouse=True)
def readers_keep_their_secrets():
    """Every Flask test client keeps the secrets of the conversations it starts and shows them
    again, as the widget does (readers.py)."""
    from flask import Flask

    Flask.test_client_class = reader_client_class()
    yield
    Flask.test_client_class = None


@pytest.fixture(scope="session")
def embedder():
    return load_embedder(Settings(models_dir=MODELS_DIR))


@pytest.fixture
def settings(tmp_path) -> Settings:
    return make_settings(tmp_path / "data")


@pytest.fixture
def store(settings, embedder):
    chunk_store = open_store(settings, embedder.model_name, embedder.dim)
    yield chunk_store
    chunk_store.close()


@pytest.fixture
def sample_copy(tmp_path) -> Path:
    """A private copy of the sample book that a test may edit."""
    target = tmp_path / "book"
    shutil.copytree(SAMPLE_BOOK, target)
    return target


@pytest.fixture
def tiny_copy(sample_copy) -> Path:
    """The sample book with one module only: for tests that ingest several times."""
    shutil.rmtree(sample_copy / "docs" / "02-practice")
    return sample_copy


@pytest.fixture(scope="session")
def physical_ai(tmp_path_factory, embedder, indexed_folder):
    book = open_copy(indexed_folder(PHYSICAL_AI), tmp_path_factory.mktemp("physical-ai") / "data", embedder)
    yield book
    book.index.close()


@pytest.fixture(scope="session")
def indexed_folder(tmp_path_factory, embedder):
    """indexed_folder(book path) -> IndexedFolder: the book embedded once per test run into a
    closed data folder, for tests to copy (apps.copy_index, apps.open_copy). Under pytest-xdist
    the workers share it: the first to ask embeds the book, the others wait for it."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    made: dict[Path, IndexedFolder] = {}

    def folder(path: Path) -> IndexedFolder:
        key = Path(path).resolve()
        if key not in made:
            name = f"indexed-{key.name}-{hashlib.sha256(str(key).encode()).hexdigest()[:8]}"
            with open(shared / f"{name}.lock", "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                done = shared / name / "folder.pickle"
                if not done.is_file():
                    built = index_folder(shared / name / "data", embedder, Path(path))
                    done.write_bytes(pickle.dumps(built))
                made[key] = pickle.loads(done.read_bytes())
        return made[key]

    return folder


@pytest.fixture(scope="session")
def sample_book(tmp_path_factory, embedder, indexed_folder):
    book = open_copy(indexed_folder(SAMPLE_BOOK), tmp_path_factory.mktemp("sample") / "data", embedder)
    yield book
    book.index.close()


@pytest.fixture
def chat_app(request, tmp_path):
    """chat_app(book=None, *, generator=None, rewriter=None, config=None, data_dir=None, **settings)
    -> the real Flask app over `book` (the indexed sample book unless given), its sessions and
    rate limits under `data_dir` (tmp_path/"data" unless given: a second app there is the same
    server restarted). Settings fields go in as keywords. Its sessions store closes after the test."""
    built = []

    def make(book=None, *, generator=None, rewriter=None, config: dict | None = None, data_dir: Path | None = None,
             **settings_overrides):
        book = book or request.getfixturevalue("sample_book")
        app = make_app(book, data_dir or tmp_path / "data", generator, rewriter, config, **settings_overrides)
        built.append(app)
        return app

    yield make
    from server.app import EXTENSION

    for app in built:
        app.extensions[EXTENSION].close()


@pytest.fixture
def fake(monkeypatch):
    """A fake Gemini server on 127.0.0.1 that the app's real client is pointed at."""
    server = FakeGemini()
    gemini_env(monkeypatch, server)
    yield server
    server.close()
