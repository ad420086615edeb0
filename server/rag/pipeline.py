"""One question, end to end, with its lifecycle recorded:
CREATED → RETRIEVING → GENERATING → COMPLETED, or → REFUSED (or FAILED on an error).

A Question comes in; Sources, Delta… and Finished(answer) events go out (`stream`), or just
the Answer (`answer`). Nothing here knows about HTTP.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Callable, Iterator

from ..errors import GenerationFailed, SessionNotFound, TextbookChatError, UnknownBook
from ..retrieval import Retriever
from ..sessions import SessionStore
from . import markers
from .context import (SELECTION_FLOOR, QueryContext, Source, database_sources, selection_position,
                      selection_sources)
from .events import Answer, Delta, Event, Finished, Sources
from .followup import looks_like_follow_up, retrieval_query
from .gate import admitted
from .generators.base import GenerationInput, Generator, Outcome
from .highlight import PASSAGE_FLOOR, covers
from .intent import Intent, asks_what_it_says, detect
from .question import AnswerMode, Question
from .refusal import book_refusal, selection_refusal
from .sentences import normalised, split_sentences
from .vocabulary import StoreVocabulary

if TYPE_CHECKING:
    from ..embedding.protocol import TextEmbedder

log = logging.getLogger("textbook_chat.pipeline")
FAILED_MESSAGE = "The answer could not be generated; your message was saved."
Rewriter = Callable[[str, list], "str | None"]


@dataclass
class Turn:
    question: Question
    query_id: str
    session_id: str
    user_message_id: str
    context: QueryContext = field(default_factory=QueryContext)
    sources: list[Source] = field(default_factory=list)
    nearest: list = field(default_factory=list)
    candidates: list = field(default_factory=list)  # every retrieved chunk, before the gate
    history: list[dict] = field(default_factory=list)
    retrieval_text: str = ""
    unknown_terms: list = field(default_factory=list)  # specialist words the book never uses
    corrections: dict = field(default_factory=dict)  # misspelt word → the book word searched for
    intent: Intent | None = None  # what the reader asks of the highlighted passage
    offer_book_search: bool = False  # the passage does not cover the question; the book may
    timings: dict = field(default_factory=dict)  # milliseconds per stage, for Server-Timing
    states: list = field(default_factory=list)  # lifecycle after CREATED, written when the turn closes
    generator: str | None = None  # what wrote (or was writing) the answer

    def mark(self, state: str) -> None:
        self.states.append([state, _now()])

    @property
    def refused(self) -> bool:
        return not self.sources


def confidence_of(sources: list[Source]) -> float:
    if not sources:
        return 0.0
    scores = [s.score for s in sources]
    return round(min(1.0, 0.6 * scores[0] + 0.4 * sum(scores) / len(scores)), 4)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def source_references(sources: list[Source]) -> list[dict]:
    """How a conversation keeps the sources of an answer."""
    return [{"source_file": s.chunk.source_file if s.source_type == "database" else "", "source_location": s.chunk.source_location,
             "content_snippet": s.chunk.content[:240], "confidence": round(s.score, 4),
             "retrieved_content_id": s.chunk.chunk_id, "url": s.chunk.url} for s in sources]


class ChatPipeline:
    def __init__(self, retriever: Retriever, embedder: TextEmbedder, generator: Generator, sessions: SessionStore,
                 vocabulary: StoreVocabulary, *, rewriter: Rewriter | None = None, book_title: str = "",
                 model_judges: bool | None = None):
        self.retriever = retriever
        self.embedder = embedder
        self.generator = generator
        self.sessions = sessions
        self.vocabulary = vocabulary
        self.rewriter = rewriter
        self.book_title = book_title
        self._known_books: set[str] = set()
        # a language model reads borderline questions itself (it can answer NOT_IN_BOOK); the
        # extractive generator cannot tell, so the gates decide for it
        self.model_judges = generator.name != "extractive" if model_judges is None else model_judges

    def _check_book(self, book_id: str | None) -> None:
        """A question for a book the index does not hold is an error, never an answer from
        another book. Known books are remembered (a book is added far more often than removed)."""
        if not book_id or book_id in self._known_books:
            return
        if self.retriever.store.count(book_id) == 0:
            raise UnknownBook(f"No book with id {book_id!r} is indexed.", details={"book_id": book_id})
        self._known_books.add(book_id)

    def answer(self, question: Question) -> Answer:
        """The whole answer, for callers that do not stream. Raises GenerationFailed."""
        for event in self.stream(self.begin(question)):
            if isinstance(event, Finished):
                return event.answer
        raise AssertionError("the pipeline ended without an answer")

    # --- stage 1: accept, store, retrieve, gate -----------------------------------------------
    def begin(self, question: Question) -> Turn:
        """Record the question and gather its sources. Raises SessionNotFound."""
        started = time.perf_counter()
        session_id = question.session_id
        if session_id and not self.sessions.exists(session_id):
            raise SessionNotFound(session_id)
        self._check_book(question.filters.book_id)
        history = self.sessions.recent_messages(session_id, limit=6) if session_id else []
        opened = self.sessions.open_turn(session_id, question.text, question.selected_text,
                                         question.selection_mode.value, book_id=question.filters.book_id)
        turn = Turn(question=question, query_id=opened["query_id"], session_id=opened["session_id"],
                    user_message_id=opened["user_message_id"], history=history)
        try:
            turn.mark("RETRIEVING")
            self._build_context(turn)
        except Exception as exc:
            self._fail(turn, exc)
            raise
        turn.timings["prepare"] = (time.perf_counter() - started) * 1000
        return turn

    def _build_context(self, turn: Turn) -> None:
        question = turn.question
        max_chunks, selected = question.max_chunks, question.selected_text
        turn.retrieval_text = self._retrieval_text(question.text, turn.history)
        if question.mode is not AnswerMode.SELECTION_EXCLUSIVE:
            # misspelt book words are searched for as the book spells them
            reading = self.vocabulary.get(question.filters.book_id).read(turn.retrieval_text)
            turn.retrieval_text, turn.corrections = reading.text, reading.corrections
            turn.unknown_terms = reading.unknown_terms if question.mode is AnswerMode.BOOK else []
        question_vector = self.embedder.embed_query(turn.retrieval_text)
        if selected:
            turn.intent = detect(question.text, selected)
            turn.context.selected = selection_sources(selected, question_vector, self.embedder,
                                                      question.page.url, question.page.title, floor=0.0)
        if question.mode is not AnswerMode.SELECTION_EXCLUSIVE:
            # "explain this" says little on its own: in combined mode the passage steers retrieval
            text = f"{turn.retrieval_text}\n{selected[:600]}" if selected else turn.retrieval_text
            candidates = self.retriever.retrieve(text, max_chunks=max_chunks, similarity_threshold=0.0,
                                                 filters=question.filters, prefer_locale=question.page.locale,
                                                 prefer_version=question.page.docs_version)
            turn.candidates = candidates
            turn.nearest = candidates[:3]
            turn.context.database = database_sources(admitted(
                turn.retrieval_text, candidates, question.similarity_threshold, unknown_terms=turn.unknown_terms,
                model_judges=self.model_judges))
        elif turn.intent is Intent.QUESTION:
            self._judge_selection(turn, question_vector)
        if turn.intent is not None and turn.intent.about_the_passage:
            # a request about the passage itself: all of it, in reading order, then the book's passages
            passage = sorted(turn.context.selected, key=selection_position)
            turn.sources = passage + turn.context.database[: max(0, max_chunks - len(passage))]
            return
        turn.context.selected = [s for s in turn.context.selected if s.score >= SELECTION_FLOOR]
        ranked = turn.context.combined[:max_chunks]
        if turn.context.selected and not any(s.source_type == "selected_text" for s in ranked):
            ranked = [turn.context.selected[0], *ranked[: max_chunks - 1]]  # the highlight always takes part
        turn.sources = ranked

    def _judge_selection(self, turn: Turn, question_vector) -> None:
        """Exclusive mode, a question: answered from the passage only if the passage covers it
        (the book is searched only to compare; nothing found there is shown or cited). With a
        model, a question the passage is at all near goes to the model, which may decline."""
        question = turn.question
        sentences = split_sentences(question.selected_text or "")
        if not sentences:
            return
        # its best sentence: a short answer inside a long piece is diluted in the piece's vector
        passage_best = max(max((s.score for s in turn.context.selected), default=0.0),
                           float(max(self.embedder.embed_documents(sentences) @ question_vector)))
        opening = normalised(sentences[0])[:60]
        elsewhere = self.retriever.retrieve(turn.retrieval_text, max_chunks=8, filters=question.filters)
        elsewhere_best = max((c.score for c in elsewhere if opening not in normalised(c.content)), default=0.0)
        if passage_best >= PASSAGE_FLOOR and (covers(passage_best, elsewhere_best) or self.model_judges
                                             or asks_what_it_says(question.text)):
            return
        turn.context.selected = []
        turn.offer_book_search = True

    def _retrieval_text(self, question: str, history: list[dict]) -> str:
        """A follow-up is rewritten into a stand-alone query by the rewriter when there is one;
        otherwise (or on any failure) the previous question is prepended."""
        if self.rewriter is not None and any(m["role"] == "user" for m in history) and looks_like_follow_up(question):
            try:
                rewritten = self.rewriter(question, history)
            except Exception:
                log.warning("follow-up rewrite failed; using the heuristic query", exc_info=True)
                rewritten = None
            if rewritten and rewritten.strip():
                return rewritten.strip()
        return retrieval_query(question, history)

    # --- stage 2: generate ----------------------------------------------------------------
    def generation_input(self, turn: Turn) -> GenerationInput:
        question = turn.question
        return GenerationInput(
            question=question.text, sources=turn.sources, history=turn.history,
            preferences=question.preferences.to_dict(), selection_only=question.selection_only,
            selected_text=question.selected_text, intent=turn.intent.value if turn.intent else None,
            search=None if question.selection_only else self._book_search(question))

    def _book_search(self, question: Question):
        """The agent's search_textbook: the question's filters and threshold, optionally one module."""
        def search(query: str, module: str | None = None) -> list[Source]:
            filters = question.filters if not module or question.filters.module else \
                replace(question.filters, module=module)
            return database_sources(self.retriever.retrieve(
                query, max_chunks=question.max_chunks, similarity_threshold=question.similarity_threshold,
                filters=filters, prefer_locale=question.page.locale, prefer_version=question.page.docs_version))
        return search

    def refusal_text(self, turn: Turn) -> str:
        if turn.question.selection_only:
            return selection_refusal(turn.question.text)
        return book_refusal(self.book_title or (turn.nearest[0].book_title if turn.nearest else ""), turn.nearest,
                            unknown_terms=turn.unknown_terms)

    def stream(self, turn: Turn) -> Iterator[Event]:
        """Sources, Delta…, Finished. Raises GenerationFailed; closing it cancels the answer."""
        generating = time.perf_counter()
        yield Sources(turn.query_id, turn.session_id, [] if turn.refused else list(turn.sources))
        if turn.refused:  # the gate refused: no generator is asked
            text = self.refusal_text(turn)
            yield Delta(text)
            yield Finished(self.finish(turn, text, None))
            return
        turn.mark("GENERATING")
        turn.generator = self.generator.name
        parts: list[str] = []
        deltas = self.generator.generate(self.generation_input(turn))
        try:
            while True:
                try:
                    delta = next(deltas)
                except StopIteration as end:
                    outcome: Outcome = end.value
                    break
                parts.append(delta)
                yield Delta(delta)
        except GeneratorExit:
            deltas.close()
            self._cancelled(turn, "".join(parts))
            raise
        except Exception as exc:
            self._fail(turn, exc)
            raise GenerationFailed(FAILED_MESSAGE, session_id=turn.session_id, query_id=turn.query_id) from exc
        turn.generator = outcome.generator
        turn.timings["generate"] = (time.perf_counter() - generating) * 1000
        text = "".join(parts)
        if not text.strip():  # a refusal with nothing streamed: stream the refusal text itself
            text = self.refusal_text(turn)
            yield Delta(text)
        yield Finished(self.finish(turn, text, outcome))

    # --- stage 3: validate and persist ----------------------------------------------------
    def finish(self, turn: Turn, text: str, outcome: Outcome | None) -> Answer:
        finishing = time.perf_counter()
        try:
            return self._finish(turn, text, outcome)
        finally:
            turn.timings["persist"] = (time.perf_counter() - finishing) * 1000

    def _finish(self, turn: Turn, text: str, outcome: Outcome | None) -> Answer:
        if outcome is not None and outcome.extra_sources:  # found while answering, numbered after ours
            turn.sources = turn.sources + list(outcome.extra_sources)
        refused = outcome is None or outcome.refused or not text.strip()
        sources = [] if refused else turn.sources
        answer = (markers.drop_unknown(text, len(sources)) if sources else text.strip()) or self.refusal_text(turn)
        confidence = confidence_of(sources) if sources else round(
            min(0.5, 0.5 * max((c.score for c in turn.nearest), default=0.0)), 4)
        turn.mark("REFUSED" if refused else "COMPLETED")
        assistant = self.sessions.close_turn(
            turn.query_id, turn.states, session_id=turn.session_id, user_message_id=turn.user_message_id,
            user_status="answered", generator=turn.generator, assistant={
                "content": answer, "status": "refused" if refused else "completed",
                "source_references": source_references(sources)})
        return Answer(
            query_id=turn.query_id, session_id=turn.session_id, assistant_message_id=assistant["id"],
            question=turn.question.text, refused=refused, text=answer, sources=list(sources),
            confidence=confidence, timestamp=_now(), mode=turn.question.mode,
            generator=outcome.generator if outcome else "none",
            fallback_reason=outcome.fallback_reason if outcome else None,
            usage=outcome.usage if outcome else None, context=turn.context,
            candidates=turn.candidates, unknown_terms=turn.unknown_terms, timings=turn.timings,
            intent=turn.intent.value if turn.intent else None, corrections=dict(turn.corrections),
            offer_book_search=refused and turn.question.selection is not None)

    def _fail(self, turn: Turn, exc: BaseException) -> None:
        log.exception("query %s failed", turn.query_id, exc_info=exc)
        turn.mark("FAILED")
        self.sessions.close_turn(turn.query_id, turn.states, session_id=turn.session_id,
                                 user_message_id=turn.user_message_id, user_status="failed", generator=turn.generator,
                                 error=f"{type(exc).__name__}: {exc}")

    def _cancelled(self, turn: Turn, partial: str) -> None:
        turn.mark("CANCELLED")
        try:
            self._close_cancelled(turn, partial)
        except TextbookChatError as exc:  # the reader left: nobody to tell; the question stays unfinished
            log.warning("query %s cancelled, not recorded: %s", turn.query_id, exc.message)

    def _close_cancelled(self, turn: Turn, partial: str) -> None:
        self.sessions.close_turn(turn.query_id, turn.states, session_id=turn.session_id,
                                 user_message_id=turn.user_message_id, user_status="received", generator=turn.generator,
                                 assistant={"content": partial.strip(), "status": "cancelled"} if partial.strip() else None)
