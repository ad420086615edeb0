"""The indexed books' outlines, read from the store once and kept a little while (a book
changes only when it is ingested again)."""
from __future__ import annotations

import threading
import time

from ..errors import TextbookChatError, UnknownBook
from ..store import ChunkStore
from .outline import BookOutline, outline_of


class BookNotChosen(TextbookChatError):
    """The index holds several books and the request names none."""

    code = "VALIDATION_ERROR"


class IndexEmpty(TextbookChatError):
    code = "INDEX_EMPTY"


class Bookshelf:
    def __init__(self, store: ChunkStore, fresh_s: float = 30.0):
        self.store = store
        self.fresh_s = fresh_s
        self._lock = threading.Lock()
        self._outlines: dict[str, tuple[float, BookOutline]] = {}

    def book_id(self, book_id: str | None = None) -> str:
        """`book_id` if the index holds it; none given, the index's only book."""
        books = self.store.books()
        if not books:
            raise IndexEmpty("The book index is empty: run `textbook-chat ingest PATH` first.")
        if book_id is None:
            if len(books) > 1:
                raise BookNotChosen(f"The index holds {len(books)} books; name one with book_id.",
                                    details={"books": books})
            return books[0]
        if book_id not in books:
            raise UnknownBook(f"No book with id {book_id!r} is indexed.", details={"book_id": book_id, "books": books})
        return book_id

    def outline(self, book_id: str | None = None) -> BookOutline:
        book_id = self.book_id(book_id)
        now = time.monotonic()
        with self._lock:
            kept = self._outlines.get(book_id)
        if kept and now - kept[0] < self.fresh_s:
            return kept[1]
        outline = outline_of(book_id, self.store.all_chunks(book_id), self.store.outline(book_id))
        with self._lock:
            self._outlines[book_id] = (now, outline)
        return outline
