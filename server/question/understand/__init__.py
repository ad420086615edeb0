"""Stage 1, understand: what is asked. The question as the book would word it (a follow-up made
stand-alone, misspelt book words as the book spells them), the terms the book never uses (and the
everyday words it never uses that the question leans on, focus.py), what the reader asks of a
highlighted passage, and the question's vector, computed once."""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Mapping, Protocol

import numpy as np

from server.errors import UnknownBook
from server.sessions import Message
from server.question.understand.focus import Focus
from server.question.understand.followup import looks_like_follow_up, points_back, retrieval_query
from server.question.understand.intent import Intent, detect
from server.question.understand.term import about_term, highlighted_term
from server.question import AnswerMode, Question
from server.text.abbreviations import spelt_out
from server.text.asked import asked_words
from server.text.definition import defined_term
from server.text.vocabulary import Lexicon, words

if TYPE_CHECKING:
    from server.embedding.protocol import TextEmbedder
    from server.book.chunk import Chunk
    from server.book.outline import OutlinePage

log = logging.getLogger("textbook_chat.pipeline")
Rewriter = Callable[[str, list], "str | None"]
History = tuple[Message, ...]  # the conversation's last messages, oldest first


class CourseTask(Protocol):
    """A question read as one about the book as a course (course/understand.py's CourseRequest):
    its task and scope, as a response describes them."""

    task: str

    def describe(self) -> dict: ...


class PageReader(Protocol):
    """The page a question is asked on and its passages (gather/reader_page.py's ReaderPages)."""

    def page(self, book_id: str | None, url: str | None) -> "OutlinePage | None": ...

    def passages(self, book_id: str | None, page: "OutlinePage") -> "list[Chunk]": ...


class CourseReader(Protocol):
    def read(self, question: Question, vector: np.ndarray, history: History) -> CourseTask | None: ...


@dataclass(frozen=True)
class Understanding:
    question: Question
    history: History
    search_text: str  # what the book is searched with
    vector: np.ndarray = field(repr=False, compare=False)  # search_text's embedding
    corrections: Mapping[str, str] = field(default_factory=dict)  # misspelt word → the book word searched for
    unknown_terms: tuple[str, ...] = ()  # specialist words the book never uses
    intent: Intent | None = None  # what the reader asks of the highlighted passage; None without one
    course: CourseTask | None = None  # a question about the book as a course; None for a passage question
    # the everyday words the question leans on that the book never uses (focus.py), when it may lean on one
    unused_focus: Focus | None = field(default=None, repr=False, compare=False)
    # a highlighted term asked about with the book (term.py): the book answers, the term in place of "this"
    term: str | None = None

    @property
    def asked(self) -> str:
        """The question as the reader asked it, with a highlighted term in place of "this"."""
        return about_term(self.question.text, self.term) if self.term else self.question.text


class KnownBooks:
    """A question for a book the index does not hold is an error, never an answer from another
    book. Known books are remembered until a newer publication is followed (`forget`)."""

    def __init__(self, count: Callable[[str], int]):
        self._count = count
        self._known: set[str] = set()

    def forget(self) -> None:
        self._known = set()

    def require(self, book_id: str | None) -> None:
        if not book_id or book_id in self._known:
            return
        if self._count(book_id) == 0:
            raise UnknownBook(f"No book with id {book_id!r} is indexed.", details={"book_id": book_id})
        self._known.add(book_id)


class Understand:
    def __init__(self, embedder: TextEmbedder, lexicon: Lexicon, books: KnownBooks, *,
                 rewriter: Rewriter | None = None, course: CourseReader | None = None,
                 pages: PageReader | None = None):
        """`lexicon`: a book's words, for its misspellings and the terms it never uses;
        `course`, when given, reads questions about the book as a course (course/service.py);
        `pages`: the page a question is asked on (what a question pointing back first points at)."""
        self.course = course
        self.pages = pages
        self.embedder = embedder
        self.lexicon = lexicon
        self.books = books
        self.rewriter = rewriter

    def require_book(self, question: Question) -> None:
        """Raises UnknownBook for a book the index does not hold."""
        self.books.require(question.filters.book_id)

    def __call__(self, question: Question, history: History) -> Understanding:
        # a student's answer to a quiz item is checked as said, never rewritten as a follow-up
        text = question.text if question.quiz_answer is not None else self._stand_alone(question, history)
        selected = question.selected_text
        term = highlighted_term(selected) if question.mode is AnswerMode.SELECTION_COMBINED else None
        if term:
            text = about_term(text, term)
        corrections: Mapping[str, str] = {}
        vocabulary = self.lexicon(question.filters.book_id)
        reading = vocabulary.read(text)
        if question.mode is not AnswerMode.SELECTION_EXCLUSIVE:
            # misspelt book words are searched for as the book spells them, and the book's abbreviations
            # with their long forms ("MAF (minor allele frequency)": what the embedding model can read),
            # but not of a highlighted passage, judged on the words as asked ("PBT", its long form unsaid)
            text, corrections = reading.text, dict(reading.corrections)
            text = text if selected else spelt_out(text, vocabulary.abbreviations)
        # (of a highlighted passage, they only decide whether the whole book may be offered)
        unknown = tuple(reading.unknown_terms)
        vector = self.embedder.embed_query(text)
        course = self.course.read(question, vector, history) if self.course is not None else None
        intent = Intent.QUESTION if term else \
            detect(question.text, selected, code=bool(question.selection.language)) if selected else None
        focus = Focus(text, reading.unused, self.embedder) if reading.unused else None
        return Understanding(question, history, text, vector, corrections, unknown, intent, course, focus, term)

    def _pointed_at(self, asked: Question) -> "OutlinePage | None":
        """The page a question pointing back with nothing before it points at: the one it is asked
        on, where that page says one of its words ("which one should I use?" names nothing, and
        "how do I fix it?" on a page that fixes nothing points at nothing)."""
        if self.pages is None or asked.selected_text or not points_back(asked.text) \
                or defined_term(asked.text) is not None:  # "生成器是什么？" names what it asks about
            return None
        page = self.pages.page(asked.filters.book_id, asked.page.url)
        asked_for = asked_words(asked.text)
        if page is None or not asked_for:
            return None
        said = {w for chunk in self.pages.passages(asked.filters.book_id, page) for w in words(chunk.content)}
        return page if asked_for & said else None

    def _stand_alone(self, asked: Question, history: History) -> str:
        """A follow-up is rewritten into a stand-alone query by the rewriter when there is one;
        otherwise (or on any failure) the previous question is prepended. Asked first in a
        conversation, a question pointing back ("which one should I use?", "結局どっちを使えばいい？")
        points at the page it is asked on: its title is searched with it."""
        question = asked.text
        if not any(m.role == "user" for m in history):
            page = self._pointed_at(asked)
            return f"{page.title} {question}" if page is not None and page.title else question
        if self.rewriter is not None and looks_like_follow_up(question):
            try:
                rewritten = self.rewriter(question, list(history))
            except Exception:
                log.warning("follow-up rewrite failed; using the heuristic query", exc_info=True)
                rewritten = None
            if rewritten and rewritten.strip():
                return rewritten.strip()
        return retrieval_query(question, list(history))
