"""Stage 3, judge: which of the gathered passages may answer, in the order they are cited, or
none (the question is refused). The gates themselves live in gate.py (the book's passages) and
highlight.py (whether a highlighted passage covers a question).

A question asked of a highlighted passage is answered only when the passage covers it, in
either mode: in combined mode the book's passages support the passage's answer, they do not
replace it ("which ROS 2 version should I install?" on a paragraph introducing ROS 2 is declined
in both modes, with the offer to search the whole book, which has the answer elsewhere)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from server.book.chunk import Chunk
from server.question.context import SELECTION_FLOOR, QueryContext, Source, database_sources, selection_position
from server.question.judge.gate import admitted
from server.question.gather import Comparison, Gathered
from server.question.holding import holds
from server.question.judge.highlight import PASSAGE_FLOOR, covers
from server.question.understand.intent import about_its_words, asks_what_it_says
from server.question import AnswerMode
from server.question.practice import Practice
from server.question.understand import Understanding


@dataclass(frozen=True)
class Judgement:
    sources: tuple[Source, ...]  # numbered [1]..[n] in this order; none: refused
    context: QueryContext  # the passage's pieces and the book's passages that were admitted
    nearest: tuple[Chunk, ...] = ()  # what a refusal points the reader to
    offer_book_search: bool = False  # the passage does not cover the question; the book may
    practice: Practice | None = None  # a quiz posed, feedback on a student's answer, a hint (practice.py)

    @property
    def refused(self) -> bool:
        return not self.sources


class Judge:
    def __init__(self, *, model_judges: bool, scale: Callable[[float], float] = lambda score: score):
        """`model_judges`: the generator reads borderline questions itself and may decline.
        `scale`: the embedding model's cosines on the scale the gates were calibrated in (gate.py)."""
        self.model_judges = model_judges
        self.scale = scale

    def __call__(self, understood: Understanding, gathered: Gathered) -> Judgement:
        question, intent = understood.question, understood.intent
        max_chunks = question.max_chunks
        selected, database = gathered.selected, ()
        offer = gathered.comparison is not None and self._book_may_answer(understood, gathered)
        if gathered.comparison is not None and not self._passage_covers(understood, gathered):
            # the passage does not answer it, in either mode: declined, never the passage repeated
            return Judgement((), QueryContext((), ()), gathered.nearest if offer else (), offer)
        if question.mode is not AnswerMode.SELECTION_EXCLUSIVE:
            book = question.mode is AnswerMode.BOOK
            database = tuple(database_sources(admitted(
                understood.search_text, list(gathered.candidates), question.similarity_threshold,
                unknown_terms=list(understood.unknown_terms if book else ()), model_judges=self.model_judges,
                about_a_passage=question.mode is AnswerMode.SELECTION_COMBINED,
                unused_focus=understood.unused_focus if book else None, scale=self.scale)))
            # a highlighted term the request points at: its passage on the reader's page answers; a word asked
            # that the book seldom uses: the page's passages using it answer with those admitted
            leading = list(gathered.held) or (list(gathered.naming) if database else [])
            if leading:
                held = {c.chunk_id for c in leading}
                database = tuple(database_sources(leading)) + tuple(s for s in database if s.chunk.chunk_id not in held)
        if intent is not None and intent.about_the_passage:
            # a request about the passage itself: all of it, in reading order, then the book's passages,
            # the one holding it first, however far its words are from the request's ("what does this mean?")
            if question.mode is AnswerMode.SELECTION_COMBINED:
                held = [c for c in gathered.candidates if holds(c.content, question.selected_text or "")]
                database = tuple(database_sources(held)) + tuple(
                    s for s in database if s.chunk.chunk_id not in {c.chunk_id for c in held})
            passage = tuple(sorted(selected, key=selection_position))
            sources = passage + database[: max(0, max_chunks - len(passage))]
            return Judgement(sources, QueryContext(selected, database), gathered.nearest, offer)
        context = QueryContext(tuple(s for s in selected if s.score >= SELECTION_FLOOR), database)
        ranked = context.combined[:max_chunks]
        if context.selected and not any(s.source_type == "selected_text" for s in ranked):
            ranked = [context.selected[0], *ranked[: max_chunks - 1]]  # the highlight always takes part
        return Judgement(tuple(ranked), context, gathered.nearest, offer)

    def _book_may_answer(self, understood: Understanding, gathered: Gathered) -> bool:
        """Would the book path ("Search the whole book") answer the question by its own words?
        Only then is it offered: the book's own gates, on the book's passages for the question alone."""
        return bool(admitted(understood.search_text, list(gathered.comparison.elsewhere),
                             understood.question.similarity_threshold, unknown_terms=list(understood.unknown_terms),
                             model_judges=self.model_judges, unused_focus=understood.unused_focus,
                             scale=self.scale))

    def _passage_covers(self, understood: Understanding, gathered: Gathered) -> bool:
        """A question is answered from the passage only if the passage covers it (the book is
        searched by the question alone only to compare). With a model, a question the passage is
        at all near goes to the model, which may decline."""
        text = understood.question.text
        passage = understood.question.selected_text or ""
        if asks_what_it_says(text) or about_its_words(text, passage):
            return True
        comparison: Comparison = gathered.comparison
        passage_best = max(max((s.score for s in gathered.selected), default=0.0), comparison.best_sentence)
        return passage_best >= PASSAGE_FLOOR and (
            covers(passage_best, comparison.elsewhere_best, comparison.kinship) or self.model_judges)
