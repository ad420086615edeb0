"""Server-sent events with keep-alive comments, and cancellation when the client leaves."""
from __future__ import annotations

import json
import time
from typing import Callable, Iterable, Iterator

from server.pump import END, Pump


def format_event(event: str, data) -> str:
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"event: {event}\ndata: {payload}\n\n"


def sse_stream(events: Iterable[str], *, keepalive_s: float = 10.0,
               client_gone: Callable[[], bool] = lambda: False, check_s: float = 1.0) -> Iterator[str]:
    """Relay pre-formatted events produced on a worker thread, adding `: keep-alive` comments
    while the producer is quiet for `keepalive_s`. Whether the client went away is asked before
    every event and every `check_s` while the producer is quiet; once it has, the producer is
    closed (which cancels generation) and nothing more is sent."""
    pump = Pump(lambda: iter(events), name="sse-producer", maxsize=256)
    yield ": stream open\n\n"
    quiet_since = time.monotonic()
    try:
        while True:
            try:
                item = pump.next(min(check_s, keepalive_s))
            except TimeoutError:
                if client_gone():
                    break
                if time.monotonic() - quiet_since >= keepalive_s:
                    quiet_since = time.monotonic()
                    yield ": keep-alive\n\n"
                continue
            if item is END or client_gone():
                break
            quiet_since = time.monotonic()
            yield item
    finally:
        pump.abandon()
