"""Indexes made by the previous embedded store (qdrant-client's local mode, `data/qdrant`).

Found on start, such an index is moved into the embedded store once, vectors and all (nothing
is embedded again), and the old folder is renamed so that it is not read again.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

import numpy as np

from server.book.chunk import Chunk
from server.store.contract import DENSE


def previous_index(folder: Path, collection: str) -> bool:
    return (folder / "collection" / collection).is_dir()


def move_into(store, folder: Path, log: Callable[[str], None]) -> int:
    """Copy the chunks of `folder` (local mode) into `store`, publish them, rename `folder`.
    The store takes the old index's embedding model record, so a mismatch is still reported."""
    from qdrant_client import QdrantClient

    client = QdrantClient(path=str(folder))
    try:
        info = client.get_collection(store.collection)
        meta = info.config.metadata or {}
        vectors = info.config.params.vectors
        store.model_name = meta.get("embedding_model", store.model_name)
        store.dim = vectors[DENSE].size if isinstance(vectors, dict) and DENSE in vectors else store.dim
        store.create()
        moved, offset = 0, None
        while True:
            points, offset = client.scroll(store.collection, limit=512, offset=offset,
                                           with_payload=True, with_vectors=[DENSE])
            if points:
                chunks = [Chunk.from_payload(str(p.id), p.payload or {}) for p in points]
                store.upsert(chunks, np.array([p.vector[DENSE] for p in points], dtype=np.float32))
                moved += len(points)
            if offset is None:
                break
        store.publish()
    finally:
        client.close()
    done = folder.with_name(folder.name + "-previous-store")
    folder.rename(done)
    log(f"moved {moved} chunks from the index of the previous store ({folder}) into the new one "
        f"({store.layout.root}), without embedding them again; {done} can be deleted")
    return moved
