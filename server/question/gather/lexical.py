"""Lexical re-ranking: the dense candidates re-ordered by how much of the question's wording
(Okapi BM25 over the book's words) they share.

Dense similarity finds paraphrases; exact words ("ISO/TS 15066", "embodiment hypothesis") are
what BM25 is good at. Each dense candidate's order key is its cosine plus LEXICAL_WEIGHT times
its BM25 score divided by the best BM25 score among the candidates; the reported score stays
the cosine, so the gates' thresholds keep their meaning. Measured on the four development books
(BENCHMARKS.md, "What moved the numbers").
"""
from __future__ import annotations

import functools
import math
from collections import Counter
from typing import Callable, Mapping

from server.book.chunk import Chunk
from server.text.definition import defined_term, defining, headed_by, named_operators, says_operator
from server.text.vocabulary import BookVocabulary, words

LEXICAL_WEIGHT = 0.1
DEFINITION_WEIGHT = 0.1  # "what's a trait?": the passage that defines the term (text/definition.py)
CANDIDATES = 30  # dense candidates re-ranked (15 lost a Rust-book question from the top 5)
K1, B = 1.5, 0.75  # Okapi BM25's usual constants (rank-bm25's defaults)


@functools.lru_cache(maxsize=4096)
def _terms(text: str) -> tuple[Counter, int]:
    """A chunk's word counts and length, counted once while it stays among the recent
    candidates (the store hands out the same text objects, so the lookup costs no hashing)."""
    found = words(text)
    return Counter(found), len(found)


def inverse_document_frequency(documents: int, frequency: int) -> float:
    return math.log((documents - frequency + 0.5) / (frequency + 0.5) + 1)


def bm25(idf: Mapping[str, float], counts: Mapping[str, int], length: int, average: float,
         k1: float = K1, b: float = B) -> float:
    """Okapi BM25 of a text (its term counts and length) for terms weighted by their IDF: the one
    formula behind re-ranking the book's passages and scoring the sentences quoted from them."""
    norm = k1 * (1 - b + b * length / average)
    return sum(w * counts[t] * (k1 + 1) / (counts[t] + norm) for t, w in idf.items() if t in counts)


def bm25_scores(query: str, chunks: list[Chunk], book: BookVocabulary) -> list[float]:
    terms = [t for t in dict.fromkeys(words(query)) if t in book.document_frequency]
    if not terms or not book.documents:
        return [0.0] * len(chunks)
    idf = {t: inverse_document_frequency(book.documents, book.document_frequency[t]) for t in terms}
    average = book.total_length / book.documents
    return [bm25(idf, *_terms(chunk.embed_text or chunk.content), average) for chunk in chunks]


def rerank(query: str, chunks: list[Chunk], book: BookVocabulary, weight: float = LEXICAL_WEIGHT,
           scale: Callable[[float], float] = lambda score: score,
           boost: Callable[[Chunk], float] | None = None) -> list[Chunk]:
    """The chunks in the fused order, each keeping its own (dense) score. `scale` puts a model's
    cosines on MiniLM's, whose spread the weight was measured against (e5's are compressed: an
    unscaled 0.1 of BM25 outweighs its whole range of cosines). `boost`: what else a chunk
    weighs in the order (the reader's page, reader_page.py)."""
    if not chunks or weight <= 0:
        return chunks
    lexical = bm25_scores(query, chunks, book)
    best = max(lexical) or 1.0
    term = defined_term(query)
    defines = [DEFINITION_WEIGHT * on_the_term for on_the_term in defining_chunks(chunks, term)]
    # an operator asked about by name ("> and >>") is no word of BM25's: a passage writing it weighs
    # as one holding the question's words does
    operators = named_operators(query)
    writes = [sum(says_operator(c.content, o) for o in operators) / len(operators) if operators else 0.0
              for c in chunks]
    boosts = [boost(c) for c in chunks] if boost is not None else [0.0] * len(chunks)
    order = sorted(range(len(chunks)), reverse=True, key=lambda i: scale(chunks[i].score) + boosts[i]
                   + weight * (lexical[i] / best + writes[i]) + defines[i])
    return [chunks[i] for i in order]


def defining_chunks(chunks: list[Chunk], term: str | None) -> list[bool]:
    """Which chunks are the book's passage on the term: one defining it, one running on into a
    section named by it, or the first found of a section named by it ("what's pattern matching?":
    "We've already seen pattern matching a few times. It is an incredibly versatile feature …",
    not the same section's fourth passage)."""
    if term is None:
        return [False] * len(chunks)
    opening: dict[tuple[str, str, str], int] = {}  # each section named by the term: its first passage found
    book = [chunk for chunk in chunks if isinstance(chunk, Chunk)]  # a highlighted passage has no section
    for chunk in book:
        if headed_by(chunk.heading, term):
            opening[_section(chunk)] = min(opening.get(_section(chunk), chunk.position), chunk.position)
    return [isinstance(chunk, Chunk) and (defining(chunk.headings()[1:], chunk.content, term)
                                          or opening.get(_section(chunk)) == chunk.position)
            for chunk in chunks]


def _section(chunk: Chunk) -> tuple[str, str, str]:
    return chunk.source_file, chunk.locale, chunk.heading
