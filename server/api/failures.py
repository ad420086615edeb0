"""A budget of failed secret checks per reader's address, shared by every check that compares
something a client sends with a secret: the insights token (header, cookie or form) and a
conversation's secret.

Each wrong try is counted in RATE_LIMIT_STORAGE (so `--workers` and several servers on one
Redis count together) and answered after a delay that doubles with every failure before it
in the window; once AUTH_FAILURE_LIMIT is spent, every check from that address is refused
with 429 before anything is compared, the right secret included, until the window moves on.
A missing secret is no guess and costs nothing.
"""
from __future__ import annotations

import logging
import math
import time

from flask import current_app, request
from limits import parse_many
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from server.errors import TextbookChatError

log = logging.getLogger("textbook_chat.api")
EXTENSION = "textbook_chat.failures"  # the app's FailureBudget
NAMESPACE = "secret-failures"
FIRST_DELAY_S = 0.05  # the second failure in a window waits this long, each later one twice the one before
MAX_DELAY_S = 1.0  # a thread is held at most this long by one wrong try


class TooManyFailures(TextbookChatError):
    def __init__(self, retry_after: int):
        super().__init__("Too many wrong secrets or tokens from this address; retry later.",
                         code="RATE_LIMITED", details={"retry_after_s": retry_after})
        self.retry_after = retry_after


class FailureBudget:
    def __init__(self, limit: str, storage_uri: str, **storage_options):
        self.items = parse_many(limit)
        self.limiter = MovingWindowRateLimiter(storage_from_string(storage_uri, **storage_options))
        self._fallback = MovingWindowRateLimiter(MemoryStorage())  # while the shared store does not answer

    def check(self, address: str) -> None:
        """Raises TooManyFailures when `address` has spent its budget."""
        for item in self.items:
            if not self._call(lambda limiter: limiter.test(item, NAMESPACE, address)):
                reset = self._call(lambda limiter: limiter.get_window_stats(item, NAMESPACE, address).reset_time)
                raise TooManyFailures(max(1, math.ceil(reset - time.time())))

    def failed(self, address: str) -> None:
        """Count a wrong secret from `address`, and make it wait for the ones before it."""
        for item in self.items:
            self._call(lambda limiter: limiter.hit(item, NAMESPACE, address))
        first = self.items[0]
        remaining = self._call(lambda limiter: limiter.get_window_stats(first, NAMESPACE, address).remaining)
        earlier = first.amount - remaining - 1
        if earlier > 0:
            time.sleep(min(MAX_DELAY_S, FIRST_DELAY_S * 2 ** (earlier - 1)))

    def _call(self, use):
        try:
            return use(self.limiter)
        except Exception as exc:  # the shared store is down: count in this process meanwhile
            log.warning("secret failure store: %s", exc)
            return use(self._fallback)


def budget() -> FailureBudget:
    return current_app.extensions[EXTENSION]


def guarded(compare) -> bool:
    """`compare()` (whether what the request carries is the secret), within the address's budget."""
    spent = budget()
    address = request.remote_addr or "unknown"
    spent.check(address)
    if compare():
        return True
    spent.failed(address)
    return False
