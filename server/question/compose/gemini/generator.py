"""Answers from Gemini, streamed as the model writes them.

What the model writes is checked on its way out (see answer.py). A fault before anything was
shown raises NotAnswered, so that a fallback (see ../fallback.py) can answer; a fault after
part of the answer is on the reader's screen keeps that part and says so (`partial_<reason>`).
"""
from __future__ import annotations

import logging
from typing import Iterator

from server.settings import Settings
from server.question import markers
from server.question.compose.generator import Deltas, GenerationInput, NotAnswered, Outcome
from server.question.compose.gemini import prompt
from server.question.compose.gemini.agent import agent_deltas
from server.question.compose.gemini.answer import AnswerFilter
from server.question.compose.gemini.client import GeminiClient, text_of, usage_of
from server.question.events import Usage
from server.question.compose.gemini.faults import fault_reason
from server.question.compose.gemini.run import Run

log = logging.getLogger("textbook_chat.gemini")


class GeminiGenerator:
    name = "gemini"

    def __init__(self, settings: Settings, client: GeminiClient):
        self.client = client
        self.agent_mode = settings.agent_mode

    @property
    def model(self) -> str:
        return self.client.model

    def generate(self, request: GenerationInput) -> Deltas:
        if self.client.key_rejected:
            raise NotAnswered("invalid_api_key", logged=True)
        run = Run(self.client, request, self.client.budget())
        agent = self.agent_mode and request.search is not None
        shown = False
        answer = AnswerFilter(len(request.sources))
        deltas = agent_deltas(run) if agent else self._stream_deltas(run)
        try:
            for delta in deltas:
                if agent:
                    answer.n_sources = len(request.sources) + len(run.extra_sources)
                piece = answer.feed(delta)  # after a refusal the rest is read (for usage) but not shown
                if piece:
                    shown = True
                    yield piece
            tail = answer.finish()
        except Exception as exc:
            reason = fault_reason(exc)
            if reason == "timeout" and run.budget.retried_fault:
                reason = run.budget.retried_fault  # the deadline ran out while retrying: name what was retried
            self.client.note_fault(exc)
            if answer.refused:
                log.info("Gemini refused; the rest of its reply was cut short (%s)", reason)
                return self._outcome(run, "refused", refused=True)
            if not shown:
                raise NotAnswered(reason, f"{exc}; {run.budget.attempts} attempt(s)", usage=run.usage,
                                  extra_sources=tuple(run.extra_sources),
                                  logged=reason in ("invalid_api_key", "circuit_open")) from exc
            # part of the answer is already on the reader's screen: keep it, say it was cut short
            tail = answer.finish()
            if tail:
                yield tail
            log.warning("Gemini stopped mid-answer (%s: %s) after %.2fs; keeping the partial answer",
                        reason, exc, run.budget.elapsed())
            return self._outcome(run, f"partial_{reason}", fallback_reason=f"partial_{reason}")
        finally:
            deltas.close()
        if answer.refused:
            return self._outcome(run, "refused", refused=True)
        if tail:
            yield tail
        if not answer.text.strip():
            raise NotAnswered("empty_answer", usage=run.usage, extra_sources=tuple(run.extra_sources))
        if not markers.cited(answer.text):
            log.warning("Gemini answered without citing a passage")
        return self._outcome(run, "completed")

    def _stream_deltas(self, run: Run) -> Iterator[str]:
        request, client = run.request, self.client
        contents = run.contents()
        system = prompt.system_instruction(request.preferences, selection_only=request.selection_only,
                                           intent=request.intent, course_task=request.course_task)

        def open_stream():
            return client.open_stream(contents, client.config(run.budget, system=system), run.budget)

        stream, chunk = client.with_retries(run.budget, open_stream, "stream")
        try:
            while chunk is not None:
                if chunk.usage_metadata is not None:
                    run.usage = usage_of(chunk.usage_metadata) or run.usage
                yield text_of(chunk)
                chunk = stream.next()
        finally:
            stream.close()

    def _outcome(self, run: Run, logged_as: str, **facts) -> Outcome:
        usage = run.usage or Usage()
        log.info("gemini %s model=%s prompt_tokens=%s output_tokens=%s total_tokens=%s attempts=%d searches=%d "
                 "time=%.2fs", logged_as, self.model, usage.prompt_tokens, usage.output_tokens,
                 usage.total_tokens, run.budget.attempts, run.searches, run.budget.elapsed())
        return Outcome(self.model, usage=run.usage, extra_sources=tuple(run.extra_sources), **facts)
