"""Chunks in Qdrant: embedded local mode by default (a folder under the data dir), or a server.

Local mode allows one client per folder: a second process opening the same folder fails, so
the app keeps exactly one ChunkStore. Worker processes forked from the serving process share
its in-memory copy for reading (see wsgi.py).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable

import numpy as np
from qdrant_client import QdrantClient, models

from .errors import EmbeddingMismatch, StoreUnavailable, TextbookChatError
from .models import Chunk
from .settings import Settings
from .store_errors import guarded

DENSE = "dense"
SPARSE = "bm25"
SCHEMA_VERSION = 1
FILTERABLE_FIELDS = ("book_id", "source_file", "module", "chapter", "path_prefixes", "locale", "version")


# the domain errors under the names the indexer and older callers use
StoreError = TextbookChatError
StoreUnavailableError = StoreUnavailable
EmbeddingMismatchError = EmbeddingMismatch


@dataclass
class StoredFile:
    file_hash: str
    chunks: dict[str, str]  # chunk_id -> content_hash


@dataclass(frozen=True)
class Filters:
    book_id: str | None = None
    module: str | None = None
    chapter: str | None = None
    source_file: str | None = None  # a path prefix: a folder or a file
    locale: str | None = None
    version: str | None = None  # docs version name ("current" when unversioned)

    def to_qdrant(self) -> models.Filter | None:
        must = []
        for key, value in (("book_id", self.book_id), ("module", self.module), ("chapter", self.chapter),
                           ("locale", self.locale), ("version", self.version)):
            if value:
                must.append(models.FieldCondition(key=key, match=models.MatchValue(value=value)))
        if self.source_file:
            prefix = self.source_file.strip("/")
            must.append(models.FieldCondition(key="path_prefixes", match=models.MatchValue(value=prefix)))
        return models.Filter(must=must) if must else None


def open_client(settings: Settings) -> QdrantClient:
    if settings.qdrant_url:
        # no version probe: it runs on a thread of its own, where an unreachable server is an unhandled error
        return QdrantClient(url=settings.qdrant_url, api_key=settings.qdrant_api_key, timeout=10,
                            check_compatibility=False)
    settings.qdrant_path.mkdir(parents=True, exist_ok=True)
    try:
        return QdrantClient(path=str(settings.qdrant_path))
    except RuntimeError as exc:
        if "already accessed" in str(exc):
            raise StoreUnavailableError(
                f"the local index at {settings.qdrant_path} is open in another process "
                "(is `textbook-chat serve` running?). Stop it first, or use a Qdrant server via QDRANT_URL."
            ) from exc
        raise


@guarded  # qdrant-client errors leave as StoreUnavailable (see store_errors.py)
class ChunkStore:
    def __init__(self, client: QdrantClient, collection: str, model_name: str, dim: int, *, local: bool):
        self.client = client
        self.collection = collection
        self.model_name = model_name
        self.dim = dim
        self.local = local
        self._settings: Settings | None = None  # how to reconnect, when opened from settings
        # Local mode: chunks by id, as read once. Nothing but this object writes a local index (the
        # folder is locked), so its own writes are the only invalidation needed. Reading payloads
        # with each search would deep-copy them every time, on the request's critical path.
        self._chunks: dict[str, Chunk] = {}

    @classmethod
    def open(cls, settings: Settings, model_name: str, dim: int) -> "ChunkStore":
        store = cls(open_client(settings), settings.collection, model_name, dim, local=not settings.qdrant_url)
        store._settings = settings
        return store

    def after_fork(self) -> None:
        """A server's client gets connections of its own; a local index is read from memory as
        it is (and never closed in a worker: that would release the parent's folder lock)."""
        if not self.local and self._settings is not None:
            self.client = open_client(self._settings)

    # --- collection -----------------------------------------------------------------------
    def exists(self) -> bool:
        return self.client.collection_exists(self.collection)

    def check_compatible(self) -> None:
        """Raise EmbeddingMismatchError if the collection was built with another model."""
        if not self.exists():
            return
        info = self.client.get_collection(self.collection)
        meta = info.config.metadata or {}
        vectors = info.config.params.vectors
        size = vectors[DENSE].size if isinstance(vectors, dict) and DENSE in vectors else None
        if meta.get("embedding_model") != self.model_name or size != self.dim:
            raise EmbeddingMismatchError(
                f"collection '{self.collection}' was built with {meta.get('embedding_model', 'an unknown model')} "
                f"(dim {size}), but EMBEDDING_MODEL is {self.model_name} (dim {self.dim}). "
                "Re-index: textbook-chat ingest PATH --full"
            )

    def create(self, *, recreate: bool = False) -> None:
        self._chunks.clear()
        if recreate and self.exists():
            self.client.delete_collection(self.collection)
        if self.exists():
            self.check_compatible()
            return
        self.client.create_collection(
            self.collection,
            # the embedder returns unit vectors, so the dot product is the cosine similarity and the
            # store need not normalise every vector again on each query (local mode is brute force)
            vectors_config={DENSE: models.VectorParams(size=self.dim, distance=models.Distance.DOT)},
            sparse_vectors_config={SPARSE: models.SparseVectorParams(modifier=models.Modifier.IDF)},
            metadata={"embedding_model": self.model_name, "dim": self.dim, "schema": SCHEMA_VERSION},
        )
        if not self.local:  # payload indexes only exist on a server; local mode scans
            for field in FILTERABLE_FIELDS:
                self.client.create_payload_index(self.collection, field, models.PayloadSchemaType.KEYWORD)

    # --- writes ---------------------------------------------------------------------------
    def upsert(self, chunks: list[Chunk], vectors: np.ndarray, sparse: list[models.SparseVector] | None = None) -> None:
        self._chunks.clear()
        points = []
        for i, chunk in enumerate(chunks):
            vector: dict = {DENSE: vectors[i].tolist()}
            if sparse is not None:
                vector[SPARSE] = sparse[i]
            points.append(models.PointStruct(id=chunk.chunk_id, vector=vector, payload=chunk.payload()))
        for start in range(0, len(points), 256):
            self.client.upsert(self.collection, points=points[start : start + 256], wait=True)

    def delete_ids(self, ids: Iterable[str]) -> None:
        self._chunks.clear()
        ids = list(ids)
        if ids:
            self.client.delete(self.collection, points_selector=models.PointIdsList(points=ids), wait=True)

    def delete_book(self, book_id: str) -> None:
        self._chunks.clear()
        if self.exists():
            self.client.delete(self.collection, points_selector=models.FilterSelector(
                filter=Filters(book_id=book_id).to_qdrant()), wait=True)

    # --- reads ----------------------------------------------------------------------------
    def stored_files(self, book_id: str) -> dict[str, StoredFile]:
        """The book's pages as stored, by page key (its source file unless locale or version differ)."""
        files: dict[str, StoredFile] = {}
        if not self.exists():
            return files
        offset = None
        while True:
            points, offset = self.client.scroll(
                self.collection, scroll_filter=Filters(book_id=book_id).to_qdrant(), limit=1024, offset=offset,
                with_payload=["source_file", "page_key", "file_hash", "content_hash"], with_vectors=False)
            for point in points:
                p = point.payload or {}
                key = p.get("page_key") or p["source_file"]
                entry = files.setdefault(key, StoredFile(p.get("file_hash", ""), {}))
                entry.chunks[str(point.id)] = p.get("content_hash", "")
            if offset is None:
                return files

    def vectors(self, ids: list[str]) -> dict[str, tuple[list[float], models.SparseVector | None]]:
        if not ids:
            return {}
        points = self.client.retrieve(self.collection, ids=ids, with_vectors=True, with_payload=False)
        found = {}
        for point in points:
            vec = point.vector or {}
            found[str(point.id)] = (vec.get(DENSE), vec.get(SPARSE))
        return found

    def all_chunks(self, book_id: str | None = None) -> list[Chunk]:
        chunks: list[Chunk] = []
        if not self.exists():
            return chunks
        offset = None
        flt = Filters(book_id=book_id).to_qdrant() if book_id else None
        while True:
            points, offset = self.client.scroll(self.collection, scroll_filter=flt, limit=1024, offset=offset,
                                                with_payload=True, with_vectors=False)
            chunks.extend(Chunk.from_payload(p.id, p.payload or {}) for p in points)
            if offset is None:
                return chunks

    def count(self, book_id: str | None = None) -> int:
        if not self.exists():
            return 0
        flt = Filters(book_id=book_id).to_qdrant() if book_id else None
        return self.client.count(self.collection, count_filter=flt, exact=True).count

    def books(self) -> list[str]:
        if not self.exists():
            return []
        if self.local:
            seen: set[str] = set()
            offset = None
            while True:
                points, offset = self.client.scroll(self.collection, limit=2048, offset=offset,
                                                    with_payload=["book_id"], with_vectors=False)
                seen.update((p.payload or {}).get("book_id", "") for p in points)
                if offset is None:
                    return sorted(seen)
        hits = self.client.facet(self.collection, key="book_id", limit=1000)
        return sorted(str(h.value) for h in hits.hits)

    def search(self, vector: np.ndarray, limit: int, filters: Filters | None = None) -> list[Chunk]:
        if not self.exists():
            return []
        response = self.client.query_points(
            self.collection, query=vector.tolist(), using=DENSE, limit=limit,
            query_filter=filters.to_qdrant() if filters else None, with_payload=not self.local)
        if not self.local:
            return [Chunk.from_payload(p.id, p.payload or {}, score=float(p.score)) for p in response.points]
        chunks = self._read_chunks([str(p.id) for p in response.points])
        return [replace(chunks[str(p.id)], score=float(p.score)) for p in response.points if str(p.id) in chunks]

    def _read_chunks(self, ids: list[str]) -> dict[str, Chunk]:
        missing = [i for i in ids if i not in self._chunks]
        if missing:
            for point in self.client.retrieve(self.collection, ids=missing, with_payload=True, with_vectors=False):
                self._chunks[str(point.id)] = Chunk.from_payload(point.id, point.payload or {})
        return {i: self._chunks[i] for i in ids if i in self._chunks}

    def close(self) -> None:
        self.client.close()
