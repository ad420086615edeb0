"""Lexical re-ranking: the dense candidates re-ordered by how much of the question's wording
(Okapi BM25 over the book's words) they share.

Dense similarity finds paraphrases; exact words ("ISO/TS 15066", "embodiment hypothesis") are
what BM25 is good at. Each dense candidate's order key is its cosine plus LEXICAL_WEIGHT times
its BM25 score divided by the best BM25 score among the candidates; the reported score stays
the cosine, so the gates' thresholds keep their meaning. Measured on the four development books
(BENCHMARKS.md, "What moved the numbers").
"""
from __future__ import annotations

import math
import re
from collections import Counter
from ..models import Chunk
from .vocabulary import BookVocabulary, words

LEXICAL_WEIGHT = 0.1
CANDIDATES = 30  # dense candidates re-ranked (15 lost a Rust-book question from the top 5)
K1, B = 1.5, 0.75  # Okapi BM25's usual constants (rank-bm25's defaults)


_LENGTHS: dict[str, int] = {}  # words per chunk (by id and content hash), counted once per process


def _length(chunk: Chunk) -> int:
    key = f"{chunk.chunk_id}:{chunk.content_hash}"
    length = _LENGTHS.get(key)
    if length is None:
        length = _LENGTHS[key] = len(words(chunk.embed_text or chunk.content))
    return length


def bm25_scores(query: str, chunks: list[Chunk], book: BookVocabulary) -> list[float]:
    terms = [t for t in dict.fromkeys(words(query)) if t in book.document_frequency]
    if not terms or not book.documents:
        return [0.0] * len(chunks)
    idf = {t: math.log((book.documents - book.document_frequency[t] + 0.5) / (book.document_frequency[t] + 0.5) + 1)
           for t in terms}
    average = book.total_length / book.documents
    # one pass per chunk over its text for the question's words only (tokenising whole chunks per
    # question cost ten times more)
    pattern = re.compile(r"(?<![a-z0-9])(?:%s)(?![a-z0-9])" % "|".join(map(re.escape, terms)))
    scores = []
    for chunk in chunks:
        counts = Counter(pattern.findall((chunk.embed_text or chunk.content).lower()))
        norm = K1 * (1 - B + B * _length(chunk) / average)
        scores.append(sum(idf[t] * n * (K1 + 1) / (n + norm) for t, n in counts.items()))
    return scores


def rerank(query: str, chunks: list[Chunk], book: BookVocabulary, weight: float = LEXICAL_WEIGHT) -> list[Chunk]:
    """The chunks in the fused order, each keeping its own (dense) score."""
    if not chunks or weight <= 0:
        return chunks
    lexical = bm25_scores(query, chunks, book)
    best = max(lexical) or 1.0
    order = sorted(range(len(chunks)), key=lambda i: chunks[i].score + weight * lexical[i] / best, reverse=True)
    return [chunks[i] for i in order]
