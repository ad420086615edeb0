"""QueryContext: the highlighted passage's pieces and the book's chunks, ranked together."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from server.book.chunk import Chunk
from server.text.sentences import split_passage

if TYPE_CHECKING:
    from server.embedding.protocol import TextEmbedder

SELECTION_FLOOR = 0.1  # selection pieces less similar than this to the question are dropped


@dataclass(frozen=True)
class HighlightedPassage:
    """A piece of the passage the reader highlighted, scored against the question. It shares
    with a Chunk what answers and citations read (content, url, source_location, citation,
    score); it has no book, file or heading of its own."""

    position: int  # its place in the highlighted passage, 0 for the first piece
    content: str
    score: float
    page_url: str = ""
    page_title: str = ""

    @property
    def chunk_id(self) -> str:
        return f"selection-{hashlib.sha256(self.content.encode()).hexdigest()[:12]}-{self.position}"

    @property
    def url(self) -> str:
        return self.page_url

    @property
    def source_location(self) -> str:
        return "Highlighted passage" + (f" on “{self.page_title}”" if self.page_title else "")

    @property
    def citation(self) -> str:
        return (f'Highlighted passage{f" from “{self.page_title}”" if self.page_title else ""}.'
                + (f" Available: {self.page_url}" if self.page_url else ""))


@dataclass(frozen=True)
class Source:
    chunk: Chunk | HighlightedPassage  # a HighlightedPassage exactly when source_type is "selected_text"
    source_type: str  # "database" | "selected_text"

    @property
    def score(self) -> float:
        return self.chunk.score


@dataclass(frozen=True)
class QueryContext:
    selected: tuple[Source, ...] = ()
    database: tuple[Source, ...] = ()

    @property
    def combined(self) -> list[Source]:
        return sorted(self.selected + self.database, key=lambda s: s.score, reverse=True)


def selection_position(source: Source) -> int:
    """Where a piece of the highlighted passage stands in it (0 for the first)."""
    return source.chunk.position


def selection_sources(selected_text: str, question_vector: np.ndarray, embedder: "TextEmbedder", page_url: str = "",
                      page_title: str = "", floor: float = SELECTION_FLOOR) -> list[Source]:
    """Split the highlighted passage into pieces scored by cosine similarity to the question."""
    pieces = split_passage(selected_text)
    if not pieces:
        return []
    vectors = embedder.embed_documents(pieces)
    scores = vectors @ question_vector
    sources = []
    for i, (piece, score) in enumerate(zip(pieces, scores)):
        score = float(min(1.0, max(0.0, score)))
        if score < floor:
            continue
        sources.append(Source(HighlightedPassage(i, piece, score, page_url, page_title), "selected_text"))
    return sorted(sources, key=lambda s: s.score, reverse=True)


def database_sources(chunks: list[Chunk]) -> list[Source]:
    return [Source(replace(c), "database") for c in chunks]
