"""The pages report for authors: every indexed page with its labels and linked sections, and a
check that each page and anchor exists in the built site (a folder or a served site)."""
from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import unquote, urlsplit

from lxml import etree

from server.book.chunk import Chunk
from server.book.outline import Outline
from server.ingest.html_text import parse_html


def pages_report(chunks: list[Chunk], outline_of=lambda _book_id: None) -> list[dict]:
    """One entry per indexed page, in reading order (locales and versions apart), with its place
    in the book's outline when there is one: part, position in it, previous/next page URL,
    description."""
    pages: dict[tuple[str, str], dict] = {}
    for chunk in sorted(chunks, key=lambda c: (c.book_id, c.page)):
        key = (chunk.book_id, chunk.page_id)
        page_url = chunk.url.split("#", 1)[0]
        entry = pages.setdefault(key, {
            "book_id": chunk.book_id, "url": page_url, "title": chunk.chapter,
            "labels": list(chunk.labels) or [chunk.chapter], "locale": chunk.locale, "version": chunk.version,
            "source_file": chunk.source_file, "sections": [], "_order": chunk.page})
        if "#" in chunk.url and all(s["url"] != chunk.url for s in entry["sections"]):
            entry["sections"].append({"heading": chunk.heading, "url": chunk.url})
    out = sorted(pages.values(), key=lambda e: (e["book_id"], e.pop("_order")))
    for book_id in {e["book_id"] for e in out}:
        data = outline_of(book_id)
        if data:
            _place(out, book_id, Outline.from_dict(data))
    return out


def _place(pages: list[dict], book_id: str, outline: Outline) -> None:
    for entry in pages:
        if entry["book_id"] != book_id:
            continue
        key = entry["source_file"] if entry["locale"] == outline.default_locale and entry["version"] == "current" \
            else None
        page = outline.page(key) or next((p for p in outline.pages if p.url == entry["url"]), None)
        if page is None:
            continue
        part = outline.part_of(page)
        entry.update(part=part.name if part else None, position=page.position, name=page.name,
                     prev=(outline.page(page.prev).url if page.prev else None),
                     next=(outline.page(page.next).url if page.next else None),
                     description=page.description,
                     blocks=[{"kind": b.kind, "heading": b.heading, "url": b.url, "items": len(b.items)}
                             for b in page.blocks])


def _ids(html: bytes) -> set[str]:
    try:
        return set(parse_html(html).xpath("//@id"))
    except (etree.ParserError, ValueError):
        return set()


def _build_file(build_dir: Path, path: str, skip: int) -> Path | None:
    """The file a static host serves for PATH once the first SKIP segments (the baseUrl) are
    dropped. A path with a trailing slash needs a folder's index.html; one without, a .html
    file or a folder (which static hosts redirect to)."""
    rest = "/".join([p for p in path.split("/") if p][skip:])
    if path.endswith("/") or not rest:
        candidates = [build_dir / rest / "index.html"]
    else:
        candidates = [build_dir / f"{rest}.html", build_dir / rest / "index.html"]
    return next((c for c in candidates if c.is_file()), None)


def _base_segments(build_dir: Path, pages: list[dict]) -> int:
    """How many leading URL segments the baseUrl takes: the count that finds the most pages,
    each a file of its own (dropping every segment finds the home page for all of them)."""
    paths = [unquote(urlsplit(p["url"]).path) for p in pages[:50]]

    def found(skip: int) -> int:
        return len({_build_file(build_dir, path, skip) for path in paths} - {None})

    return max(range(4), key=lambda skip: (found(skip), -skip))


def _misses(pages: list[dict], fetch) -> list[str]:
    misses: list[str] = []
    cache: dict[str, set[str] | None] = {}
    for page in pages:
        urls = [page["url"], *(s["url"] for s in page["sections"])]
        for url in urls:
            parts = urlsplit(url)
            path = unquote(parts.path)
            if path not in cache:
                cache[path] = fetch(path)
            ids = cache[path]
            if ids is None:
                misses.append(f"{url}: no such page")
                break
            if parts.fragment and unquote(parts.fragment) not in ids:
                misses.append(f"{url}: no element with id {unquote(parts.fragment)!r} on the page")
    return misses


def check_build(pages: list[dict], build_dir: Path) -> list[str]:
    skip = _base_segments(build_dir, pages)

    def fetch(path: str) -> set[str] | None:
        found = _build_file(build_dir, path, skip)
        return _ids(found.read_bytes()) if found else None

    return _misses(pages, fetch)


class SiteUnreachable(Exception):
    """Nothing answers at the address given to check against: one line, not a miss per page."""


def check_url(pages: list[dict], base: str, timeout_s: float = 10.0) -> list[str]:
    """The same check against a served site: BASE replaces each URL's scheme and host."""
    base = base.rstrip("/")

    def fetch(path: str) -> set[str] | None:
        try:
            with urllib.request.urlopen(base + urllib.request.quote(path), timeout=timeout_s) as response:
                return _ids(response.read())
        except urllib.error.HTTPError:  # the site answered: not there
            return None
        except (urllib.error.URLError, OSError, ValueError) as exc:
            reason = getattr(exc, "reason", exc)
            raise SiteUnreachable(f"nothing answers at {base} ({reason}): is the site served there?") from None

    return _misses(pages, fetch)
