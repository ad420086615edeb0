"""Practice, as the question path carries it: a quiz posed with an answer (its items kept with the
conversation, answers included, so that any server can check a student's answer later), the
feedback on a student's answer to one item, and a hint given instead of an answer (tutor mode).

What a response shows of a quiz never includes its answers (`shown`); what the conversation keeps
does (`to_stored`). The author's insights read what each turn practised (`event`)."""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields

VERDICTS = ("correct", "partly", "incorrect")


@dataclass(frozen=True)
class QuizItem:
    n: int  # numbered from 1 in the quiz
    question: str
    choices: tuple[str, ...] = ()
    key: int | None = None  # the right choice's index, when the book's key gives it
    answer: str = ""  # the book's answer (key explanation, sample answer, solution) or a built question's sentence
    tests: str = ""  # the URL of the section the item tests
    tests_heading: str = ""
    source: str = ""  # the URL of the page (or section) the question is on

    @property
    def kind(self) -> str:
        return "choice" if len(self.choices) >= 2 else "short"

    @property
    def expected(self) -> str:
        """The answer as feedback states it: the key's choice with its letter, else the book's answer."""
        if self.kind == "choice" and self.key is not None and self.key < len(self.choices):
            return f"{chr(65 + self.key)}) {self.choices[self.key]}"
        return self.answer

    def shown(self) -> dict:
        return {"n": self.n, "question": self.question, "choices": list(self.choices), "kind": self.kind}


@dataclass(frozen=True)
class Quiz:
    page: str  # the page (URL) it was given for
    title: str
    items: tuple[QuizItem, ...]
    own: bool = True  # the book's own questions (else made from its statements)

    def shown(self, quiz_id: str) -> dict:
        """As the response shows it: no answers."""
        return {"id": quiz_id, "page": self.page, "items": [i.shown() for i in self.items]}

    def item(self, n: int) -> QuizItem | None:
        return next((i for i in self.items if i.n == n), None)

    def to_stored(self) -> dict:
        return {"page": self.page, "title": self.title, "own": self.own,
                "items": [{**asdict(i), "choices": list(i.choices)} for i in self.items]}

    @classmethod
    def from_stored(cls, data: dict) -> "Quiz":
        known = {f.name for f in fields(QuizItem)}
        items = tuple(QuizItem(**{**{k: v for k, v in i.items() if k in known}, "choices": tuple(i.get("choices", ()))})
                      for i in data.get("items", []))
        return cls(data.get("page", ""), data.get("title", ""), items, bool(data.get("own", True)))


@dataclass(frozen=True)
class Feedback:
    quiz_id: str
    item: int
    verdict: str  # one of VERDICTS
    expected: str  # the answer the book gives
    question: str = ""  # the item's question (for the author's insights)
    tests: str = ""  # the section it tests
    tests_heading: str = ""

    def shown(self) -> dict:
        return {"item": self.item, "verdict": self.verdict, "expected": self.expected}


@dataclass(frozen=True)
class Hint:
    question: str  # what the student asked (or the exercise they asked to solve)
    level: int  # 1: where to read and a guiding question; 2 and on: narrower
    section: str  # the URL of the section to read
    section_heading: str = ""
    answer: str = ""  # a book exercise's own answer, given when the student asks for it


@dataclass(frozen=True)
class Practice:
    """What a turn practised; at most one of a quiz posed, feedback, a hint, the answers shown."""

    quiz: Quiz | None = None
    feedback: Feedback | None = None
    hint: Hint | None = None
    answered_quiz: str | None = None  # "show the answers": the id of the quiz whose answers were shown

    def to_stored(self) -> dict:
        stored: dict = {}
        if self.quiz is not None:
            stored["quiz"] = self.quiz.to_stored()
        if self.feedback is not None:
            stored["feedback"] = asdict(self.feedback)
        if self.hint is not None:
            stored["hint"] = asdict(self.hint)
        if self.answered_quiz:
            stored["answered_quiz"] = self.answered_quiz
        return stored

    @classmethod
    def from_stored(cls, data: dict | None) -> "Practice | None":
        if not data:
            return None
        return cls(quiz=Quiz.from_stored(data["quiz"]) if data.get("quiz") else None,
                   feedback=Feedback(**data["feedback"]) if data.get("feedback") else None,
                   hint=Hint(**data["hint"]) if data.get("hint") else None,
                   answered_quiz=data.get("answered_quiz"))
