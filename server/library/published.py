"""Each book as the index publishes it now: the outline ingest recorded and the book's chunks,
read from the store and read again every `REFRESH_S` seconds (a newer ingest may have published
another). The course path and the book tools (llms.txt, MCP) read their views of a book from
here: each view is built once per published book and kept while the book stays as it is.

Reading a book's chunks takes ~90 ms for a 1,500-chunk book, so a book already read is read
again in the background: the question that finds it stale is answered from what is kept. A
publication the server has followed (composition.py Index.follow, before each request) is
different: `forget` makes every kept book and the list of books be read again before they are
used, so the question after a publication is answered from it."""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, TypeVar

from server.book.chunk import Chunk
from server.book.outline import Outline
from server.store import ChunkStore

log = logging.getLogger("textbook_chat.course")
REFRESH_S = 30.0  # how often the store is asked again for the books and for a book's outline
View = TypeVar("View")


@dataclass(frozen=True, eq=False)
class PublishedBook:
    book_id: str
    recorded: dict | None  # the outline ingest recorded (its JSON form); None in an index written before outlines
    chunks: tuple[Chunk, ...]  # in the store's order
    outline: Outline | None = field(init=False)
    _views: dict = field(default_factory=dict, repr=False)
    _building: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "outline", Outline.from_dict(self.recorded) if self.recorded else None)

    def view(self, build: Callable[["PublishedBook"], View]) -> View:
        """`build(self)`, built on the first call and kept with this book: the one rule by which
        everything made from a book's chunks (its vocabulary, pages, reading order, outline views)
        is made again, when a newer ingest publishes another book."""
        if build not in self._views:
            with self._building:
                if build not in self._views:
                    self._views[build] = build(self)
        return self._views[build]


class PublishedOutlines:
    def __init__(self, store: ChunkStore, refresh_s: float = REFRESH_S):
        self.store = store
        self.refresh_s = refresh_s
        self._lock = threading.Lock()
        self._books: dict[str, tuple[float, PublishedBook]] = {}
        self._ids: tuple[float, list[str]] = (0.0, [])
        self._reading: set[str] = set()  # books being read again in the background
        self._forgotten = -1.0  # what was read before this (time.monotonic()) is read again before use

    def forget(self) -> None:
        """A newer publication is followed: the books and their list are read again when next
        used (a book found unchanged keeps its views)."""
        with self._lock:
            self._forgotten = time.monotonic()
            self._ids = (0.0, [])

    def books(self, fresh: bool = False) -> list[str]:
        """The indexed books' ids; while there are none, the store is asked on every call."""
        checked, ids = self._ids
        if fresh or not ids or time.monotonic() - checked > self.refresh_s:
            ids = self.store.books()
            self._ids = (time.monotonic(), ids)
        return ids

    def book(self, book_id: str | None) -> PublishedBook | None:
        """The book `book_id` as now published (no outline and no chunks when the index does not
        hold it); no id given, the index's only book, or None when it holds several or none."""
        if book_id is None:
            ids = self.books()
            if len(ids) != 1:
                return None
            book_id = ids[0]
        with self._lock:
            kept = self._books.get(book_id)
            if kept is not None and kept[0] <= self._forgotten:
                kept = None  # read before the publication followed since: read now, before answering
            stale = kept is not None and time.monotonic() - kept[0] > self.refresh_s
            if stale and book_id not in self._reading:
                self._reading.add(book_id)
                threading.Thread(target=self._read_again, args=(book_id,), daemon=True,
                                 name=f"outline-{book_id}").start()
        return kept[1] if kept is not None else self._read(book_id)

    def _read_again(self, book_id: str) -> None:
        try:
            self._read(book_id)
        except Exception:  # the store is down: the kept book serves, and the next question tries again
            log.warning("could not read book %r again from the index", book_id, exc_info=True)
        finally:
            with self._lock:
                self._reading.discard(book_id)

    def _read(self, book_id: str) -> PublishedBook:
        now = time.monotonic()
        recorded, chunks = self.store.outline(book_id), tuple(self.store.all_chunks(book_id))
        with self._lock:
            kept = self._books.get(book_id)
            if kept is not None and (recorded, chunks) == (kept[1].recorded, kept[1].chunks):
                book = kept[1]  # unchanged: its views stay
            else:
                book = PublishedBook(book_id, recorded, chunks)
            self._books[book_id] = (now, book)
        return book
