"""Stage 4, compose: the answer's text from the judged passages, by a generator (a language model
or the book's own sentences), or the refusal when none may answer. Deltas out as they are
written, then the Composed answer: its final text, what it cites, and how it came about."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Generator as Stream

from server.question import markers
from server.question.context import Source, database_sources
from server.question.compose.generator import GenerationInput, Generator, Outcome, relayed
from server.question.judge import Judgement
from server.question import Question
from server.question.compose.refusal import book_refusal, selection_refusal
from server.text.definition import defined_term
from server.text.own_language import question_language
from server.text.scripts import language_of, script_of
from server.question.gather.retrieval import Retriever
from server.text.vocabulary import respelled
from server.question.understand import Understanding


@dataclass(frozen=True)
class Renumbered:
    """The sources as the answer's markers now number them (sent while it streams)."""

    sources: tuple[Source, ...]


@dataclass(frozen=True)
class Composed:
    text: str
    sources: tuple[Source, ...]  # numbered [1]..[n]; none when refused
    outcome: Outcome | None  # None: the gate refused before any generator ran

    @property
    def refused(self) -> bool:
        return not self.sources

    @property
    def generator(self) -> str:
        return self.outcome.generator if self.outcome else "none"


class Compose:
    def __init__(self, generator: Generator, retriever: Retriever, *, book_title: str = ""):
        self.generator = generator
        self.retriever = retriever
        self.book_title = book_title

    @property
    def name(self) -> str:
        return self.generator.name

    def refusal(self, understood: Understanding, judged: Judgement) -> str:
        if understood.question.selected_text and understood.intent is not None:
            # declined for the passage, in either mode: the book is offered only if it may answer
            return selection_refusal(understood.question.text, book_may_answer=judged.offer_book_search,
                                     language=_language(understood, judged))
        nearest = list(judged.nearest)
        never = [*understood.unknown_terms, *(understood.unused_focus() if understood.unused_focus else ())]
        return book_refusal(self.book_title or (nearest[0].book_title if nearest else ""), nearest, unknown_terms=never,
                            language=_language(understood, judged), term=defined_term(understood.search_text))

    def refuse(self, understood: Understanding, judged: Judgement) -> Composed:
        return Composed(self.refusal(understood, judged), (), None)

    def write(self, understood: Understanding, judged: Judgement) -> Stream[str, None, Composed]:
        """The generator's deltas (then, if it wrote nothing, the refusal's). Closing it cancels."""
        deltas = self.generator.generate(self.generation_input(understood, judged))
        parts: list[str] = []
        try:
            outcome: Outcome = yield from relayed(deltas, parts)
        finally:
            deltas.close()  # the reader left: the generator stops too
        text = "".join(parts)
        if not text.strip():  # a refusal with nothing streamed: stream the refusal text itself
            text = self.refusal(understood, judged)
            yield text
        refused = outcome.refused or not text.strip()
        # sources found while answering are numbered after ours
        sources = () if refused else judged.sources + tuple(outcome.extra_sources)
        answer = (markers.drop_unknown(text, len(sources)) if sources else text.strip()) or \
            self.refusal(understood, judged)
        return Composed(answer, sources, outcome)

    def generation_input(self, understood: Understanding, judged: Judgement) -> GenerationInput:
        question = understood.question
        return GenerationInput(
            question=question.text, sources=list(judged.sources), history=list(understood.history),
            preferences=question.preferences, selection_only=question.selection_only,
            selected_text=question.selected_text, intent=understood.intent,
            code_language=question.selection.language if question.selection else None,
            search=None if question.selection_only else self._book_search(question),
            spelled=respelled(understood.asked, understood.corrections), language=_language(understood, judged),
            page_key=self._page_key(question), term=understood.term)

    def _page_key(self, question: Question) -> str | None:
        pages = self.retriever.pages
        page = pages.page(question.filters.book_id, question.page.url) if pages is not None else None
        return page.key if page is not None else None

    def _book_search(self, question: Question):
        """The agent's search_textbook: the question's filters and threshold, optionally one module."""
        def search(query: str, module: str | None = None) -> list[Source]:
            filters = question.filters if not module or question.filters.module else \
                replace(question.filters, module=module)
            return database_sources(self.retriever.retrieve(
                query, max_chunks=question.max_chunks, similarity_threshold=question.similarity_threshold,
                filters=filters, prefer_locale=question.page.locale, prefer_version=question.page.docs_version))
        return search



def in_citation_order(writing: Stream[str, None, Composed], sources: tuple[Source, ...]
                      ) -> Stream["str | Renumbered", None, Composed]:
    """A composer's deltas with the markers numbered 1, 2, 3 … as first cited (IEEE), and the
    sources renumbered to match, sent before the first delta that cites by the new numbers."""
    same = markers.same_places([_place(s) for s in sources])
    order, shown, sources = markers.CitationOrder(known=len(sources), same=same), tuple(sources), _merged(sources, same)
    try:
        while True:
            try:
                delta = order.feed(next(writing))
            except StopIteration as end:
                composed: Composed = end.value
                break
            if (arranged := markers.in_citation_order(sources, order.cited, same)) != shown:
                shown = arranged
                yield Renumbered(arranged)
            if delta:
                yield delta
    finally:
        writing.close()
    same = markers.same_places([_place(s) for s in composed.sources])
    tail = order.finish(composed.text, same)
    composed = replace(composed, text=order.text, sources=markers.in_citation_order(
        _merged(composed.sources, same), order.cited, same))
    if tail:
        if composed.sources != shown:
            yield Renumbered(composed.sources)
        yield tail
    return composed


def _language(understood: Understanding, judged: Judgement) -> str | None:
    """The reader's language: their page's locale, else the one their question is written in when its
    script tells ("能举个例子吗？" from a client that sends no locale; in Latin letters, "llama" and "lora"
    read as Spanish), else the book's (its nearest passage's)."""
    book = next((c.locale for c in judged.nearest), None)
    text = understood.question.text
    spoken = question_language(text) or () if any(
        ch.isalpha() and script_of(ch) != "LATIN" for ch in text) else ()
    return understood.question.page.locale or (
        book if book and language_of(book) in spoken else spoken[0] if spoken else book)


def _place(source: Source) -> tuple[str, str] | None:
    """Where a reader finds a book passage: its link and its heading path (a highlighted passage is its own)."""
    return (source.chunk.url, source.chunk.source_location) if source.source_type == "database" else None


def _merged(sources: tuple[Source, ...] | list[Source], same: dict[int, int]) -> list[Source]:
    """The sources with each one that others are the same place as holding their text too, in the
    page's order (what is cited by its number is in what it shows)."""
    if not same:
        return list(sources)
    merged = list(sources)
    for first in set(same.values()):
        chunks = sorted([sources[first - 1].chunk, *(sources[n - 1].chunk for n, f in same.items() if f == first)],
                        key=lambda chunk: chunk.position)
        content = "\n\n".join(dict.fromkeys(c.content.strip() for c in chunks))
        merged[first - 1] = replace(sources[first - 1], chunk=replace(sources[first - 1].chunk, content=content))
    return merged
