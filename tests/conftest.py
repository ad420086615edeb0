"""Shared fixtures: the real embedding model (provisioned once per machine under data/models),
real local Qdrant folders and SQLite files in temporary directories. Helpers that tests import
live in `helpers`; this module holds fixtures only."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from helpers import MODELS_DIR, PHYSICAL_AI, SAMPLE_BOOK, FakeGemini, gemini_env, make_settings, index_book
from server.embedding.embedder import load_embedder
from server.settings import Settings
from server.store import open_store


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
def physical_ai(tmp_path_factory, embedder):
    book = index_book(tmp_path_factory.mktemp("physical-ai") / "data", embedder, PHYSICAL_AI)
    yield book
    book.index.close()


@pytest.fixture(scope="session")
def sample_book(tmp_path_factory, embedder):
    book = index_book(tmp_path_factory.mktemp("sample") / "data", embedder, SAMPLE_BOOK)
    yield book
    book.index.close()


@pytest.fixture
def fake(monkeypatch):
    """A fake Gemini server on 127.0.0.1 that the app's real client is pointed at."""
    server = FakeGemini()
    gemini_env(monkeypatch, server)
    yield server
    server.close()
