"""Discover a book's pages in reading order, each with its title, place in the book and URL.

A Docusaurus site with a build is read from its rendered pages (built.py), one without from its
sources (sources.py); an mdBook from its SUMMARY.md (here)."""
from __future__ import annotations

import hashlib
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path

from .clean import clean_markdown
from .site import Site


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


# --- mdBook -------------------------------------------------------------------------------

_SUMMARY_ITEM = re.compile(r"^(?P<indent>\s*)(?:[-*]\s+)?\[(?P<title>[^\]]+)\]\((?P<file>[^)]*)\)")


def _summary(root: Path) -> list[tuple[str, str, int]]:
    """(title, file, depth) for each linked chapter of SUMMARY.md, in order."""
    items = []
    for line in (root / "SUMMARY.md").read_text(encoding="utf-8").splitlines():
        match = _SUMMARY_ITEM.match(line)
        if match and match["file"].strip():
            depth = len(match["indent"].expandtabs(4)) // 2 if line.lstrip().startswith(("-", "*")) else 0
            items.append((match["title"].strip(), match["file"].strip(), depth))
    return items


def _mdbook_url(site: Site, rel: str) -> str:
    stem = posixpath.splitext(rel)[0]
    if posixpath.basename(stem).lower() == "readme":
        stem = posixpath.join(posixpath.dirname(stem), "index")
    return f"{site.site_url}/{stem}.html"


def _mdbook_pages(site: Site) -> Discovery:
    root = site.content_root
    found = Discovery()
    top_title = ""
    for title, rel, depth in _summary(root):
        path = root / rel
        if depth == 0:
            top_title = title
        if not path.is_file():
            found.skipped.append(SkippedFile(rel, "listed in SUMMARY.md but missing"))
            continue
        raw = path.read_bytes()
        try:
            body = clean_markdown(raw.decode("utf-8"))
        except UnicodeDecodeError:
            found.skipped.append(SkippedFile(rel, "not UTF-8 text"))
            continue
        found.pages.append(Page(
            source_file=rel,
            title=title,
            url=_mdbook_url(site, rel),
            categories=[top_title],
            order=len(found.pages) + 1,
            body=body,
            file_hash=file_hash(raw),
            anchor_style="mdbook",
            doc_id=posixpath.splitext(rel)[0],
        ))
    return found


def discover_pages(site: Site) -> Discovery:
    if site.kind == "mdbook":
        return _mdbook_pages(site)
    if site.build_dir is not None:
        from .built import built_pages

        return built_pages(site)
    from .sources import docusaurus_source_pages

    return docusaurus_source_pages(site)
