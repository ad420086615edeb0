"""A book's outline for readers' AI tools: the book's outline (server/book/outline.py) of the pages
the index holds, in reading order, each page with its passages in order, and the book's summary.

The outline recorded at ingest gives the parts, pages, names, descriptions and sections; an
index written before there was one falls back to the pages' labels (the breadcrumbs a reader
sees: a part is a page's first label) and first sentences. Here every page is listed in a part:
a run of pages outside any part (the book's intro) is one, named by the first of them; a part's
position and its pages' order, position, previous and next are those of this listing. What
reads an outline here (the MCP tools, llms.txt) sees only `BookOutline`.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from itertools import groupby

from markdown_it import MarkdownIt

from server.book.chunk import Chunk
from server.book.outline import Outline, OutlinePage, Part, Section
from server.book.page_urls import by_path, page_at, page_path
from server.text.lengths import spaced_length

DESCRIPTION_CHARS = 200  # one line in a list of links
SUMMARY_CHARS = 600  # one paragraph


@dataclass(frozen=True)
class BookOutline(Outline):
    summary: str = ""
    passages: dict[str, tuple[Chunk, ...]] = field(default_factory=dict)  # page key → its chunks in reading order

    def passages_of(self, page: OutlinePage) -> tuple[Chunk, ...]:
        return self.passages.get(page.key, ())

    def locale_and_version(self, part: Part) -> tuple[str, str]:
        first = self.pages_of(part)[0]
        return first.locale, first.version

    def find_page(self, url_or_path: str) -> OutlinePage | None:
        """The page at a full URL (on any host and base path: page_urls.py), a URL path or the
        end of one ("/docs/intro" finds ".../book/docs/intro"; the first in reading order when
        several end so), or a source file ("intro.md"); an anchor or a trailing slash makes no
        difference."""
        wanted = url_or_path.strip().split("#", 1)[0]
        named = [p for p in self.pages if wanted in (p.url, p.source_file)]
        if named:
            return named[0]
        wanted_path = page_path(wanted)
        found = page_at(by_path(self.pages), wanted) if wanted_path != "/" else None
        ending = "/" + wanted_path.lstrip("/")
        ends = [p for p in self.pages if wanted_path != "/" and page_path(p.url).endswith(ending)]
        return found or (ends or [None])[0]


def outline_of(book_id: str, chunks: list[Chunk], recorded: dict | None = None) -> BookOutline:
    """The outline of the book `book_id` from its chunks (any order) and the outline recorded
    at ingest, when there is one (its JSON form)."""
    by_page: dict[str, list[Chunk]] = {}
    for chunk in sorted(chunks, key=lambda c: (c.page, c.position)):
        by_page.setdefault(chunk.page_id, []).append(chunk)
    grouped = _recorded_parts(Outline.from_dict(recorded), by_page) if recorded else []
    placed = {page.key for _, page in grouped}
    grouped += [((page.labels[0], page.locale, page.version), page)  # not in a recorded outline
                for page in (_page(passages) for key, passages in by_page.items() if key not in placed)]
    parts, pages = _listing(grouped)
    title = chunks[0].book_title if chunks else book_id
    return BookOutline(book_id, title or book_id, tuple(parts), tuple(_in_order(pages)),
                       summary=_summary(pages, by_page), passages={key: tuple(p) for key, p in by_page.items()})


def _listing(grouped: list) -> tuple[list[Part], list[OutlinePage]]:
    """The parts to list, one a run of pages of a part (or of none), and the pages placed in them."""
    parts: list[Part] = []
    pages: list[OutlinePage] = []
    seen: set[tuple[str, str, str]] = set()
    parts_in: Counter[tuple[str, str]] = Counter()  # parts so far of each locale and version
    for (title, locale, version), run in groupby(grouped, key=lambda item: item[0]):
        run = [page for _, page in run]
        title = title or run[0].labels[-1]  # pages outside any part: named by the first of them
        named, n = title, 1
        while (named, locale, version) in seen:  # a title again (pages outside parts, further on): numbered
            n += 1
            named = f"{title} ({n})"
        seen.add((named, locale, version))
        parts_in[(locale, version)] += 1
        parts.append(Part(id=str(len(parts) + 1), label=title, name=named, noun="", number=None,
                          position=parts_in[(locale, version)], index_page=None, pages=tuple(page.key for page in run)))
        pages += [replace(page, part=parts[-1].id, position=k) for k, page in enumerate(run, 1)]
    return parts, pages


def _recorded_parts(outline: Outline, by_page: dict[str, list[Chunk]]) -> list:
    """(part, page) of each indexed page, in the recorded reading order."""
    found = []
    for recorded in outline.pages:
        passages = by_page.get(recorded.key)
        if not passages:
            continue
        page = _page(passages)
        page = replace(recorded, url=page.url, labels=recorded.labels or page.labels,
                       description=recorded.description or page.description,
                       sections=recorded.sections or page.sections)
        part = outline.part_of(recorded)
        found.append(((part.name if part else None, recorded.locale, recorded.version), page))
    return found


def _page(passages: list[Chunk]) -> OutlinePage:
    first = passages[0]
    sections: dict[str, Section] = {}
    for chunk in passages:
        if "#" in chunk.url and chunk.url not in sections:
            sections[chunk.url] = Section(chunk.heading, chunk.url, level=len(chunk.section_hierarchy), key_point="")
    labels = tuple(first.labels) or (first.chapter,)
    return OutlinePage(
        key=first.page_id, source_file=first.source_file, url=first.url.split("#", 1)[0],
        title=first.chapter, labels=labels, name=labels[-1], part=None, order=0, position=0, prev=None, next=None,
        description=_first_words(passages, DESCRIPTION_CHARS, 1), locale=first.locale, version=first.version,
        sections=tuple(sections.values()))


def _in_order(pages: list[OutlinePage]) -> list[OutlinePage]:
    """The pages, each with its order, previous and next page among those of its locale and version."""
    runs: dict[tuple[str, str], list[OutlinePage]] = {}
    for page in pages:
        runs.setdefault((page.locale, page.version), []).append(page)
    placed: dict[str, OutlinePage] = {}
    for run in runs.values():
        for n, page in enumerate(run):
            placed[page.key] = replace(page, order=n + 1, prev=run[n - 1].key if n else None,
                                       next=run[n + 1].key if n + 1 < len(run) else None)
    return [placed[page.key] for page in pages]


def _summary(pages: list[OutlinePage], passages: dict[str, list[Chunk]]) -> str:
    """The first paragraph of the book's first page that says something."""
    for page in pages[:3]:
        text = _first_words(passages[page.key], SUMMARY_CHARS, 3)
        if text:
            return text
    return ""


_MARKDOWN = MarkdownIt("commonmark")
_WORDS = ("text", "code_inline", "softbreak", "hardbreak")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")


def _first_words(passages, limit: int, sentences: int) -> str:
    """The first prose paragraph of the passages as plain text: at most `sentences` sentences,
    cut at a word under `limit` characters."""
    for chunk in passages:
        for paragraph in _paragraphs(chunk.content):
            if spaced_length(paragraph) < 4:  # a label or a lone link, not a sentence
                continue
            text = " ".join(_SENTENCE_END.split(paragraph)[:sentences])
            if len(text) > limit:
                text = text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"
            return text
    return ""


def _paragraphs(markdown: str):
    """The plain text of each top-level paragraph (not code, tables, headings or admonitions)."""
    tokens = _MARKDOWN.parse(markdown)
    for index, token in enumerate(tokens):
        if token.type == "inline" and index and tokens[index - 1].type == "paragraph_open" and token.level == 1:
            text = "".join(child.content if child.type in ("text", "code_inline") else " "
                           for child in token.children or [] if child.type in _WORDS)
            text = " ".join(text.split())
            if text and not text.startswith(":::"):
                yield text
