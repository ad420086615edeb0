"""The embedded store: Qdrant Edge (the Qdrant engine in this process), the default.

The writing process (ingest) holds the shard in `writer/` and reads its own writes from it;
serving processes read from replicas of what was last published (see snapshots.py).
"""
from __future__ import annotations

import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator

import numpy as np
from qdrant_edge import (
    CountRequest, EdgeShard, FacetRequest, Filter, KeywordIndexParams, PayloadSchemaType, Point, Query, QueryRequest,
    ScrollRequest, SearchParams, UpdateOperation,
)

from server.errors import EmbeddingMismatch
from server.book.chunk import Chunk
from server.store.contract import DENSE, KEYWORD_FIELDS, SCHEMA_VERSION, FILE_FIELDS, Filters, StoredFile, stored_files_of
from server.store.errors import guarded
from server.store.replica import NewestReplica, Replica
from server.store.snapshots import Layout
from server.store.tuning import SearchTuning, as_floats, book_filter, to_edge

REFRESH_S = 1.0  # how often a reader looks for a newer published generation
WRITE_BATCH = 512


@guarded  # engine errors leave as StoreUnavailable (see errors.py)
class EdgeStore:
    local = True

    def __init__(self, root: Path, collection: str, model_name: str, dim: int, *,
                 tuning: SearchTuning = SearchTuning()):
        self.layout = Layout(root)
        self.collection = collection
        self.model_name = model_name
        self.dim = dim
        self.locale_models: dict[str, str] = {}
        self.tuning = tuning
        self._writer: EdgeShard | None = None
        self._dirty = False
        self._readers = NewestReplica(self.layout, tuning.reader_config, REFRESH_S)

    @property
    def record(self) -> dict:
        return {"embedding_model": self.model_name, "dim": self.dim, "schema": SCHEMA_VERSION,
                "collection": self.collection, **({"locale_models": self.locale_models} if self.locale_models else {})}

    # --- collection -----------------------------------------------------------------------
    def exists(self) -> bool:
        return self._writer is not None or self.layout.has_data()

    def built_with(self) -> str | None:
        return (self._stored_record() or {}).get("embedding_model") if self.exists() else None

    def built_locale_models(self) -> dict[str, str]:
        return dict((self._stored_record() or {}).get("locale_models") or {}) if self.exists() else {}

    def check_compatible(self) -> None:
        record = self._stored_record()
        if record is None:
            return
        if record.get("embedding_model") != self.model_name or record.get("dim") != self.dim:
            raise EmbeddingMismatch(
                f"the index '{self.collection}' was built with {record.get('embedding_model', 'an unknown model')} "
                f"(dim {record.get('dim')}), but EMBEDDING_MODEL is {self.model_name} (dim {self.dim}). "
                "Re-index: textbook-chat ingest PATH --full")

    def create(self, *, recreate: bool = False) -> None:
        if recreate:
            self._close_writer(publish=False)
            shutil.rmtree(self.layout.writer, ignore_errors=True)
            self._dirty = True  # even an empty index replaces the published one
        else:
            self.check_compatible()
        self._open_writer()
        if Layout.read_record(self.layout.writer) != self.record:  # the locales read with another model changed
            Layout.write_record(self.layout.writer, self.record)

    # --- writes ---------------------------------------------------------------------------
    def upsert(self, chunks: list[Chunk], vectors: np.ndarray) -> None:
        shard = self._open_writer()
        points = [Point(chunk.chunk_id, {DENSE: np.asarray(vectors[i], dtype=np.float32).tolist()}, chunk.payload())
                  for i, chunk in enumerate(chunks)]
        for start in range(0, len(points), WRITE_BATCH):
            shard.update(UpdateOperation.upsert_points(points[start : start + WRITE_BATCH]))
        self._dirty = True

    def set_file_hash(self, ids: list[str], file_hash: str) -> None:
        if ids:
            self._open_writer().update(UpdateOperation.set_payload(list(ids), {"file_hash": file_hash}))
            self._dirty = True

    def delete_ids(self, ids: Iterable[str]) -> None:
        ids = list(ids)
        if ids:
            self._open_writer().update(UpdateOperation.delete_points(ids))
            self._dirty = True

    def delete_book(self, book_id: str) -> None:
        if self.exists():
            self._open_writer().update(UpdateOperation.delete_points_by_filter(book_filter(book_id)))
            self.save_outline(book_id, None)
            self._dirty = True

    def save_outline(self, book_id: str, outline: dict | None) -> None:
        self._open_writer()
        if Layout.write_outline(self.layout.writer, book_id, outline):
            self._dirty = True

    def outline(self, book_id: str) -> dict | None:
        if self._writer is not None:
            return Layout.read_outline(self.layout.writer, book_id)
        with self._reading() as (_, replica):
            return Layout.read_outline(replica.path, book_id) if replica else None

    def publish(self) -> None:
        """Compact (vacuum deleted points, merge segments, build the vector index where large
        enough) and publish a copy for the readers."""
        if self._writer is None or not self._dirty:
            return
        self._writer.optimize()
        self._writer.flush()
        # the record the shard was made with: a writer that does not load the model (remove-book) keeps it
        self.layout.publish(self.layout.writer_shard, Layout.read_record(self.layout.writer) or self.record)
        self._dirty = False

    # --- reads ----------------------------------------------------------------------------
    def stored_files(self, book_id: str) -> dict[str, StoredFile]:
        return stored_files_of(self._scroll(book_filter(book_id), FILE_FIELDS))

    def vectors(self, ids: list[str]) -> dict[str, list[float]]:
        with self._reading() as (shard, _):
            if not ids or shard is None:
                return {}
            return {str(r.id): r.vector[DENSE]
                    for r in shard.retrieve(list(ids), with_payload=False, with_vector=[DENSE])}

    def all_chunks(self, book_id: str | None = None) -> list[Chunk]:
        return [Chunk.from_payload(str(r.id), r.payload or {}) for r in self._scroll(book_filter(book_id), True)]

    def count(self, book_id: str | None = None) -> int:
        with self._reading() as (shard, _):
            return shard.count(CountRequest(exact=True, filter=book_filter(book_id))) if shard else 0

    def books(self) -> list[str]:
        with self._reading() as (shard, _):
            if shard is None:
                return []
            hits = shard.facet(FacetRequest("book_id", limit=100_000, exact=True)).hits
        return sorted(str(hit.value) for hit in hits if hit.count)  # a deleted book stays, at 0, until compaction

    def search(self, vector: np.ndarray, limit: int, filters: Filters | None = None) -> list[Chunk]:
        with self._reading() as (shard, replica):
            if shard is None:
                return []
            points = shard.query(QueryRequest(limit=limit, query=Query.Nearest(as_floats(vector), using=DENSE),
                                              filter=to_edge(filters), with_payload=replica is None,
                                              params=SearchParams(hnsw_ef=self.tuning.hnsw_ef)))
            if replica is not None:
                return replica.chunks([(str(p.id), float(p.score)) for p in points])
        return [Chunk.from_payload(str(p.id), p.payload or {}, score=float(p.score)) for p in points]

    def generation(self) -> tuple[int, int, int] | None:
        """The publication readers should see, by one stat() of `published/CURRENT`: a server
        asks before every request, and refreshes when it changed (composition.py Index.follow)."""
        return self.layout.marker()

    def refresh(self) -> None:
        """Read from the newest published generation now (readers also do so on their own
        within about REFRESH_S of a publication)."""
        self._readers.refresh()

    def before_fork(self) -> None:
        self._readers.close()

    def after_fork(self) -> None:
        """Open this process's replica now, before the first question waits for the copy."""
        self._readers.after_fork()
        self._shard()

    def close(self) -> None:
        self._close_writer(publish=True)
        self.before_fork()

    # --- inside ---------------------------------------------------------------------------
    def _stored_record(self) -> dict | None:
        if self._writer is not None or self.layout.writer_shard.exists():
            return Layout.read_record(self.layout.writer)
        if self._readers.replica is not None:
            return self._readers.replica.record
        current = self.layout.current()
        return Layout.read_record(current) if current else None

    def _open_writer(self) -> EdgeShard:
        if self._writer is not None:
            return self._writer
        shard_dir = self.layout.writer_shard
        if not shard_dir.exists() and not self._dirty:
            with self.layout.reading() as current:
                if current is not None:
                    # a folder holding only published generations (a restored backup, a copy from
                    # another machine): continue from the newest
                    shutil.copytree(current / "shard", shard_dir)
                    if (current / "outlines").is_dir():
                        shutil.copytree(current / "outlines", self.layout.writer / "outlines", dirs_exist_ok=True)
                    Layout.write_record(self.layout.writer, Layout.read_record(current) or self.record)
        if shard_dir.exists():
            self._writer = EdgeShard.load(str(shard_dir))
        else:
            shard_dir.parent.mkdir(parents=True, exist_ok=True)
            self._writer = EdgeShard.create(str(shard_dir), self.tuning.config(self.dim))
            for field in KEYWORD_FIELDS:
                schema = KeywordIndexParams(is_tenant=True) if field == "book_id" else PayloadSchemaType.Keyword
                self._writer.update(UpdateOperation.create_field_index(field, schema))
            Layout.write_record(self.layout.writer, self.record)
        return self._writer

    def _close_writer(self, *, publish: bool) -> None:
        if self._writer is None:
            return
        if publish:
            self.publish()
        self._writer.close()
        self._writer = None

    def _shard(self) -> EdgeShard | None:
        """What this process reads from: its own writes, else its replica of the newest publication."""
        if self._writer is not None:
            return self._writer
        replica = self._readers.get()
        return replica.shard if replica else None

    @contextmanager
    def _reading(self) -> Iterator[tuple[EdgeShard | None, Replica | None]]:
        """The shard to read from, and its replica held until the read ends (a replaced
        replica closes when the last read that holds it ends)."""
        if self._writer is not None:
            yield self._writer, None
            return
        while True:
            replica = self._readers.get()
            if replica is None:
                yield None, None
                return
            if replica.hold():
                break  # else it closed since: read from the one that replaced it
        try:
            yield replica.shard, replica
        finally:
            replica.release()

    def _scroll(self, flt: Filter | None, with_payload):
        with self._reading() as (shard, _):
            if shard is None:
                return
            offset = None
            while True:
                records, offset = shard.scroll(ScrollRequest(offset=offset, limit=1024, filter=flt,
                                                             with_payload=with_payload, with_vector=False))
                yield from records
                if offset is None:
                    return
