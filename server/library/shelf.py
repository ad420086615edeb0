"""The indexed books for the book tools (llms.txt, MCP): a book named or implied by a request
resolved (or refused with the reason), and its outline as the index publishes it now
(library/published.py keeps it, for the course path too)."""
from __future__ import annotations

from server.library.published import PublishedBook, PublishedOutlines
from server.errors import TextbookChatError, UnknownBook
from server.library.book_outline import BookOutline, outline_of


class BookNotChosen(TextbookChatError):
    """The index holds several books and the request names none."""

    code = "VALIDATION_ERROR"


class IndexEmpty(TextbookChatError):
    code = "INDEX_EMPTY"


def book_outline(book: PublishedBook) -> BookOutline:
    return outline_of(book.book_id, list(book.chunks), book.recorded)


class Bookshelf:
    def __init__(self, outlines: PublishedOutlines):
        self.outlines = outlines

    def books(self, fresh: bool = False) -> list[str]:
        """Every indexed book's id. Raises IndexEmpty."""
        books = self.outlines.books(fresh)
        if not books:
            raise IndexEmpty("The book index is empty: run `textbook-chat ingest PATH` first.")
        return books

    def book_id(self, book_id: str | None = None) -> str:
        """`book_id` if the index holds it; none given, the index's only book. Raises
        IndexEmpty, BookNotChosen, UnknownBook."""
        books = self.books()
        if (book_id not in books) if book_id is not None else len(books) > 1:
            books = self.books(fresh=True)  # the list is kept a while: a book may have come or gone since
        if book_id is None:
            if len(books) > 1:
                raise BookNotChosen(f"The index holds {len(books)} books; name one with book_id.",
                                    details={"books": books})
            return books[0]
        if book_id not in books:
            raise UnknownBook(f"No book with id {book_id!r} is indexed.", details={"book_id": book_id, "books": books})
        return book_id

    def outline(self, book_id: str | None = None) -> BookOutline:
        return self.outlines.book(self.book_id(book_id)).view(book_outline)
