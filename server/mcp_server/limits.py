"""RATE_LIMIT per client for the MCP tools that cost work, counted in RATE_LIMIT_STORAGE
(the same limits, and the same store, as the HTTP API's; counted apart from /chat)."""
from __future__ import annotations

import logging
import math
import time

from limits import parse_many
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter

log = logging.getLogger("textbook_chat.mcp")


class ClientLimits:
    def __init__(self, rate_limit: str, storage_uri: str):
        self.items = parse_many(rate_limit)
        self.limiter = FixedWindowRateLimiter(storage_from_string(storage_uri))

    def wait_for(self, client: str) -> tuple[str, int] | None:
        """None when `client` may go on; else the limit reached and the seconds until it resets.
        A store that does not answer lets the call through (as the HTTP API does)."""
        try:
            for item in self.items:
                if not self.limiter.hit(item, "mcp", client):
                    reset = self.limiter.get_window_stats(item, "mcp", client).reset_time
                    return str(item), max(1, math.ceil(reset - time.time()))
        except Exception as exc:  # the limits store is down: count nothing rather than refuse everyone
            log.warning("rate limit store: %s", exc)
        return None
