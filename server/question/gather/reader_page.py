"""The reader's page weighs in. A question asked in the widget is asked on a page, and is most
often about what that page says: "what is a read pair?" on the page that says "Read 1 and 2 form
what is called a **read pair**", "what is the sample index for?" on the page that names it, not
a sqlite table's index elsewhere. The page's own passages join the candidates (a word it uses
in its own sense may be nearer another page's wording) and weigh PAGE_WEIGHT more in the order;
a question about another part of the book still finds it, the weight being less than what a
passage that answers stands above one that does not (BENCHMARKS.md, "The reader's page").

A term the reader's page defines ("… multiple copies of each fragment - called a **cluster**")
is answered there first: a highlighted "cluster" asked "what does this mean" on that page means
the page's cluster, not a compute cluster or a clustering method of another chapter, however
much nearer their wording lies to the question. A highlighted term asked about with the book
beside it ("举个例子" of "\"x\": 排他模式") is looked up first where the reader highlighted it: the
page's passage holding it, which the question's words alone may not find.

A word the question asks that the book seldom uses ("what is population stratification?", a word
in two of 1,555 passages) names what the page's passage using it is about, however much nearer
other pages' wording lies ("population" in every passage of a simulation chapter): that passage
answers with the others."""
from __future__ import annotations

from typing import Callable

from server.book.chunk import Chunk, pages_in_order
from server.book.outline import OutlinePage
from server.book.page_urls import by_path, page_at, page_path
from server.question.holding import holds
from server.text.definition import defines
from server.text.vocabulary import words

PAGE_WEIGHT = 0.08  # on MiniLM's cosine scale, as the lexical re-rank's weights are
PAGE_CANDIDATES = 5  # the page's own passages nearest the question, searched apart


class ReaderPages:
    """`book_of(book_id)` gives a book as the index publishes it (library/published.py)."""

    def __init__(self, book_of: Callable[[str | None], object]):
        self.book_of = book_of

    def page(self, book_id: str | None, url: str | None) -> OutlinePage | None:
        """The indexed page the reader is on (page_urls.py: on any host and base path), or None."""
        if not url or page_path(url) == "/":
            return None
        book = self.book_of(book_id)
        if book is None or getattr(book, "outline", None) is None:
            return None
        return page_at(book.view(_pages_by_path), url)

    def passages(self, book_id: str | None, page: OutlinePage) -> list[Chunk]:
        """The page's passages in the page's order."""
        book = self.book_of(book_id)
        return list(book.view(pages_in_order).get(page.key, ())) if book is not None else []

    def holding(self, book_id: str | None, page: OutlinePage, passage: str) -> list[Chunk]:
        """The page's passages that hold a highlighted passage, in the page's order."""
        return [c for c in self.passages(book_id, page) if holds(c.content, passage)]

    def naming(self, book_id: str | None, page: OutlinePage, named: set[str]) -> list[Chunk]:
        """The page's passages that use any of the words `named`, in the page's order."""
        return [c for c in self.passages(book_id, page) if named & set(words(c.embed_text or c.content))]

    def defining(self, book_id: str | None, page: OutlinePage, term: str) -> list[Chunk]:
        """The page's passages that define the term, in the page's order."""
        return [c for c in self.passages(book_id, page) if defines(c.content, term)]


def _pages_by_path(book) -> dict[str, OutlinePage]:
    return by_path(book.outline.pages)
