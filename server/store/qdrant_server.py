"""A Qdrant server (QDRANT_URL) through qdrant-client: for several app servers sharing one index.

The same contract as the embedded store. A server is written and read in place: there is
nothing to publish, and readers see an ingest's chunks as they are written (a file's chunks
count as ingested only once all are there, see ingest/indexer.py).
"""
from __future__ import annotations

import json
import uuid
from typing import Iterable

import numpy as np
from qdrant_client import QdrantClient, models
from qdrant_client.http.exceptions import UnexpectedResponse

from server.errors import EmbeddingMismatch
from server.book.chunk import Chunk
from server.settings import Settings
from server.store.contract import DENSE, KEYWORD_FIELDS, SCHEMA_VERSION, SPARSE, FILE_FIELDS, Filters, StoredFile, stored_files_of
from server.store.errors import guarded


_PUBLISHED = str(uuid.uuid5(uuid.NAMESPACE_URL, "textbook-chat:published"))  # the outlines' point marking a publication


def open_client(settings: Settings) -> QdrantClient:
    # no version probe: it runs on a thread of its own, where an unreachable server is an unhandled error
    return QdrantClient(url=settings.qdrant_url, api_key=settings.qdrant_api_key, timeout=10,
                        check_compatibility=False)


def to_qdrant(filters: Filters | None) -> models.Filter | None:
    if filters is None:
        return None
    must = [models.FieldCondition(key=key, match=models.MatchValue(value=value)) for key, value in filters.conditions()]
    apart = ([models.FieldCondition(key="locale", match=models.MatchAny(any=list(filters.apart)))]
             if filters.apart and not filters.locale else [])
    return models.Filter(must=must or None, must_not=apart or None) if must or apart else None


def _book(book_id: str | None) -> models.Filter | None:
    return to_qdrant(Filters(book_id=book_id)) if book_id else None


