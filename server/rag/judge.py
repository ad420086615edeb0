"""Stage 3, judge: which of the gathered passages may answer, in the order they are cited, or
none (the question is refused). The gates themselves live in gate.py (the book's passages) and
highlight.py (whether a highlighted passage covers a question)."""
from __future__ import annotations

from dataclasses import dataclass

from ..models import Chunk
from .context import SELECTION_FLOOR, QueryContext, Source, database_sources, selection_position
from .gate import admitted
from .gather import Comparison, Gathered
from .highlight import PASSAGE_FLOOR, covers
from .intent import asks_what_it_says, points_at_passage
from .question import AnswerMode
from .sentences import normalised
from .understand import Understanding


@dataclass(frozen=True)
class Judgement:
    sources: tuple[Source, ...]  # numbered [1]..[n] in this order; none: refused
    context: QueryContext  # the passage's pieces and the book's passages that were admitted
    nearest: tuple[Chunk, ...] = ()  # what a refusal points the reader to
    offer_book_search: bool = False  # the passage does not cover the question; the book may

    @property
    def refused(self) -> bool:
        return not self.sources


class Judge:
    def __init__(self, *, model_judges: bool):
        """`model_judges`: the generator reads borderline questions itself and may decline."""
        self.model_judges = model_judges

    def __call__(self, understood: Understanding, gathered: Gathered) -> Judgement:
        question, intent = understood.question, understood.intent
        max_chunks = question.max_chunks
        selected, database, offer = gathered.selected, (), False
        if question.mode is not AnswerMode.SELECTION_EXCLUSIVE:
            database = tuple(database_sources(admitted(
                understood.search_text, list(gathered.candidates), question.similarity_threshold,
                unknown_terms=list(understood.unknown_terms), model_judges=self.model_judges)))
            if gathered.comparison is not None and not self._either_answers(understood, gathered):
                return Judgement((), QueryContext((), ()), gathered.nearest, False)
        elif gathered.comparison is not None and not self._passage_covers(understood, gathered):
            selected, offer = (), True
        if intent is not None and intent.about_the_passage:
            # a request about the passage itself: all of it, in reading order, then the book's passages
            passage = tuple(sorted(selected, key=selection_position))
            sources = passage + database[: max(0, max_chunks - len(passage))]
            return Judgement(sources, QueryContext(selected, database), gathered.nearest, offer)
        context = QueryContext(tuple(s for s in selected if s.score >= SELECTION_FLOOR), database)
        ranked = context.combined[:max_chunks]
        if context.selected and not any(s.source_type == "selected_text" for s in ranked):
            ranked = [context.selected[0], *ranked[: max_chunks - 1]]  # the highlight always takes part
        return Judgement(tuple(ranked), context, gathered.nearest, offer)

    def _either_answers(self, understood: Understanding, gathered: Gathered) -> bool:
        """Combined mode, a question: the passage covers it, or the book does by the question's
        own words (its candidates were steered by the passage, so they would admit anything
        near the passage: "what is the capital of France?" on a paragraph about sampling)."""
        if points_at_passage(understood.question.text) or self._passage_covers(understood, gathered):
            return True
        return bool(admitted(understood.search_text, list(gathered.comparison.elsewhere),
                             understood.question.similarity_threshold, unknown_terms=list(understood.unknown_terms),
                             model_judges=self.model_judges))

    def _passage_covers(self, understood: Understanding, gathered: Gathered) -> bool:
        """Exclusive mode, a question: answered from the passage only if the passage covers it
        (the book is searched only to compare; nothing found there is shown or cited). With a
        model, a question the passage is at all near goes to the model, which may decline."""
        comparison: Comparison = gathered.comparison
        passage_best = max(max((s.score for s in gathered.selected), default=0.0), comparison.best_sentence)
        opening = normalised(comparison.passage_sentences[0])[:60]
        elsewhere_best = max((c.score for c in comparison.elsewhere if opening not in normalised(c.content)),
                             default=0.0)
        return passage_best >= PASSAGE_FLOOR and (covers(passage_best, elsewhere_best) or self.model_judges
                                                 or asks_what_it_says(understood.question.text))
