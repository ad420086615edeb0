"""A book page's sections as retrieval hands them to the composer: the student tests' passages,
cut from the corpora's real pages."""
from __future__ import annotations

from server.book.chunk import Chunk
from server.question.context import Source


def section(page: str, title: str, ends: tuple[str, ...] = ("\n## ",)) -> str:
    """The page from `title` to the next heading of one of the levels `ends` marks (or its end)."""
    start = page.index(title)
    following = [page.find(mark, start + len(title)) for mark in ends]
    return page[start:min([f for f in following if f > 0], default=len(page))]


def passage(text: str, heading: str, score: float, *, file: str = "page.md", key: str | None = None,
            hierarchy: list[str] | None = None, url: str | None = None, position: int = 0, locale: str = "en",
            book: tuple[str, str] = ("b", "B")) -> Source:
    """`text` as a retrieved passage of `file` (its page `key`) under `heading`, with its cosine `score`."""
    chunk = Chunk(chunk_id=f"c-{heading}", book_id=book[0], book_title=book[1], content=text, content_hash="",
                  source_file=file, url=url or f"https://x/{file}#{heading}", module="", chapter="", section="",
                  heading=heading, section_hierarchy=hierarchy or [heading], page=0, source_location="", citation="",
                  file_hash="", embed_text=text, page_key=key or file, position=position, locale=locale, score=score)
    return Source(chunk, "database")
