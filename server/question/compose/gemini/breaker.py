"""A circuit breaker in front of Gemini, so that an outage costs a reader nothing.

Closed (the normal state): every call goes through; FAILURES_TO_OPEN outages in a row (the
API unreachable, timing out, overloaded or out of quota) open the circuit. Open: calls are
refused at once (CircuitOpen) and the fallback answers, for COOL_DOWN_S. Then one call is let
through as a probe while the others are still refused: if it succeeds the circuit closes, if
it fails it opens for another cool-down. A probe whose caller never says how it went (the
reader left) is given up after a cool-down, and another is let through.

pybreaker, the usual library, holds one lock for the whole of every call it guards, which
would put concurrent answers in single file; here only the bookkeeping is locked.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Callable

log = logging.getLogger("textbook_chat.gemini")

FAILURES_TO_OPEN = 3
COOL_DOWN_S = 30.0


class CircuitOpen(Exception):
    """Gemini failed repeatedly and is not asked until the cool-down is over."""

    def __init__(self, retry_in_s: float):
        super().__init__(f"Gemini failed {FAILURES_TO_OPEN} times in a row; next try in {retry_in_s:.0f} s")
        self.retry_in_s = retry_in_s


class CircuitBreaker:
    def __init__(self, failures_to_open: int = FAILURES_TO_OPEN, cool_down_s: float = COOL_DOWN_S,
                 clock: Callable[[], float] = time.monotonic):
        self.failures_to_open = failures_to_open
        self.cool_down_s = cool_down_s
        self._clock = clock
        self._lock = threading.Lock()
        self._failures = 0
        self._opened_at: float | None = None
        self._probe_since: float | None = None

    @property
    def state(self) -> str:
        with self._lock:
            if self._opened_at is None:
                return "closed"
            return "half-open" if self._probe_since is not None else "open"

    def admit(self) -> bool:
        """Before a call: raises CircuitOpen while open. True when this call is the probe."""
        with self._lock:
            if self._opened_at is None:
                return False
            now = self._clock()
            probing = self._probe_since is not None and now - self._probe_since < self.cool_down_s
            waited = now - self._opened_at
            if probing or waited < self.cool_down_s:
                raise CircuitOpen(max(0.0, self.cool_down_s - waited))
            self._probe_since = now
        log.info("Gemini circuit half-open: one question tries Gemini again")
        return True

    def succeeded(self) -> None:
        with self._lock:
            was_open = self._opened_at is not None
            self._failures, self._opened_at, self._probe_since = 0, None, None
        if was_open:
            log.warning("Gemini answers again; circuit closed")

    def failed(self, reason: str) -> None:
        with self._lock:
            self._failures += 1
            reopen = self._opened_at is not None and self._probe_since is not None
            opening = self._opened_at is None and self._failures >= self.failures_to_open
            if reopen or opening:
                self._opened_at, self._probe_since = self._clock(), None
        if opening:
            log.warning("Gemini failed %d times in a row (last: %s); answering with the fallback at once for "
                        "%.0f s, then trying again", self._failures, reason, self.cool_down_s)
        elif reopen:
            log.warning("Gemini still failing (%s); circuit open for another %.0f s", reason, self.cool_down_s)
