"""The course path beside the passage path: a question read as a course request against the
book's outline as the index publishes it now (understand), and its answer from the structure
(extractive) or from a model with the task's prompt (compose: prompts.py)."""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from server.book.outline import Outline
from server.question import Question
from server.sessions import Message
from server.store import Filters
from server.course.answers import ANSWERERS, CourseAnswer
from server.course.citing import CitablePages, Cites
from server.library.published import PublishedOutlines
from server.course.quiz import answers as quiz_answers, quiz
from server.course.understand import CourseRequest, TaskReader

ANSWERS_FLOOR = 0.5  # "show the answers", read after a quiz
_ANSWER_REQUESTS = ["show the answers", "what are the answers", "tell me the correct answers", "reveal the solutions"]


class Course:
    def __init__(self, outlines: PublishedOutlines, embedder, retriever):
        self.outlines = outlines
        self.reader = TaskReader(embedder)
        self.embedder = embedder
        self.retriever = retriever
        self._answer_requests = None

    def read(self, question: Question, vector, history: Sequence[Message]) -> CourseRequest | None:
        """The course request a question makes, or None for the passage path."""
        if question.selection is not None:
            return None
        outline = self.outline(question.filters.book_id)
        if outline is None:
            return None
        follow = self._quiz_answers(question, vector, history, outline)
        if follow is not None:
            return follow
        return self.reader.read(question.text, vector, outline, question.page.url, question.page.locale,
                                question.page.title)

    def outline(self, book_id: str | None) -> Outline | None:
        """The book's outline (the index's only book when none is named), None when there is none."""
        book = self.outlines.book(book_id)
        return book.outline if book else None

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
        book = self.outlines.book(req.outline.book_id)
        pages = book.view(CitablePages.of) if book else None
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
