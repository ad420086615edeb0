"""A serving process's own copy of a published generation, open for reading.

Reads hold the replica (`hold`/`release`) while they use its shard. When a newer generation is
published the store retires the replica: it closes, and its folder goes, as soon as the last
read that held it ends, so a process keeps one replica on disk between questions.
`NewestReplica` keeps a process's replica that of the newest publication.
"""
from __future__ import annotations

import shutil
import threading
import time
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


class NewestReplica:
    """This process's replica of the newest publication: opened by the first read, looked for
    again by reads at most every `every_s` (and then switched to in the background), or at once
    by `refresh`. A replaced replica is retired on a thread of its own (closing it takes a tenth
    of a second or more), not inside the request that switched."""

    def __init__(self, layout: Layout, config: Callable[[int], EdgeConfig], every_s: float):
        self.layout, self.config, self.every_s = layout, config, every_s
        self.replica: Replica | None = None
        self.after_fork()

    def after_fork(self) -> None:
        self._lock = threading.RLock()
        self._switching = threading.Lock()  # one refresh at a time
        self._checked = 0.0
        self._background: list[threading.Thread] = []

    def get(self) -> Replica | None:
        now = time.monotonic()
        if self.replica is None:
            self.refresh()  # one at a time (the others wait, then find it open)
            self._checked = now
        elif now - self._checked > self.every_s:
            self._checked = now
            generation = self.layout.current()
            if generation is not None and generation.name != self.replica.generation and not self._switching.locked():
                self._in_background(self.refresh, "index-refresh")
        return self.replica

    def refresh(self) -> None:
        """Read from the newest published generation from now on (a second call waits for the
        first, then has nothing left to do)."""
        with self._switching:
            generation = self.layout.current()
            if generation is not None and (self.replica is None or self.replica.generation != generation.name):
                replica = Replica(self.layout, generation, self.config)
                with self._lock:
                    old, self.replica = self.replica, replica
                if old is not None:
                    self._in_background(old.retire, "index-retire")

    def close(self) -> None:
        """Wait for the work in the background, and close the replica (read from no more)."""
        for thread in self._background:
            thread.join()
        self._background = []
        with self._lock:
            replica, self.replica = self.replica, None
        if replica is not None:
            replica.close()

    def _in_background(self, work: Callable[[], None], name: str) -> None:
        thread = threading.Thread(target=work, name=name, daemon=True)
        thread.start()
        with self._lock:
            self._background = [t for t in self._background if t.is_alive()] + [thread]
