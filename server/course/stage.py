"""The course path's stages in the question path: a course request's answer is prepared from the
outline (gather and judge in one: the cited pages are the evidence), then written by the model
with the task's prompt, or as prepared when there is no model (or it does not answer)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Generator as Stream

from server.question.compose import Composed
from server.question.context import QueryContext, database_sources
from server.question.gather import Gathered
from server.question.compose.generator import NotAnswered, Outcome, relayed
from server.question.judge import Judgement
from server.question.route import Prepared
from server.question.understand import Understanding
from server.course.answers import CourseAnswer
from server.course.prompts import course_input
from server.course.service import Course


@dataclass(frozen=True)
class CourseJudgement(Judgement):
    answer: CourseAnswer | None = None


class CourseStage:
    def __init__(self, course: Course, generator):
        self.course = course
        self.generator = generator

    @property
    def name(self) -> str:
        return self.generator.name

    def warm_up(self) -> None:
        """The task descriptions embedded and the book's outline read before the first question."""
        self.course.reader.scores(self.course.embedder.embed_query("warm-up"))
        self.course.outline(None)

    def prepare(self, understood: Understanding) -> Prepared | None:
        """The answer from the structure, or None when the question is no course question or the
        structure has no answer (the passage route answers)."""
        req = understood.course
        if req is None:
            return None
        answer = self.course.answer(req, understood.question.similarity_threshold)
        if not answer.text:
            return None
        sources = tuple(database_sources(list(answer.sources)))
        return Prepared(understood, Gathered(candidates=answer.sources),
                        CourseJudgement(sources, QueryContext((), sources), (), practice=answer.practice, answer=answer))

    def refuse(self, understood: Understanding, judged: CourseJudgement) -> Composed:
        return Composed(judged.answer.text, (), None)

    def write(self, understood: Understanding, judged: CourseJudgement) -> Stream[str, None, Composed]:
        answer = judged.answer
        primary = getattr(self.generator, "primary", self.generator)
        # a quiz and its answers are the book's own words, exactly: no model rewords them
        if primary.name == "extractive" or understood.course.task in ("quiz", "answers"):
            yield answer.text
            return Composed(answer.text, judged.sources, Outcome("extractive"))
        deltas = primary.generate(course_input(understood, judged.sources, answer))
        parts: list[str] = []
        try:
            outcome: Outcome = yield from relayed(deltas, parts)
        except NotAnswered as exc:  # nothing shown yet: the answer from the structure instead
            yield answer.text
            return Composed(answer.text, judged.sources, Outcome("extractive", fallback_reason=exc.reason))
        finally:
            deltas.close()
        text = "".join(parts).strip()
        if outcome.refused or not text:
            yield answer.text
            return Composed(answer.text, judged.sources, Outcome("extractive", fallback_reason="refused"))
        return Composed(text, judged.sources, outcome)
