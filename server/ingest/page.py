"""What discovering a book yields, shared by every reader of a book (built.py, sources.py,
mdbook.py) and by what comes after it: its pages, the files left out and why, and notes."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field


@dataclass
class Page:
    source_file: str  # relative to the book's content root, as on disk
    title: str
    url: str  # page URL without an anchor
    categories: list[str]  # enclosing sidebar categories, outermost first
    order: int  # reading order, 1-based
    body: str  # cleaned markdown
    file_hash: str  # of the raw file bytes
    anchor_style: str = "docusaurus"
    doc_id: str = ""
    labels: list[str] = field(default_factory=list)  # breadcrumbs, ending with the page's own label
    locale: str = "en"
    version: str = "current"
    key: str = ""  # unique per page in the book (source_file, with the locale/version when not the default)
    sections: list | None = None  # a rendered page's headings and blocks (html_text.py); None: parse `body`
    description: str = ""  # front matter `description` / <meta name="description">
    listed: bool = True  # a sidebar lists it (or the reader of the book cannot tell it does not)
    reachable: bool = True  # a reader can click their way to it (reach.py)
    # the markdown as written (front matter removed), for what cleaning drops: a quiz's answer
    # key in a comment, solutions in <details> or <Solution> (ingest/practice); "" for a built page
    raw: str = field(default="", repr=False)

    def __post_init__(self) -> None:
        self.key = self.key or self.source_file
        self.labels = self.labels or [*self.categories, self.title]

    @property
    def module(self) -> str:
        return self.categories[0] if self.categories else ""


@dataclass
class SkippedFile:
    source_file: str
    reason: str


@dataclass
class Discovery:
    pages: list[Page] = field(default_factory=list)
    skipped: list[SkippedFile] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what the reader could not know, said once


def file_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:32]
