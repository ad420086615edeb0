"""The book index: chunks with their vectors, searched by meaning, filtered by book and place.

`open_store` gives the embedded Qdrant Edge store (a folder under the data dir), or a Qdrant
server's when QDRANT_URL is set; both keep the `ChunkStore` contract (contract.py).
"""
from __future__ import annotations

import sys
from typing import Callable

from server.errors import EmbeddingMismatch, StoreUnavailable, TextbookChatError
from server.settings import Settings
from server.store.contract import DENSE, PENDING, SPARSE, ChunkStore, Filters, StoredFile

# the domain errors under the names the indexer and older callers use
StoreError = TextbookChatError
StoreUnavailableError = StoreUnavailable
EmbeddingMismatchError = EmbeddingMismatch

__all__ = ["ChunkStore", "Filters", "StoredFile", "open_store", "DENSE", "SPARSE", "PENDING",
           "StoreError", "StoreUnavailableError", "EmbeddingMismatchError"]


def _stderr(message: str) -> None:
    print(message, file=sys.stderr)


def open_store(settings: Settings, model_name: str, dim: int, *,
               log: Callable[[str], None] = _stderr) -> ChunkStore:
    if settings.qdrant_url:
        from server.store.qdrant_server import QdrantServerStore

        return QdrantServerStore.open(settings, model_name, dim)
    from server.store.edge import EdgeStore
    from server.store.legacy import move_into, previous_index

    store = EdgeStore(settings.index_path / settings.collection, settings.collection, model_name, dim)
    if not store.exists() and previous_index(settings.qdrant_path, settings.collection):
        move_into(store, settings.qdrant_path, log)
        store.close()
        store = EdgeStore(settings.index_path / settings.collection, settings.collection, model_name, dim)
    return store


def model_in_use(settings: Settings) -> str:
    """The embedding model questions are embedded with: EMBEDDING_MODEL, else the index's own
    (server/embedding/choice.py), read from the index's record without loading any model."""
    from server.embedding.choice import choose

    try:
        store = open_store(settings, settings.embedding_model, 0)
        try:
            stored = store.built_with()
        finally:
            store.close()
    except TextbookChatError:  # the store is down: what a new index would take
        stored = None
    return choose(settings.embedding_model, stored).model
