"""What the pipeline tells its caller while it answers: the sources it will cite, the answer's
text as it is written, and the finished answer. The web layer turns these into JSON or SSE."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from server.question.context import QueryContext, Source
from server.question.markers import marker
from server.question import AnswerMode


@dataclass(frozen=True)
class Citation:
    """What an [n] marker of an answer points at."""

    text: str  # "[n]"
    source: str  # where in the book
    url: str


@dataclass(frozen=True)
class Answer:
    query_id: str
    session_id: str
    assistant_message_id: str | None
    question: str
    refused: bool
    text: str
    sources: list[Source]  # numbered [1]..[n] in this order; empty when refused
    confidence: float
    timestamp: datetime  # when it was finished (UTC)
    mode: AnswerMode
    generator: str  # what wrote the answer ("none" when the gate refused before any generator ran)
    fallback_reason: str | None
    usage: dict | None
    context: QueryContext
    # how retrieval went, for evaluation: every candidate before the gate, and the terms the
    # book never uses
    candidates: list = field(default_factory=list)
    unknown_terms: list = field(default_factory=list)
    timings: dict = field(default_factory=dict)  # milliseconds per stage, for Server-Timing
    intent: str | None = None  # what the reader asked of the highlighted passage (intent.py)
    corrections: dict = field(default_factory=dict)  # misspelt word → the book word searched for
    # the highlighted passage does not answer the question: the reader may search the whole book
    offer_book_search: bool = False
    # a question about the book as a course: {task, scope, page, part} (course/understand.py)
    course: dict | None = None

    @property
    def status(self) -> str:
        return "refused" if self.refused else "completed"

    @property
    def references(self) -> list[str]:
        """The sources' reference strings, each once, in citation order."""
        return list(dict.fromkeys(s.chunk.citation for s in self.sources))

    @property
    def citations(self) -> list[Citation]:
        return [Citation(marker(n), s.chunk.source_location, s.chunk.url) for n, s in enumerate(self.sources, 1)]


@dataclass(frozen=True)
class Sources:
    query_id: str
    session_id: str
    sources: list[Source]


@dataclass(frozen=True)
class Delta:
    text: str


@dataclass(frozen=True)
class Finished:
    answer: Answer


Event = Sources | Delta | Finished
