"""What the MCP tools do, over the parts the composition root built: search the book, read a
page, show the outline, ask as /chat does. Plain values in and out; the MCP layer
(server.py) names, documents and validates the arguments.

Every failure is a `ToolRefusal` whose message says what to do next. Nothing here reads or
returns a reader's conversations: `ask` records its question like /chat, and gives back only
the answer and its citations.
"""
from __future__ import annotations

from server.library.book_outline import BookOutline
from server.library.page_text import page_markdown
from server.composition import Components
from server.errors import TextbookChatError
from server.book.outline import OutlinePage
from server.question import Question
from server.store import Filters


class ToolRefusal(Exception):
    """A tool call that cannot be answered, with the reason in the caller's terms."""


class BookTools:
    def __init__(self, components: Components):
        self.parts = components

    def search_book(self, query: str, book_id: str | None = None, limit: int = 5) -> dict:
        query = _words(query, "query")
        with _refusals(self.parts.index):
            self._check_book(book_id)
            # ranked as /chat and `ask` rank them: misspelt book words read as the book spells them,
            # the dense candidates re-ranked by the query's words
            asked = Question(query, max_chunks=limit, similarity_threshold=self.parts.threshold,
                             filters=Filters(book_id=book_id))
            chunks = [c for c in self.parts.search.passages(asked) if c.score >= self.parts.threshold]
        passages = [{"n": n, "book_id": c.book_id, "page_title": c.chapter, "heading": c.heading,
                     "labels": list(c.labels), "url": c.url, "citation": c.citation,
                     "score": round(c.score, 4), "text": c.content} for n, c in enumerate(chunks, 1)]
        result = {"query": query, "passages": passages}
        if not passages:
            result["note"] = "Nothing in the book is close enough to this query; the book may not cover it."
        return result

    def get_page(self, url_or_path: str, book_id: str | None = None) -> dict:
        wanted = _words(url_or_path, "url_or_path")
        with _refusals(self.parts.index):
            for outline in self._outlines(book_id):
                page = outline.find_page(wanted)
                if page is not None:
                    return _page_result(outline, page)
        raise ToolRefusal(f"No indexed page at {wanted!r}. book_outline lists every page with its URL.")

    def book_outline(self, book_id: str | None = None) -> dict:
        with _refusals(self.parts.index):
            outline = self.parts.bookshelf.outline(book_id)
        return {"book_id": outline.book_id, "title": outline.title, "summary": outline.summary,
                "parts": [{"title": part.name, **dict(zip(("locale", "version"), outline.locale_and_version(part))),
                           "pages": [{"title": p.title, "url": p.url, "description": p.description}
                                     for p in outline.pages_of(part)]} for part in outline.parts]}

    def ask(self, question: str, book_id: str | None = None) -> dict:
        question = _words(question, "question")
        settings = self.parts.settings
        with _refusals(self.parts.index):
            self._check_book(book_id)
            answer = self.parts.pipeline.answer(Question(
                text=question, max_chunks=settings.max_chunks, similarity_threshold=self.parts.threshold,
                filters=Filters(book_id=book_id)))
        return {"question": question, "answer": answer.text, "refused": answer.refused,
                "citations": [{"marker": c.text, "source": c.source, "url": c.url} for c in answer.citations],
                "references": answer.references, "generator": answer.generator}

    def _check_book(self, book_id: str | None) -> None:
        """An empty index or an unknown book is said so, never answered from elsewhere."""
        if book_id is not None:
            self.parts.bookshelf.book_id(book_id)
        else:
            self.parts.bookshelf.books()

    def _outlines(self, book_id: str | None) -> list[BookOutline]:
        shelf = self.parts.bookshelf
        return [shelf.outline(book) for book in ([book_id] if book_id is not None else shelf.books())]


def _page_result(outline: BookOutline, page: OutlinePage) -> dict:
    part = outline.part_of(page)
    return {"book_id": outline.book_id, "title": page.title, "url": page.url, "labels": list(page.labels),
            "part": part.name if part else None, "description": page.description,
            "sections": [{"heading": s.heading, "url": s.url} for s in page.sections],
            "markdown": page_markdown(page, outline.passages_of(page))}


def _words(text: str, name: str) -> str:
    text = " ".join(text.split())
    if not text:
        raise ToolRefusal(f"{name} is empty: give some words.")
    return text


class _refusals:
    """The product's own errors (unknown book, empty index, store down) as refusals; the
    newest publication followed first (a tool call is answered from it, as a request is)."""

    def __init__(self, index=None):
        self.index = index

    def __enter__(self):
        if self.index is not None:
            self.index.follow()
        return self

    def __exit__(self, kind, error, trace):
        if isinstance(error, TextbookChatError):
            books = error.details.get("books")
            extra = f" Indexed books: {', '.join(books)}." if books else ""
            raise ToolRefusal(error.message + extra) from error
        return False
