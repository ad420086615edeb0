"""The books in the index, and removing one."""
from __future__ import annotations

from dataclasses import dataclass

from server.errors import UnknownBook
from server.store import ChunkStore


@dataclass(frozen=True)
class Book:
    book_id: str
    title: str
    pages: int
    chunks: int
    locales: tuple[str, ...]


def books_in(store: ChunkStore) -> list[Book]:
    """Every book the index holds, with its title and how many pages and chunks it has."""
    found: dict[str, dict] = {}
    for chunk in store.all_chunks():
        book = found.setdefault(chunk.book_id, {"title": chunk.book_title, "pages": set(), "chunks": 0,
                                                "locales": set()})
        book["pages"].add((chunk.locale, chunk.version, chunk.page_id))
        book["chunks"] += 1
        book["locales"].add(chunk.locale)
    return [Book(book_id, b["title"], len(b["pages"]), b["chunks"], tuple(sorted(b["locales"])))
            for book_id, b in sorted(found.items())]


def remove_book(store: ChunkStore, book_id: str) -> Book:
    """Delete every chunk of `book_id` and publish the index without it (a running server
    switches before its next request). UnknownBook names the books there are."""
    books = {book.book_id: book for book in books_in(store)}
    if book_id not in books:
        held = ", ".join(books) or "none"
        raise UnknownBook(f"no book {book_id!r} in the index (it holds: {held})", details={"books": list(books)})
    store.delete_book(book_id)
    store.publish()
    return books[book_id]
