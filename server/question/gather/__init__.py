"""Stage 2, gather: the evidence a question may be answered from. The pieces of the highlighted
passage scored against the question, the book's passages (every candidate, before any gate),
and, for a question asked of the passage alone, what the book holds elsewhere to compare with."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from server.book.chunk import Chunk
from server.question.context import Source, selection_sources
from server.question.holding import holds
from server.question.understand.intent import Intent
from server.question import AnswerMode, Question
from server.question.gather.retrieval import Retriever
from server.text.blocks import split_blocks
from server.text.sentences import normalised, split_sentences
from server.text.asked import commonness
from server.text.vocabulary import words
from server.question.understand import Understanding
from server.question.understand.term import points_at

if TYPE_CHECKING:
    from server.embedding.protocol import TextEmbedder

ELSEWHERE_LIMIT = 8  # the book's passages a highlighted passage is compared with
RARE_PASSAGES = 0.002  # of a book's passages: a word used in this few names what they are about
RARE_AT_MOST = 3  # … in a book of fewer than 1,500 passages, in this many
RARE_LENGTH = 4  # letters: shorter words (and Chinese or Japanese pairs of characters) name too little
NAMING_ZIPF = 4.0  # a word this common in its language is an everyday word, though the book seldom uses it
_ENDS_A_SENTENCE = re.compile(r"[.!?。！？۔؟][\"')\]*_”’」』]*$")


def _forms(one: str, other: str) -> bool:
    """Are two words forms of one (alike but for their last two letters, five at least)?"""
    alike = next((k for k, (a, b) in enumerate(zip(one, other)) if a != b), min(len(one), len(other)))
    return alike >= max(RARE_LENGTH + 1, min(len(one), len(other)) - 2)


@dataclass(frozen=True)
class Comparison:
    """A question asked of a highlighted passage: how close the passage and the rest of the book
    come to it, and how alike the passage and the closest other passage are (what a difference
    between the two is measured against)."""

    passage_sentences: tuple[str, ...]
    best_sentence: float  # the passage's best sentence (a short answer is diluted in a long piece)
    elsewhere: tuple[Chunk, ...]  # the book's best passages for the question alone (never shown or cited)
    elsewhere_best: float = 0.0  # the closest of them that is not the passage's own
    kinship: float = 0.0  # cosine between the passage and that closest other passage


@dataclass(frozen=True)
class Gathered:
    selected: tuple[Source, ...] = ()  # the highlighted passage's pieces, best first, none dropped yet
    candidates: tuple[Chunk, ...] = ()  # the book's passages, best first (none in exclusive mode)
    comparison: Comparison | None = None
    # the reader's page's passages holding a highlighted term the request points at ("why do we need this?")
    held: tuple[Chunk, ...] = ()
    # the reader's page's passages using a word asked that the book seldom uses (reader_page.py)
    naming: tuple[Chunk, ...] = ()

    @property
    def nearest(self) -> tuple[Chunk, ...]:
        """What a refusal points the reader to."""
        return self.candidates[:3]


class Gather:
    def __init__(self, retriever: Retriever, embedder: TextEmbedder):
        self.retriever = retriever
        self.embedder = embedder

    def __call__(self, understood: Understanding) -> Gathered:
        question, selected = understood.question, understood.question.selected_text
        pieces: tuple[Source, ...] = ()
        if selected and not understood.term:  # a term's pieces say nothing but its name
            pieces = tuple(selection_sources(selected, understood.vector, self.embedder, question.page.url,
                                             question.page.title, floor=0.0))
        if question.mode is not AnswerMode.SELECTION_EXCLUSIVE:
            # "explain this" says little on its own: in combined mode the passage steers retrieval
            text = f"{understood.search_text}\n{selected[:600]}" if selected and not understood.term \
                else understood.search_text
            candidates = self.retriever.retrieve(text, max_chunks=question.max_chunks, similarity_threshold=0.0,
                                                 filters=question.filters, prefer_locale=question.page.locale,
                                                 prefer_version=question.page.docs_version,
                                                 page_url=question.page.url,
                                                 holding=selected)
            comparison = None
            if selected and understood.intent is Intent.QUESTION and not understood.term:
                # combined mode, a question: judged against the passage and against the book
                # by the question's own words (the passage steered the candidates above)
                comparison = self._compare(understood)
            return Gathered(pieces, tuple(candidates), comparison, self._held(understood, candidates),
                            () if selected else self._naming(understood, candidates))
        comparison = self._compare(understood) if understood.intent is Intent.QUESTION else None
        return Gathered(pieces, (), comparison)

    def _compare(self, understood: Understanding) -> Comparison | None:
        passage = self._in_context(understood.question)
        sentences = split_sentences(passage)
        if not sentences:
            return None
        elsewhere = self.retriever.retrieve(understood.search_text, max_chunks=ELSEWHERE_LIMIT,
                                            filters=understood.question.filters)
        opening = normalised(sentences[0])[:60]
        other = next((c for c in elsewhere if opening not in normalised(c.content)), None)  # not its own chunk
        # the other passage's vector is the index's own (embedding it again was most of this cost)
        stored = self.retriever.stored_vector(other) if other is not None else None
        texts = sentences + ([passage] if other is not None else [])
        vectors = self.embedder.embed_documents(texts + ([other.embed_text or other.content] if other is not None
                                                         and stored is None else []))
        best = float(max(vectors[: len(sentences)] @ understood.vector))
        if other is None:
            return Comparison(tuple(sentences), best, tuple(elsewhere))
        other_vector = stored if stored is not None else vectors[-1]
        kinship = float(vectors[len(sentences)] @ other_vector)
        return Comparison(tuple(sentences), best, tuple(elsewhere), other.score, kinship)

    def _held(self, understood: Understanding, candidates: list[Chunk]) -> tuple[Chunk, ...]:
        """The passages of the reader's page holding the highlighted term a request points at: what
        "this" is, whatever the request's words are near (as near as the best candidate, as retrieval
        ranks them)."""
        question, pages = understood.question, self.retriever.pages
        if not understood.term or pages is None or not points_at(question.text, understood.term):
            return ()
        page = pages.page(question.filters.book_id, question.page.url)
        held = pages.holding(question.filters.book_id, page, understood.term) if page is not None else []
        best = max((c.score for c in candidates), default=0.0)
        return tuple(c.with_score(best) for c in held)

    def _naming(self, understood: Understanding, candidates: list[Chunk]) -> tuple[Chunk, ...]:
        """The reader's page's passages using a word the question asks that the book seldom uses (in
        RARE_PASSAGES of its passages or fewer, at least RARE_AT_MOST, its forms together) and no
        passage near enough to answer uses, and that is no everyday word: as near as the best candidate."""
        question, pages, lexicon = understood.question, self.retriever.pages, self.retriever.lexicon
        if pages is None or lexicon is None or not candidates:
            return ()
        page = pages.page(question.filters.book_id, question.page.url)
        if page is None:
            return ()
        book = lexicon(question.filters.book_id)
        seldom = max(RARE_AT_MOST, book.documents * RARE_PASSAGES)
        # an everyday word ("enough", "suddenly") the book seldom uses names no topic of it
        asked = {w for w in words(understood.search_text) if len(w) >= RARE_LENGTH and commonness(w) < NAMING_ZIPF}
        by_start: dict[str, list[str]] = {}
        for word in asked:
            by_start.setdefault(word[:RARE_LENGTH + 1], []).append(word)
        frequency, forms = book.document_frequency, {word: [] for word in asked}
        for written in frequency if asked else ():  # the book's words read once, not once for each asked word
            for word in by_start.get(written[:RARE_LENGTH + 1], ()):
                if _forms(word, written):
                    forms[word].append(written)
        rare: set[str] = set()
        near: list[set[str]] | None = None  # the words of the passages near enough to answer, read if need be
        for word, written in forms.items():
            # the word with its forms ("inflated" asked, "inflation" written; not "strategy" of "stratification"),
            # or the word alone where its forms together are not seldom used ("stratifying", "stratified")
            if 0 < sum(frequency[f] for f in written) <= seldom:
                found = set(written)
            elif 0 < frequency.get(word, 0) <= seldom:
                found = {word}
            else:
                continue
            if near is None:
                near = [set(words(c.embed_text or c.content)) for c in candidates
                        if c.score >= question.similarity_threshold]
            if not any(found & said for said in near):  # the passages that answer already use it
                rare |= found
        best = max(c.score for c in candidates)
        return tuple(c.with_score(best) for c in pages.naming(question.filters.book_id, page, rare)) if rare else ()

    def _in_context(self, question: Question) -> str:
        """The highlighted passage; a part of a sentence ("method is designed for binary files"), as
        the paragraph that holds it on the reader's page: what the reader points at, and what is
        judged to answer or not ("why can't I seek freely in text mode?" is answered by the rest
        of that sentence)."""
        passage = question.selected_text or ""
        pages = self.retriever.pages
        if pages is None or not passage.strip() or _ENDS_A_SENTENCE.search(passage.strip()):
            return passage
        book_id = question.filters.book_id
        page = pages.page(book_id, question.page.url)
        held = pages.holding(book_id, page, passage) if page is not None else []
        return next((block.text for chunk in held for block in split_blocks(chunk.content)
                     if block.kind == "paragraph" and holds(block.text, passage)), passage)
