"""A serving process's own copy of a published generation, open for reading.

Reads hold the replica (`hold`/`release`) while they use its shard. When a newer generation is
published the store retires the replica: it closes, and its folder goes, as soon as the last
read that held it ends, so a process keeps one replica on disk between questions.
"""
from __future__ import annotations

import shutil
import threading
from pathlib import Path
from typing import Callable

from qdrant_edge import EdgeConfig, EdgeShard

from server.book.chunk import Chunk
from server.store.snapshots import Layout, replica_owner

CACHED_CHUNKS = 20_000  # chunks a replica keeps read (a few KB each); the rest are read when found


class Replica:
    def __init__(self, layout: Layout, generation: Path, config: Callable[[int], EdgeConfig]):
        self.path = layout.make_replica(generation)
        self.generation = replica_owner(self.path.name)[1]  # the one copied (a newer one if `generation` went)
        self.record = Layout.read_record(self.path) or {}
        dim = self.record.get("dim")  # the index's own (a reader may not know the model's, e.g. `pages`)
        shard = str(self.path / "shard")
        self.shard = EdgeShard.load(shard, config(dim)) if dim else EdgeShard.load(shard)
        self._chunks: dict[str, Chunk] = {}
        self._reading = threading.Lock()
        self._state = threading.Lock()
        self._readers = 0
        self._retired = False
        self._closed = False

    def hold(self) -> bool:
        """Count a read in; False once retired (the store reads from its successor)."""
        with self._state:
            if self._retired or self._closed:
                return False
            self._readers += 1
            return True

    def release(self) -> None:
        with self._state:
            self._readers -= 1
            last = self._retired and self._readers == 0
        if last:
            self.close()

    def retire(self) -> None:
        """No new reads will come: close now, or when the reads in flight end."""
        with self._state:
            self._retired = True
            idle = self._readers == 0
        if idle:
            self.close()

    def chunks(self, hits: list[tuple[str, float]]) -> list[Chunk]:
        """The chunks of search hits (id, score), their payloads read once per replica: a
        generation never changes, and reading and converting 30 payloads per question cost
        more than the search itself."""
        known = {point_id: self._chunks.get(point_id) for point_id, _ in hits}
        missing = [point_id for point_id, chunk in known.items() if chunk is None]
        if missing:
            found = [Chunk.from_payload(str(r.id), r.payload or {})
                     for r in self.shard.retrieve(missing, with_payload=True, with_vector=False)]
            known.update((chunk.chunk_id, chunk) for chunk in found)
            with self._reading:
                self._chunks.update((chunk.chunk_id, chunk) for chunk in found)
                while len(self._chunks) > CACHED_CHUNKS:
                    del self._chunks[next(iter(self._chunks))]  # the longest kept
        return [known[point_id].with_score(score) for point_id, score in hits if known[point_id] is not None]

    def close(self) -> None:
        with self._state:
            if self._closed:
                return
            self._closed = True
        try:
            self.shard.close()
        finally:
            shutil.rmtree(self.path, ignore_errors=True)
