"""A question's route: how its evidence is found and its answer written, behind one protocol.

The passage route (gather → judge → compose) answers any question. A question about the book as
a course takes the course's route (course/stage.py) when the outline holds its answer. The
composition root chooses the routes and their order; the pipeline takes the first that prepares
an answer.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Generator as Stream, Protocol

from server.question.compose import Compose, Composed
from server.question.gather import Gather, Gathered
from server.question.judge import Judge, Judgement
from server.question.understand import Understanding


@dataclass(frozen=True)
class Prepared:
    understood: Understanding  # as the route reads the question
    gathered: Gathered
    judged: Judgement


class Route(Protocol):
    @property
    def name(self) -> str: ...  # what writes its answers, as the record names it

    def prepare(self, understood: Understanding) -> Prepared | None:
        """The evidence and its judgement, or None when this route has no answer."""

    def refuse(self, understood: Understanding, judged: Judgement) -> Composed: ...

    def write(self, understood: Understanding, judged: Judgement) -> Stream[str, None, Composed]: ...

    def warm_up(self) -> None: ...


class Passages:
    """The book's passages: every question can take this route."""

    def __init__(self, gather: Gather, judge: Judge, compose: Compose):
        self.gather = gather
        self.judge = judge
        self.compose = compose

    @property
    def name(self) -> str:
        return self.compose.name

    def prepare(self, understood: Understanding) -> Prepared:
        if understood.course is not None:  # read as a course question, but the outline has no answer
            understood = replace(understood, course=None)
        gathered = self.gather(understood)
        return Prepared(understood, gathered, self.judge(understood, gathered))

    def refuse(self, understood: Understanding, judged: Judgement) -> Composed:
        return self.compose.refuse(understood, judged)

    def write(self, understood: Understanding, judged: Judgement) -> Stream[str, None, Composed]:
        return self.compose.write(understood, judged)

    def warm_up(self) -> None:
        pass
