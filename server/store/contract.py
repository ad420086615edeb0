"""What every store of book chunks offers (`ChunkStore`), and the values it takes and gives.

Two backends keep this contract (tests/test_store_contract.py runs the same tests on each):
Qdrant Edge in the process (edge.py, the default) and a Qdrant server through qdrant-client
(qdrant_server.py, when QDRANT_URL is set).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Protocol

import numpy as np

from server.book.chunk import Chunk

DENSE = "dense"  # the embedding model's vector of a chunk
SPARSE = "bm25"  # declared by every collection, no longer written: indexes from before (which hold
# BM25 term weights) and after open alike; the lexical ranking is question/gather/lexical.py's BM25
SCHEMA_VERSION = 2
# payload fields with an index: what searches filter on and what ingest looks chunks up by
KEYWORD_FIELDS = ("book_id", "source_file", "module", "chapter", "path_prefixes", "locale", "version", "labels")
PENDING = "pending:"  # a file_hash with this prefix: the file's chunks are still being written


@dataclass
class StoredFile:
    file_hash: str  # "" when the file's chunks are not all of one complete ingest
    chunks: dict[str, str]  # chunk_id -> content_hash


def file_state(hashes: set[str]) -> str:
    """A file's fingerprint as stored: its chunks' one shared hash, or "" if they disagree or
    any is still pending (an ingest stopped in the middle of the file)."""
    if len(hashes) != 1:
        return ""
    (only,) = hashes
    return "" if only.startswith(PENDING) else only


FILE_FIELDS = ["source_file", "page_key", "file_hash", "content_hash"]


def stored_files_of(points: Iterable) -> dict[str, StoredFile]:
    """Group scrolled points (payload FILE_FIELDS) by file: a page is its source file, locale and
    version (`page_key`), older points name only the source file."""
    hashes: dict[str, set[str]] = {}
    files: dict[str, StoredFile] = {}
    for point in points:
        payload = point.payload or {}
        source = payload.get("page_key") or payload["source_file"]
        hashes.setdefault(source, set()).add(payload.get("file_hash", ""))
        files.setdefault(source, StoredFile("", {})).chunks[str(point.id)] = payload.get("content_hash", "")
    for source, entry in files.items():
        entry.file_hash = file_state(hashes[source])
    return files


@dataclass(frozen=True)
class Filters:
    """Hard filters of a search; unset fields do not filter."""

    book_id: str | None = None
    module: str | None = None
    chapter: str | None = None
    source_file: str | None = None  # a path prefix: a folder or a file
    locale: str | None = None
    version: str | None = None
    # locales whose chunks another model embedded (a translation read with the multilingual
    # model): a search without their locale must not compare their vectors with its own
    apart: tuple[str, ...] = ()

    def conditions(self) -> list[tuple[str, str]]:
        """(payload key, value) pairs that a chunk must all match."""
        found = [(key, value) for key, value in (
            ("book_id", self.book_id), ("module", self.module), ("chapter", self.chapter),
            ("locale", self.locale), ("version", self.version)) if value]
        if self.source_file and self.source_file.strip("/"):
            found.append(("path_prefixes", self.source_file.strip("/")))
        return found


class ChunkStore(Protocol):
    """Chunks of books with their dense and BM25 vectors, searchable with filters.

    Writes become visible to other processes when published (`publish`, and `close` after
    writes); the process that writes reads its own writes at once.
    """

    collection: str
    model_name: str
    dim: int
    locale_models: dict[str, str]  # a locale embedded with a model other than model_name (its own)
    local: bool  # embedded in this process (True) or a server (False)

    # --- collection ---
    def exists(self) -> bool: ...
    def built_with(self) -> str | None:
        """The embedding model the stored chunks were made with (None: no collection yet)."""
    def built_locale_models(self) -> dict[str, str]:
        """The locales the stored chunks of another model were made with, and that model."""
    def check_compatible(self) -> None:
        """Raise EmbeddingMismatch if the chunks were embedded with another model or size."""
    def create(self, *, recreate: bool = False) -> None:
        """Make the collection if missing (checking the model if present); `recreate` starts
        an empty one, which readers see only once published."""

    # --- writes ---
    def upsert(self, chunks: list[Chunk], vectors: np.ndarray) -> None: ...
    def set_file_hash(self, ids: list[str], file_hash: str) -> None:
        """Record `file_hash` on these chunks (a file's fingerprint, once all of it is written)."""
    def delete_ids(self, ids: Iterable[str]) -> None: ...
    def delete_book(self, book_id: str) -> None: ...
    def save_outline(self, book_id: str, outline: dict | None) -> None:
        """Keep the book's outline (server/book/outline.py) with its chunks; None removes it."""
    def publish(self) -> None:
        """Compact and make the writes so far visible to readers in other processes."""
    def generation(self) -> object:
        """A cheap mark of the last publication (None before any): it changes with every
        `publish` that wrote something, in every process, so a reader knows to `refresh` and to
        read its kept views of the books again."""

    # --- reads ---
    def stored_files(self, book_id: str) -> dict[str, StoredFile]: ...
    def vectors(self, ids: list[str]) -> dict[str, list[float]]: ...
    def all_chunks(self, book_id: str | None = None) -> list[Chunk]: ...
    def count(self, book_id: str | None = None) -> int: ...
    def books(self) -> list[str]: ...
    def outline(self, book_id: str) -> dict | None:
        """The outline stored with the chunks readers see now."""
    def search(self, vector: np.ndarray, limit: int, filters: Filters | None = None) -> list[Chunk]:
        """Nearest chunks by the dense vector, best first; score = cosine similarity."""

    # --- processes ---
    def refresh(self) -> None:
        """Read what was last published from now on (at once, before returning)."""
    def before_fork(self) -> None:
        """Let go of what a forked child cannot use (the parent serves no reads afterwards)."""
    def after_fork(self) -> None:
        """In a forked child: open what this process reads from."""
    def close(self) -> None: ...
