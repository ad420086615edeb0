"""How many chunks the index holds, asked of the store at most every `recheck_s` seconds."""
from __future__ import annotations

import threading
import time


class IndexSize:
    def __init__(self, store, recheck_s: float = 30.0):
        self.store = store
        self.recheck_s = recheck_s
        self._lock = threading.Lock()
        self._checked = 0.0
        self._size = -1

    def forget(self) -> None:
        """A newer publication is followed: ask the store again on the next call."""
        with self._lock:
            self._size = -1

    def get(self, fresh: bool = False) -> int:
        """The chunk count; an empty or unknown index is asked again on every call."""
        with self._lock:
            if fresh or self._size <= 0 or time.monotonic() - self._checked > self.recheck_s:
                self._size = self.store.count()
                self._checked = time.monotonic()
            return self._size
