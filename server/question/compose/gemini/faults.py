"""Why Gemini did not answer, in short machine-readable names, and which faults are worth a retry."""
from __future__ import annotations

import importlib

from google.genai import errors

from server.question.compose.gemini.breaker import CircuitOpen

RETRYABLE_STATUS = {408, 429}


class DeadlineExceeded(TimeoutError):
    """The request's time budget ran out."""

    def __init__(self, message: str = "no reply within GEMINI_TIMEOUT_S"):
        super().__init__(message)


def _http_modules() -> list:
    """The SDK's HTTP library raises its own errors unwrapped: httpx2 since google-genai 3, httpx before."""
    found = []
    for name in ("httpx2", "httpx"):
        try:
            found.append(importlib.import_module(name))
        except ImportError:
            continue
    return found


TIMEOUT_ERRORS = tuple(m.TimeoutException for m in _http_modules())
TRANSPORT_ERRORS = tuple(m.TransportError for m in _http_modules())
CONNECT_ERRORS = tuple(m.ConnectError for m in _http_modules())  # refused, no route, no such host
OUTAGES = {"unreachable", "timeout", "server_error", "rate_limited"}


def is_bad_key(exc: BaseException) -> bool:
    if not isinstance(exc, errors.APIError) or exc.code not in (400, 401, 403):
        return False
    error = exc.details.get("error", exc.details) if isinstance(exc.details, dict) else {}
    details = error.get("details") if isinstance(error, dict) else None
    reasons = {d.get("reason") for d in details or [] if isinstance(d, dict)}
    return "API_KEY_INVALID" in reasons or (exc.code == 400 and "api key not valid" in (exc.message or "").lower())


def fault_reason(exc: BaseException) -> str:
    """A short machine-readable name for why Gemini did not answer."""
    if isinstance(exc, CircuitOpen):
        return "circuit_open"
    if isinstance(exc, (DeadlineExceeded, *TIMEOUT_ERRORS)):
        return "timeout"
    if isinstance(exc, errors.APIError):
        if is_bad_key(exc):
            return "invalid_api_key"
        if exc.code == 429:
            return "rate_limited"
        if exc.code == 408:
            return "timeout"
        if exc.code == 404:
            return "model_not_found"
        if exc.code >= 500:
            return "server_error"
        return "request_rejected"
    if isinstance(exc, TRANSPORT_ERRORS):
        return "unreachable"
    return "error"


def is_outage(exc: BaseException) -> bool:
    """Gemini cannot be used just now (what the circuit breaker counts)."""
    return fault_reason(exc) in OUTAGES


def is_retryable(exc: BaseException) -> bool:
    if isinstance(exc, (DeadlineExceeded, *CONNECT_ERRORS)):  # a refused connection is refused again
        return False
    if isinstance(exc, errors.APIError):
        return exc.code in RETRYABLE_STATUS or exc.code >= 500
    return isinstance(exc, TRANSPORT_ERRORS)


def retry_delay_hint(exc: BaseException) -> float:
    """Seconds from a google.rpc.RetryInfo detail (`"retryDelay": "1.5s"`), or 0."""
    if not isinstance(exc, errors.APIError) or not isinstance(exc.details, dict):
        return 0.0
    error = exc.details.get("error", exc.details)
    for detail in (error.get("details") or []) if isinstance(error, dict) else []:
        delay = detail.get("retryDelay") if isinstance(detail, dict) else None
        if isinstance(delay, str) and delay.endswith("s"):
            try:
                return float(delay[:-1])
            except ValueError:
                return 0.0
    return 0.0
