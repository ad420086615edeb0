"""Follow-up questions rewritten by Gemini into stand-alone queries for retrieval."""
from __future__ import annotations

import logging
from typing import Sequence

from server.sessions import Message

from server.question.compose.gemini import prompt
from server.question.compose.gemini.client import GeminiClient, text_of
from server.question.compose.gemini.faults import fault_reason

log = logging.getLogger("textbook_chat.gemini")

REWRITE_DEADLINE_S = 5.0


class GeminiRewriter:
    def __init__(self, client: GeminiClient):
        self.client = client

    def __call__(self, question: str, history: Sequence[Message]) -> str | None:
        """A stand-alone version of a follow-up question; None if not available (never retried)."""
        if self.client.key_rejected or not history:
            return None
        budget = self.client.budget(REWRITE_DEADLINE_S)
        config = self.client.config(budget, system=prompt.REWRITE_INSTRUCTION, temperature=0.0, max_output_tokens=256)
        try:
            response = self.client.guarded(
                lambda: self.client.call(prompt.rewrite_message(question, history), config, budget))
        except Exception as exc:
            self.client.note_fault(exc)
            log.info("follow-up rewrite failed (%s); retrieving with the heuristic query", fault_reason(exc))
            return None
        lines = [line.strip().strip('"“”').strip() for line in text_of(response).splitlines() if line.strip()]
        rewritten = lines[0] if lines else ""
        if not rewritten or prompt.REFUSAL_SENTINEL in rewritten or len(rewritten) > 500:
            return None
        log.info("follow-up %r rewritten for retrieval as %r", question, rewritten)
        return rewritten
