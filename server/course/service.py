"""The course path beside the passage path: a question read as a course request against the
book's outline as the index publishes it now (understand), and its answer from the structure
(extractive) or from a model with the task's prompt (compose: prompts.py)."""
from __future__ import annotations

from typing import Callable, Sequence

from server.book.outline import Outline
from server.question import Question
from server.sessions import Message
from server.store import Filters
from server.course.answers import ANSWERERS, CourseAnswer
from server.course.citing import CitablePages, Cites
from server.library.published import PublishedOutlines
from server.course.quiz import answers_text, posed, quiz_text
from server.course.resolve import resolve_page
from server.course.understand import CourseRequest, TaskReader
from server.course.wording import wording
from server.question.practice import Practice, Quiz

Quizzes = Callable[[str, str], "dict | None"]  # (message id, session id) → what that message practised

MAX_CITED = 30  # a quiz's pages, its answers' sections
ANSWERS_FLOOR = 0.5  # "show the answers", read after a quiz
_ANSWER_REQUESTS = ["show the answers", "what are the answers", "tell me the correct answers", "reveal the solutions"]


class Course:
    def __init__(self, outlines: PublishedOutlines, embedder, retriever, quizzes: Quizzes | None = None):
        """`quizzes`: what a message of a conversation practised (the sessions store's practice_of),
        for a quiz posed before the conversation's last messages."""
        self.outlines = outlines
        self.reader = TaskReader(embedder)
        self.embedder = embedder
        self.retriever = retriever
        self.quizzes = quizzes
        self._answer_requests = None

    def read(self, question: Question, vector, history: Sequence[Message]) -> CourseRequest | None:
        """The course request a question makes, or None for the passage path."""
        if question.selection is not None or question.quiz_answer is not None:
            return None  # a student's answer to a quiz item is checked (practice/), not read as a request
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

    def last_quiz(self, question: Question, history: Sequence[Message]) -> tuple[str, Quiz] | None:
        """The quiz the conversation is on (its id and items): the last one posed, or the one the
        last feedback was about; None when the conversation's last practice was no quiz."""
        for message in reversed(history):
            kept = Practice.from_stored(message.practice) if message.role == "assistant" else None
            if kept is None:
                continue
            if kept.quiz is not None:
                return message.id, kept.quiz
            quiz_id = kept.feedback.quiz_id if kept.feedback else kept.answered_quiz
            if not quiz_id or self.quizzes is None or not question.session_id:
                return None
            stored = Practice.from_stored(self.quizzes(quiz_id, question.session_id))
            return (quiz_id, stored.quiz) if stored is not None and stored.quiz is not None else None
        return None

    def is_answers_request(self, vector) -> bool:
        if self._answer_requests is None:
            self._answer_requests = self.embedder.embed_documents(_ANSWER_REQUESTS)
        return self.reader.scale(float(max(self._answer_requests @ vector))) >= ANSWERS_FLOOR

    def _quiz_answers(self, question: Question, vector, history: Sequence[Message], outline: Outline) -> CourseRequest | None:
        """"show the answers" while a quiz is on: the answers to that quiz."""
        on = self.last_quiz(question, history)
        # as the student typed it: a short request ("答えを見せて") reads as a follow-up of the question before
        if on is None or not self.is_answers_request(self.embedder.embed_query(question.text)):
            return None
        quiz_id, quiz = on
        reader_on = resolve_page(outline, question.page.url, question.page.title) if question.page.url else None
        return CourseRequest("answers", "page", outline, reader_on, None, quiz.page, 1.0, question.text, quiz, quiz_id,
                             question.page.locale)

    def answer(self, req: CourseRequest, threshold: float) -> CourseAnswer:
        book = self.outlines.book(req.outline.book_id)
        pages = book.view(CitablePages.of) if book else None
        if req.task == "answers" and req.quiz is not None and pages is not None:
            cite = Cites(pages, limit=MAX_CITED)
            text = answers_text(req.quiz, req.outline, cite, req.locale)
            return CourseAnswer(text, tuple(cite.chunks), Practice(answered_quiz=req.quiz_id))
        if req.page_unknown and req.scope == "page" or pages is None:
            return CourseAnswer(wording(req.locale).not_indexed.format(req.page_url), ())
        cite = Cites(pages, limit=MAX_CITED if req.task == "quiz" else 10)
        if req.task == "quiz":
            quiz = posed(req)
            text = quiz_text(quiz, req.outline, cite, req.locale) if quiz else ""
            return CourseAnswer(text, tuple(cite.chunks), Practice(quiz=quiz)) if text and cite.chunks \
                else CourseAnswer("", ())
        if req.task not in ANSWERERS:
            return CourseAnswer("", ())
        text = ANSWERERS[req.task](req, cite, pages, lambda r: self._search(r, threshold))
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
