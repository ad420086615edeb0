"""What the pipeline tells its caller while it answers: the sources it will cite, the answer's
text as it is written, and the finished answer. The web layer turns these into JSON or SSE."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TypedDict

from server.book.chunk import Chunk
from server.question.context import QueryContext, Source
from server.question.markers import marker
from server.question import AnswerMode
from server.question.practice import Practice


@dataclass(frozen=True)
class Citation:
    """What an [n] marker of an answer points at."""

    text: str  # "[n]"
    source: str  # where in the book
    url: str


@dataclass(frozen=True)
class Usage:
    """What a language model counted for an answer (all its calls together)."""

    prompt_tokens: int | None = None
    output_tokens: int | None = None
    total_tokens: int | None = None

    def __add__(self, other: "Usage | None") -> "Usage":
        if other is None:
            return self
        return Usage(*((a or 0) + (b or 0) for a, b in ((self.prompt_tokens, other.prompt_tokens),
                                                        (self.output_tokens, other.output_tokens),
                                                        (self.total_tokens, other.total_tokens))))


class CourseReading(TypedDict):
    """How a question about the book as a course was read (course/understand.py)."""

    task: str
    scope: str
    page: str | None
    part: str | None


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
    usage: Usage | None
    context: QueryContext
    # how retrieval went, for evaluation: every candidate before the gate, and the terms the
    # book never uses
    candidates: list[Chunk] = field(default_factory=list)
    unknown_terms: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)  # milliseconds per stage, for Server-Timing
    intent: str | None = None  # what the reader asked of the highlighted passage (intent.py)
    corrections: dict[str, str] = field(default_factory=dict)  # misspelt word → the book word searched for
    # the highlighted passage does not answer the question: the reader may search the whole book
    offer_book_search: bool = False
    course: CourseReading | None = None  # a question about the book as a course
    practice: Practice | None = None  # a quiz posed, feedback on a student's answer, a hint (tutor mode)

    @property
    def status(self) -> str:
        if self.refused:
            return "refused"
        return "hint" if self.practice is not None and self.practice.hint is not None else "completed"

    @property
    def quiz(self) -> dict | None:
        """The quiz posed, without its answers; its id is this answer's message's."""
        quiz = self.practice.quiz if self.practice is not None else None
        return quiz.shown(self.assistant_message_id or self.query_id) if quiz is not None else None

    @property
    def feedback(self) -> dict | None:
        feedback = self.practice.feedback if self.practice is not None else None
        return feedback.shown() if feedback is not None else None

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
