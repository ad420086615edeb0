"""Citations of course answers: each page or section an answer names is cited with the book
passage that opens it, numbered [1]..[n] in the order the answer names them."""
from __future__ import annotations

from dataclasses import dataclass, field

from server.book.chunk import Chunk
from server.book.outline import Outline, OutlinePage
from server.library.published import PublishedBook


class CitablePages:
    """A book's chunks by page, to cite a page (its opening passage) or one of its sections."""

    @classmethod
    def of(cls, book: PublishedBook) -> "CitablePages | None":
        """The published book's pages, or None when it has no outline to name them by."""
        return cls(book.outline, list(book.chunks)) if book.outline else None

    def __init__(self, outline: Outline, chunks: list[Chunk]):
        self.outline = outline
        self._by_page: dict[str, list[Chunk]] = {}
        for chunk in chunks:  # a chunk running on under further headings: each section its own piece
            self._by_page.setdefault(chunk.page_id, []).extend(chunk.sections())
        for key, found in self._by_page.items():
            page = outline.page(key)
            order = {s.url: n for n, s in enumerate(page.sections)} if page else {}
            found.sort(key=lambda c: (c.url != (page.url if page else ""), order.get(c.url, len(order))))

    def chunks(self, page: OutlinePage) -> list[Chunk]:
        return self._by_page.get(page.key, [])

    def opening(self, page: OutlinePage) -> Chunk | None:
        found = self.chunks(page)
        return found[0] if found else None

    def at(self, page: OutlinePage, url: str) -> Chunk | None:
        return next((c for c in self.chunks(page) if c.url == url), None) or self.opening(page)


@dataclass
class Cites:
    pages: CitablePages
    chunks: list[Chunk] = field(default_factory=list)
    limit: int = 10

    def __call__(self, page: OutlinePage | None, url: str | None = None) -> str:
        """The marker citing the page (or its section at `url`), "" when it cannot be cited."""
        if page is None:
            return ""
        chunk = self.pages.at(page, url) if url else self.pages.opening(page)
        if chunk is None:
            return ""
        for n, known in enumerate(self.chunks, 1):
            if (known.chunk_id, known.url) == (chunk.chunk_id, chunk.url):
                return f" [{n}]"
        if len(self.chunks) >= self.limit:
            return ""
        self.chunks.append(chunk)
        return f" [{len(self.chunks)}]"
