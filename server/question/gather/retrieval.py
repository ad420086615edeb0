"""Retrieval: a question in, ranked chunks with scores in [0, 1] out."""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Mapping

import numpy as np

from server.embedding.choice import on_gate_scale
from server.embedding.protocol import TextEmbedder
from server.book.chunk import Chunk
from server.question.gather.lexical import CANDIDATES, rerank
from server.question.gather.reader_page import PAGE_CANDIDATES, PAGE_WEIGHT
from server.text.definition import defined_term
from server.store import ChunkStore, Filters

if TYPE_CHECKING:
    from server.book.outline import OutlinePage
    from server.question.gather.openings import SectionOpenings
    from server.question.gather.reader_page import ReaderPages
    from server.text.vocabulary import Lexicon


class Retriever:
    def __init__(self, store: ChunkStore, embedder: TextEmbedder, *, candidate_factor: int = 2,
                 lexicon: Lexicon | None = None, locale_embedders: Mapping[str, TextEmbedder] | None = None,
                 openings: SectionOpenings | None = None, pages: ReaderPages | None = None):
        """`lexicon`, when given, is a book's vocabulary by book id (None: the whole index):
        the dense candidates are then re-ranked by the question's wording too (question/gather/lexical.py).
        `locale_embedders`: the locales whose chunks another model embedded (a translation read
        with the multilingual model), and that model: a reader of such a locale is searched
        among its chunks alone, by that model, its cosines put on the index model's scale.
        `openings`: a section the asked term names is read from its first passage (openings.py).
        `pages`: the reader's page, found by its URL, weighs in the order (reader_page.py)."""
        self.store = store
        self.embedder = embedder
        self.candidate_factor = candidate_factor
        self.lexicon = lexicon
        self.locale_embedders = dict(locale_embedders or {})
        self.openings = openings
        self.pages = pages

    def retrieve(
        self,
        question: str,
        *,
        max_chunks: int = 5,
        similarity_threshold: float = 0.0,
        filters: Filters | None = None,
        prefer_locale: str | None = None,
        prefer_version: str | None = None,
        page_url: str | None = None,
        holding: str | None = None,
    ) -> list[Chunk]:
        """Best chunks first; cosine similarity clamped to [0, 1] (the order may also weigh the
        question's words, see question/gather/lexical.py); near-identical passages once.

        With a preferred locale and/or docs version (the reader's page), passages of that locale
        and version come first, and the others only fill the places left: a reader of a
        translated page is cited translated pages whenever the book has them. `page_url`: the
        page the question is asked on, whose passages weigh more (reader_page.py); `holding`: a
        highlighted term, whose passage on that page leads."""
        limit = max_chunks * self.candidate_factor
        filters = filters or Filters()
        own = self.locale_embedders.get(filters.locale or prefer_locale or "")
        embedder = own or self.embedder
        vector = embedder.embed_query(question)
        on_scale = on_gate_scale(embedder.model_name)  # MiniLM's: the re-ranking's and the gates'
        scale = on_scale if own is not None else (lambda score: score)  # the index's own: the gates scale it
        tiers: list[Filters] = []
        if prefer_locale or prefer_version or own is not None:
            tiers.append(replace(filters, locale=filters.locale or prefer_locale,
                                 version=filters.version or prefer_version))
        if own is None:  # the other locales' chunks only where the index's own model embedded them
            tiers.append(replace(filters, apart=tuple(self.locale_embedders)))
        page = self.pages.page(filters.book_id, page_url) if self.pages is not None else None
        seen: set[str] = set()
        ranked: list[Chunk] = []
        for tier in tiers:
            for chunk in self._candidates(question, vector, limit, tier, on_scale, page, holding):
                score = min(1.0, max(0.0, scale(chunk.score)))
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

    def _candidates(self, question: str, vector, limit: int, filters: Filters, scale,
                    page: OutlinePage | None = None, holding: str | None = None) -> list[Chunk]:
        if self.lexicon is None:
            return self.store.search(vector, limit=limit, filters=filters)
        candidates = self.store.search(vector, limit=max(limit, CANDIDATES), filters=filters)
        boost = None
        page = page if page is not None and filters.locale in (None, page.locale) else None  # a tier of its locale
        if page is not None:
            known = {c.chunk_id for c in candidates}
            on_page = replace(filters, source_file=page.source_file, locale=page.locale, version=page.version)
            candidates += [c for c in self.store.search(vector, limit=PAGE_CANDIDATES, filters=on_page)
                           if c.chunk_id not in known]
            boost = lambda chunk: PAGE_WEIGHT if chunk.page_id == page.key else 0.0  # noqa: E731
        ranked = rerank(question, candidates, self.lexicon(filters.book_id), scale=scale, boost=boost)
        term = defined_term(question)
        if self.openings is not None:
            ranked = self.openings.lead_in(ranked, term)
        if page is not None and (term is not None or holding) and ranked:
            # the page's own definition of the asked term (the passage holding a highlighted one) leads, in
            # the first place and with its score
            led = self.pages.holding(filters.book_id, page, holding) if holding else \
                self.pages.defining(filters.book_id, page, term)
            ids = {c.chunk_id for c in led}
            ranked = [c.with_score(ranked[0].score) for c in led] + [c for c in ranked if c.chunk_id not in ids]
        return ranked
