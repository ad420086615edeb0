"""The generator interface: numbered passages and a question in, a stream of text out."""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Callable, Iterator, Protocol

from ..context import Source


@dataclass
class GenerationInput:
    question: str
    sources: list[Source]  # numbered [1]..[n] in this order
    history: list[dict] = field(default_factory=list)  # [{role, content}], oldest first
    preferences: dict = field(default_factory=dict)
    selection_only: bool = False  # exclusive mode: the passage is the only context
    selected_text: str | None = None
    # agent mode: search the book for more passages (query, module) → sources; never set in
    # exclusive selection mode, where the highlighted passage is the only context
    search: Callable[[str, str | None], list[Source]] | None = None


@dataclass
class Generation:
    """What a generator hands back: text deltas, then facts about the run."""

    tokens: Iterator[str]
    generator: str
    usage: dict | None = None
    refused: bool = False  # the generator judged that the passages do not answer
    fallback_reason: str | None = None
    extra_sources: list[Source] = field(default_factory=list)  # found while answering, numbered after `sources`
    cancelled: threading.Event = field(default_factory=threading.Event)

    def cancel(self) -> None:
        self.cancelled.set()


class Generator(Protocol):
    name: str

    def start(self, request: GenerationInput) -> Generation: ...
