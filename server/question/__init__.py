"""What a reader asks, in domain terms: the question, the passage they highlighted (if any)
and how to use it, filters, preferences, and the conversation it belongs to."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

from server.store import Filters


class SelectionMode(Enum):
    EXCLUSIVE = "exclusive"  # answer from the highlighted passage alone
    COMBINED = "combined"  # the passage and the book


class AnswerMode(Enum):
    BOOK = "book"
    SELECTION_EXCLUSIVE = "selection_exclusive"
    SELECTION_COMBINED = "selection_combined"


@dataclass(frozen=True)
class Selection:
    text: str
    mode: SelectionMode = SelectionMode.EXCLUSIVE
    code_language: str | None = None  # the passage is code from a block the book marks with this language

    @property
    def language(self) -> str | None:
        """The passage's programming language: as the page marks its code block, or as the
        fence of a passage pasted with its markdown (```python) says."""
        if self.code_language:
            return self.code_language.lower()
        fence = _FENCE.match(self.text)
        return fence.group(1).lower() if fence else None


_FENCE = re.compile(r"\s*(?:```|~~~)\s*([A-Za-z0-9#+._-]+)")


@dataclass(frozen=True)
class Page:
    """The page the reader is on."""

    url: str = ""
    title: str = ""
    locale: str | None = None  # the page's language (Docusaurus's docusaurus_locale / <html lang>)
    docs_version: str | None = None  # the docs version it belongs to (docusaurus_version)


@dataclass(frozen=True)
class Preferences:
    level: str | None = None  # "beginner" | "advanced"
    answer_length: str = "normal"  # "short" | "normal" | "detailed"


@dataclass(frozen=True)
class QuizAnswer:
    """A student's answer (the question's text) to one item of a quiz posed in the conversation."""

    quiz_id: str
    item: int


@dataclass(frozen=True)
class Question:
    text: str
    max_chunks: int
    similarity_threshold: float
    selection: Selection | None = None
    selection_mode: SelectionMode = SelectionMode.EXCLUSIVE  # as asked, recorded even without a selection
    filters: Filters = field(default_factory=Filters)
    preferences: Preferences = field(default_factory=Preferences)
    page: Page = field(default_factory=Page)
    session_id: str | None = None
    quiz_answer: QuizAnswer | None = None
    tutor: bool = False  # hints first: a hint instead of the answer

    @property
    def mode(self) -> AnswerMode:
        if self.selection is None:
            return AnswerMode.BOOK
        if self.selection.mode is SelectionMode.COMBINED:
            return AnswerMode.SELECTION_COMBINED
        return AnswerMode.SELECTION_EXCLUSIVE

    @property
    def selection_only(self) -> bool:
        return self.mode is AnswerMode.SELECTION_EXCLUSIVE

    @property
    def selected_text(self) -> str | None:
        return self.selection.text if self.selection else None
