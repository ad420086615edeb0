"""Stage 5, record: the question and its lifecycle in the sessions store (opened before anything
else is done, closed once with the answer, the failure or the cancellation), and the finished
Answer the caller is given.

Lifecycle: CREATED → RETRIEVING → GENERATING → COMPLETED, or → REFUSED (or FAILED, CANCELLED)."""
from __future__ import annotations

import logging
import time
from datetime import datetime, timezone
from dataclasses import dataclass
from typing import Callable, Mapping

import numpy as np

from server.book.chunk import Chunk
from server.errors import TextbookChatError
from server.sessions import NewSession, Reply, SessionStore, SourceReference
from server.question.compose import Composed
from server.question.context import Source
from server.question.events import Answer
from server.question.practice import Practice
from server.question import Question
from server.question.record.turn import Opened, State, Turn

log = logging.getLogger("textbook_chat.pipeline")
HISTORY_LENGTH = 6  # the conversation's last messages a question is understood with


def entered(state: str) -> State:
    return state, _now()


def _now() -> datetime:
    return datetime.now(timezone.utc)


def confidence_of(sources: tuple[Source, ...]) -> float:
    if not sources:
        return 0.0
    scores = [s.score for s in sources]
    return round(min(1.0, 0.6 * scores[0] + 0.4 * sum(scores) / len(scores)), 4)


def source_references(sources: tuple[Source, ...]) -> tuple[SourceReference, ...]:
    """How a conversation keeps the sources of an answer."""
    return tuple(SourceReference(source_file=s.chunk.source_file if s.source_type == "database" else "",
                                 source_location=s.chunk.source_location, content_snippet=s.chunk.content[:240],
                                 confidence=round(s.score, 4), retrieved_content_id=s.chunk.chunk_id, url=s.chunk.url)
                 for s in sources)


@dataclass(frozen=True)
class Closing:
    """A question about to be stored as finished, as a feature that keeps something of it with
    the question (the author's insights) reads it."""

    question: Question
    refused: bool
    sources: tuple[Source, ...]  # what the answer cites
    nearest: tuple[Chunk, ...]  # the book's nearest passages
    fallback_reason: str | None
    search_text: str  # what the book was searched with, and its vector
    vector: np.ndarray
    practice: Practice | None = None  # a quiz item answered, a hint given


Keep = Callable[[Closing], object]  # what is stored with the question (sessions.recording.Asked)


class Record:
    def __init__(self, sessions: SessionStore, *, keep: Keep | None = None):
        """`keep`: what a feature keeps of each finished question, stored with it in one
        transaction (the insights subscribe here; the question path does not know them)."""
        self.sessions = sessions
        self.keep = keep

    def open(self, question: Question, new_session: NewSession | None = None) -> Opened:
        """The question stored, with its conversation's history: in `question.session_id`, or in
        the conversation it starts (`new_session`, or one made here). Raises SessionNotFound."""
        opened = self.sessions.open_turn(question.session_id or new_session, question.text, question.selected_text,
                                         question.selection_mode.value, book_id=question.filters.book_id,
                                         history=HISTORY_LENGTH)
        return Opened(opened.session_id, opened.query_id, opened.user_message_id, opened.history)

    def close(self, turn: Turn, composed: Composed, states: tuple[State, ...], timings: Mapping[str, float]) -> Answer:
        """The answer stored with the rest of the lifecycle; the Answer as the caller sees it."""
        persisting, opened = time.perf_counter(), turn.opened
        states = (*states, entered("REFUSED" if composed.refused else "COMPLETED"))
        try:
            assistant = self.sessions.close_turn(
                opened.query_id, states, session_id=opened.session_id,
                user_message_id=opened.user_message_id, user_status="answered", asked=self._asked(turn, composed),
                generator=composed.outcome.generator if composed.outcome else None,
                assistant=Reply(composed.text, "refused" if composed.refused else "completed",
                                source_references(composed.sources), _stored(turn.judged.practice)))
        finally:
            timings = {**timings, "persist": (time.perf_counter() - persisting) * 1000}
        return _answer(turn, composed, assistant.id, timings)

    def _asked(self, turn: Turn, composed: Composed):
        if self.keep is None:
            return None
        understood, outcome = turn.understood, composed.outcome
        return self.keep(Closing(understood.question, composed.refused, composed.sources, tuple(turn.judged.nearest),
                                 outcome.fallback_reason if outcome else None, understood.search_text,
                                 understood.vector, turn.judged.practice))

    def failed(self, opened: Opened, states: tuple[State, ...], generator: str | None, exc: BaseException) -> None:
        log.exception("query %s failed", opened.query_id, exc_info=exc)
        self.sessions.close_turn(opened.query_id, (*states, entered("FAILED")),
                                 session_id=opened.session_id, user_message_id=opened.user_message_id,
                                 user_status="failed", generator=generator, error=f"{type(exc).__name__}: {exc}")

    def cancelled(self, opened: Opened, states: tuple[State, ...], generator: str | None, partial: str) -> None:
        """The reader left while the answer was written: what was written is kept."""
        try:
            self.sessions.close_turn(
                opened.query_id, (*states, entered("CANCELLED")), session_id=opened.session_id,
                user_message_id=opened.user_message_id, user_status="received", generator=generator,
                assistant=Reply(partial.strip(), "cancelled") if partial.strip() else None)
        except TextbookChatError as exc:  # the reader left: nobody to tell; the question stays unfinished
            log.warning("query %s cancelled, not recorded: %s", opened.query_id, exc.message)


def _stored(practice: Practice | None) -> dict | None:
    return (practice.to_stored() or None) if practice is not None else None


def _answer(turn: Turn, composed: Composed, assistant_id: str, timings: dict) -> Answer:
    opened, understood, judged = turn.opened, turn.understood, turn.judged
    question, outcome = understood.question, composed.outcome
    confidence = confidence_of(composed.sources) if composed.sources else round(
        min(0.5, 0.5 * max((c.score for c in judged.nearest), default=0.0)), 4)
    return Answer(
        query_id=opened.query_id, session_id=opened.session_id, assistant_message_id=assistant_id,
        question=question.text, refused=composed.refused, text=composed.text, sources=list(composed.sources),
        confidence=confidence, timestamp=_now(), mode=question.mode, generator=composed.generator,
        fallback_reason=outcome.fallback_reason if outcome else None, usage=outcome.usage if outcome else None,
        context=judged.context, candidates=list(turn.gathered.candidates),
        unknown_terms=list(understood.unknown_terms),
        timings=timings, intent=understood.intent.value if understood.intent else None,
        corrections=dict(understood.corrections),
        # declined for the passage (either mode) while the book's own path may answer it
        offer_book_search=composed.refused and judged.offer_book_search,
        course=understood.course.describe() if understood.course is not None else None,
        practice=judged.practice if not composed.refused else None)
