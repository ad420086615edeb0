"""Tutor mode in the question path: a question asked with `tutor` (or a request to solve one of
the book's exercises) is prepared as a hint; "another hint" and "show me the answer" continue the
hint the conversation last gave. The hint cites where to read (the passage the answer would have
quoted first, or the section an exercise tests); the answer, when asked for, is the one the
passage route gives the original question, or an exercise's own answer from the book."""
from __future__ import annotations

import re
from dataclasses import replace

from server.book.page_urls import by_path, page_at
from server.ingest.blocks import block_kind
from server.course.answers import link
from server.course.citing import CitablePages, Cites
from server.course.practice.hint_wording import hint_wording
from server.course.practice.hints import Tutor, guiding_question
from server.question.compose import in_citation_order
from server.question.context import QueryContext, database_sources
from server.question.gather import Gathered
from server.question.practice import Hint, Practice, QuizItem
from server.question.route import Prepared
from server.question.understand import Understanding
from server.text.terms import STOPWORDS

def _words(text: str) -> set[str]:
    """Whole words (a plural as its singular), none of the little ones: what a heading says."""
    return {w[:-1] if w.endswith("s") and len(w) > 3 else w for w in re.findall(r"[^\W\d]\w*", text.lower())
            if w not in STOPWORDS}


def _practice(outline, chunk) -> bool:
    """A passage of the book's practice: a quiz page, or a quiz or exercise section."""
    page = outline.page(chunk.page_id) if outline else None
    titles = [page.title if page else "", *chunk.section_hierarchy[1:], chunk.heading]
    return any(block_kind(t or "") in ("quiz", "exercises") for t in titles) or bool(
        re.match(r"(?i)^\W*(question|exercise|problem|challenge)\s*#?\s*\d", chunk.heading or ""))


class Tutoring:
    def __init__(self, tutor: Tutor, passages, understand):
        """`passages`: the passage route (the answer a hint holds back); `understand`: the
        pipeline's, to read the original question again when its answer is asked for."""
        self.tutor = tutor
        self.course = tutor.course
        self.passages = passages
        self.understand = understand

    def prepare(self, understood: Understanding) -> Prepared | None:
        question = understood.question
        if question.selection is not None or understood.course is not None and not question.tutor:
            return None
        last = self.tutor.last_hint(understood.history)
        if last is not None:
            wanted = self.tutor.follow_up(question.text)
            if wanted == "another":
                return self._hint(understood, replace(last, level=last.level + 1))
            if wanted == "reveal":
                return self._reveal(understood, last)
        exercise = self.tutor.exercise(question, question.text)
        if exercise is not None:
            item, _page = exercise
            return self._exercise(understood, item)
        if question.tutor and understood.course is None:
            return self._first(understood)
        return None

    def _pages(self, understood: Understanding):
        outline = self.course.outline(understood.question.filters.book_id)
        book = self.course.outlines.book(outline.book_id) if outline else None
        return outline, (book.view(CitablePages.of) if book else None)

    def _first(self, understood: Understanding) -> Prepared | None:
        """The first hint: where the answer is, and a guiding question."""
        prepared = self.passages.prepare(understood)
        if prepared.judged.refused:
            return None  # nothing to read: the passage route says so
        outline, _ = self._pages(understood)
        chunks = [s.chunk for s in self._cited(prepared) if s.source_type == "database"]
        # where to read is where the book teaches, not one of its quiz questions
        best = next((c for c in chunks if not _practice(outline, c)), chunks[0] if chunks else None)
        if best is None:
            return None
        hint = Hint(understood.question.text, 1, best.url, best.heading or best.chapter)
        return self._hint(understood, hint)

    def _cited(self, prepared: Prepared) -> tuple:
        """The sources in the order the answer would cite them: written to know it when writing
        costs nothing (the book's own sentences), else as judged."""
        if self.passages.name != "extractive":
            return prepared.judged.sources
        writing = in_citation_order(self.passages.write(prepared.understood, prepared.judged), prepared.judged.sources)
        try:
            while True:
                next(writing)
        except StopIteration as end:
            composed = end.value
        return composed.sources or prepared.judged.sources

    def _exercise(self, understood: Understanding, item: QuizItem) -> Prepared | None:
        outline, _ = self._pages(understood)
        return self._hint(understood, self.tutor.exercise_hint(item, outline), exercise=True)

    def _hint(self, understood: Understanding, hint: Hint, exercise: bool = False) -> Prepared | None:
        from server.course.practice import PracticeJudgement

        outline, pages = self._pages(understood)
        page = page_at(by_path(outline.pages), hint.section) if outline and hint.section else None
        if page is None or pages is None:
            return None
        cite = Cites(pages)
        marker = cite(page, hint.section)
        words = hint_wording(understood.question.page.locale or page.locale)
        heading = hint.section_heading or page.name
        # a heading that says more than the question may be the answer ("1. robot_state_publisher"):
        # the link then names the page it is on
        told = _words(heading) <= _words(hint.question) or heading == page.name
        where = link(heading if told else words.section_of.format(page.name), hint.section) + marker
        on = words.on.format(link(page.name, page.url)) if told and page.name != heading else ""
        guide = guiding_question(hint.question, words)
        if hint.level <= 1:
            text = words.first.format(lead=words.exercise if exercise else "", where=where, on=on, guide=guide)
            text += f"\n\n{words.more}"
        else:
            section = "\n\n".join(c.content for c in pages.chunks(page) if c.url == hint.section)
            if len(section) < 200:  # a short section's answer may run on into the next
                section = "\n\n".join(c.content for c in pages.chunks(page))
            narrowed = self.tutor.narrowed(hint, section)
            look = (words.look_for.format(where=where, sentence=narrowed) if narrowed else
                    words.read_again.format(where=where, guide=guide))
            text = words.another.format(look=look, next=words.last if hint.level >= 3 else words.more)
        sources = tuple(database_sources(cite.chunks))
        if not sources:
            return None
        judged = PracticeJudgement(sources, QueryContext((), sources), practice=Practice(hint=hint), text=text)
        return Prepared(understood, Gathered(candidates=tuple(cite.chunks)), judged)

    def _reveal(self, understood: Understanding, hint: Hint) -> Prepared | None:
        """The answer the hints held back."""
        from server.course.practice import PracticeJudgement

        if hint.answer:  # one of the book's exercises, with the book's own answer
            outline, pages = self._pages(understood)
            page = page_at(by_path(outline.pages), hint.section) if outline and hint.section else None
            if page is not None and pages is not None:
                cite = Cites(pages)
                marker = cite(page, hint.section)
                text = f"**The book's answer**{marker}:\n\n{hint.answer.strip()}"
                sources = tuple(database_sources(cite.chunks))
                if sources:
                    return Prepared(understood, Gathered(candidates=tuple(cite.chunks)),
                                    PracticeJudgement(sources, QueryContext((), sources), text=text))
        # asked again as on its own: the hints between are no conversation the answer builds on
        question = replace(understood.question, text=hint.question, tutor=False)
        again = self.understand(question, ())
        return self.passages.prepare(replace(again, course=None))
