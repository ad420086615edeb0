"""Settings for a test, a book indexed once, and the product's app over it.

A book is embedded once per test session (the `indexed_folder` fixture): a test that needs an
index of its own, or a server process that needs a data folder, gets a copy (`copy_index`).
Tests get the app from the `chat_app` fixture (conftest.py), which closes what it opened;
`make_app` is for fixtures of a wider scope."""
from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from places import MODELS_DIR
from server.composition import Components, Index
from server.ingest.indexer import IngestReport, ingest
from server.ingest.site import Site, detect_site
from server.settings import Settings
from server.store import ChunkStore, open_store


def make_settings(data_dir: Path, **overrides) -> Settings:
    """Settings for a test: its own data folder, the provisioned model, a rate limit no test reaches."""
    return Settings(**{"data_dir": data_dir, "models_dir": MODELS_DIR, "rate_limit": "1000 per minute", **overrides})


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


def index_book(data_dir: Path, embedder, path: Path, site_url: str | None = None,
               build_dir: Path | None = None) -> IndexedBook:
    settings = make_settings(data_dir)
    store = open_store(settings, embedder.model_name, embedder.dim)
    site = detect_site(path, site_url=site_url, build_dir=build_dir)
    report = ingest(site, store, embedder, progress=False)
    return IndexedBook(settings, Index(embedder, store), site, report)


@dataclass(frozen=True)
class IndexedFolder:
    """A data folder holding one book's published index, closed: copy it, never open it to write."""

    data_dir: Path
    site: Site
    report: IngestReport


def index_folder(data_dir: Path, embedder, path: Path) -> IndexedFolder:
    store = open_store(make_settings(data_dir), embedder.model_name, embedder.dim)
    try:
        site = detect_site(path)
        report = ingest(site, store, embedder, progress=False)
    finally:
        store.close()  # published: readers (and copies) see all of it
    return IndexedFolder(data_dir, site, report)


def copy_index(folder: IndexedFolder, data_dir: Path) -> Path:
    """`data_dir` with a copy of `folder`'s index (no sessions, no process's replica)."""
    shutil.copytree(folder.data_dir, data_dir, ignore=shutil.ignore_patterns("sessions.db*", "replicas"),
                    dirs_exist_ok=True)
    return data_dir


def open_copy(folder: IndexedFolder, data_dir: Path, embedder) -> IndexedBook:
    """A copy of `folder` in `data_dir`, open like a book indexed there."""
    settings = make_settings(copy_index(folder, data_dir))
    return IndexedBook(settings, Index(embedder, open_store(settings, embedder.model_name, embedder.dim)),
                       folder.site, folder.report)


def make_app(book: IndexedBook, data_dir: Path, generator=None, rewriter=None, config: dict | None = None,
             **settings_overrides):
    """The real Flask app over `book`'s index with sessions and limits under `data_dir`."""
    from server.app import create_app  # Flask only where a test asks for the web layer

    settings = make_settings(data_dir, **settings_overrides)
    return create_app(settings, components=book.components(settings, generator, rewriter), config=config)
