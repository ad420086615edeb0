"""Open the embedder and the store together, once per process."""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

from .embedding.embedder import Embedder, load_embedder
from .settings import Settings
from .store import ChunkStore


@dataclass
class Services:
    settings: Settings
    embedder: Embedder
    store: ChunkStore

    def close(self) -> None:
        self.store.close()


def build_services(settings: Settings, *, store_check: bool = True) -> Services:
    embedder = load_embedder(settings)
    store = ChunkStore.open(settings, embedder.model_name, embedder.dim)
    if store_check:
        store.check_compatible()
    return Services(settings, embedder, store)


@contextmanager
def open_services(settings: Settings, *, store_check: bool = True) -> Iterator[Services]:
    services = build_services(settings, store_check=store_check)
    try:
        yield services
    finally:
        services.close()
