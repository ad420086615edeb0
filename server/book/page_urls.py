"""Which indexed page a URL names, on whatever host and base path the book is read: its own
site, a preview deployment, a mirror, localhost. The course path (the page a reader is on), the
insights (where a question was asked) and the book tools all find pages this way."""
from __future__ import annotations

import re
from typing import Callable, Iterable, Mapping, TypeVar
from urllib.parse import unquote, urlsplit

Page = TypeVar("Page")
BASE_SEGMENTS = 2  # a site may sit under a base path of up to this many folders ("/book/", "/org/book/")


def page_path(url: str) -> str:
    """The part of a page URL that names the page: its path without index.html, .html or a final /
    ("/" for what is no URL at all, "http://[::1" say: a reader sends what it likes)."""
    try:
        path = unquote(urlsplit(url or "").path)
    except ValueError:
        return "/"
    path = re.sub(r"/index\.html?$", "/", path)
    path = re.sub(r"\.html?$", "", path)
    return path.rstrip("/") or "/"


def same_page_path(paths: Iterable[str], wanted: str) -> str | None:
    """Of the indexed pages' paths, the one `wanted` names: the same path, else (the site served
    under another base path) the one whose path without its base ends `wanted`'s, the longest
    such, of two segments at least (one segment, "intro", says too little of which page)."""
    paths = list(paths)
    if wanted in paths:
        return wanted
    segments = wanted.strip("/").split("/")
    best, best_len = None, 0
    for path in paths:
        own = path.strip("/").split("/")
        for drop in range(0, min(BASE_SEGMENTS, len(own) - 2) + 1):
            tail = own[drop:]
            if len(tail) > best_len and segments[-len(tail):] == tail:
                best, best_len = path, len(tail)
    return best


def by_path(pages: Iterable[Page], url_of: Callable[[Page], str] = lambda page: page.url) -> dict[str, Page]:
    """The pages by the path their URL names (the first of several at one path)."""
    found: dict[str, Page] = {}
    for page in pages:
        found.setdefault(page_path(url_of(page)), page)
    return found


def page_at(pages: Mapping[str, Page], url: str) -> Page | None:
    """The page of `pages` (by_path) that `url` names, on any host and base path: the one rule by
    which the course path, the insights and the book tools find the page a URL names."""
    return pages.get(same_page_path(pages, page_path(url)) or "")
