"""The course path beside the passage path: a book's outline and pages kept per published index
generation, a question read as a course request (understand), and its answer from the
structure (extractive) or from a model with the task's prompt (compose: prompts.py)."""
from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import Sequence

from ..rag.question import Question
from ..sessions import Message
from ..store import ChunkStore, Filters
from .answers import ANSWERERS, CourseAnswer
from .citing import BookPages, Cites
from .outline import Outline
from .quiz import answers as quiz_answers, quiz
from .understand import CourseRequest, TaskReader

REFRESH_S = 30.0  # how often a book's outline is looked for again (a newer ingest may have published one)
ANSWERS_FLOOR = 0.5  # "show the answers", read after a quiz
_ANSWER_REQUESTS = ["show the answers", "what are the answers", "tell me the correct answers", "reveal the solutions"]


class Library:
    """Each book's outline and cited pages, as the index now publishes them."""

    def __init__(self, store: ChunkStore):
        self.store = store
        self._books: dict[str, tuple[float, dict | None, Outline | None, BookPages | None]] = {}
        self._lock = threading.Lock()
        self._ids: tuple[float, list[str]] = (0.0, [])

    def book_ids(self) -> list[str]:
        checked, ids = self._ids
        if time.monotonic() - checked > REFRESH_S:
            ids = self.store.books()
            self._ids = (time.monotonic(), ids)
        return ids

    def outline(self, book_id: str | None) -> Outline | None:
        return self._entry(book_id)[0]

    def pages(self, book_id: str) -> BookPages | None:
        return self._entry(book_id)[1]

    def _entry(self, book_id: str | None) -> tuple[Outline | None, BookPages | None]:
        if book_id is None:
            ids = self.book_ids()
            if len(ids) != 1:
                return None, None
            book_id = ids[0]
        now = time.monotonic()
        known = self._books.get(book_id)
        if known is None or now - known[0] > REFRESH_S:
            data = self.store.outline(book_id)
            if known is not None and data == known[1]:
                self._books[book_id] = (now, *known[1:])
            else:
                outline = Outline.from_dict(data) if data else None
                pages = BookPages(outline, self.store.all_chunks(book_id)) if outline else None
                with self._lock:
                    self._books[book_id] = (now, data, outline, pages)
            known = self._books[book_id]
        return known[2], known[3]


class Course:
    def __init__(self, store: ChunkStore, embedder, retriever):
        self.library = Library(store)
        self.reader = TaskReader(embedder)
        self.embedder = embedder
        self.retriever = retriever
        self._answer_requests = None

    def read(self, question: Question, vector, history: Sequence[Message]) -> CourseRequest | None:
        """The course request a question makes, or None for the passage path."""
        if question.selection is not None:
            return None
        outline = self.library.outline(question.filters.book_id)
        if outline is None:
            return None
        follow = self._quiz_answers(question, vector, history, outline)
        if follow is not None:
            return follow
        return self.reader.read(question.text, vector, outline, question.page.url, question.page.locale,
                                question.page.title)

    def _quiz_answers(self, question: Question, vector, history: Sequence[Message], outline: Outline) -> CourseRequest | None:
        """"show the answers" right after a quiz: the answers to that quiz."""
        last = next((m for m in reversed(history) if m.role == "assistant"), None)
        asked = next((m for m in reversed(history) if m.role == "user"), None)
        if last is None or asked is None or not last.source_references:
            return None
        if self._answer_requests is None:
            self._answer_requests = self.embedder.embed_documents(_ANSWER_REQUESTS)
        if float(max(self._answer_requests @ vector)) < ANSWERS_FLOOR:
            return None
        url = last.source_references[0].url or ""
        before = self.reader.read(asked.content, self.embedder.embed_query(asked.content), outline,
                                  url.split("#", 1)[0], question.page.locale)
        if before is None or before.task != "quiz":
            return None
        return replace(before, task="answers")

    def answer(self, req: CourseRequest, threshold: float) -> CourseAnswer:
        pages = self.library.pages(req.outline.book_id)
        if req.page_unknown and req.scope == "page" or pages is None:
            return CourseAnswer(f"The page you are on ({req.page_url}) is not in this book's index, so I cannot "
                                "answer about it. Ask about the book or one of its chapters instead.", ())
        cite = Cites(pages)
        write = {**ANSWERERS, "quiz": quiz, "answers": quiz_answers}[req.task]
        text = write(req, cite, pages, lambda r: self._search(r, threshold))
        if not text.strip() or not cite.chunks:
            return CourseAnswer("", ())
        return CourseAnswer(text, tuple(cite.chunks))

    def _search(self, req: CourseRequest, threshold: float) -> list:
        """Passages for "where is … covered", within the part when one is meant."""
        within = req.part is not None and req.scope == "part"
        filters = Filters(book_id=req.outline.book_id, module=req.part.label if within else None)
        locale = req.page.locale if req.page else req.outline.default_locale
        # within a part the reader pointed at, its best passages; in the book, only those that pass the gate
        return self.retriever.retrieve(req.text, max_chunks=8, similarity_threshold=0.0 if within else threshold,
                                       filters=filters, prefer_locale=locale)
