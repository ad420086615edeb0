"""A book's outline for readers' AI tools: its parts and pages in reading order, each page with
its sections, a one-line description and its passages in order.

The outline recorded at ingest (course/outline.py) gives the parts, pages, names and
descriptions; an index written before there was one falls back to the pages' labels (the
breadcrumbs a reader sees: a part is a page's first label) and first sentences. What reads
an outline here (the MCP tools, llms.txt) sees only `BookOutline`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import groupby

from markdown_it import MarkdownIt

from ..course.outline import Outline
from ..models import Chunk
from ..page_urls import page_path, same_page_path

DESCRIPTION_CHARS = 200  # one line in a list of links
SUMMARY_CHARS = 600  # one paragraph


@dataclass(frozen=True)
class Section:
    heading: str
    url: str  # the page's URL with the section's anchor


@dataclass(frozen=True)
class OutlinePage:
    title: str
    url: str  # without an anchor
    labels: tuple[str, ...]  # breadcrumbs, ending with the page's own label
    locale: str
    version: str
    description: str
    sections: tuple[Section, ...]
    passages: tuple[Chunk, ...]  # the page's chunks in reading order
    source_file: str = ""
    key: str = ""  # the page's key in the index


@dataclass(frozen=True)
class Part:
    title: str
    locale: str
    version: str
    pages: tuple[OutlinePage, ...]


@dataclass(frozen=True)
class BookOutline:
    book_id: str
    title: str
    summary: str
    default_locale: str
    parts: tuple[Part, ...]

    @property
    def pages(self) -> list[OutlinePage]:
        return [page for part in self.parts for page in part.pages]

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
        paths: dict[str, OutlinePage] = {}
        for page in self.pages:
            paths.setdefault(page_path(page.url), page)
        found = paths.get(same_page_path(paths, wanted_path) or "") if wanted_path != "/" else None
        ending = "/" + wanted_path.lstrip("/")
        ends = [p for p in self.pages if wanted_path != "/" and page_path(p.url).endswith(ending)]
        return found or (ends or [None])[0]


def outline_of(book_id: str, chunks: list[Chunk], recorded: dict | None = None) -> BookOutline:
    """The outline of the book `book_id` from its chunks (any order) and the outline recorded
    at ingest, when there is one (its JSON form)."""
    by_page: dict[str, list[Chunk]] = {}
    for chunk in sorted(chunks, key=lambda c: (c.page, c.position)):
        by_page.setdefault(chunk.page_key or chunk.source_file, []).append(chunk)
    grouped = _recorded_parts(Outline.from_dict(recorded), by_page) if recorded else []
    placed = {page.key for _, page in grouped}
    grouped += [((page.labels[0], page.locale, page.version), page)  # not in a recorded outline
                for page in (_page(passages) for key, passages in by_page.items() if key not in placed)]
    pages = [page for _, page in grouped]
    default_locale = pages[0].locale if pages else "en"
    parts, seen = [], set()
    for (title, locale, version), run in groupby(grouped, key=lambda item: item[0]):
        run = [page for _, page in run]
        title = title or run[0].labels[-1]  # pages outside any part: named by the first of them
        named, n = title, 1
        while (named, locale, version) in seen:  # a title again (pages outside parts, further on): numbered
            n += 1
            named = f"{title} ({n})"
        seen.add((named, locale, version))
        parts.append(Part(named, locale, version, tuple(run)))
    title = chunks[0].book_title if chunks else book_id
    return BookOutline(book_id, title or book_id, _summary(pages), default_locale, tuple(parts))


def _recorded_parts(outline: Outline, by_page: dict[str, list[Chunk]]) -> list:
    """(part, page) of each indexed page, in the recorded reading order."""
    found = []
    for recorded in outline.pages:
        passages = by_page.get(recorded.key)
        if not passages:
            continue
        page = _page(passages)
        page = OutlinePage(
            title=recorded.title, url=page.url, labels=recorded.labels or page.labels, locale=recorded.locale,
            version=recorded.version, description=recorded.description or page.description,
            sections=tuple(Section(s.heading, s.url) for s in recorded.sections) or page.sections,
            passages=page.passages, source_file=recorded.source_file, key=recorded.key)
        part = outline.part_of(recorded)
        found.append(((part.name if part else None, recorded.locale, recorded.version), page))
    return found


def _page(passages: list[Chunk]) -> OutlinePage:
    first = passages[0]
    sections: dict[str, Section] = {}
    for chunk in passages:
        if "#" in chunk.url and chunk.url not in sections:
            sections[chunk.url] = Section(chunk.heading, chunk.url)
    return OutlinePage(
        title=first.chapter, url=first.url.split("#", 1)[0], labels=tuple(first.labels) or (first.chapter,),
        locale=first.locale, version=first.version, description=_first_words(passages, DESCRIPTION_CHARS, 1),
        sections=tuple(sections.values()), passages=tuple(passages), source_file=first.source_file,
        key=first.page_key or first.source_file)


def _summary(pages: list[OutlinePage]) -> str:
    """The first paragraph of the book's first page that says something."""
    for page in pages[:3]:
        text = _first_words(page.passages, SUMMARY_CHARS, 3)
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
            if len(paragraph.split()) < 4:  # a label or a lone link, not a sentence
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
