"""Server-sent events with keep-alive comments, and cancellation when the client leaves."""
from __future__ import annotations

import json
from typing import Callable, Iterable, Iterator

from ..pump import END, Pump


def format_event(event: str, data) -> str:
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"event: {event}\ndata: {payload}\n\n"


def sse_stream(events: Iterable[str], *, keepalive_s: float = 10.0,
               client_gone: Callable[[], bool] = lambda: False) -> Iterator[str]:
    """Relay pre-formatted events produced on a worker thread, adding `: keep-alive` comments
    while the producer is quiet. If the client goes away, the producer is closed (which cancels
    generation) and nothing more is sent."""
    pump = Pump(lambda: iter(events), name="sse-producer", maxsize=256)
    yield ": stream open\n\n"
    try:
        while True:
            try:
                item = pump.next(keepalive_s)
            except TimeoutError:
                if client_gone():
                    break
                yield ": keep-alive\n\n"
                continue
            if item is END or client_gone():
                break
            yield item
    finally:
        pump.abandon()
