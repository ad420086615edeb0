"""Server-sent events with keep-alive comments, and cancellation when the client leaves."""
from __future__ import annotations

import json
import queue
import threading
from typing import Callable, Iterable, Iterator

_END = object()


def format_event(event: str, data) -> str:
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"event: {event}\ndata: {payload}\n\n"


def sse_stream(events: Iterable[str], *, keepalive_s: float = 10.0,
               client_gone: Callable[[], bool] = lambda: False) -> Iterator[str]:
    """Relay pre-formatted events from a worker thread, adding `: keep-alive` comments while
    the producer is quiet. If the client goes away, the producer is closed (which cancels
    generation) and nothing more is sent."""
    channel: queue.Queue = queue.Queue(maxsize=256)
    stop = threading.Event()
    producer = iter(events)

    def pump() -> None:
        try:
            for item in producer:
                while not stop.is_set():
                    try:
                        channel.put(item, timeout=0.5)
                        break
                    except queue.Full:
                        continue
                if stop.is_set():
                    break
        except BaseException as exc:  # handed to the consumer side
            channel.put(exc)
        finally:
            if stop.is_set() and hasattr(producer, "close"):
                producer.close()
            channel.put(_END)

    worker = threading.Thread(target=pump, name="sse-producer", daemon=True)
    worker.start()
    yield ": stream open\n\n"
    try:
        while True:
            try:
                item = channel.get(timeout=keepalive_s)
            except queue.Empty:
                if client_gone():
                    break
                yield ": keep-alive\n\n"
                continue
            if item is _END:
                break
            if isinstance(item, BaseException):
                raise item
            if client_gone():
                break
            yield item
    finally:
        stop.set()
