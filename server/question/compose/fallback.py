"""A generator with a safety net: when the primary gives up before showing anything, the
fallback answers, and the outcome names the fallback and why."""
from __future__ import annotations

import logging
import time
from dataclasses import replace

from server.question.compose.generator import Deltas, GenerationInput, Generator, NotAnswered

log = logging.getLogger("textbook_chat.generation")


class WithFallback:
    def __init__(self, primary: Generator, fallback: Generator, *, label: str | None = None):
        self.primary = primary
        self.fallback = fallback
        self.name = primary.name
        self.label = label or primary.name  # how the log names the primary

    def generate(self, request: GenerationInput) -> Deltas:
        started = time.monotonic()
        try:
            return (yield from self.primary.generate(request))
        except NotAnswered as exc:
            if not exc.logged:
                log.warning("%s did not answer (%s%s) after %.2fs; answering with the %s generator",
                            self.label, exc.reason, f": {exc.detail}" if exc.detail else "",
                            time.monotonic() - started, self.fallback.name)
            if exc.extra_sources:
                request = replace(request, sources=[*request.sources, *exc.extra_sources])
            outcome = yield from self.fallback.generate(request)
            return replace(outcome, fallback_reason=exc.reason, usage=exc.usage or outcome.usage,
                           extra_sources=(*exc.extra_sources, *outcome.extra_sources))
