"""Shared fixtures: the real embedding model (provisioned once per machine under data/models),
real local Qdrant folders and SQLite files in temporary directories."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from server.embedding.embedder import load_embedder
from server.ingest.indexer import ingest
from server.ingest.site import detect_site
from server.composition import Components, Index
from server.settings import Settings
from server.store import ChunkStore

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
CORPORA = SHARED / "corpora"
EVAL = SHARED / "eval"
PHYSICAL_AI = CORPORA / "physical-ai-book" / "docs"
RUST_BOOK = CORPORA / "rust-book"
SAMPLE_BOOK = REPO / "sample-book"
MODELS_DIR = REPO / "data" / "models"


def make_settings(data_dir: Path, **overrides) -> Settings:
    return Settings(data_dir=data_dir, models_dir=MODELS_DIR, rate_limit="1000 per minute", **overrides)


@pytest.fixture(scope="session")
def embedder():
    return load_embedder(Settings(models_dir=MODELS_DIR))


@pytest.fixture
def settings(tmp_path) -> Settings:
    return make_settings(tmp_path / "data")


@pytest.fixture
def store(settings, embedder):
    chunk_store = ChunkStore.open(settings, embedder.model_name, embedder.dim)
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


class IndexedBook:
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


def _indexed(tmp_path_factory, embedder, path: Path, name: str) -> IndexedBook:
    settings = make_settings(tmp_path_factory.mktemp(name) / "data")
    store = ChunkStore.open(settings, embedder.model_name, embedder.dim)
    site = detect_site(path)
    report = ingest(site, store, embedder, progress=False)
    return IndexedBook(settings, Index(embedder, store), site, report)


@pytest.fixture(scope="session")
def physical_ai(tmp_path_factory, embedder):
    book = _indexed(tmp_path_factory, embedder, PHYSICAL_AI, "physical-ai")
    yield book
    book.index.close()


@pytest.fixture(scope="session")
def sample_book(tmp_path_factory, embedder):
    book = _indexed(tmp_path_factory, embedder, SAMPLE_BOOK, "sample")
    yield book
    book.index.close()


def all_chunks(store: ChunkStore, book_id: str | None = None):
    return store.all_chunks(book_id)
