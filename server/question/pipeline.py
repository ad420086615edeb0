"""One question, end to end: record → understand → a route's gather → judge, then its compose → record.

A Question comes in; Sources, Delta… and Finished(answer) events go out (`stream`), or just
the Answer (`answer`). This module only puts the stages in order and keeps the lifecycle; what
each stage does is in its own module. Nothing here knows about HTTP.
"""
from __future__ import annotations

import time
from typing import Iterator, Sequence

from server.errors import GenerationFailed
from server.question.compose import Composed, Renumbered, in_citation_order
from server.question.events import Answer, Delta, Event, Finished, Sources
from server.question import Question
from server.question.record import NewSession, Record, entered
from server.question.record.turn import Turn
from server.question.route import Route
from server.question.understand import Understand

FAILED_MESSAGE = "The answer could not be generated; your message was saved."


def _ms_since(started: float) -> float:
    return (time.perf_counter() - started) * 1000


class ChatPipeline:
    def __init__(self, understand: Understand, routes: Sequence[Route], record: Record):
        """`routes`: tried in order for each question; the last must always prepare an answer
        (the passage route, question/route.py)."""
        self.understand = understand
        self.routes = tuple(routes)
        self.record = record

    def answer(self, question: Question) -> Answer:
        """The whole answer, for callers that do not stream. Raises GenerationFailed."""
        for event in self.stream(self.begin(question)):
            if isinstance(event, Finished):
                return event.answer
        raise AssertionError("the pipeline ended without an answer")

    def begin(self, question: Question, new_session: NewSession | None = None) -> Turn:
        """Record the question and judge its evidence. `new_session`: the conversation a question
        without `session_id` starts (made with the question). Raises UnknownBook, SessionNotFound."""
        started = time.perf_counter()
        self.understand.require_book(question)
        opened = self.record.open(question, new_session)
        states = (entered("RETRIEVING"),)
        try:
            understood = self.understand(question, opened.history)
            route, prepared = next((r, p) for r in self.routes if (p := r.prepare(understood)) is not None)
        except Exception as exc:
            self.record.failed(opened, states, None, exc)
            raise
        return Turn(opened, prepared.understood, prepared.gathered, prepared.judged, route, states,
                    {"prepare": _ms_since(started)})

    def stream(self, turn: Turn) -> Iterator[Event]:
        """Sources, Delta…, Finished. Raises GenerationFailed; closing it cancels the answer."""
        started = time.perf_counter()
        judged = turn.judged
        compose = turn.route
        yield Sources(turn.query_id, turn.session_id, list(judged.sources))
        if judged.refused:  # the gate refused: no generator is asked
            composed = compose.refuse(turn.understood, judged)
            yield Delta(composed.text)
            yield Finished(self.record.close(turn, composed, turn.states, turn.timings))
            return
        states = (*turn.states, entered("GENERATING"))
        parts: list[str] = []
        writing = in_citation_order(compose.write(turn.understood, judged), judged.sources)
        try:
            while True:
                try:
                    delta = next(writing)
                except StopIteration as end:
                    composed: Composed = end.value
                    break
                if isinstance(delta, Renumbered):
                    yield Sources(turn.query_id, turn.session_id, list(delta.sources))
                    continue
                parts.append(delta)
                yield Delta(delta)
        except GeneratorExit:
            writing.close()
            self.record.cancelled(turn.opened, states, compose.name, "".join(parts))
            raise
        except Exception as exc:
            self.record.failed(turn.opened, states, compose.name, exc)
            raise GenerationFailed(FAILED_MESSAGE, session_id=turn.session_id, query_id=turn.query_id) from exc
        timings = {**turn.timings, "generate": _ms_since(started)}
        yield Finished(self.record.close(turn, composed, states, timings))
