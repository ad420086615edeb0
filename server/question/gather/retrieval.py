"""Retrieval: a question in, ranked chunks with scores in [0, 1] out."""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from server.embedding.protocol import TextEmbedder
from server.book.chunk import Chunk
from server.question.gather.lexical import CANDIDATES, rerank
from server.store import ChunkStore, Filters

if TYPE_CHECKING:
    from server.text.vocabulary import Lexicon


class Retriever:
    def __init__(self, store: ChunkStore, embedder: TextEmbedder, *, candidate_factor: int = 2,
                 lexicon: Lexicon | None = None):
        """`lexicon`, when given, is a book's vocabulary by book id (None: the whole index):
        the dense candidates are then re-ranked by the question's wording too (question/gather/lexical.py)."""
        self.store = store
        self.embedder = embedder
        self.candidate_factor = candidate_factor
        self.lexicon = lexicon

    def retrieve(
        self,
        question: str,
        *,
        max_chunks: int = 5,
        similarity_threshold: float = 0.0,
        filters: Filters | None = None,
        prefer_locale: str | None = None,
        prefer_version: str | None = None,
    ) -> list[Chunk]:
        """Best chunks first; cosine similarity clamped to [0, 1] (the order may also weigh the
        question's words, see question/gather/lexical.py); near-identical passages once.

        With a preferred locale and/or docs version (the reader's page), passages of that locale
        and version come first, and the others only fill the places left: a reader of a
        translated page is cited translated pages whenever the book has them."""
        vector = self.embedder.embed_query(question)
        limit = max_chunks * self.candidate_factor
        filters = filters or Filters()
        tiers: list[Filters] = []
        if prefer_locale or prefer_version:
            tiers.append(replace(filters, locale=filters.locale or prefer_locale,
                                 version=filters.version or prefer_version))
        tiers.append(filters)
        seen: set[str] = set()
        ranked: list[Chunk] = []
        for tier in tiers:
            for chunk in self._candidates(question, vector, limit, tier):
                score = min(1.0, max(0.0, chunk.score))
                if score < similarity_threshold:
                    continue
                key = " ".join(chunk.content.split()).lower()
                if key in seen:
                    continue
                seen.add(key)
                ranked.append(chunk.with_score(score))
                if len(ranked) == max_chunks:
                    return ranked
        return ranked

    def stored_vector(self, chunk: Chunk) -> np.ndarray | None:
        """The vector the index holds for a chunk (its embed_text's, from ingest), None if it holds none."""
        found = self.store.vectors([chunk.chunk_id]).get(chunk.chunk_id)
        return None if found is None else np.asarray(found, dtype=np.float32)

    def _candidates(self, question: str, vector, limit: int, filters: Filters) -> list[Chunk]:
        if self.lexicon is None:
            return self.store.search(vector, limit=limit, filters=filters)
        candidates = self.store.search(vector, limit=max(limit, CANDIDATES), filters=filters)
        return rerank(question, candidates, self.lexicon(filters.book_id))
