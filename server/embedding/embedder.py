"""Dense text embeddings with fastembed, from a provisioned local model folder (no network)."""
from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

import numpy as np
import onnxruntime as ort
from fastembed import TextEmbedding
from tokenizers import Tokenizer

from server.embedding.protocol import passages_of
from server.embedding.provision import ensure_model

if TYPE_CHECKING:
    from server.settings import Settings

QUERY_CACHE_SIZE = 1024


class Embedder:
    """Documents and queries to L2-normalised float32 vectors; token counts for chunking."""

    def __init__(
        self,
        model_name: str,
        model_dir: str | Path,
        batch_size: int = 16,
        *,
        threads: int | None = None,
        query_cache_size: int = QUERY_CACHE_SIZE,
    ) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        self.model_name = model_name
        self.model_dir = Path(model_dir)
        # Memory grows with the batch (fastembed's default of 256 needs about 7 GB).
        self.batch_size = batch_size
        # specific_model_path makes fastembed load the folder as is, with no hub lookup;
        # cache_dir points at the same folder only so fastembed creates no temp cache folder.
        self._model = TextEmbedding(
            model_name,
            specific_model_path=str(self.model_dir),
            cache_dir=str(self.model_dir),
            threads=threads,
        )
        _stop_spinning(self._model, threads)
        self._tokenizer = _counting_tokenizer(self._model, self.model_dir)
        self.max_tokens: int = self._model.model.tokenizer.truncation["max_length"]
        self.dim: int = int(self._embed_one("dimension probe").shape[0])
        self._cached_query: Callable[[str], np.ndarray] = functools.lru_cache(
            maxsize=query_cache_size
        )(self._embed_one)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Embed passages: an (n, dim) float32 array of unit rows, computed batch_size at a time."""
        texts = passages_of(texts)
        if not texts:
            return np.empty((0, self.dim), dtype=np.float32)
        rows = np.empty((len(texts), self.dim), dtype=np.float32)
        for group in _alike_lengths(texts):
            vectors = self._model.passage_embed([texts[i] for i in group], batch_size=self.batch_size)
            rows[group] = np.stack(list(vectors))
        return _normalise(rows)

    def embed_query(self, text: str) -> np.ndarray:
        """Embed one query: a (dim,) float32 unit vector. Repeated queries come from a cache."""
        return self._cached_query(text).copy()  # a copy: callers must not alter the cache

    def count_tokens(self, text: str) -> int:
        """Tokens the model sees for `text` before truncation, [CLS] and [SEP] included."""
        return len(self._tokenizer.encode(text).ids)

    def _embed_one(self, text: str) -> np.ndarray:
        vector = next(iter(self._model.query_embed(text)))
        return _normalise(vector[np.newaxis, :])[0]

    def __repr__(self) -> str:
        return f"Embedder({self.model_name!r}, {str(self.model_dir)!r}, batch_size={self.batch_size})"


LENGTH_SPREAD = 2  # texts embedded together are at most this many times as long as the shortest (+ a sentence)


def _alike_lengths(texts: list[str]) -> list[list[int]]:
    """The texts' indices in groups of alike length, shortest first. A batch is padded to its
    longest text: five sentences embedded with the paragraph they come from cost as much as six
    paragraphs (measured: 131 ms together, 55 ms apart, the same vectors)."""
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    groups: list[list[int]] = []
    for i in order:
        if groups and len(texts[i]) <= LENGTH_SPREAD * len(texts[groups[-1][0]]) + 80:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def load_embedder(settings: Settings, *, log: Callable[[str], None] = print) -> Embedder:
    """Provision the configured model if needed (see provision.ensure_model), then load it."""
    from server.embedding import e5
    from server.embedding.choice import AUTO, ENGLISH

    if settings.embedding_model == AUTO:  # no index to ask: the English model
        settings = settings.with_overrides(embedding_model=ENGLISH)
    if settings.embedding_model == e5.MODEL_NAME:  # its weights ship in its package
        return e5.E5Embedder(batch_size=settings.embedding_batch_size, threads=settings.embedding_threads)
    folder = ensure_model(settings.embedding_model, settings.model_dir_root, log=log)
    return Embedder(settings.embedding_model, folder, batch_size=settings.embedding_batch_size,
                    threads=settings.embedding_threads)


def _stop_spinning(model: TextEmbedding, threads: int | None) -> None:
    """Reopen fastembed's onnxruntime session with worker threads that sleep when idle.

    By default they spin for a while after every run: a short query then costs two to three
    times its time in CPU (measured: 24-30 ms of CPU for a 6-8 ms query on 2 cores), CPU that
    concurrent requests need. Sleeping threads cost about 1-2 ms of latency per query and
    halve its CPU. (`session.force_spinning_stop`, spinning only within a run, measured no
    better and less steady.) fastembed does not expose session options, so its session is
    replaced by an identical one with spinning off.
    """
    inner = getattr(model, "model", None)
    session = getattr(inner, "model", None)
    path = getattr(session, "_model_path", None)  # the file onnxruntime loaded the session from
    if not isinstance(session, ort.InferenceSession) or not isinstance(path, str):
        return
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL  # as fastembed
    if threads is not None:
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = threads
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.add_session_config_entry("session.inter_op.allow_spinning", "0")
    inner.model = ort.InferenceSession(path, options, providers=session.get_providers())


def _counting_tokenizer(model: TextEmbedding, model_dir: Path) -> Tokenizer:
    """The model's tokenizer without truncation or padding, so long texts count in full.

    fastembed's own tokenizer truncates to the model window, which would cap every count.
    """
    inner = getattr(getattr(model, "model", None), "tokenizer", None)
    if inner is not None:
        tokenizer = Tokenizer.from_str(inner.to_str())
    else:
        tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


def _normalise(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.maximum(norms, np.finfo(np.float32).tiny)
