"""A question between its stages: what was recorded, understood, gathered and judged, as the
pipeline hands it from preparing an answer to writing it. Immutable: each stage adds its own."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from server.sessions import Entered
from server.question.gather import Gathered
from server.question.judge import Judgement
from server.question.route import Route
from server.question.understand import History, Understanding

State = Entered  # a lifecycle state and when it was entered


@dataclass(frozen=True)
class Opened:
    """A question recorded, before anything else is done with it."""

    session_id: str
    query_id: str
    user_message_id: str
    history: History


@dataclass(frozen=True)
class Turn:
    opened: Opened
    understood: Understanding
    gathered: Gathered
    judged: Judgement
    route: Route  # what prepared it, and writes its answer
    states: tuple[State, ...] = ()  # after CREATED, written when the question is closed
    timings: Mapping[str, float] = field(default_factory=dict)  # milliseconds per stage, for Server-Timing

    @property
    def query_id(self) -> str:
        return self.opened.query_id

    @property
    def session_id(self) -> str:
        return self.opened.session_id