@guarded  # client errors leave as StoreUnavailable (see errors.py)
class QdrantServerStore:
    local = False

    def __init__(self, client: QdrantClient, collection: str, model_name: str, dim: int, *,
                 settings: Settings | None = None, payload_indexes: bool = True):
        self.client = client
        self.collection = collection
        self.model_name = model_name
        self.dim = dim
        self.locale_models: dict[str, str] = {}
        self._settings = settings  # how to reconnect after a fork
        # qdrant-client's own embedded mode (used by the contract tests without a server) has none
        self._payload_indexes = payload_indexes

    @classmethod
    def open(cls, settings: Settings, model_name: str, dim: int) -> "QdrantServerStore":
        return cls(open_client(settings), settings.collection, model_name, dim, settings=settings)

    # --- collection -----------------------------------------------------------------------
    def exists(self) -> bool:
        return self.client.collection_exists(self.collection)

    def built_with(self) -> str | None:
        if not self.exists():
            return None
        return (self.client.get_collection(self.collection).config.metadata or {}).get("embedding_model")

    def built_locale_models(self) -> dict[str, str]:
        if not self.exists():
            return {}
        return dict((self.client.get_collection(self.collection).config.metadata or {}).get("locale_models") or {})

    def check_compatible(self) -> None:
        if not self.exists():
            return
        info = self.client.get_collection(self.collection)
        meta = info.config.metadata or {}
        vectors = info.config.params.vectors
        size = vectors[DENSE].size if isinstance(vectors, dict) and DENSE in vectors else None
        if meta.get("embedding_model") != self.model_name or size != self.dim:
            raise EmbeddingMismatch(
                f"collection '{self.collection}' was built with {meta.get('embedding_model', 'an unknown model')} "
                f"(dim {size}), but EMBEDDING_MODEL is {self.model_name} (dim {self.dim}). "
                "Re-index: textbook-chat ingest PATH --full")

    def create(self, *, recreate: bool = False) -> None:
        if recreate and self.exists():
            self.client.delete_collection(self.collection)
        if self.exists():
            self.check_compatible()
            if self.built_locale_models() != self.locale_models:  # the locales read with another model changed
                self.client.update_collection(self.collection, metadata={"locale_models": self.locale_models})
            return
        self.client.create_collection(
            self.collection,
            vectors_config={DENSE: models.VectorParams(size=self.dim, distance=models.Distance.DOT)},
            sparse_vectors_config={SPARSE: models.SparseVectorParams(modifier=models.Modifier.IDF)},
            metadata={"embedding_model": self.model_name, "dim": self.dim, "schema": SCHEMA_VERSION,
                      **({"locale_models": self.locale_models} if self.locale_models else {})},
        )
        if self._payload_indexes:
            for field in KEYWORD_FIELDS:
                schema = (models.KeywordIndexParams(type=models.KeywordIndexType.KEYWORD, is_tenant=True)
                          if field == "book_id" else models.PayloadSchemaType.KEYWORD)
                self.client.create_payload_index(self.collection, field, schema)

    # --- writes ---------------------------------------------------------------------------
    def upsert(self, chunks: list[Chunk], vectors: np.ndarray) -> None:
        points = [models.PointStruct(id=chunk.chunk_id, payload=chunk.payload(),
                                     vector={DENSE: np.asarray(vectors[i], dtype=np.float32).tolist()})
                  for i, chunk in enumerate(chunks)]
        for start in range(0, len(points), 256):
            self.client.upsert(self.collection, points=points[start : start + 256], wait=True)

    def set_file_hash(self, ids: list[str], file_hash: str) -> None:
        if ids:
            self.client.set_payload(self.collection, payload={"file_hash": file_hash},
                                    points=models.PointIdsList(points=list(ids)), wait=True)

    def delete_ids(self, ids: Iterable[str]) -> None:
        ids = list(ids)
        if ids:
            self.client.delete(self.collection, points_selector=models.PointIdsList(points=ids), wait=True)

    def delete_book(self, book_id: str) -> None:
        if self.exists():
            self.client.delete(self.collection, points_selector=models.FilterSelector(filter=_book(book_id)), wait=True)
            self.save_outline(book_id, None)

    # outlines live in a collection of their own, one vectorless point per book
    @property
    def _outlines(self) -> str:
        return f"{self.collection}_outlines"

    def save_outline(self, book_id: str, outline: dict | None) -> None:
        point_id = str(uuid.uuid5(uuid.NAMESPACE_URL, f"outline:{book_id}"))
        if outline is None:
            if self.client.collection_exists(self._outlines):
                self.client.delete(self._outlines, points_selector=models.PointIdsList(points=[point_id]), wait=True)
            return
        if not self.client.collection_exists(self._outlines):
            self.client.create_collection(self._outlines, vectors_config={})
        self.client.upsert(self._outlines, points=[models.PointStruct(
            id=point_id, vector={}, payload={"book_id": book_id, "outline": json.dumps(outline)})], wait=True)

    def outline(self, book_id: str) -> dict | None:
        if not self.client.collection_exists(self._outlines):
            return None
        found = self.client.retrieve(self._outlines, [str(uuid.uuid5(uuid.NAMESPACE_URL, f"outline:{book_id}"))],
                                     with_payload=True)
        return json.loads(found[0].payload["outline"]) if found else None

    def publish(self) -> None:
        """The server's own optimizers compact, and readers read in place: a publication only
        marks that the writes are done, for the readers' caches (`generation`)."""
        if not self.client.collection_exists(self._outlines):
            self.client.create_collection(self._outlines, vectors_config={})
        self.client.upsert(self._outlines, points=[models.PointStruct(
            id=_PUBLISHED, vector={}, payload={"published": uuid.uuid4().hex})], wait=True)

    def generation(self) -> str | None:
        """The last publication's mark (one point read by id): readers' caches of the books
        are made again when it changes (composition.py Index.follow)."""
        try:
            found = self.client.retrieve(self._outlines, [_PUBLISHED], with_payload=True)
        except UnexpectedResponse as exc:
            if exc.status_code == 404:  # nothing published yet
                return None
            raise
        except ValueError:  # qdrant-client's embedded mode: no such collection yet
            return None
        return str(found[0].payload.get("published")) if found else None

    # --- reads ----------------------------------------------------------------------------
    def stored_files(self, book_id: str) -> dict[str, StoredFile]:
        return stored_files_of(self._scroll(_book(book_id), FILE_FIELDS))

    def vectors(self, ids: list[str]) -> dict[str, list[float]]:
        if not ids:
            return {}
        points = self.client.retrieve(self.collection, ids=list(ids), with_vectors=[DENSE], with_payload=False)
        return {str(p.id): (p.vector or {}).get(DENSE) for p in points}

    def all_chunks(self, book_id: str | None = None) -> list[Chunk]:
        return [Chunk.from_payload(str(p.id), p.payload or {}) for p in self._scroll(_book(book_id), True)]

    def count(self, book_id: str | None = None) -> int:
        if not self.exists():
            return 0
        return self.client.count(self.collection, count_filter=_book(book_id), exact=True).count

    def books(self) -> list[str]:
        if not self.exists():
            return []
        if not self._payload_indexes:
            return sorted({(p.payload or {}).get("book_id", "") for p in self._scroll(None, ["book_id"])})
        hits = self.client.facet(self.collection, key="book_id", limit=100_000, exact=True)
        return sorted(str(h.value) for h in hits.hits if h.count)

    def search(self, vector: np.ndarray, limit: int, filters: Filters | None = None) -> list[Chunk]:
        if not self.exists():
            return []
        response = self.client.query_points(self.collection, query=np.asarray(vector).tolist(), using=DENSE,
                                            limit=limit, query_filter=to_qdrant(filters), with_payload=True)
        return [Chunk.from_payload(str(p.id), p.payload or {}, score=float(p.score)) for p in response.points]

    # --- processes ------------------------------------------------------------------------
    def refresh(self) -> None:
        """Nothing to do: a server is read in place."""

    def before_fork(self) -> None:
        """The client's connections are not used across the fork (see after_fork)."""

    def after_fork(self) -> None:
        if self._settings is not None:
            self.client = open_client(self._settings)

    def close(self) -> None:
        self.client.close()

    def _scroll(self, flt, with_payload):
        if not self.exists():
            return
        offset = None
        while True:
            points, offset = self.client.scroll(self.collection, scroll_filter=flt, limit=1024, offset=offset,
                                                with_payload=with_payload, with_vectors=False)
            yield from points
            if offset is None:
                return
