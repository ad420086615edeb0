"""Practice as a route of the question path: a student's answer to a quiz item checked (check.py,
or graded by Gemini: grading.py) with a short explanation citing the section the item tests; and,
in tutor mode, hints before answers (hints.py). The quiz is read from the conversation (the
sessions store), so whichever server posed it, any server checks it."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Generator as Stream

from server.book.outline import Outline
from server.question.compose import Composed
from server.question.compose.generator import Outcome
from server.question.context import QueryContext, database_sources
from server.question.gather import Gathered
from server.question.judge import Judgement
from server.question.practice import Feedback, Practice, Quiz, QuizItem
from server.question.route import Prepared
from server.question.understand import Understanding
from server.course.answers import link
from server.course.citing import CitablePages, Cites
from server.course.practice.check import Checked, check_choice, check_short, cosine
from server.course.practice.grading import GeminiGrader
from server.course.quiz import key_explanation, tested_page
from server.course.service import Course
from server.course.wording import WORDING, Wording, wording

MAX_EXPECTED = 600


@dataclass(frozen=True)
class PracticeJudgement(Judgement):
    text: str = ""  # what the student reads
    writer: str = "extractive"  # who judged it: the model that graded it, or extractive


def section_of(pages: CitablePages, outline: Outline, item: QuizItem) -> tuple[object, str, str, list]:
    """The page, URL and text of the section an item tests, and its passages."""
    page, url = tested_page(outline, item)
    if page is None:
        return None, "", "", []
    pieces = [c for c in pages.chunks(page) if c.url == url] or [c for c in [pages.at(page, url)] if c]
    return page, url, "\n\n".join(c.content for c in pieces), pieces


def _feedback_text(item: QuizItem, checked: Checked, where: str, marker: str, said: str = "",
                   w: Wording = WORDING["en"]) -> str:
    expected = checked.expected if len(checked.expected) <= MAX_EXPECTED else checked.expected[:MAX_EXPECTED] + "…"
    read = w.teaches_in.format(where + marker) if where else ""
    if item.kind == "choice":
        chosen = f"{chr(65 + checked.chosen)}) {item.choices[checked.chosen]}" if checked.chosen is not None else ""
        if checked.verdict == "correct":
            return " ".join(x for x in (f"**{w.correct_choice.format(expected)}**", said, read) if x)
        you = w.you_chose.format(chosen) if chosen else w.none_of
        right = w.key_is.format(expected) if expected else w.no_key
        explains = w.explains_in.format(where + marker) if where else ""
        return " ".join(x for x in (f"**{w.not_quite}** {you}{right}", said, explains) if x)
    head = {"correct": w.correct, "partly": w.partly, "incorrect": w.not_quite}[checked.verdict]
    missing = w.missing.format(", ".join(checked.missing)) if checked.missing and checked.verdict != "correct" else ""
    said = said or (w.books_answer.format(expected) if expected else "")
    return " ".join(x for x in (f"**{head}**{missing}", said, read) if x)


class PracticeStage:
    """The route for a student's answer to a quiz item (and, with hints.py, tutor mode's hints)."""

    def __init__(self, course: Course, generator, quizzes: Callable, tutor=None):
        self.course = course
        self.generator = generator
        self.quizzes = quizzes
        self.grader = GeminiGrader.of(generator)
        self.tutor = tutor
        self._similarity = cosine(course.embedder)

    @property
    def name(self) -> str:
        return self.generator.name

    def warm_up(self) -> None:
        pass

    def prepare(self, understood: Understanding) -> Prepared | None:
        if understood.question.quiz_answer is not None:
            return self._checked(understood)
        return self.tutor.prepare(understood) if self.tutor is not None else None

    def _quiz(self, understood: Understanding) -> tuple[str, Quiz] | None:
        question = understood.question
        asked = question.quiz_answer
        kept = Practice.from_stored(self.quizzes(asked.quiz_id, question.session_id)) if question.session_id else None
        return (asked.quiz_id, kept.quiz) if kept is not None and kept.quiz is not None else None

    def _checked(self, understood: Understanding) -> Prepared:
        question = understood.question
        found = self._quiz(understood)
        item = found[1].item(question.quiz_answer.item) if found else None
        outline = self.course.outline(question.filters.book_id)
        book = self.course.outlines.book(outline.book_id) if outline else None
        pages = book.view(CitablePages.of) if book else None
        if item is None or pages is None:
            return Prepared(understood, Gathered(), PracticeJudgement((), QueryContext((), ()),
                                                                     text=wording(question.page.locale).no_quiz))
        page, url, section, _ = section_of(pages, outline, item)
        cite = Cites(pages)
        marker = cite(page, url) if page is not None else ""
        where = link(item.tests_heading or page.name, url) if page is not None else ""
        said, writer = "", "extractive"
        if item.kind == "choice":
            checked = check_choice(item, question.text, section)
            said = key_explanation(item).rstrip(".") + "." if item.key is not None and key_explanation(item) else ""
            said = said[:1].upper() + said[1:]
        else:
            checked = check_short(item, question.text, section, self._similarity)
            graded = self.grader.grade(section, item.answer, item.question, question.text) \
                if self.grader is not None and section else None
            if graded is not None:
                checked = replace(checked, verdict=graded.verdict)
                said, writer = graded.explanation, graded.model
        # a quiz card's answer comes without the reader's page: the language of the page it tests
        locale = question.page.locale or (page.locale if page is not None else None)
        text = _feedback_text(item, checked, where, marker, said, wording(locale))
        feedback = Feedback(found[0], item.n, checked.verdict, checked.expected, item.question, url,
                            item.tests_heading)
        sources = tuple(database_sources(cite.chunks))
        if not sources:  # nothing to cite: the check stands on the kept quiz alone
            text = text.replace(marker, "")
        judged = PracticeJudgement(sources, QueryContext((), sources), practice=Practice(feedback=feedback),
                                   text=text, writer=writer)
        return Prepared(understood, Gathered(candidates=tuple(cite.chunks)), judged)

    def refuse(self, understood: Understanding, judged: Judgement) -> Composed:
        if not isinstance(judged, PracticeJudgement):  # the answer a hint held back: the passage route's
            return self.tutor.passages.refuse(understood, judged)
        return Composed(judged.text, (), None)

    def write(self, understood: Understanding, judged: Judgement) -> Stream[str, None, Composed]:
        if not isinstance(judged, PracticeJudgement):
            return (yield from self.tutor.passages.write(understood, judged))
        yield judged.text
        return Composed(judged.text, judged.sources, Outcome(judged.writer))
