"""The indexed page a reader was on (from the page URL the widget sends) and the section of it
that holds a highlighted passage.

Pages are matched by their URL's path (page_urls.py), so a page read on another host or base path
than the book was indexed for (a preview, localhost) is still found; `index.html`, `.html` and a
trailing slash do not count. The pages are made from each book's chunks as the index publishes
them, and made again only when a newer ingest published other chunks.
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence
from urllib.parse import urlsplit

from server.book.chunk import Chunk
from server.book.page_urls import page_at, page_path

_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class Section:
    label: str  # where in the book ("Module 1 > Sensors > Cameras")
    url: str  # the section's link (page#anchor)
    words: frozenset = field(repr=False, compare=False)


@dataclass(frozen=True)
class BookPage:
    book_id: str
    url: str  # without an anchor
    title: str
    sections: tuple[Section, ...] = field(repr=False, compare=False, default=())


def plain_page_url(url: str) -> str | None:
    """A page the index does not hold, as the reader had it: without query, anchor or final /."""
    origin = _origin(url)
    return f"{origin}{page_path(url)}" if origin else None


def _origin(url: str) -> str | None:
    try:
        parts = urlsplit(url or "")
    except ValueError:  # not a URL at all ("http://[::1")
        return None
    return f"{parts.scheme}://{parts.netloc}".lower() if parts.scheme in ("http", "https") and parts.netloc else None


def _is_url(text: str) -> bool:
    try:
        urlsplit(text)
    except ValueError:  # "http://[::1"
        return False
    return True


def site_link(url: str | None, sites: frozenset[str]) -> str | None:
    """`url` when it may be a link on the author's pages: an http(s) address on a site the index
    holds. What a reader sent (a page URL, a passage's) is data: anything else is shown as text."""
    return url if url and _origin(url) in sites else None


def words_of(text: str) -> list[str]:
    return _WORD.findall((text or "").lower())


class PageFinder:
    """Finds the indexed page a URL names, and the section of it a passage is in. `books()` lists
    the indexed books, `book_of(book_id)` gives a book as the index publishes it (its pages are
    made once per published book, library/published.py)."""

    def __init__(self, books: Callable[[], Sequence[str]], book_of: Callable[[str], object]):
        self.books = books
        self.book_of = book_of
        self._lock = threading.Lock()
        self._read: tuple = ()  # the books' page views the lookup was merged from
        self._pages: dict[str, list[BookPage]] = {}

    def page_of(self, url: str | None, book_id: str | None = None) -> BookPage | None:
        """The indexed page at `url` (of `book_id` when several books have one there), or None."""
        if not url or not _is_url(url):
            return None
        pages = self._by_path()
        found = page_at(pages, url) or []
        return next((p for p in found if p.book_id == book_id), found[0] if found else None)

    def sites(self) -> frozenset[str]:
        """The origins (scheme://host) the indexed books are published at."""
        return frozenset(_origin(p.url) for found in self._by_path().values() for p in found) - {None}

    @staticmethod
    def section_of(page: BookPage, passage: str) -> Section | None:
        """The page's section that shares the most of the passage's words."""
        words = set(words_of(passage))
        if not words or not page.sections:
            return None
        best = max(page.sections, key=lambda s: len(words & s.words))
        return best if words & best.words else None

    def _by_path(self) -> dict[str, list[BookPage]]:
        views = tuple(self.book_of(book).view(_book_pages) for book in self.books())
        with self._lock:
            if list(map(id, views)) != list(map(id, self._read)):  # `_read` holds them: their ids are not reused
                merged: dict[str, list[BookPage]] = {}
                for view in views:
                    for path, pages in view.items():
                        merged.setdefault(path, []).extend(pages)
                self._pages, self._read = merged, views
            return self._pages


def _book_pages(book) -> dict[str, list[BookPage]]:
    return _pages(book.chunks)


def _pages(chunks: Iterable[Chunk]) -> dict[str, list[BookPage]]:
    sections: dict[tuple[str, str], list[Section]] = {}
    first: dict[tuple[str, str], object] = {}
    for chunk in sorted(chunks, key=lambda c: (c.book_id, c.page)):
        key = (chunk.book_id, chunk.url.split("#", 1)[0])
        first.setdefault(key, chunk)
        sections.setdefault(key, []).append(Section(chunk.source_location or chunk.heading, chunk.url,
                                                    frozenset(words_of(chunk.content))))
    pages: dict[str, list[BookPage]] = {}
    for (book_id, url), chunk in first.items():
        pages.setdefault(page_path(url), []).append(BookPage(book_id, url, chunk.chapter, tuple(sections[(book_id, url)])))
    return pages
