"""Questions a server left unfinished and never came back for (it crashed, and the next one
started under another name): any server marks them INTERRUPTED once they are older than any
answer takes, in the background, at most once a minute, when a question arrives or a health
check asks."""
from __future__ import annotations

import logging
import threading
import time
from datetime import datetime, timedelta, timezone
from typing import Callable

from server.errors import TextbookChatError
from server.sessions.interrupted import interrupt
from server.sessions.schema import queries_table

log = logging.getLogger("textbook_chat.sessions")
EVERY_S = 60.0


class AbandonedQuestions:
    def __init__(self, write: Callable, after: timedelta):
        """`write(work)` runs `work(connection)` in a write transaction (the store's)."""
        self._write = write
        self.after = after
        self._next = 0.0
        self._lock = threading.Lock()

    def due(self) -> None:
        if time.monotonic() < self._next or not self._lock.acquire(blocking=False):
            return
        self._next = time.monotonic() + EVERY_S
        threading.Thread(target=self._sweep, daemon=True, name="abandoned-questions").start()

    def _sweep(self) -> None:
        try:
            before = datetime.now(timezone.utc) - self.after
            count = self._write(lambda conn: interrupt(conn, queries_table.c.created_at < before,
                                                       "The server answering it stopped and did not come back."))
            if count:
                log.info("%d question(s) left unfinished by a server that did not come back are marked INTERRUPTED", count)
        except TextbookChatError as exc:  # the database is down: tried again within the minute
            log.warning("abandoned questions: %s", exc.message)
        finally:
            self._lock.release()
