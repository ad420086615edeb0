"""The Gemini Developer API through `google-genai`, every call bounded by one deadline.

Each HTTP attempt gets the time that is left, and replies are read on a worker thread so that
waiting for the next chunk is bounded too. 408, 429, 5xx and transport errors are retried
with backoff while time remains. Once the key is rejected it is not tried again.
"""
from __future__ import annotations

import logging
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

import tenacity
from google import genai
from google.genai import types

from server.pump import END, Pump
from server.question.events import Usage
from server.settings import Settings
from server.question.compose.gemini.breaker import CircuitBreaker
from server.question.compose.gemini.faults import DeadlineExceeded, fault_reason, is_bad_key, is_outage, is_retryable, retry_delay_hint

log = logging.getLogger("textbook_chat.gemini")

MIN_ATTEMPT_S = 0.25  # an attempt with less time left than this is not started


@dataclass
class Budget:
    """One request's deadline and what its attempts met on the way."""

    deadline: float
    started: float = field(default_factory=time.monotonic)
    attempts: int = 0
    retried_fault: str | None = None  # why the last retried attempt failed

    @classmethod
    def of(cls, seconds: float) -> "Budget":
        return cls(deadline=time.monotonic() + seconds)

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def elapsed(self) -> float:
        return time.monotonic() - self.started


class ChunkStream:
    """A streamed reply: `next()` gives the next chunk, None at the end, within the deadline."""

    def __init__(self, pump: Pump, budget: Budget):
        self._pump = pump
        self._budget = budget

    def next(self):
        try:
            item = self._pump.next(self._budget.remaining())
        except TimeoutError:
            raise DeadlineExceeded() from None
        return None if item is END else item

    def close(self) -> None:
        """Stop reading; the worker ends at its next chunk or when its HTTP timeout fires."""
        self._pump.abandon()


class GeminiClient:
    def __init__(self, settings: Settings, *, client: genai.Client | None = None,
                 backoff_s: float = 0.5, max_backoff_s: float = 4.0, breaker: CircuitBreaker | None = None):
        self.settings = settings
        self.model = settings.gemini_model
        self.timeout_s = float(settings.gemini_timeout_s)
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        # the Gemini Developer API, never Vertex; GOOGLE_GEMINI_BASE_URL (the SDK's own) may point elsewhere
        self.client = client or genai.Client(api_key=settings.gemini_api_key, vertexai=False)
        self._key_rejected = False
        self._lock = threading.Lock()
        self.breaker = breaker or CircuitBreaker()

    @property
    def key_rejected(self) -> bool:
        return self._key_rejected

    def budget(self, limit_s: float | None = None) -> Budget:
        return Budget.of(self.timeout_s if limit_s is None else min(limit_s, self.timeout_s))

    def config(self, budget: Budget, *, system: str, temperature: float | None = None,
               max_output_tokens: int | None = None, **extra) -> types.GenerateContentConfig:
        if "tools" in extra:
            extra["automatic_function_calling"] = types.AutomaticFunctionCallingConfig(disable=True)
        return types.GenerateContentConfig(
            system_instruction=system,
            temperature=self.settings.gemini_temperature if temperature is None else temperature,
            max_output_tokens=max_output_tokens or self.settings.gemini_max_output_tokens,
            http_options=_http_options(budget),
            **extra)

    def call(self, contents, config: types.GenerateContentConfig, budget: Budget):
        """One non-streamed generate_content, bounded by the deadline (not retried)."""
        config = config.model_copy(update={"http_options": _http_options(budget)})
        stream = ChunkStream(Pump(lambda: iter([self.client.models.generate_content(
            model=self.model, contents=contents, config=config)]), name="gemini-call"), budget)
        try:
            return stream.next()
        finally:
            stream.close()

    def open_stream(self, contents, config: types.GenerateContentConfig, budget: Budget):
        """A streamed generate_content and its first chunk (not retried)."""
        config = config.model_copy(update={"http_options": _http_options(budget)})
        stream = ChunkStream(Pump(lambda: self.client.models.generate_content_stream(
            model=self.model, contents=contents, config=config), name="gemini-call"), budget)
        try:
            return stream, stream.next()
        except BaseException:
            stream.close()
            raise

    def guarded(self, call: Callable):
        """`call()` through the circuit breaker: CircuitOpen at once while Gemini is out; an outage
        (unreachable, timeout, 5xx, 429) counts towards opening it, any reply closes it."""
        self.breaker.admit()
        try:
            result = call()
        except Exception as exc:
            if is_outage(exc):
                self.breaker.failed(fault_reason(exc))
            else:
                self.breaker.succeeded()
            raise
        self.breaker.succeeded()
        return result

    def with_retries(self, budget: Budget, attempt: Callable, what: str):
        """`attempt()` until it succeeds, a fault is not retryable, or no time is left; the
        attempts together are one call through the circuit breaker."""
        def stop(state: tenacity.RetryCallState) -> bool:
            return budget.remaining() - (state.upcoming_sleep or 0.0) < MIN_ATTEMPT_S

        def wait(state: tenacity.RetryCallState) -> float:
            backoff = min(self.max_backoff_s, self.backoff_s * 2 ** (state.attempt_number - 1))
            backoff *= 0.75 + 0.5 * random.random()
            hint = retry_delay_hint(state.outcome.exception()) if state.outcome else 0.0
            return max(backoff, hint)

        def before_sleep(state: tenacity.RetryCallState) -> None:
            exc = state.outcome.exception()
            budget.retried_fault = fault_reason(exc)
            log.warning("Gemini %s attempt %d failed (%s: %s); retrying in %.2fs", what, state.attempt_number,
                        fault_reason(exc), exc, state.upcoming_sleep)

        def counted():
            budget.attempts += 1
            if budget.remaining() < MIN_ATTEMPT_S:
                raise DeadlineExceeded()
            return attempt()

        retrying = tenacity.Retrying(retry=tenacity.retry_if_exception(is_retryable), stop=stop, wait=wait,
                                     before_sleep=before_sleep, reraise=True)
        return self.guarded(lambda: retrying(counted))

    def note_fault(self, exc: BaseException) -> None:
        if not is_bad_key(exc):
            return
        with self._lock:
            first = not self._key_rejected
            self._key_rejected = True
        if first:
            log.warning("Gemini rejected GEMINI_API_KEY (API_KEY_INVALID); answering with the extractive "
                        "generator until the key is fixed")


def _http_options(budget: Budget) -> types.HttpOptions:
    return types.HttpOptions(timeout=max(1, int(budget.remaining() * 1000)))


def text_of(response) -> str:
    """The answer text of a response or stream chunk (thought summaries and calls skipped)."""
    candidates = getattr(response, "candidates", None) or []
    if not candidates or not candidates[0].content or not candidates[0].content.parts:
        return ""
    return "".join(p.text for p in candidates[0].content.parts if p.text and not p.thought)


def usage_of(meta) -> Usage | None:
    if meta is None:
        return None
    prompt_tokens = meta.prompt_token_count
    output = (meta.candidates_token_count or 0) + (meta.thoughts_token_count or 0)
    total = meta.total_token_count
    if prompt_tokens is None and not output and total is None:
        return None
    return Usage(prompt_tokens, output if output or total else None,
                 total if total is not None else (prompt_tokens or 0) + output)


def add_usage(a: Usage | None, b: Usage | None) -> Usage | None:
    if a is None or b is None:
        return a or b
    return a + b
