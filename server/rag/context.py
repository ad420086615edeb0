"""QueryContext: the highlighted passage's pieces and the book's chunks, ranked together."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

from ..models import Chunk
from .sentences import split_passage

if TYPE_CHECKING:
    from ..embedding.embedder import Embedder

SELECTION_FLOOR = 0.1  # selection pieces less similar than this to the question are dropped


@dataclass
class Source:
    chunk: Chunk
    source_type: str  # "database" | "selected_text"

    @property
    def score(self) -> float:
        return self.chunk.score


@dataclass
class QueryContext:
    selected: list[Source] = field(default_factory=list)
    database: list[Source] = field(default_factory=list)

    @property
    def combined(self) -> list[Source]:
        return sorted(self.selected + self.database, key=lambda s: s.score, reverse=True)


def selection_position(source: Source) -> int:
    """Where a piece of the highlighted passage stands in it (0 for the first)."""
    return int(source.chunk.chunk_id.rsplit("-", 1)[1])


def selection_sources(selected_text: str, question_vector: np.ndarray, embedder: "Embedder", page_url: str = "",
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
        digest = hashlib.sha256(piece.encode()).hexdigest()[:32]
        chunk = Chunk(
            chunk_id=f"selection-{digest[:12]}-{i}", book_id="", book_title="", content=piece, content_hash=digest,
            source_file="", url=page_url, module="", chapter=page_title, section="", heading="Highlighted passage",
            section_hierarchy=[], page=0, source_location="Highlighted passage" + (f" on “{page_title}”" if page_title else ""),
            citation=f'Highlighted passage{f" from “{page_title}”" if page_title else ""}.' + (f" Available: {page_url}" if page_url else ""),
            file_hash="", score=score)
        sources.append(Source(chunk, "selected_text"))
    return sorted(sources, key=lambda s: s.score, reverse=True)


def database_sources(chunks: list[Chunk]) -> list[Source]:
    return [Source(replace(c), "database") for c in chunks]
