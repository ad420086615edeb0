"""How the embedded store builds and searches its vectors (measured in BENCHMARKS.md), and its
filters in Qdrant Edge's terms."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from qdrant_edge import (
    Distance, EdgeConfig, EdgeSparseVectorParams, EdgeVectorParams, FieldCondition, Filter, HnswIndexConfig,
    MatchAny, MatchValue, Modifier,
)

from server.store.contract import DENSE, SPARSE, Filters


@dataclass(frozen=True)
class SearchTuning:
    """How the shard indexes and searches dense vectors (measured in BENCHMARKS.md: at 100k
    chunks of alike books, m=16 stalls at recall@5 0.89–0.98 whatever hnsw_ef; with m=32,
    hnsw_ef 512 reached 1.0 in every build, 256 did in one of two)."""

    m: int = 32
    ef_construct: int = 256
    full_scan_kb: int = 10_000  # a filter leaving fewer vectors than this (in KB) is searched exactly
    hnsw_ef: int = 512
    # Edge's default is a search pool per shard with a thread per core; every serving process has
    # its own replica and many request threads already, and a published index is compacted
    # into few segments, so more threads only compete for the cores (50 streams, 2 workers:
    # 47 -> 39 ms p50, 73 -> 58 ms p95, BENCHMARKS.md)
    reader_search_threads: int = 1

    def config(self, dim: int) -> EdgeConfig:
        return EdgeConfig(**_vectors(dim), hnsw_config=HnswIndexConfig(
            m=self.m, ef_construct=self.ef_construct, full_scan_threshold=self.full_scan_kb))

    def reader_config(self, dim: int) -> EdgeConfig:
        """For a replica: the stored data as it is (the graph keeps the settings it was built
        with), searched by reader_search_threads."""
        return EdgeConfig(**_vectors(dim), max_search_threads=self.reader_search_threads)


def _vectors(dim: int) -> dict:
    return {"vectors": {DENSE: EdgeVectorParams(size=dim, distance=Distance.Dot)},  # unit vectors: dot = cosine
            "sparse_vectors": {SPARSE: EdgeSparseVectorParams(modifier=Modifier.Idf)}}


def to_edge(filters: Filters | None) -> Filter | None:
    if filters is None:
        return None
    must = [FieldCondition(key, match=MatchValue(value)) for key, value in filters.conditions()]
    apart = [FieldCondition("locale", match=MatchAny(list(filters.apart)))] if filters.apart and not filters.locale else []
    return Filter(must=must or None, must_not=apart or None) if must or apart else None


def book_filter(book_id: str | None) -> Filter | None:
    return to_edge(Filters(book_id=book_id)) if book_id else None


def as_floats(vector) -> list[float]:
    return np.asarray(vector, dtype=np.float32).tolist()
