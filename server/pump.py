"""Read a blocking iterator on a worker thread, waiting for each item at most a given time.

Used to bound the wait for a model's next chunk (deadline) and to interleave keep-alive
comments with a server-sent event stream. When the reader abandons it, the worker stops
at its next item and closes the iterator on its own thread (a generator must be closed by
the thread that runs it).
"""
from __future__ import annotations

import queue
import threading
from typing import Callable, Iterator

END = object()  # what `next` returns when the iterator is exhausted
_ITEM, _END, _ERROR = "item", "end", "error"


class Pump:
    def __init__(self, open_iterator: Callable[[], Iterator], *, name: str = "pump", maxsize: int = 0):
        self._queue: queue.Queue = queue.Queue(maxsize=maxsize)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(open_iterator,), name=name, daemon=True)
        self._thread.start()

    def _run(self, open_iterator) -> None:
        iterator = None
        try:
            iterator = open_iterator()
            for item in iterator:
                if not self._put((_ITEM, item)):
                    break
            self._put((_END, None))
        except BaseException as exc:  # handed to the reader
            self._put((_ERROR, exc))
        finally:
            close = getattr(iterator, "close", None)
            if close is not None:
                try:
                    close()
                except Exception:  # closing an abandoned iterator is best effort
                    pass

    def _put(self, entry) -> bool:
        """False once the reader has left (a full queue is waited on only while it is there)."""
        while not self._stop.is_set():
            try:
                self._queue.put(entry, timeout=0.5)
                return True
            except queue.Full:
                continue
        return False

    def next(self, timeout: float | None):
        """The next item, or END; raises the worker's error, or TimeoutError after `timeout` seconds."""
        if timeout is not None and timeout <= 0:
            raise TimeoutError("no item in time")
        try:
            kind, value = self._queue.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError("no item in time") from None
        if kind == _ERROR:
            raise value
        return END if kind == _END else value

    def abandon(self) -> None:
        """Stop reading; the worker ends at its next item."""
        self._stop.set()
