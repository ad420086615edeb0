"""The generator interface: numbered passages and a question in, text deltas out, then an
immutable Outcome saying who wrote the answer and how it went.

A generator is a Python generator function: `outcome = yield from generator.generate(request)`.
Closing it (the reader left) cancels the work.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Generator as Stream, Iterator, Protocol, Sequence

from server.sessions import Message

from server.question.context import Source
from server.question.events import Usage
from server.question.understand.intent import Intent
from server.question import Preferences

Search = Callable[[str, "str | None"], list[Source]]


@dataclass(frozen=True)
class GenerationInput:
    question: str
    sources: list[Source]  # numbered [1]..[n] in this order
    history: Sequence[Message] = ()  # the conversation's last messages, oldest first
    preferences: Preferences = field(default_factory=Preferences)
    selection_only: bool = False  # exclusive mode: the passage is the only context
    selected_text: str | None = None
    # agent mode: search the book for more passages (query, module) → sources; never set in
    # exclusive selection mode, where the highlighted passage is the only context
    search: Search | None = None
    # what the reader asks of the highlighted passage (intent.py); None without a passage
    intent: Intent | None = None
    code_language: str | None = None  # the highlighted passage is code in this language (its block's mark)
    # a question about the book as a course (course/prompts.py): the task's instruction, and the
    # outline of what is asked about, fenced as data like the passages
    course_task: str | None = None
    outline: str = ""
    # the question with its misspelt words as the book spells them ("funtional" as "functional"):
    # what the quoting composer reads its words from (a model reads the question as asked)
    spelled: str | None = None
    language: str | None = None  # the reader's (their page's locale, else the book's): what a note is written in
    page_key: str | None = None  # the page the question is asked on (its key), whose passages weigh more
    term: str | None = None  # the highlighted term asked about with the book beside it (understand/term.py)


@dataclass(frozen=True)
class Outcome:
    """How an answer came about, known once its last delta is out."""

    generator: str  # what wrote the answer: a model id, or "extractive"
    refused: bool = False  # the generator judged that the passages do not answer
    fallback_reason: str | None = None  # why the first choice did not write it (or only part of it)
    usage: Usage | None = None
    extra_sources: tuple[Source, ...] = ()  # found while answering, numbered after the request's


Deltas = Stream[str, None, Outcome]


class Generator(Protocol):
    name: str  # the component, as /health reports it

    def generate(self, request: GenerationInput) -> Deltas: ...


class NotAnswered(Exception):
    """A generator gave up before showing anything; a fallback may answer instead."""

    def __init__(self, reason: str, detail: str = "", *, usage: Usage | None = None,
                 extra_sources: tuple[Source, ...] = (), logged: bool = False):
        super().__init__(reason)
        self.reason = reason  # short and machine-readable: "timeout", "server_error", "empty_answer"
        self.detail = detail  # for the log: the error, how many attempts
        self.usage = usage
        self.extra_sources = extra_sources
        self.logged = logged  # the generator already said why in the log


def relayed(deltas: Iterator[str], parts: list[str]):
    """Yields a generator's deltas, keeping each in `parts`; returns its Outcome."""
    while True:
        try:
            delta = next(deltas)
        except StopIteration as end:
            return end.value
        parts.append(delta)
        yield delta
